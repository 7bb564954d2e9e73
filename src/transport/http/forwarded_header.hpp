#pragma once
// The hops a chain of proxies reports in front of a request, the client first: X-Forwarded-For
// (addresses separated by commas) or RFC 7239 Forwarded (the for= parameter of each element). The
// client writes whatever it likes into these; only the hops a trusted proxy appended mean
// anything (client_address.hpp walks them from the right). Which header the proxies write is the
// operator's to say: reading the other would let a client choose its address.
#include "transport/http/client_address.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace mcp::detail {

enum class ForwardedHeader : unsigned char { x_forwarded_for, forwarded };

// The most hops read, from the right: proxies append, so those nearest the server come last.
inline constexpr std::size_t kMaxForwardedHops = 32;

// The hops of the fields' values (one per field line, in order). A hop that is not an address
// ("unknown", an obfuscated identifier, an element without for=, garbage) is an empty optional; a
// field that cannot be read (an unterminated quoted string) ends the list there, as such a hop.
std::vector<std::optional<Address>> x_forwarded_for_hops(const std::vector<std::string_view>& fields);
std::vector<std::optional<Address>> forwarded_hops(const std::vector<std::string_view>& fields);

}  // namespace mcp::detail
