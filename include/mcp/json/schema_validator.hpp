#pragma once
// Validation of JSON instances against JSON Schema 2020-12, implemented over Boost.JSON.
// The enforced keyword set is listed in docs/json-schema.md; other keywords are kept in the
// schema (and advertised verbatim) but not enforced.
#include <boost/json/value.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::json {

struct ValidationError {
    std::string instance_path;  // JSON Pointer into the instance, "" for the root, e.g. "/address/city"
    std::string keyword;        // the failing keyword, e.g. "required", "type"
    std::string message;        // human readable, names the field, e.g. "/address/city: expected string, got integer"
};

class SchemaValidator {
public:
    // Compiles `schema` (an object or a boolean). Throws std::invalid_argument when the schema
    // itself is malformed (a keyword of the wrong type, an invalid regex, an unresolvable local $ref).
    explicit SchemaValidator(const boost::json::value& schema);
    ~SchemaValidator();
    SchemaValidator(SchemaValidator&&) noexcept;
    SchemaValidator& operator=(SchemaValidator&&) noexcept;

    // Thread-safe. Returns the first error found, or nothing when the instance is valid.
    std::optional<ValidationError> validate(const boost::json::value& instance) const;
    // Thread-safe. Collects up to max_errors errors.
    std::vector<ValidationError> validate_all(const boost::json::value& instance, std::size_t max_errors = 16) const;

    // The keywords this validator enforces (sorted).
    static const std::vector<std::string_view>& enforced_keywords();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace mcp::json
