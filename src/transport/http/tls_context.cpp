#include "transport/http/tls_context.hpp"

#include "net/tls.hpp"
#include "util/log.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <stdexcept>

namespace mcp::detail {

namespace ssl = boost::asio::ssl;

namespace {

// TLS 1.2 suites with ECDHE and an AEAD; TLS 1.3's are all of that kind already.
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

}  // namespace

std::shared_ptr<ssl::context> make_server_tls(const HttpOptions& options) {
    auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
    context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use |
                         SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
    if (SSL_CTX_set_cipher_list(context->native_handle(), kTls12Ciphers) != 1) {
        throw std::invalid_argument("the TLS 1.2 cipher list is not supported by this OpenSSL");
    }
    net::load_tls_file("certificate", options.tls_cert_file,
                       [&](auto& ec) { context->use_certificate_chain_file(options.tls_cert_file, ec); });
    net::load_tls_file("key", options.tls_key_file,
                       [&](auto& ec) { context->use_private_key_file(options.tls_key_file, ssl::context::pem, ec); });
    if (SSL_CTX_check_private_key(context->native_handle()) != 1) {
        throw std::invalid_argument("the TLS key " + options.tls_key_file + " does not match " + options.tls_cert_file);
    }
    if (!options.tls_client_ca_file.empty()) {
        net::load_tls_file("client CA", options.tls_client_ca_file,
                           [&](auto& ec) { context->load_verify_file(options.tls_client_ca_file, ec); });
        context->set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
    }
    return context;
}

void TlsContexts::reload() {
    try {
        auto fresh = make_server_tls(options_);
        std::lock_guard lock(mutex_);
        current_ = std::move(fresh);
        log().info("TLS certificate reloaded from {}", options_.tls_cert_file);
    } catch (const std::exception& e) {
        log().error("TLS reload failed, the old certificate stays: {}", e.what());
    }
}

}  // namespace mcp::detail
