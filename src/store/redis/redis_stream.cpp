#include "store/redis/redis_stream.hpp"

#include "net/tls.hpp"

#include <boost/asio/ssl/error.hpp>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

namespace mcp::detail {

namespace asio = boost::asio;

RedisTls RedisTls::from(const std::optional<RedisUrl::Tls>& url) {
    if (!url) return {};
    return {.context = net::make_client_tls(
                {.ca_file = url->ca_file, .client_cert_file = url->cert_file, .client_key_file = url->key_file}),
            .server_name = url->server_name};
}

RedisStream::RedisStream(asio::io_context& ioc, const RedisTls& tls) : tls_setup_(tls), plain_(ioc) {
    if (tls_setup_.context) tls_.emplace(ioc, *tls_setup_.context);
}

std::optional<std::string> RedisStream::set_server_name(const std::string& host) {
    try {
        net::set_server_name(tls_->native_handle(), tls_setup_.server_name.empty() ? host : tls_setup_.server_name,
                             true);
        return std::nullopt;
    } catch (const std::exception& e) {
        return e.what();
    }
}

std::string RedisStream::describe_failure(const boost::system::error_code& ec) {
    const auto verdict = SSL_get_verify_result(tls_->native_handle());
    if (verdict != X509_V_OK) return std::string("certificate refused: ") + X509_verify_cert_error_string(verdict);
    if (ec == asio::ssl::error::stream_truncated || ec == asio::error::eof)
        return "the server closed the connection (does it speak TLS on this port?)";
    if (ec.category() == asio::error::get_ssl_category() && ERR_GET_REASON(ec.value()) == SSL_R_WRONG_VERSION_NUMBER)
        return "the server does not speak TLS on this port (" + ec.message() + ")";
    return ec.message();
}

void RedisStream::close() {
    boost::system::error_code ignored;
    socket().close(ignored);
}

}  // namespace mcp::detail
