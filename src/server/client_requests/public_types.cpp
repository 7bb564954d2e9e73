// The out-of-line members of the public client-request types (mcp/server/client_requests.hpp):
// elicitation forms and CapabilityMissing.
#include <mcp/server/client_requests.hpp>

#include "server/client_requests/wire.hpp"
#include "util/json_number.hpp"

#include <boost/json/array.hpp>

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace mcp {

// ---- Form fields and schemas.

FormField& FormField::title(const std::string& text) {
    schema_["title"] = text;
    return *this;
}
FormField& FormField::description(const std::string& text) {
    schema_["description"] = text;
    return *this;
}
FormField& FormField::default_value(boost::json::value v) {
    schema_["default"] = std::move(v);
    return *this;
}
FormField& FormField::min_length(std::size_t n) {
    schema_["minLength"] = n;
    return *this;
}
FormField& FormField::max_length(std::size_t n) {
    schema_["maxLength"] = n;
    return *this;
}
FormField& FormField::format(const std::string& name) {
    schema_["format"] = name;
    return *this;
}
FormField& FormField::minimum(double v) {
    schema_["minimum"] = detail::json_number(v);
    return *this;
}
FormField& FormField::maximum(double v) {
    schema_["maximum"] = detail::json_number(v);
    return *this;
}
FormField& FormField::min_items(std::size_t n) {
    schema_["minItems"] = n;
    return *this;
}
FormField& FormField::max_items(std::size_t n) {
    schema_["maxItems"] = n;
    return *this;
}
FormField& FormField::optional() {
    optional_ = true;
    return *this;
}

namespace {

boost::json::object typed(std::string_view type) { return {{"type", type}}; }

boost::json::array strings(const std::vector<std::string>& values) {
    boost::json::array out;
    for (const auto& v : values) out.emplace_back(v);
    return out;
}

boost::json::array titled(const std::vector<Option>& options) {
    boost::json::array out;
    for (const auto& o : options) out.push_back(boost::json::object{{"const", o.value}, {"title", o.title}});
    return out;
}

}  // namespace

FormField& FormSchema::add(std::string name, boost::json::object schema) {
    return fields_.emplace_back(std::move(name), std::move(schema));
}

FormField& FormSchema::text(std::string name) { return add(std::move(name), typed("string")); }
FormField& FormSchema::integer(std::string name) { return add(std::move(name), typed("integer")); }
FormField& FormSchema::number(std::string name) { return add(std::move(name), typed("number")); }
FormField& FormSchema::boolean(std::string name) { return add(std::move(name), typed("boolean")); }

FormField& FormSchema::choice(std::string name, const std::vector<std::string>& values) {
    auto schema = typed("string");
    schema["enum"] = strings(values);
    return add(std::move(name), std::move(schema));
}

FormField& FormSchema::choice(std::string name, const std::vector<Option>& options) {
    auto schema = typed("string");
    schema["oneOf"] = titled(options);
    return add(std::move(name), std::move(schema));
}

FormField& FormSchema::legacy_choice(std::string name, const std::vector<Option>& options) {
    auto schema = typed("string");
    boost::json::array values, names;
    for (const auto& o : options) {
        values.emplace_back(o.value);
        names.emplace_back(o.title);
    }
    schema["enum"] = std::move(values);
    schema["enumNames"] = std::move(names);
    return add(std::move(name), std::move(schema));
}

FormField& FormSchema::choices(std::string name, const std::vector<std::string>& values) {
    auto items = typed("string");
    items["enum"] = strings(values);
    auto schema = typed("array");
    schema["items"] = std::move(items);
    return add(std::move(name), std::move(schema));
}

FormField& FormSchema::choices(std::string name, const std::vector<Option>& options) {
    auto schema = typed("array");
    schema["items"] = boost::json::object{{"anyOf", titled(options)}};
    return add(std::move(name), std::move(schema));
}

boost::json::object FormSchema::to_json() const {
    boost::json::object properties;
    boost::json::array required;
    for (const auto& field : fields_) {
        properties[field.name()] = field.schema();
        if (field.required()) required.emplace_back(field.name());
    }
    boost::json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
    if (!required.empty()) schema["required"] = std::move(required);
    return schema;
}

FormSchema FormSchema::from_json(const boost::json::object& requested_schema) {
    const auto* type = requested_schema.if_contains("type");
    if (type == nullptr || !type->is_string() || type->get_string() != "object")
        throw std::invalid_argument("a form's schema must be of type \"object\"");
    std::vector<std::string_view> required;
    if (const auto* names = requested_schema.if_contains("required")) {
        if (!names->is_array()) throw std::invalid_argument("a form's \"required\" must be an array");
        for (const auto& name : names->get_array()) {
            if (!name.is_string()) throw std::invalid_argument("a form's \"required\" must name fields");
            required.push_back(name.get_string());
        }
    }
    FormSchema form;
    const auto* properties = requested_schema.if_contains("properties");
    if (properties == nullptr) return form;
    if (!properties->is_object()) throw std::invalid_argument("a form's \"properties\" must be an object");
    for (const auto& [name, schema] : properties->get_object()) {
        if (!schema.is_object()) throw std::invalid_argument("a form field's schema must be an object");
        auto& field = form.add(std::string(name), schema.get_object());
        if (std::find(required.begin(), required.end(), name) == required.end()) field.optional();
    }
    return form;
}

CapabilityMissing::CapabilityMissing(std::string capability)
    : ClientRequestError("The client did not declare the \"" + capability + "\" capability"),
      capability_(std::move(capability)) {}

}  // namespace mcp
