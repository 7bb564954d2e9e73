# URI templates (RFC 6570): parsing, expansion and matching.
mcp_unit_test(test_uri_template test_uri_template.cpp ${PROJECT_SOURCE_DIR}/src/server/uri_template.cpp)
target_include_directories(test_uri_template PRIVATE ${PROJECT_SOURCE_DIR}/include)
