#pragma once
// Who a client is by its address (docs/adr/0024-fair-limits.md): the peer of its connection, or,
// when that peer is a trusted proxy, the address the proxies forwarded; IPv4 whole, IPv6 by its
// prefix, since one host holds a whole /64.
#include <boost/asio/ip/address.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

using Address = boost::asio::ip::address;

// A block of addresses ("192.0.2.0/24", "2001:db8::/32"), or one address ("192.0.2.7"). An IPv4
// block also holds the IPv4-mapped IPv6 forms of its addresses.
class Cidr {
public:
    // Nothing for anything else: bits set past the prefix, a prefix too long, a host name.
    static std::optional<Cidr> parse(std::string_view text);
    bool contains(const Address& address) const;

private:
    std::array<unsigned char, 16> bytes_{};  // IPv4 in the IPv4-mapped form
    unsigned prefix_ = 0;                    // of the 128 bits
};

// The proxies whose forwarding headers and PROXY protocol headers are believed; none by default.
class TrustedProxies {
public:
    TrustedProxies() = default;
    // Throws std::invalid_argument naming the first entry that is not a CIDR block.
    explicit TrustedProxies(const std::vector<std::string>& blocks);
    bool trusts(const Address& address) const;
    bool empty() const { return blocks_.empty(); }

private:
    std::vector<Cidr> blocks_;
};

// An IPv4-mapped IPv6 address as the IPv4 address it is; any other unchanged.
Address unmapped(const Address& address);

// The address as the client key's address part: IPv4 whole, IPv6 cut to its first `ipv6_prefix`
// bits ("2001:db8:1:2::/64"; the address itself at 128).
std::string aggregated(const Address& address, unsigned ipv6_prefix);

// The client behind a connection from `peer`: while the address reached so far is a trusted
// proxy, the hop it forwarded (the last of `hops` not yet taken, `hops` listing the client
// first); a hop that is no address stops the walk at the proxy that forwarded it. `peer` itself
// when it is not trusted.
Address client_behind(const Address& peer, const std::vector<std::optional<Address>>& hops,
                      const TrustedProxies& trusted);

}  // namespace mcp::detail
