# The auth layer: JWKS keys, JWS signatures, JWT claims, the token cache.
mcp_unit_test(test_jwt test_jwt.cpp jwt_signer.cpp)
target_link_libraries(test_jwt PRIVATE mcp::mcp OpenSSL::Crypto)
