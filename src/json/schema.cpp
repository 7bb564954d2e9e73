#include <mcp/json/schema.hpp>

#include "util/json_number.hpp"

#include <cxxabi.h>
#include <algorithm>
#include <memory>

namespace mcp::json {

FieldHints& FieldHints::description(const std::string& text) {
    return keyword("description", boost::json::string(text));
}
FieldHints& FieldHints::title(const std::string& text) { return keyword("title", boost::json::string(text)); }
FieldHints& FieldHints::minimum(double v) { return keyword("minimum", mcp::detail::json_number(v)); }
FieldHints& FieldHints::maximum(double v) { return keyword("maximum", mcp::detail::json_number(v)); }
FieldHints& FieldHints::exclusive_minimum(double v) { return keyword("exclusiveMinimum", mcp::detail::json_number(v)); }
FieldHints& FieldHints::exclusive_maximum(double v) { return keyword("exclusiveMaximum", mcp::detail::json_number(v)); }
FieldHints& FieldHints::multiple_of(double v) { return keyword("multipleOf", mcp::detail::json_number(v)); }
FieldHints& FieldHints::min_length(std::size_t n) { return keyword("minLength", static_cast<std::uint64_t>(n)); }
FieldHints& FieldHints::max_length(std::size_t n) { return keyword("maxLength", static_cast<std::uint64_t>(n)); }
FieldHints& FieldHints::pattern(const std::string& ecma_regex) {
    return keyword("pattern", boost::json::string(ecma_regex));
}
FieldHints& FieldHints::format(const std::string& name) { return keyword("format", boost::json::string(name)); }
FieldHints& FieldHints::min_items(std::size_t n) { return keyword("minItems", static_cast<std::uint64_t>(n)); }
FieldHints& FieldHints::max_items(std::size_t n) { return keyword("maxItems", static_cast<std::uint64_t>(n)); }
FieldHints& FieldHints::default_value(boost::json::value v) { return keyword("default", std::move(v)); }
FieldHints& FieldHints::examples(boost::json::array values) { return keyword("examples", std::move(values)); }
FieldHints& FieldHints::deprecated(bool yes) { return keyword("deprecated", yes); }

FieldHints& FieldHints::keyword(std::string_view name, boost::json::value v) {
    keywords_[name] = std::move(v);
    return *this;
}

void SchemaHintsBase::apply(boost::json::object& schema) const {
    for (const auto& kv : self_.keywords()) schema[kv.key()] = kv.value();
}

const FieldHints* SchemaHintsBase::find(std::string_view field) const {
    for (const auto& [name, hints] : fields_) {
        if (name == field) return &hints;
    }
    return nullptr;
}

FieldHints& SchemaHintsBase::field_named(std::string_view name) {
    for (auto& [existing, hints] : fields_) {
        if (existing == name) return hints;
    }
    return fields_.emplace_back(std::string(name), FieldHints{}).second;
}

namespace detail {

boost::json::object schema_type(std::string_view type) {
    boost::json::object o;
    o["type"] = type;
    return o;
}

boost::json::object integer_schema(bool is_unsigned) {
    auto o = schema_type("integer");
    if (is_unsigned) o["minimum"] = 0;
    return o;
}

boost::json::object array_schema(boost::json::object items, bool unique) {
    auto o = schema_type("array");
    o["items"] = std::move(items);
    if (unique) o["uniqueItems"] = true;
    return o;
}

boost::json::object map_schema(boost::json::object values) {
    auto o = schema_type("object");
    o["additionalProperties"] = std::move(values);
    return o;
}

boost::json::object enum_schema(const std::vector<std::string_view>& names) {
    auto o = schema_type("string");
    boost::json::array values;
    for (auto n : names) values.emplace_back(n);
    o["enum"] = std::move(values);
    return o;
}

void add_property(boost::json::object& schema, std::string_view name, boost::json::object property, bool required) {
    schema["properties"].as_object()[name] = std::move(property);
    if (!required) return;
    auto& list = schema["required"];
    if (!list.is_array()) list = boost::json::array();
    list.as_array().emplace_back(name);
}

bool SchemaBuilder::enter(std::type_index type, boost::json::object& ref) {
    auto on_stack = std::find_if(stack_.begin(), stack_.end(), [&](const Frame& f) { return f.type == type; });
    auto named = std::find_if(names_.begin(), names_.end(), [&](const auto& n) { return n.first == type; });
    if (on_stack != stack_.end() && on_stack == stack_.begin()) {
        on_stack->recursive = true;
        ref["$ref"] = "#";  // the root refers to itself
        return true;
    }
    if (on_stack != stack_.end() || named != names_.end()) {
        if (on_stack != stack_.end()) on_stack->recursive = true;
        ref["$ref"] = "#/$defs/" + name_of(type);
        return true;
    }
    stack_.push_back(Frame{type});
    return false;
}

void SchemaBuilder::leave(std::type_index type, boost::json::object& schema) {
    const bool recursive = stack_.back().recursive;
    const bool is_root = stack_.size() == 1;
    stack_.pop_back();
    if (!recursive || is_root) return;
    const std::string name = name_of(type);
    defs_[name] = std::move(schema);
    schema = boost::json::object();
    schema["$ref"] = "#/$defs/" + name;
}

void SchemaBuilder::finish(boost::json::object& root) {
    if (!defs_.empty()) root["$defs"] = std::move(defs_);
}

std::string SchemaBuilder::name_of(std::type_index type) {
    for (const auto& [t, name] : names_) {
        if (t == type) return name;
    }
    // Demangled, namespaces and template arguments dropped, made unique with a suffix.
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(type.name(), nullptr, nullptr, &status),
                                                     std::free);
    std::string full = status == 0 && demangled ? demangled.get() : type.name();
    if (auto lt = full.find('<'); lt != std::string::npos) full.resize(lt);
    if (auto colon = full.rfind("::"); colon != std::string::npos) full = full.substr(colon + 2);
    std::string name = full;
    for (int suffix = 2; std::any_of(names_.begin(), names_.end(), [&](const auto& n) { return n.second == name; });
         ++suffix) {
        name = full + std::to_string(suffix);
    }
    names_.emplace_back(type, name);
    return name;
}

}  // namespace detail
}  // namespace mcp::json
