#include "auth/http_fetch.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/url/parse.hpp>

#include <openssl/ssl.h>

namespace mcp::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using namespace asio::experimental::awaitable_operators;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

struct Target {
    bool tls = false;
    std::string host;
    std::string port;
    std::string path;  // with the query
};

std::optional<Target> parse_target(const std::string& url) {
    auto parsed = boost::urls::parse_absolute_uri(url);
    if (!parsed || !parsed->has_authority() || parsed->host().empty()) return std::nullopt;
    Target t;
    if (parsed->scheme() == "https") {
        t.tls = true;
    } else if (parsed->scheme() != "http") {
        return std::nullopt;
    }
    // An IPv6 literal keeps no brackets for the resolver.
    t.host = parsed->host_type() == boost::urls::host_type::ipv6 ? std::string(parsed->host_address())
                                                                 : std::string(parsed->encoded_host());
    t.port = parsed->has_port() ? std::string(parsed->port()) : (t.tls ? "443" : "80");
    t.path = parsed->encoded_path().empty() ? "/" : std::string(parsed->encoded_path());
    if (parsed->has_query()) t.path += "?" + std::string(parsed->encoded_query());
    return t;
}

void fail(const std::string& what, const boost::system::error_code& ec) {
    throw FetchFailed(what + ": " + ec.message());
}

template <class Stream>
asio::awaitable<FetchResponse> round_trip(Stream& stream, const http::request<http::string_body>& request) {
    auto [write_ec, written] = co_await http::async_write(stream, request, use_tuple);
    if (write_ec) fail("sending the request", write_ec);
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.header_limit(16 * 1024);
    parser.body_limit(HttpFetcher::max_body_bytes);
    auto [read_ec, read] = co_await http::async_read(stream, buffer, parser, use_tuple);
    if (read_ec) fail("reading the response", read_ec);
    auto& response = parser.get();
    FetchResponse out;
    out.status = response.result_int();
    out.cache_control = std::string(response[http::field::cache_control]);
    out.content_type = std::string(response[http::field::content_type]);
    out.body = std::move(response.body());
    co_return out;
}

}  // namespace

struct HttpFetcher::Impl {
    asio::io_context& io;
    asio::ssl::context tls{asio::ssl::context::tls_client};
    std::chrono::milliseconds timeout;

    Impl(asio::io_context& context, const std::string& ca_file, std::chrono::milliseconds t) : io(context), timeout(t) {
        tls.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                        asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 | asio::ssl::context::no_tlsv1_1);
        tls.set_verify_mode(asio::ssl::verify_peer);
        boost::system::error_code ec;
        if (ca_file.empty()) {
            tls.set_default_verify_paths(ec);
        } else {
            tls.load_verify_file(ca_file, ec);
        }
        if (ec) throw std::invalid_argument("cannot load the CA certificates " + ca_file + ": " + ec.message());
    }

    asio::awaitable<tcp::resolver::results_type> resolve(const Target& target) {
        tcp::resolver resolver(io);
        asio::steady_timer timer(io, timeout);
        auto outcome =
            co_await (resolver.async_resolve(target.host, target.port, use_tuple) || timer.async_wait(use_tuple));
        if (outcome.index() == 1) throw FetchFailed("resolving " + target.host + ": timed out");
        auto [ec, results] = std::get<0>(std::move(outcome));
        if (ec) fail("resolving " + target.host, ec);
        co_return results;
    }
};

HttpFetcher::HttpFetcher(asio::io_context& io, const std::string& ca_file, std::chrono::milliseconds timeout)
    : impl_(std::make_unique<Impl>(io, ca_file, timeout)) {}

HttpFetcher::~HttpFetcher() = default;

asio::awaitable<FetchResponse> HttpFetcher::fetch(const FetchRequest& fetch) {
    const auto target = parse_target(fetch.url);
    if (!target) throw FetchFailed("not an http or https URL");
    const auto endpoints = co_await impl_->resolve(*target);

    http::request<http::string_body> request{fetch.form_body.empty() ? http::verb::get : http::verb::post, target->path,
                                             11};
    const bool default_port = target->port == (target->tls ? "443" : "80");
    const std::string host = target->host.find(':') != std::string::npos ? "[" + target->host + "]" : target->host;
    request.set(http::field::host, default_port ? host : host + ":" + target->port);
    request.set(http::field::user_agent, "mcp-cpp");
    request.set(http::field::accept, "application/json");
    if (!fetch.authorization.empty()) request.set(http::field::authorization, fetch.authorization);
    if (!fetch.form_body.empty()) {
        request.set(http::field::content_type, "application/x-www-form-urlencoded");
        request.body() = fetch.form_body;
        request.prepare_payload();
    }

    if (!target->tls) {
        beast::tcp_stream stream(impl_->io);
        stream.expires_after(impl_->timeout);
        auto [ec, connected] = co_await stream.async_connect(endpoints, use_tuple);
        if (ec) fail("connecting to " + target->host, ec);
        co_return co_await round_trip(stream, request);
    }
    beast::ssl_stream<beast::tcp_stream> stream(impl_->io, impl_->tls);
    if (!SSL_set_tlsext_host_name(stream.native_handle(), target->host.c_str())) {
        throw FetchFailed("cannot set the TLS server name");
    }
    stream.set_verify_callback(asio::ssl::host_name_verification(target->host));
    beast::get_lowest_layer(stream).expires_after(impl_->timeout);
    auto [ec, connected] = co_await beast::get_lowest_layer(stream).async_connect(endpoints, use_tuple);
    if (ec) fail("connecting to " + target->host, ec);
    auto [handshake_ec] = co_await stream.async_handshake(asio::ssl::stream_base::client, use_tuple);
    if (handshake_ec) fail("TLS with " + target->host, handshake_ec);
    auto response = co_await round_trip(stream, request);
    // The server's close_notify is not waited for: the response is complete and bounded.
    co_return response;
}

bool fetchable_url(const std::string& url) { return parse_target(url).has_value(); }

}  // namespace mcp::detail
