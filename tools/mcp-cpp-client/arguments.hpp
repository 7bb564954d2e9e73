#pragma once
// k=v arguments from the command line.
#include <boost/json/object.hpp>

#include <map>
#include <string>
#include <vector>

namespace mcp_client_tool {

// A tool's arguments. Each value is JSON when it parses as JSON, a string otherwise; the tool's
// input schema (its "properties", when the tool is known) overrides that: a property typed
// "string" keeps "42" a string, and one typed otherwise gets a value that is no JSON as a string
// for the server to refuse. Throws UsageError for a pair without '=' or a name given twice.
boost::json::object tool_arguments(const std::vector<std::string>& pairs, const boost::json::object* input_schema);

// A prompt's arguments: strings, as prompts take them.
std::map<std::string, std::string> prompt_arguments(const std::vector<std::string>& pairs);

}  // namespace mcp_client_tool
