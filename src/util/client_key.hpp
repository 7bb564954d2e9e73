#pragma once
// Who a client is, for the bounds a node keeps per client (docs/adr/0024-fair-limits.md): the
// principal when there is one, else the remote address as the transport reported it (behind
// trusted proxies the forwarded one, IPv6 by its prefix). The two never collide: a principal named
// like an address is still a principal. Empty when neither is known (stdio, in-process): such
// requests have no quota of their own (ClientQuota, FairShare), only the bounds in all, and
// --rate-limit gives them one budget.
#include <string>
#include <string_view>

namespace mcp::detail {

inline std::string client_key(std::string_view subject, std::string_view address) {
    if (!subject.empty()) return "p:" + std::string(subject);
    if (!address.empty()) return "a:" + std::string(address);
    return {};
}

}  // namespace mcp::detail
