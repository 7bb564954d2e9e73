# mcp::Client: its pure pieces, against an in-process mcp::Server in both revisions, and over stdio
# against the demo and small hostile servers (Node scripts).
mcp_unit_test(test_client_units test_client_units.cpp)
target_link_libraries(test_client_units PRIVATE mcp::mcp)
