# The telemetry layer: protobuf and JSON encodings of OTLP, sampling, the OTEL_* rules, the
# exporter's bounded queue.
mcp_unit_test(test_telemetry test_telemetry.cpp)
target_link_libraries(test_telemetry PRIVATE mcp::mcp)
# The core's spans of a 2025 call's requests to its client, exported to a receiver of the test's own.
mcp_unit_test(test_round_spans test_round_spans.cpp http_test_server.cpp)
target_link_libraries(test_round_spans PRIVATE mcp::mcp OpenSSL::SSL)
# The HTTP transport's spans: a bearer check's, a GET stream's, and nothing allocated unsampled.
mcp_unit_test(test_http_spans test_http_spans.cpp)
target_link_libraries(test_http_spans PRIVATE mcp::mcp)
# The SERVER span's network attributes (stdio, a transport's Inbound::network) and IS_REMOTE.
mcp_unit_test(test_span_network test_span_network.cpp http_test_server.cpp)
target_link_libraries(test_span_network PRIVATE mcp::mcp OpenSSL::SSL)
