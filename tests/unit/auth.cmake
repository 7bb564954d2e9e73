# The auth layer: JWKS keys, JWS signatures, JWT claims, the token cache.
mcp_unit_test(test_jwt test_jwt.cpp jwt_signer.cpp)
target_link_libraries(test_jwt PRIVATE mcp::mcp OpenSSL::Crypto)
# The verifier over HTTP, against a loopback authorization server the test plays.
mcp_unit_test(test_token_verifier test_token_verifier.cpp)
target_link_libraries(test_token_verifier PRIVATE mcp::mcp Boost::headers)
target_compile_definitions(test_token_verifier PRIVATE BOOST_ASIO_SEPARATE_COMPILATION)
