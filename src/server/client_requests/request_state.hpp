#pragma once
// The sealed requestState of a 2026-07-28 multi-round-trip request: what a retry must match (the
// method, the params, the principal) and the answers gathered so far. The client holds it; the
// key ring makes it tamper-proof (ADR 0008); a TTL bounds replays.
#include <mcp/security/key_ring.hpp>

#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace mcp::detail {

struct RequestState {
    std::string method;
    std::string params_digest;    // see params_digest()
    std::string principal;        // the subject, "" when anonymous
    boost::json::object answers;  // input key → the client's result
    std::string handler_state;    // Context::set_round_state
    std::int64_t issued_ms = 0;   // system clock, milliseconds since the epoch
};

// SHA-256 (hex) of the params in a canonical form (object keys sorted), without _meta,
// inputResponses and requestState: a retry must carry the same arguments.
std::string params_digest(const boost::json::object& params);

std::string seal_request_state(const KeyRing& keys, const RequestState& state);

// Throws mcp::InvalidParams (-32602) for a token that does not open (altered, another key, another
// purpose), a malformed payload, or one older than `ttl`.
RequestState open_request_state(const KeyRing& keys, std::string_view token, std::chrono::milliseconds ttl);

}  // namespace mcp::detail
