# SchemaValidator: keywords, hostile schemas and the official JSON-Schema-Test-Suite.
mcp_unit_test(test_schema_validator test_schema_validator.cpp)
target_link_libraries(test_schema_validator PRIVATE mcp::mcp)
# The official JSON-Schema-Test-Suite (Debian package json-schema-test-suite). The test fails,
# rather than skips, when it is missing.
set(MCP_JSON_SCHEMA_TEST_SUITE_DIR /usr/share/json-schema-test-suite/tests/draft7
  CACHE PATH "draft7 directory of the JSON-Schema-Test-Suite")
target_compile_definitions(test_schema_validator PRIVATE
  MCP_JSON_SCHEMA_TEST_SUITE_DIR="${MCP_JSON_SCHEMA_TEST_SUITE_DIR}")
