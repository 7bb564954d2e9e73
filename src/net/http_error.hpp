#pragma once
// What went wrong with an HTTP exchange, as a kind a caller can act on (retry, report, give up)
// and a message that says where it happened. An HTTP status is never an error: it is returned.
#include <stdexcept>
#include <string>

namespace mcp::net {

enum class HttpErrorKind {
    invalid_request,     // not an http(s) URL, a header field that cannot be sent
    resolve,             // the host name did not resolve
    connect,             // no TCP connection
    tls,                 // the TLS handshake failed: certificate, name, protocol
    proxy,               // the proxy refused or broke the CONNECT tunnel
    timeout,             // the deadline, the connect timeout or the stream's idle timeout ran out
    queue_full,          // the origin's queue of waiting requests is full
    cancelled,           // cancel() or the request's stop token
    malformed_response,  // not HTTP/1.x: a bad status line, field or chunk
    headers_too_large,   // the response's head is over max_header_bytes
    body_too_large,      // a whole read's body is over its limit
    connection_closed,   // the connection dropped before the response was complete
};

class HttpError : public std::runtime_error {
public:
    HttpError(HttpErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    HttpErrorKind kind() const noexcept { return kind_; }

private:
    HttpErrorKind kind_;
};

}  // namespace mcp::net
