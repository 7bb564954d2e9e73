#pragma once
// Who is asking and in which trace: what travels with a request from the transport thread to its
// handler. The principal comes from an authenticator (HTTP); the trace context from the
// traceparent/tracestate headers or params._meta; the log fields describe the request.
#include <boost/json/object.hpp>

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {

struct Principal {
    std::string subject;  // e.g. a token's "sub"
    std::vector<std::string> scopes;
    boost::json::object claims;  // anything else the authenticator keeps
};

// What an authenticator sees of an HTTP request.
struct HttpRequestView {
    std::string_view method;
    std::string_view target;
    // A header's value (names compare case-insensitively), empty when absent.
    std::function<std::string_view(std::string_view name)> header;
};

// Throw from an authenticator to answer 401 with this WWW-Authenticate challenge.
class Unauthorized : public std::runtime_error {
public:
    explicit Unauthorized(const std::string& message, std::string challenge = "Bearer")
        : std::runtime_error(message), challenge_(std::move(challenge)) {}
    const std::string& challenge() const noexcept { return challenge_; }

private:
    std::string challenge_;
};

// Runs on the transport thread before the request reaches the core. Returns the principal, or
// nullptr for an anonymous request; throws Unauthorized to refuse it. Thread-locals it sets are
// carried to the handler by the context snapshot, and cleared on the transport thread after.
using Authenticator = std::function<std::shared_ptr<const Principal>(const HttpRequestView& request)>;

// A W3C trace id (32 lower-case hex digits) or span id (16) as text, held inline so that a
// request's context costs no allocation; empty when there is none. Text of another length is
// not an id: it leaves the id empty.
template <std::size_t Digits>
class HexId {
public:
    HexId() = default;
    HexId(std::string_view hex) {  // NOLINT(google-explicit-constructor)
        if (hex.size() != Digits) return;
        std::copy(hex.begin(), hex.end(), digits_.begin());
        set_ = true;
    }
    explicit HexId(const std::array<char, Digits>& digits) : digits_(digits), set_(true) {}
    bool empty() const { return !set_; }
    std::size_t size() const { return set_ ? Digits : 0; }
    std::string_view view() const { return set_ ? std::string_view(digits_.data(), Digits) : std::string_view(); }
    operator std::string_view() const { return view(); }  // NOLINT(google-explicit-constructor)
    std::string str() const { return std::string(view()); }
    friend bool operator==(const HexId& a, const HexId& b) { return a.view() == b.view(); }
    friend bool operator==(const HexId& a, std::string_view b) { return a.view() == b; }

private:
    std::array<char, Digits> digits_{};
    bool set_ = false;
};

// W3C trace context of the request being served (https://www.w3.org/TR/trace-context/). A
// traceparent that is not well-formed is dropped, and its tracestate with it.
struct TraceContext {
    std::string traceparent;  // the caller's, as it came
    std::string tracestate;   // the caller's (at most 512 characters)
    // With a traceparent: the caller's trace and this request's span in it.
    HexId<32> trace_id;
    HexId<16> span_id;
    // This server records the request's span (tracing on, the trace sampled). Without a caller's
    // traceparent it is what child_traceparent's flags say.
    bool sampled = false;
    // The traceparent names a span this process recorded (the HTTP transport's `verify token`),
    // not the caller's: the request's span then has a parent in the same process (IS_REMOTE unset).
    bool parent_local = false;
    // The traceparent for what this request calls (the client, other services): the same trace,
    // with this request's span as the parent. Empty without a trace.
    std::string child_traceparent() const;
};

using LogFields = std::vector<std::pair<std::string, std::string>>;

// Valid on a handler thread while it serves a request (restored there by the context snapshot);
// empty elsewhere.
const TraceContext& current_trace();
// mcp.request.id, mcp.method, mcp.session (2025 sessions), mcp.client, mcp.principal (the
// subject, when authenticated), for the application's logs.
const LogFields& current_log_fields();

}  // namespace mcp
