#pragma once
// A small HTTP/1.1 client for the authorization server's documents: its metadata, its JWKS, and
// token introspection. HTTPS verifies the server's certificate and name (the system's roots, or
// --auth-ca-file); every exchange is bounded in time and size.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcp::detail {

// The server could not be reached or answered with something that is not HTTP.
class FetchFailed : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct FetchResponse {
    unsigned status = 0;
    std::string body;
    std::string cache_control;
    std::string content_type;
};

struct FetchRequest {
    std::string url;
    std::string form_body;  // a POST of application/x-www-form-urlencoded when not empty
    std::string authorization;
};

class HttpFetcher {
public:
    static constexpr std::size_t max_body_bytes = 1024 * 1024;

    // `ca_file`: trust these roots instead of the system's, for HTTPS. Throws
    // std::invalid_argument when the file cannot be used.
    HttpFetcher(boost::asio::io_context& io, const std::string& ca_file, std::chrono::milliseconds timeout);
    ~HttpFetcher();
    HttpFetcher(const HttpFetcher&) = delete;
    HttpFetcher& operator=(const HttpFetcher&) = delete;

    // Throws FetchFailed; any HTTP status is returned, not thrown.
    boost::asio::awaitable<FetchResponse> fetch(const FetchRequest& request);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Whether `url` is an absolute http or https URL this client can fetch.
bool fetchable_url(const std::string& url);

}  // namespace mcp::detail
