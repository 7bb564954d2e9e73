# The telemetry layer: protobuf and JSON encodings of OTLP, sampling, the OTEL_* rules, the
# exporter's bounded queue.
mcp_unit_test(test_telemetry test_telemetry.cpp)
target_link_libraries(test_telemetry PRIVATE mcp::mcp)
