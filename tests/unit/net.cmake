# The net layer: URLs, proxies, request heads, the response reader and the SSE parser on their own;
# the HTTP client against loopback servers the tests play, plain, TLS and through proxies.
mcp_unit_test(test_net test_sse.cpp test_net_pieces.cpp test_http_client.cpp test_http_client_tls.cpp
              http_test_server.cpp test_certificates.cpp)
# Asio and Beast as the library compiles them (separately): any other setting is an ODR violation.
target_link_libraries(test_net PRIVATE mcp::mcp mcp_build_settings OpenSSL::SSL OpenSSL::Crypto)
