#pragma once
// Interceptors: behaviour around every request without touching the handlers (authorization,
// rate limits, timing, audit). Server::intercept adds one; they run in the order they were added,
// the first outermost, on the thread that serves the request, after the protocol's own checks
// (session rules, routing headers, the scopes a tool declares) and before the method.
//
//   server.intercept([](const mcp::Invocation& call, const mcp::Proceed& next) {
//       const auto start = std::chrono::steady_clock::now();
//       auto result = next();  // the method, and the interceptors after this one
//       record(call.method, call.target, std::chrono::steady_clock::now() - start);
//       return result;
//   });
//
// An interceptor refuses a request by throwing (mcp::Refusal for an HTTP status of its choosing,
// any mcp::Error for a plain JSON-RPC error). It must let other exceptions from next() pass: a
// 2026-07-28 call that needs input from the client unwinds through it, and runs again with the
// answers. With no interceptor installed, a request pays nothing for the mechanism.
#include <mcp/protocol/errors.hpp>
#include <mcp/server/exchange.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {

struct Invocation {
    std::string_view method;
    const boost::json::object& params;
    // Era, client, session and principal (null when anonymous).
    const Exchange& exchange;
    // The tool or prompt name, or the resource URI, the request names; empty for other methods.
    std::string_view target;
    // The OAuth scopes the target declares (ToolSpec::required_scopes, …).
    const std::vector<std::string>& required_scopes;
};

// The rest of the chain; returns the method's result.
using Proceed = std::function<boost::json::value()>;
using Interceptor = std::function<boost::json::value(const Invocation& call, const Proceed& next)>;

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// A refused request: a JSON-RPC error, and over HTTP this status and these headers (e.g. 429 and
// Retry-After). On stdio only the error is sent.
class Refusal : public Error {
public:
    Refusal(unsigned http_status, int code, std::string message, HeaderList headers = {},
            boost::json::value data = nullptr)
        : Error(code, std::move(message), std::move(data)), http_status_(http_status), headers_(std::move(headers)) {}
    unsigned http_status() const noexcept { return http_status_; }
    const HeaderList& headers() const noexcept { return headers_; }
    // For an insufficient_scope refusal: every scope the request needs, which HTTP names in its
    // WWW-Authenticate challenge so that the client can ask for them (step-up).
    const std::vector<std::string>& scopes_needed() const noexcept { return scopes_needed_; }
    Refusal& needs_scopes(std::vector<std::string> scopes) {
        scopes_needed_ = std::move(scopes);
        return *this;
    }

private:
    unsigned http_status_;
    HeaderList headers_;
    std::vector<std::string> scopes_needed_;
};

namespace error_code {
// Refused by an interceptor: the principal lacks a scope (HTTP 403), or is over its rate (429).
inline constexpr int forbidden = -32003;
inline constexpr int rate_limited = -32029;
}  // namespace error_code

// Refuses requests beyond `per_second` per client, with bursts up to `burst`: 429,
// error_code::rate_limited and Retry-After. A client is its principal, else the address the
// transport reports (Exchange::client_address); requests with neither (stdio, in-process) share one
// budget. mcp::run installs it for --rate-limit.
Interceptor rate_limit(double per_second, double burst);

}  // namespace mcp
