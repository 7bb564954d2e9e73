# The handler pool (with BlockingScope) and the context snapshot.
mcp_unit_test(test_handler_pool test_handler_pool.cpp)
target_link_libraries(test_handler_pool PRIVATE mcp::mcp)
mcp_unit_test(test_context_snapshot test_context_snapshot.cpp)
target_link_libraries(test_context_snapshot PRIVATE mcp::mcp)
