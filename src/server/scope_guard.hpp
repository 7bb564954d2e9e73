#pragma once
// The check that a principal holds the scopes a request's target declares: the first link of the
// interceptor chain, and the filter of list results.
#include <mcp/server/request_context.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

struct CallState;

// The tool, prompt or resource the request names (its entity param); empty for other methods.
std::string_view target_of(const CallState& call);

// Whether the principal holds every scope of `required` (anyone holds none).
bool holds_scopes(const Principal& principal, const std::vector<std::string>& required);
// Throws Refusal (403, insufficient_scope) when a principal lacks one of `required`.
void check_scopes(const Principal* principal, const std::vector<std::string>& required);

}  // namespace mcp::detail
