# Key ring: parsing of the secret, sealing and opening of tokens (ADR 0008).
mcp_unit_test(test_key_ring test_key_ring.cpp)
target_link_libraries(test_key_ring PRIVATE mcp::mcp)
