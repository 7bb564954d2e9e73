#pragma once
// What the HTTP transport counts (docs/adr/0016-operating-it.md): connections refused at the
// limit, bytes in and out, responses by status, refusals by reason, SSE streams open, and bearer
// token verdicts. Connections open are read when scraped.
#include "util/metrics.hpp"

#include <array>
#include <atomic>

namespace mcp::detail {

// Why the transport refused a request or dropped a connection before the core saw it.
enum class HttpRefusal : std::uint8_t {
    host_origin,      // 403: Host or Origin not allowed (DNS rebinding)
    body_too_large,   // 413
    head_too_large,   // 431
    malformed,        // 400: not HTTP/1.1 the parser accepts
    header_timeout,   // part of a head, then silence past --header-timeout
    body_timeout,     // a body not sent within --body-timeout
    write_timeout,    // a client that stopped reading
    connection_limit  // over --max-connections: closed at accept
};

// Bearer tokens: accepted, or refused for a reason, or not checked (the authorization server away).
enum class TokenOutcome : std::uint8_t { accepted, missing, invalid, insufficient_scope, unavailable };

class HttpMetrics {
public:
    HttpMetrics();
    void refused(HttpRefusal reason) { refusals_[static_cast<std::size_t>(reason)]->add(); }
    void token(TokenOutcome verdict) { tokens_[static_cast<std::size_t>(verdict)]->add(); }
    // One response of this status, with its bytes (head and body).
    void response(unsigned status, std::size_t bytes);

    metrics::Counter& bytes_in;
    metrics::Counter& bytes_out;
    metrics::Gauge& sse_streams;

private:
    std::array<metrics::Counter*, 8> refusals_{};
    std::array<metrics::Counter*, 5> tokens_{};
    metrics::Family& responses_;
    std::array<std::atomic<metrics::Counter*>, 600> by_status_{};
};

HttpMetrics& http_metrics();

}  // namespace mcp::detail
