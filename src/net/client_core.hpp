#pragma once
// What an HttpClient and its exchanges share: the strand they run on, the options, the proxies
// and the TLS context made from them, and the connection pool. Exchanges hold it, so a stream may
// outlive its client.
#include "net/connection_pool.hpp"
#include "net/proxy.hpp"
#include "net/tls.hpp"

#include <mcp/net/http_options.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <memory>

namespace mcp::net {

struct ClientCore {
    ClientCore(boost::asio::any_io_executor on, HttpClientOptions settings)
        : strand(std::move(on)),
          options(std::move(settings)),
          proxies(proxy_config(options.proxy)),
          tls(make_client_tls(options.tls)),
          pool({options.max_connections_per_origin, options.max_queued_per_origin, options.idle_connection_timeout}) {}

    boost::asio::any_io_executor strand;
    HttpClientOptions options;
    ProxyConfig proxies;
    std::shared_ptr<boost::asio::ssl::context> tls;
    ConnectionPool pool;
};

}  // namespace mcp::net
