#include "arguments.hpp"

#include "command_line.hpp"

#include <boost/json/parse.hpp>

#include <optional>
#include <utility>

namespace mcp_client_tool {

namespace {

std::pair<std::string, std::string> split(const std::string& pair) {
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("argument \"" + pair + "\": expected name=value");
    return {pair.substr(0, eq), pair.substr(eq + 1)};
}

std::optional<boost::json::value> as_json(const std::string& text) {
    boost::system::error_code ec;
    auto value = boost::json::parse(text, ec);
    if (ec) return std::nullopt;
    return value;
}

// The JSON type a schema property declares when it declares exactly one ("string", "integer", ...).
std::string declared_type(const boost::json::object* schema, const std::string& name) {
    if (schema == nullptr) return {};
    const auto* properties = schema->if_contains("properties");
    const auto* property =
        properties != nullptr && properties->is_object() ? properties->get_object().if_contains(name) : nullptr;
    const auto* type =
        property != nullptr && property->is_object() ? property->get_object().if_contains("type") : nullptr;
    return type != nullptr && type->is_string() ? std::string(type->get_string()) : std::string();
}

}  // namespace

boost::json::object tool_arguments(const std::vector<std::string>& pairs, const boost::json::object* input_schema) {
    boost::json::object out;
    for (const auto& pair : pairs) {
        auto [name, text] = split(pair);
        if (out.contains(name)) throw UsageError("argument " + name + " is given twice");
        auto json = declared_type(input_schema, name) == "string" ? std::nullopt : as_json(text);
        if (json)
            out[name] = std::move(*json);
        else
            out[name] = text;
    }
    return out;
}

std::map<std::string, std::string> prompt_arguments(const std::vector<std::string>& pairs) {
    std::map<std::string, std::string> out;
    for (const auto& pair : pairs) {
        auto [name, text] = split(pair);
        if (!out.emplace(name, std::move(text)).second) throw UsageError("argument " + name + " is given twice");
    }
    return out;
}

}  // namespace mcp_client_tool
