#include "net/tls.hpp"

#include "net/http_error.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/context.hpp>

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <stdexcept>

namespace mcp::net {

namespace ssl = boost::asio::ssl;

void load_tls_file(const char* what, const std::string& file,
                   const std::function<void(boost::system::error_code&)>& step) {
    boost::system::error_code ec;
    step(ec);
    if (ec) throw std::invalid_argument(std::string("cannot use the TLS ") + what + " " + file + ": " + ec.message());
}

std::shared_ptr<ssl::context> make_client_tls(const TlsOptions& options) {
    auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
    context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
    SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
    if (options.verify) {
        context->set_verify_mode(ssl::verify_peer);
        if (options.ca_file.empty()) {
            load_tls_file("system roots", "", [&](auto& ec) { context->set_default_verify_paths(ec); });
        } else {
            load_tls_file("CA file", options.ca_file,
                          [&](auto& ec) { context->load_verify_file(options.ca_file, ec); });
        }
    } else {
        context->set_verify_mode(ssl::verify_none);
    }
    if (options.client_cert_file.empty() != options.client_key_file.empty()) {
        throw std::invalid_argument("a TLS client certificate needs both its certificate and its key file");
    }
    if (!options.client_cert_file.empty()) {
        load_tls_file("client certificate", options.client_cert_file,
                      [&](auto& ec) { context->use_certificate_chain_file(options.client_cert_file, ec); });
        load_tls_file("client key", options.client_key_file,
                      [&](auto& ec) { context->use_private_key_file(options.client_key_file, ssl::context::pem, ec); });
        if (SSL_CTX_check_private_key(context->native_handle()) != 1) {
            throw std::invalid_argument("the TLS client key " + options.client_key_file + " does not match " +
                                        options.client_cert_file);
        }
    }
    return context;
}

void set_server_name(ssl_st* session, const std::string& host, bool verify) {
    boost::system::error_code not_an_address;
    boost::asio::ip::make_address(host, not_an_address);
    bool named = true;
    if (not_an_address) named = SSL_set_tlsext_host_name(session, host.c_str()) == 1;
    if (verify && not_an_address) {
        SSL_set_hostflags(session, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        named = named && SSL_set1_host(session, host.c_str()) == 1;
    } else if (verify) {
        named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(session), host.c_str()) == 1;
    }
    if (!named) throw HttpError(HttpErrorKind::tls, "cannot set the TLS server name " + host);
}

}  // namespace mcp::net
