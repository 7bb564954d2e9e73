# The metrics registry and its Prometheus exposition (util layer).
mcp_unit_test(test_metrics test_metrics.cpp)
target_link_libraries(test_metrics PRIVATE mcp::mcp fmt::fmt)
