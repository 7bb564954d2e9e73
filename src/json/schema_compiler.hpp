#pragma once
// Turns a JSON Schema 2020-12 document into the Node tree the evaluator walks.
#include "json/schema_node.hpp"

namespace mcp::json::schema_impl {

// Compiles schema.document into schema.nodes and schema.root. Throws std::invalid_argument naming
// the schema location ("schema /properties/age/minimum: expected a number") when malformed.
void compile_schema(CompiledSchema& schema);

}  // namespace mcp::json::schema_impl
