# The metrics registry and its Prometheus exposition (util layer).
mcp_unit_test(test_metrics test_metrics.cpp)
target_link_libraries(test_metrics PRIVATE mcp::mcp fmt::fmt)
# Trace context, printable log text, outcomes (core and util).
mcp_unit_test(test_trace_and_logs test_trace_and_logs.cpp)
target_link_libraries(test_trace_and_logs PRIVATE mcp::mcp)
# The OpenTelemetry MCP metrics (core and sessions).
mcp_unit_test(test_semconv_metrics test_semconv_metrics.cpp)
target_link_libraries(test_semconv_metrics PRIVATE mcp::mcp)
