#pragma once
// Certificates for the HTTPS tests, made with OpenSSL once per process into a temporary
// directory (removed at exit): a CA, and EC P-256 certificates it signs.
#include <string>

struct ssl_ctx_st;

namespace mcp::test {

struct CertificateFiles {
    std::string cert;  // PEM
    std::string key;   // PEM
};

struct TestCertificates {
    std::string ca_file;
    CertificateFiles server;      // for 127.0.0.1 and localhost
    CertificateFiles other_name;  // for other.example only
    CertificateFiles client;      // CN mcp-test-client, for client authentication
};

const TestCertificates& test_certificates();

// A server context with `files`; with `client_ca`, clients must present a certificate it signed.
// The caller frees it (SSL_CTX_free).
ssl_ctx_st* server_tls(const CertificateFiles& files, const std::string& client_ca = {});

}  // namespace mcp::test
