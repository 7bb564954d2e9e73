#pragma once
// What a client over one of its quotas is told (docs/adr/0024-fair-limits.md): HTTP 429 with
// Retry-After, JSON-RPC error -32029; and the quota on its calls of user code in flight.
#include <mcp/server/interceptor.hpp>

#include <memory>
#include <string_view>

namespace mcp::detail {

struct CallState;

// The refusal of one more `what` ("sessions", "parked calls") to a client that holds its quota.
Refusal over_client_quota(std::string_view what);

// Takes one of the call's client's places for calls of user code (ClientQuotas::calls), from its
// admission to the end of its first run; false, and the call answered with the refusal, when the
// client holds them all.
bool admit_client_call(const std::shared_ptr<CallState>& call);

}  // namespace mcp::detail
