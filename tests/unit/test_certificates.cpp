#include "test_certificates.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace mcp::test {

namespace {

struct KeyFree {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct CertFree {
    void operator()(X509* cert) const { X509_free(cert); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;
using Cert = std::unique_ptr<X509, CertFree>;

void check(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(std::string("making test certificates: ") + what);
}

void add_extension(X509* cert, X509* issuer, int nid, const char* value) {
    X509V3_CTX context;
    X509V3_set_ctx(&context, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* extension = X509V3_EXT_nconf_nid(nullptr, &context, nid, value);
    check(extension != nullptr && X509_add_ext(cert, extension, -1) == 1, value);
    X509_EXTENSION_free(extension);
}

// Issued by `issuer` (itself when null), valid from an hour ago for a day; signed by the caller.
Cert make_certificate(EVP_PKEY* key, const char* common_name, long serial, X509* issuer) {
    Cert cert(X509_new());
    check(X509_set_version(cert.get(), 2) == 1, "version");
    ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial);
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 24 * 3600);
    check(X509_set_pubkey(cert.get(), key) == 1, "public key");
    X509_NAME_add_entry_by_txt(X509_get_subject_name(cert.get()), "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>(common_name), -1, -1, 0);
    X509* signer = issuer != nullptr ? issuer : cert.get();
    check(X509_set_issuer_name(cert.get(), X509_get_subject_name(signer)) == 1, "issuer");
    add_extension(cert.get(), signer, NID_subject_key_identifier, "hash");
    add_extension(cert.get(), signer, NID_authority_key_identifier, "keyid:always");
    if (issuer == nullptr) {
        add_extension(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE");
        add_extension(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign");
    }
    return cert;
}

void sign(X509* cert, EVP_PKEY* key) { check(X509_sign(cert, key, EVP_sha256()) > 0, "signature"); }

void write_pem(const std::string& path, X509* cert, EVP_PKEY* key) {
    FILE* file = std::fopen(path.c_str(), "w");
    check(file != nullptr, "a file");
    const bool ok = cert != nullptr ? PEM_write_X509(file, cert) == 1
                                    : PEM_write_PrivateKey(file, key, nullptr, nullptr, 0, nullptr, nullptr) == 1;
    std::fclose(file);
    check(ok, "PEM");
}

struct Made {
    std::filesystem::path dir;
    TestCertificates files;

    Made() {
        char name[] = "/tmp/mcp-net-test-XXXXXX";
        check(::mkdtemp(name) != nullptr, "a directory");
        dir = name;
        Key ca_key(EVP_EC_gen("P-256"));
        check(ca_key != nullptr, "a key");
        auto ca = make_certificate(ca_key.get(), "mcp test CA", 1, nullptr);
        sign(ca.get(), ca_key.get());
        files.ca_file = (dir / "ca.pem").string();
        write_pem(files.ca_file, ca.get(), nullptr);
        files.server = issue("server", "127.0.0.1", "subjectAltName", "IP:127.0.0.1,DNS:localhost", 2, ca, ca_key);
        files.other_name = issue("other", "other.example", "subjectAltName", "DNS:other.example", 3, ca, ca_key);
        files.client = issue("client", "mcp-test-client", "extendedKeyUsage", "clientAuth", 4, ca, ca_key);
    }
    ~Made() {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }

    CertificateFiles issue(const std::string& file, const char* common_name, const char* extension, const char* value,
                           long serial, const Cert& ca, const Key& ca_key) {
        Key key(EVP_EC_gen("P-256"));
        check(key != nullptr, "a key");
        auto cert = make_certificate(key.get(), common_name, serial, ca.get());
        add_extension(cert.get(), ca.get(), OBJ_sn2nid(extension), value);
        sign(cert.get(), ca_key.get());
        CertificateFiles out{(dir / (file + ".pem")).string(), (dir / (file + ".key")).string()};
        write_pem(out.cert, cert.get(), nullptr);
        write_pem(out.key, nullptr, key.get());
        return out;
    }
};

}  // namespace

const TestCertificates& test_certificates() {
    static const Made made;
    return made.files;
}

ssl_ctx_st* server_tls(const CertificateFiles& files, const std::string& client_ca) {
    SSL_CTX* context = SSL_CTX_new(TLS_server_method());
    check(SSL_CTX_use_certificate_chain_file(context, files.cert.c_str()) == 1, "the server certificate");
    check(SSL_CTX_use_PrivateKey_file(context, files.key.c_str(), SSL_FILETYPE_PEM) == 1, "the server key");
    if (!client_ca.empty()) {
        check(SSL_CTX_load_verify_locations(context, client_ca.c_str(), nullptr) == 1, "the client CA");
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    }
    return context;
}

}  // namespace mcp::test
