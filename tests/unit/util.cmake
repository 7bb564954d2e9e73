# Small pieces of src/util that stand alone.
mcp_unit_test(test_bounded_count test_bounded_count.cpp)
mcp_unit_test(test_client_limits test_client_limits.cpp)
target_link_libraries(test_client_limits PRIVATE mcp::mcp)
mcp_unit_test(test_memory_release test_memory_release.cpp)
target_link_libraries(test_memory_release PRIVATE mcp::mcp)
