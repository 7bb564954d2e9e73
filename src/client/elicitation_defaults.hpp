#pragma once
// Form elicitation defaults (SEP-1034): what an accepted form leaves out, the requested schema's
// defaults fill in. Pure.
#include <boost/json/object.hpp>

namespace mcp::detail {

// For each property of `requested_schema` of type string (enums included), integer, number or
// boolean that has a default and no value in `content`: the default.
void fill_defaults(const boost::json::object& requested_schema, boost::json::object& content);

}  // namespace mcp::detail
