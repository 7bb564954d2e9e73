#include "transport/http/client_address.hpp"

#include <charconv>
#include <stdexcept>

namespace mcp::detail {

namespace {

// The 16 bytes of an address, IPv4 in its IPv4-mapped IPv6 form.
std::array<unsigned char, 16> bytes_of(const Address& address) {
    if (address.is_v6()) return address.to_v6().to_bytes();
    return boost::asio::ip::make_address_v6(boost::asio::ip::v4_mapped, address.to_v4()).to_bytes();
}

// `bytes` with every bit past the first `prefix` cleared.
std::array<unsigned char, 16> masked(std::array<unsigned char, 16> bytes, unsigned prefix) {
    for (unsigned i = 0; i < 16; ++i) {
        const unsigned kept = prefix >= 8 * (i + 1) ? 8 : prefix > 8 * i ? prefix - 8 * i : 0;
        bytes[i] &= static_cast<unsigned char>(0xff00u >> kept);
    }
    return bytes;
}

}  // namespace

std::optional<Cidr> Cidr::parse(std::string_view text) {
    const auto slash = text.find('/');
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(std::string(text.substr(0, slash)), ec);
    if (ec) return std::nullopt;
    const unsigned width = address.is_v4() ? 32 : 128;
    unsigned prefix = width;
    if (slash != std::string_view::npos) {
        const auto digits = text.substr(slash + 1);
        const auto [end, parsed] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
        if (digits.empty() || parsed != std::errc() || end != digits.data() + digits.size() || prefix > width)
            return std::nullopt;
    }
    Cidr cidr;
    cidr.bytes_ = bytes_of(address);
    cidr.prefix_ = prefix + (128 - width);
    if (masked(cidr.bytes_, cidr.prefix_) != cidr.bytes_) return std::nullopt;  // "10.0.0.1/8": meant 10.0.0.0/8?
    return cidr;
}

bool Cidr::contains(const Address& address) const { return masked(bytes_of(address), prefix_) == bytes_; }

TrustedProxies::TrustedProxies(const std::vector<std::string>& blocks) {
    for (const auto& block : blocks) {
        auto cidr = Cidr::parse(block);
        if (!cidr) throw std::invalid_argument("not an address or CIDR block: " + block);
        blocks_.push_back(*cidr);
    }
}

bool TrustedProxies::trusts(const Address& address) const {
    for (const auto& block : blocks_) {
        if (block.contains(address)) return true;
    }
    return false;
}

Address unmapped(const Address& address) {
    if (address.is_v6() && address.to_v6().is_v4_mapped())
        return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6());
    return address;
}

std::string aggregated(const Address& address, unsigned ipv6_prefix) {
    const auto plain = unmapped(address);
    if (plain.is_v4() || ipv6_prefix >= 128) return plain.to_string();
    const boost::asio::ip::address_v6 network(masked(plain.to_v6().to_bytes(), ipv6_prefix));
    return network.to_string() + "/" + std::to_string(ipv6_prefix);
}

Address client_behind(const Address& peer, const std::vector<std::optional<Address>>& hops,
                      const TrustedProxies& trusted) {
    Address client = peer;
    for (auto hop = hops.rbegin(); hop != hops.rend() && trusted.trusts(client); ++hop) {
        if (!*hop) break;
        client = **hop;
    }
    return client;
}

}  // namespace mcp::detail
