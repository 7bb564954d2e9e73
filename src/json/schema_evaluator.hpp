#pragma once
// Validates instances against a compiled schema.
#include "json/schema_node.hpp"

#include "mcp/json/schema_validator.hpp"

#include <vector>

namespace mcp::json::schema_impl {

// Appends up to max_errors errors to `errors` (which should be empty); none when `instance` is valid.
// Reentrant: all evaluation state lives on the caller's stack.
void evaluate(const Node& root, const boost::json::value& instance, std::size_t max_errors,
              std::vector<ValidationError>& errors);

}  // namespace mcp::json::schema_impl
