#include "mcp/json/schema_validator.hpp"

#include "json/schema_compiler.hpp"
#include "json/schema_evaluator.hpp"

#include <algorithm>

namespace mcp::json {

struct SchemaValidator::Impl {
    schema_impl::CompiledSchema schema;
};

SchemaValidator::SchemaValidator(const boost::json::value& schema) : impl_(std::make_unique<Impl>()) {
    // The nodes keep pointers into the document, so it is copied into its final place first.
    impl_->schema.document = schema;
    schema_impl::compile_schema(impl_->schema);
}

SchemaValidator::~SchemaValidator() = default;
SchemaValidator::SchemaValidator(SchemaValidator&&) noexcept = default;
SchemaValidator& SchemaValidator::operator=(SchemaValidator&&) noexcept = default;

std::optional<ValidationError> SchemaValidator::validate(const boost::json::value& instance) const {
    std::vector<ValidationError> errors;
    schema_impl::evaluate(*impl_->schema.root, instance, 1, errors);
    if (errors.empty()) return std::nullopt;
    return std::move(errors.front());
}

std::vector<ValidationError> SchemaValidator::validate_all(const boost::json::value& instance,
                                                           std::size_t max_errors) const {
    std::vector<ValidationError> errors;
    schema_impl::evaluate(*impl_->schema.root, instance, max_errors, errors);
    return errors;
}

const std::vector<std::string_view>& SchemaValidator::enforced_keywords() {
    static const std::vector<std::string_view> keywords = [] {
        std::vector<std::string_view> k = {
            "$anchor",
            "$defs",
            "$ref",
            "additionalProperties",
            "allOf",
            "anyOf",
            "const",
            "contains",
            "dependentRequired",
            "dependentSchemas",
            "else",
            "enum",
            "exclusiveMaximum",
            "exclusiveMinimum",
            "if",
            "items",
            "maxContains",
            "maxItems",
            "maxLength",
            "maxProperties",
            "maximum",
            "minContains",
            "minItems",
            "minLength",
            "minProperties",
            "minimum",
            "multipleOf",
            "not",
            "oneOf",
            "pattern",
            "patternProperties",
            "prefixItems",
            "properties",
            "propertyNames",
            "required",
            "then",
            "type",
            "uniqueItems",
        };
        std::sort(k.begin(), k.end());
        return k;
    }();
    return keywords;
}

}  // namespace mcp::json
