// JSON Schema 2020-12: the first line is a schema (a tool's input schema, generated or written by
// hand), every other line an instance (a client's arguments). The schema is compiled; each instance
// is validated against it, for the first error and for all of them.
#include <mcp/json/schema_validator.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include "fuzz_check.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/parse_options.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace {

// Parsed as a message is: no deeper than the default limit.
std::optional<boost::json::value> parse(std::string_view text) {
    boost::json::parse_options options;
    options.max_depth = mcp::jsonrpc::Limits{}.max_depth;
    boost::system::error_code ec;
    auto value = boost::json::parse(text, ec, {}, options);
    if (ec) return std::nullopt;
    return value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    const auto nl = input.find('\n');
    const auto schema = parse(input.substr(0, nl));
    if (!schema) return 0;
    std::optional<mcp::json::SchemaValidator> validator;
    try {
        validator.emplace(*schema);
    } catch (const std::invalid_argument&) {
        return 0;  // a malformed schema is refused at registration
    }
    if (nl == std::string_view::npos) return 0;
    input.remove_prefix(nl + 1);
    while (true) {
        const auto end = input.find('\n');
        if (const auto instance = parse(input.substr(0, end))) {
            const auto first = validator->validate(*instance);
            const auto all = validator->validate_all(*instance);
            FUZZ_CHECK(first.has_value() != all.empty());  // both say valid, or both say not
        }
        if (end == std::string_view::npos) return 0;
        input.remove_prefix(end + 1);
    }
}
