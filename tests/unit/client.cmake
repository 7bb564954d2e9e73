# mcp::Client: its pure pieces, against an in-process mcp::Server in both revisions, and over stdio
# against the demo and small hostile servers (Node scripts).
mcp_unit_test(test_client_units test_client_units.cpp)
target_link_libraries(test_client_units PRIVATE mcp::mcp)
mcp_unit_test(test_client_in_process test_client_in_process.cpp)
target_link_libraries(test_client_in_process PRIVATE mcp::mcp)
# <mcp/client/asio.hpp> compiles Asio as the library does.
target_compile_definitions(test_client_in_process PRIVATE BOOST_ASIO_SEPARATE_COMPILATION BOOST_ASIO_NO_DEPRECATED)
