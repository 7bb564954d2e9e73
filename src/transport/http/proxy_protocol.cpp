#include "transport/http/proxy_protocol.hpp"

#include <algorithm>
#include <charconv>
#include <string>

namespace mcp::detail {

namespace {

constexpr std::string_view kV1 = "PROXY ";
constexpr std::string_view kV2{"\r\n\r\n\0\r\nQUIT\n", 12};
constexpr std::size_t kV1MaxLine = 107;  // the longest line, CRLF included
constexpr std::size_t kV2Head = 16;      // signature, version and command, family, length

bool starts_like(std::string_view bytes, std::string_view signature) {
    const auto n = std::min(bytes.size(), signature.size());
    return bytes.substr(0, n) == signature.substr(0, n);
}

// A decimal port, 0 to 65535, no sign, no leading zero.
bool port(std::string_view text) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return !text.empty() && ec == std::errc() && end == text.data() + text.size() && value <= 65535 &&
           (text.size() == 1 || text[0] != '0');
}

std::variant<ProxyHeader, ProxyVerdict> parse_v1(std::string_view bytes) {
    const auto end = bytes.substr(0, kV1MaxLine).find("\r\n");
    if (end == std::string_view::npos)
        return bytes.size() < kV1MaxLine ? ProxyVerdict::need_more : ProxyVerdict::invalid;
    const auto line = bytes.substr(kV1.size(), end - kV1.size());
    const ProxyHeader unknown{end + 2, std::nullopt};
    if (line == "UNKNOWN" || line.starts_with("UNKNOWN ")) return unknown;
    // "TCP4 <source> <destination> <source port> <destination port>", single spaces.
    std::string_view fields[5];
    std::size_t at = 0;
    for (std::size_t i = 0; i < 5; ++i) {
        const auto space = i < 4 ? line.find(' ', at) : line.size();
        if (space == std::string_view::npos || space == at) return ProxyVerdict::invalid;
        fields[i] = line.substr(at, space - at);
        at = space + 1;
    }
    const bool v4 = fields[0] == "TCP4";
    if (!v4 && fields[0] != "TCP6") return ProxyVerdict::invalid;
    // The address parser stops at a NUL: only the characters of addresses get to it.
    for (const auto address : {fields[1], fields[2]}) {
        if (address.find_first_not_of("0123456789abcdefABCDEF.:") != std::string_view::npos)
            return ProxyVerdict::invalid;
    }
    boost::system::error_code ec;
    const auto source = boost::asio::ip::make_address(std::string(fields[1]), ec);
    if (ec || source.is_v4() != v4) return ProxyVerdict::invalid;
    const auto destination = boost::asio::ip::make_address(std::string(fields[2]), ec);
    if (ec || destination.is_v4() != v4 || !port(fields[3]) || !port(fields[4])) return ProxyVerdict::invalid;
    return ProxyHeader{end + 2, unmapped(source)};
}

std::variant<ProxyHeader, ProxyVerdict> parse_v2(std::string_view bytes) {
    if (bytes.size() < kV2Head) return ProxyVerdict::need_more;
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
    const unsigned version = byte(12) >> 4;
    const unsigned command = byte(12) & 0x0f;
    const unsigned family = byte(13) >> 4;
    const unsigned transport = byte(13) & 0x0f;
    const std::size_t length = kV2Head + (std::size_t{byte(14)} << 8 | byte(15));
    if (version != 2 || command > 1 || family > 3 || transport > 2 || length > kMaxProxyHeaderBytes)
        return ProxyVerdict::invalid;
    if (bytes.size() < length) return ProxyVerdict::need_more;
    // The address block each family needs: IPv4 12 bytes, IPv6 36, UNIX 216.
    constexpr std::size_t kAddresses[] = {0, 12, 36, 216};
    if (length - kV2Head < kAddresses[family]) return ProxyVerdict::invalid;
    const ProxyHeader own{length, std::nullopt};
    // LOCAL: the balancer's own connection (a health check); UNSPEC and UNIX carry no client address.
    if (command == 0 || family == 0 || family == 3 || transport == 0) return own;
    if (family == 1) {
        boost::asio::ip::address_v4::bytes_type source;
        std::copy_n(bytes.begin() + kV2Head, 4, source.begin());
        return ProxyHeader{length, boost::asio::ip::address_v4(source)};
    }
    boost::asio::ip::address_v6::bytes_type source;
    std::copy_n(bytes.begin() + kV2Head, 16, source.begin());
    return ProxyHeader{length, unmapped(boost::asio::ip::address_v6(source))};
}

}  // namespace

std::variant<ProxyHeader, ProxyVerdict> parse_proxy_header(std::string_view bytes) {
    if (bytes.empty()) return ProxyVerdict::need_more;
    const bool v1 = starts_like(bytes, kV1);
    const bool v2 = starts_like(bytes, kV2);
    if (!v1 && !v2) return ProxyVerdict::not_proxy;
    if (v1 && bytes.size() < kV1.size()) return ProxyVerdict::need_more;
    if (v2 && bytes.size() < kV2.size()) return ProxyVerdict::need_more;
    return v1 ? parse_v1(bytes) : parse_v2(bytes);
}

}  // namespace mcp::detail
