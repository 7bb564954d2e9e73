# mcp::Client: its pure pieces, against an in-process mcp::Server in both revisions, and over stdio
# against the demo and small hostile servers (Node scripts).
mcp_unit_test(test_client_units test_client_units.cpp)
target_link_libraries(test_client_units PRIVATE mcp::mcp)
# Host configuration files, the group's naming and backoff, and mcp::ClientGroup over in-process servers.
mcp_unit_test(test_client_group test_client_group.cpp)
target_link_libraries(test_client_group PRIVATE mcp::mcp)
# The host side of Skills against the server's Skills extension, in process.
mcp_unit_test(test_skills_client test_skills_client.cpp)
target_link_libraries(test_skills_client PRIVATE mcp::mcp)
mcp_unit_test(test_client_in_process test_client_in_process.cpp)
target_link_libraries(test_client_in_process PRIVATE mcp::mcp)
# <mcp/client/asio.hpp> compiles Asio as the library does.
target_compile_definitions(test_client_in_process PRIVATE BOOST_ASIO_SEPARATE_COMPILATION BOOST_ASIO_NO_DEPRECATED)
# The stdio tests run the demo (its path in MCP_CPP_DEMO, as for the e2e suites) and, with node,
# the hostile servers of fake_mcp_server.mjs.
if(TARGET mcp-cpp-demo)
  mcp_unit_test(test_client_stdio test_client_stdio.cpp ENVIRONMENT "MCP_CPP_DEMO=$<TARGET_FILE:mcp-cpp-demo>")
  target_link_libraries(test_client_stdio PRIVATE mcp::mcp)
  target_compile_definitions(test_client_stdio PRIVATE BOOST_ASIO_SEPARATE_COMPILATION BOOST_ASIO_NO_DEPRECATED
    MCP_NODE_PATH="${MCP_NODE}" MCP_FAKE_SERVER="${CMAKE_CURRENT_SOURCE_DIR}/fake_mcp_server.mjs")
  add_dependencies(test_client_stdio mcp-cpp-demo)
  # Servers nobody here wrote, from npm (tests/e2e/package.json), run as `node <their bin>`, and the
  # group over them and the demo.
  if(MCP_NODE)
    mcp_unit_test(test_client_interop test_client_interop.cpp ENVIRONMENT "MCP_CPP_DEMO=$<TARGET_FILE:mcp-cpp-demo>")
    target_link_libraries(test_client_interop PRIVATE mcp::mcp)
    target_compile_definitions(test_client_interop PRIVATE MCP_NODE_PATH="${MCP_NODE}"
      MCP_E2E_NODE_MODULES="${PROJECT_SOURCE_DIR}/tests/e2e/node_modules")
    add_dependencies(test_client_interop mcp-cpp-demo)
    # The same over HTTP: server-everything on Streamable HTTP and SSE, the SDK's example servers, a
    # 2026 server of @modelcontextprotocol/server (tests/e2e/interop_v2_server.mjs), and the demo,
    # one node and two on a redis-server.
    mcp_unit_test(test_client_interop_http test_client_interop_http.cpp node_server.cpp tcp_relay.cpp
                  demo_server.cpp redis_server.cpp ENVIRONMENT "MCP_CPP_DEMO=$<TARGET_FILE:mcp-cpp-demo>")
    target_link_libraries(test_client_interop_http PRIVATE mcp::mcp)
    target_compile_definitions(test_client_interop_http PRIVATE MCP_NODE_PATH="${MCP_NODE}"
      MCP_E2E_DIR="${PROJECT_SOURCE_DIR}/tests/e2e")
    add_dependencies(test_client_interop_http mcp-cpp-demo)
  endif()
endif()
# The HTTP transports against the demo (started on a port of its own for each test).
if(TARGET mcp-cpp-demo)
  mcp_unit_test(test_client_http test_client_http.cpp demo_server.cpp raw_http.cpp
                ENVIRONMENT "MCP_CPP_DEMO=$<TARGET_FILE:mcp-cpp-demo>")
  target_link_libraries(test_client_http PRIVATE mcp::mcp)
  add_dependencies(test_client_http mcp-cpp-demo)
endif()
# ... and against fake servers the tests play (resumption, HTTP+SSE, the negotiation's fallbacks,
# hostile servers).
mcp_unit_test(test_client_http_fakes test_client_http_fakes.cpp fake_mcp_http.cpp http_test_server.cpp)
target_link_libraries(test_client_http_fakes PRIVATE mcp::mcp OpenSSL::SSL OpenSSL::Crypto)
# The client's OAuth pieces: WWW-Authenticate and the OAuth documents (hostile ones too), JWS
# signing, the token stores, the loopback redirect listener.
mcp_unit_test(test_client_oauth test_client_oauth.cpp jwt_signer.cpp)
target_link_libraries(test_client_oauth PRIVATE mcp::mcp OpenSSL::Crypto Boost::headers)
target_compile_definitions(test_client_oauth PRIVATE BOOST_ASIO_SEPARATE_COMPILATION BOOST_ASIO_NO_DEPRECATED)
# mcp::Mount: the naming and URI rules, and a server mounted in another in process, for every pair of
# revisions (docs/adr/0029-gateway.md).
mcp_unit_test(test_bridge_mount test_bridge_mount.cpp test_bridge_mount_requests.cpp test_bridge_mount_questions.cpp
              test_bridge_mount_tasks.cpp test_bridge_mount_subscriptions.cpp
              test_bridge_mount_url.cpp test_bridge_mount_completions.cpp)
target_link_libraries(test_bridge_mount PRIVATE mcp::mcp)
# A mounted call resumed from another gateway node: the relay's wire, hostile payloads, two relays
# on an in-process bus (docs/adr/0029-gateway.md, decision 11).
mcp_unit_test(test_bridge_mount_relay test_bridge_mount_relay.cpp)
target_link_libraries(test_bridge_mount_relay PRIVATE mcp::mcp)
# mcp::Client's CLIENT spans and the traceparent it puts in _meta (docs/adr/0030-tracing.md).
mcp_unit_test(test_client_tracing test_client_tracing.cpp http_test_server.cpp)
target_link_libraries(test_client_tracing PRIVATE mcp::mcp OpenSSL::SSL)
