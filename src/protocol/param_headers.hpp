#pragma once
// The Streamable HTTP (2026-07-28) request headers both roles derive from a message: Mcp-Param-*
// from a tool's x-mcp-header annotations, and the =?base64?…?= encoding of header values. A client
// mirrors them; a server checks them (server/routing_headers.hpp).
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail {

// A header value, decoded when it uses the =?base64?…?= sentinel (strict, padded base64 of UTF-8).
// Nothing when it holds characters a header value may not (only visible ASCII, space and tab are
// allowed) or the sentinel's content is not valid base64.
std::optional<std::string> decode_header_value(std::string_view raw);
// The header value a client sends for `value` (Mcp-Name, Mcp-Param-*): the value itself when it is
// visible ASCII and spaces with no space at either end and does not look like the sentinel, else
// =?base64?…?= of its UTF-8. decode_header_value undoes it.
std::string encode_header_value(std::string_view value);

// A tool parameter mirrored into an Mcp-Param-<name> header (its schema has "x-mcp-header").
struct HeaderParam {
    std::string name;               // as declared
    std::string name_lower;         // for case-insensitive header lookup
    std::vector<std::string> path;  // property chain from the arguments' root
    std::string type;               // "string", "integer" or "boolean"
};

// The x-mcp-header annotations of an input schema. Throws std::invalid_argument for one the
// spec makes invalid: empty or not an HTTP token, duplicated (case-insensitively), on a type
// other than string/integer/boolean, or not reachable from the root through "properties" alone.
std::vector<HeaderParam> header_params_of(const boost::json::object& input_schema);

// The value at a property chain of the arguments; nullptr when a member is missing.
const boost::json::value* value_at_path(const boost::json::object& root, const std::vector<std::string>& path);

// The Mcp-Param-<name> values a call with these arguments carries: (name as declared, value as
// text, not yet encoded), for each annotated argument present and not null.
std::vector<std::pair<std::string, std::string>> param_header_values(const std::vector<HeaderParam>& params,
                                                                     const boost::json::object& arguments);

}  // namespace mcp::detail
