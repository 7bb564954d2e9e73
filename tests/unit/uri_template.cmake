# URI templates (RFC 6570): parsing, expansion and matching.
mcp_unit_test(test_uri_template test_uri_template.cpp)
target_link_libraries(test_uri_template PRIVATE mcp::mcp)
