// Who a client is by address (docs/adr/0024-fair-limits.md): CIDR blocks, IPv6 aggregated by
// prefix, the hops of X-Forwarded-For and Forwarded walked from the right through trusted proxies
// only, and PROXY protocol headers, all with hostile input.
#include "transport/http/client_address.hpp"
#include "transport/http/forwarded_header.hpp"
#include "transport/http/proxy_protocol.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <variant>

using namespace mcp::detail;

namespace {

Address ip(const char* text) { return boost::asio::ip::make_address(text); }

std::string hops_text(const std::vector<std::optional<Address>>& hops) {
    std::string out;
    for (const auto& hop : hops) {
        if (!out.empty()) out += ' ';
        out += hop ? hop->to_string() : "?";
    }
    return out;
}

}  // namespace

TEST(Cidr, MatchesItsBlockAndNothingElse) {
    const auto v4 = Cidr::parse("10.1.0.0/16");
    ASSERT_TRUE(v4);
    EXPECT_TRUE(v4->contains(ip("10.1.255.3")));
    EXPECT_TRUE(v4->contains(ip("::ffff:10.1.2.3")));  // the IPv4-mapped form of an address in it
    EXPECT_FALSE(v4->contains(ip("10.2.0.1")));
    EXPECT_FALSE(v4->contains(ip("::a01:203")));  // IPv4-compatible is not IPv4-mapped
    const auto v6 = Cidr::parse("2001:db8:ab00::/40");
    ASSERT_TRUE(v6);
    EXPECT_TRUE(v6->contains(ip("2001:db8:abff:1::1")));
    EXPECT_FALSE(v6->contains(ip("2001:db8:ac00::1")));
    EXPECT_FALSE(v6->contains(ip("10.1.2.3")));
    const auto one = Cidr::parse("192.0.2.7");
    ASSERT_TRUE(one);
    EXPECT_TRUE(one->contains(ip("192.0.2.7")));
    EXPECT_FALSE(one->contains(ip("192.0.2.8")));
    const auto all = Cidr::parse("0.0.0.0/0");
    ASSERT_TRUE(all);
    EXPECT_TRUE(all->contains(ip("203.0.113.9")));
    EXPECT_FALSE(all->contains(ip("2001:db8::1")));  // every IPv4 address, and no IPv6 one
    EXPECT_TRUE(Cidr::parse("::/0")->contains(ip("2001:db8::1")));
    for (const char* bad : {"", "/", "10.0.0.0/", "10.0.0.0/33", "10.0.0.1/8", "10.0.0.0/-1", "10.0.0.0/8/8",
                            "10.0.0.0/ 8", "10.0.0.0/08x", "2001:db8::/129", "2001:db8::1/64", "localhost", "10.0.0",
                            "1.2.3.4.5", "10.0.0.0/4294967304", "::ffff:10.0.0.0/300"}) {
        EXPECT_FALSE(Cidr::parse(bad)) << bad;
    }
    EXPECT_THROW(TrustedProxies({"10.0.0.0/8", "nginx.internal"}), std::invalid_argument);
}

TEST(ClientAddress, IPv4IsWholeAndIPv6IsItsPrefix) {
    EXPECT_EQ(aggregated(ip("192.0.2.7"), 64), "192.0.2.7");
    EXPECT_EQ(aggregated(ip("::ffff:192.0.2.7"), 64), "192.0.2.7");
    EXPECT_EQ(aggregated(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), 64), "2001:db8:1:2::/64");
    EXPECT_EQ(aggregated(ip("2001:db8:1:2:ffff::1"), 64), aggregated(ip("2001:db8:1:2::9"), 64));
    EXPECT_NE(aggregated(ip("2001:db8:1:2::1"), 64), aggregated(ip("2001:db8:1:3::1"), 64));
    EXPECT_EQ(aggregated(ip("2001:db8:1:2::1"), 48), "2001:db8:1::/48");
    EXPECT_EQ(aggregated(ip("2001:db8:1:2::1"), 128), "2001:db8:1:2::1");
    EXPECT_EQ(aggregated(ip("2001:db8:1:2::1"), 0), "::/0");
}

TEST(ClientAddress, OnlyTrustedProxiesAreLookedThroughFromTheRight) {
    const TrustedProxies proxies({"10.0.0.0/8", "fd00::/8"});
    const std::vector<std::optional<Address>> hops{ip("6.6.6.6"), ip("198.51.100.4"), ip("10.0.0.2")};
    // A trusted peer: past the trusted hops to the first untrusted one from the right; the client's
    // own hop on the left (6.6.6.6) is never reached.
    EXPECT_EQ(client_behind(ip("10.0.0.1"), hops, proxies), ip("198.51.100.4"));
    // An untrusted peer's headers mean nothing.
    EXPECT_EQ(client_behind(ip("198.51.100.9"), hops, proxies), ip("198.51.100.9"));
    // No proxy trusted (the default): always the peer.
    EXPECT_EQ(client_behind(ip("10.0.0.1"), hops, TrustedProxies()), ip("10.0.0.1"));
    // Every hop trusted: the leftmost.
    EXPECT_EQ(client_behind(ip("10.0.0.1"), {ip("10.9.9.9"), ip("fd00::5")}, proxies), ip("10.9.9.9"));
    // A hop that is no address stops at the proxy that forwarded it.
    EXPECT_EQ(client_behind(ip("10.0.0.1"), {ip("198.51.100.4"), std::nullopt, ip("10.0.0.2")}, proxies),
              ip("10.0.0.2"));
    EXPECT_EQ(client_behind(ip("10.0.0.1"), {}, proxies), ip("10.0.0.1"));
}

TEST(ForwardedHeaders, XForwardedForIsReadItemByItem) {
    EXPECT_EQ(hops_text(x_forwarded_for_hops({"203.0.113.7, 10.0.0.2"})), "203.0.113.7 10.0.0.2");
    EXPECT_EQ(hops_text(x_forwarded_for_hops({"203.0.113.7", "10.0.0.2,10.0.0.3"})), "203.0.113.7 10.0.0.2 10.0.0.3");
    EXPECT_EQ(hops_text(x_forwarded_for_hops({"2001:db8::1, [2001:db8::2]:443, 192.0.2.1:8080, ::ffff:192.0.2.9"})),
              "2001:db8::1 2001:db8::2 192.0.2.1 192.0.2.9");
    // Hostile items are hops that name no address, never something else.
    EXPECT_EQ(hops_text(x_forwarded_for_hops({"unknown, evil.example, 1.2.3.4.5, [::1, 10.0.0.1%eth0, fe80::1%lo, "
                                              "\"192.0.2.1\", 192.0.2.1:99999x, 300.1.1.1, 1.2.3.4 5.6.7.8"})),
              "? ? ? ? ? ? ? ? ? ?");
    EXPECT_EQ(hops_text(x_forwarded_for_hops({",,  , 192.0.2.1,"})), "192.0.2.1");
    EXPECT_EQ(hops_text(x_forwarded_for_hops({std::string_view("192.0.2.1\0 10.0.0.1", 19)})), "?");
    // Only the nearest hops are read.
    std::string many;
    for (int i = 0; i < 1000; ++i) many += "192.0.2." + std::to_string(i % 250) + ",";
    many += "10.0.0.1";
    const auto hops = x_forwarded_for_hops({many});
    EXPECT_EQ(hops.size(), kMaxForwardedHops);
    EXPECT_EQ(hops.back(), ip("10.0.0.1"));
}

TEST(ForwardedHeaders, ForwardedIsReadByItsForParameters) {
    EXPECT_EQ(
        hops_text(forwarded_hops({"for=192.0.2.60;proto=http;by=203.0.113.43, For=\"[2001:db8:cafe::17]:4711\""})),
        "192.0.2.60 2001:db8:cafe::17");
    EXPECT_EQ(hops_text(forwarded_hops({"for=192.0.2.43, for=198.51.100.17", "for=\"192.0.2.1:80\""})),
              "192.0.2.43 198.51.100.17 192.0.2.1");
    // Each element is a hop: one without for=, or with an obfuscated or unknown node, names none.
    EXPECT_EQ(hops_text(forwarded_hops({"for=6.6.6.6, proto=https, for=unknown, for=_hidden, for=\"[::1\""})),
              "6.6.6.6 ? ? ? ?");
    // Separators inside quoted strings separate nothing.
    EXPECT_EQ(hops_text(forwarded_hops({"for=\"6.6.6.6, for=7.7.7.7\";by=x, for=192.0.2.1"})), "? 192.0.2.1");
    EXPECT_EQ(hops_text(forwarded_hops({"for=\"a\\\"b,c\", for=192.0.2.1"})), "? 192.0.2.1");
    // A field that cannot be read ends the list with a hop that names nobody: the walk stops at
    // the proxy, whatever the client put after it.
    EXPECT_EQ(hops_text(forwarded_hops({"for=192.0.2.1", "for=\"10.0.0.1", "for=10.0.0.2"})), "192.0.2.1 ?");
}

namespace {

std::string v2(unsigned char version_command, unsigned char family, std::string addresses, std::string tlvs = {}) {
    std::string header("\r\n\r\n\0\r\nQUIT\n", 12);
    const auto length = addresses.size() + tlvs.size();
    header += static_cast<char>(version_command);
    header += static_cast<char>(family);
    header += static_cast<char>(length >> 8);
    header += static_cast<char>(length & 0xff);
    return header + addresses + tlvs;
}

std::string bytes(std::initializer_list<int> values) {
    std::string out;
    for (int v : values) out += static_cast<char>(v);
    return out;
}

ProxyHeader header_of(std::string_view input) {
    auto parsed = parse_proxy_header(input);
    EXPECT_TRUE(std::holds_alternative<ProxyHeader>(parsed)) << testing::PrintToString(std::string(input));
    return std::holds_alternative<ProxyHeader>(parsed) ? std::get<ProxyHeader>(parsed) : ProxyHeader{0, std::nullopt};
}

ProxyVerdict verdict_of(std::string_view input) {
    auto parsed = parse_proxy_header(input);
    EXPECT_TRUE(std::holds_alternative<ProxyVerdict>(parsed)) << testing::PrintToString(std::string(input));
    return std::holds_alternative<ProxyVerdict>(parsed) ? std::get<ProxyVerdict>(parsed) : ProxyVerdict::not_proxy;
}

}  // namespace

TEST(ProxyProtocol, VersionOneLines) {
    const std::string line = "PROXY TCP4 198.51.100.22 203.0.113.7 35646 443\r\n";
    auto h = header_of(line + "GET / HTTP/1.1\r\n");
    EXPECT_EQ(h.length, line.size());
    EXPECT_EQ(h.source, ip("198.51.100.22"));
    EXPECT_EQ(header_of("PROXY TCP6 2001:db8::1 2001:db8::2 1 65535\r\n").source, ip("2001:db8::1"));
    EXPECT_EQ(header_of("PROXY UNKNOWN\r\n").source, std::nullopt);
    EXPECT_EQ(header_of("PROXY UNKNOWN whatever follows\r\nGET").length, 32u);
    EXPECT_EQ(verdict_of("GET / HTTP/1.1\r\n"), ProxyVerdict::not_proxy);
    EXPECT_EQ(verdict_of("PROXY"), ProxyVerdict::need_more);
    EXPECT_EQ(verdict_of("PROXY TCP4 198.51.100.22 203.0"), ProxyVerdict::need_more);
    EXPECT_EQ(verdict_of("PROXYZ"), ProxyVerdict::not_proxy);
    using namespace std::string_literals;
    for (const std::string& bad :
         {"PROXY TCP4 198.51.100.22 203.0.113.7 35646\r\n"s, "PROXY TCP4  198.51.100.22 203.0.113.7 1 2\r\n"s,
          "PROXY TCP4 2001:db8::1 203.0.113.7 1 2\r\n"s, "PROXY TCP6 198.51.100.22 2001:db8::2 1 2\r\n"s,
          "PROXY TCP4 198.51.100.22 203.0.113.7 65536 2\r\n"s, "PROXY TCP4 198.51.100.22 203.0.113.7 01 2\r\n"s,
          "PROXY TCP4 198.51.100.22 203.0.113.7 -1 2\r\n"s, "PROXY TCP4 198.51.100.22 203.0.113.7 1 2 3\r\n"s,
          "PROXY UDP4 198.51.100.22 203.0.113.7 1 2\r\n"s, "PROXY TCP4 host.example 203.0.113.7 1 2\r\n"s,
          "PROXY \r\n"s, "PROXY TCP4 198.51.100.22 203.0.113.7 1 2\n\r\n"s,
          "PROXY TCP4 198.51.100.22\0x 203.0.113.7 1 2\r\n"s}) {
        EXPECT_EQ(verdict_of(bad), ProxyVerdict::invalid) << testing::PrintToString(bad);
    }
    // A line without its CRLF within 107 bytes is no header.
    EXPECT_EQ(verdict_of("PROXY TCP4 " + std::string(200, '1')), ProxyVerdict::invalid);
}

TEST(ProxyProtocol, VersionTwoHeaders) {
    const auto v4 = bytes({198, 51, 100, 22, 203, 0, 113, 7, 0x8b, 0x3e, 0x01, 0xbb});
    auto h = header_of(v2(0x21, 0x11, v4) + "GET");
    EXPECT_EQ(h.length, 28u);
    EXPECT_EQ(h.source, ip("198.51.100.22"));
    std::string v6(36, '\0');
    v6[0] = 0x20, v6[1] = 0x01, v6[2] = 0x0d, v6[3] = static_cast<char>(0xb8), v6[15] = 1;
    EXPECT_EQ(header_of(v2(0x21, 0x21, v6)).source, ip("2001:db8::1"));
    // TLVs after the addresses are skipped; the length covers them.
    EXPECT_EQ(header_of(v2(0x21, 0x11, v4, bytes({0x04, 0x00, 0x02, 'h', 'i'}))).length, 33u);
    // LOCAL (a health check), UNSPEC and UNIX: the balancer's own connection.
    EXPECT_EQ(header_of(v2(0x20, 0x11, v4)).source, std::nullopt);
    EXPECT_EQ(header_of(v2(0x21, 0x00, "")).source, std::nullopt);
    EXPECT_EQ(header_of(v2(0x21, 0x31, std::string(216, 'x'))).source, std::nullopt);
    // Waiting for the rest.
    const auto whole = v2(0x21, 0x11, v4);
    for (std::size_t n = 1; n < whole.size(); ++n)
        EXPECT_EQ(verdict_of(whole.substr(0, n)), ProxyVerdict::need_more) << n;
    // Broken: version, command, family, transport, addresses shorter than the family's, too long.
    EXPECT_EQ(verdict_of(v2(0x11, 0x11, v4)), ProxyVerdict::invalid);
    EXPECT_EQ(verdict_of(v2(0x22, 0x11, v4)), ProxyVerdict::invalid);
    EXPECT_EQ(verdict_of(v2(0x21, 0x41, v4)), ProxyVerdict::invalid);
    EXPECT_EQ(verdict_of(v2(0x21, 0x13, v4)), ProxyVerdict::invalid);
    EXPECT_EQ(verdict_of(v2(0x21, 0x11, v4.substr(0, 11))), ProxyVerdict::invalid);
    EXPECT_EQ(verdict_of(v2(0x21, 0x21, v4)), ProxyVerdict::invalid);
    EXPECT_EQ(verdict_of(v2(0x21, 0x11, v4, std::string(2000, 'x'))), ProxyVerdict::invalid);
    EXPECT_EQ(verdict_of(std::string("\r\n\r\n\0\r\nQUIX\n", 12) + "rest"), ProxyVerdict::not_proxy);
}

TEST(ProxyProtocol, RandomBytesNeverBreakTheParser) {
    std::mt19937 random(7);
    const auto whole = v2(0x21, 0x11, bytes({198, 51, 100, 22, 203, 0, 113, 7, 1, 2, 3, 4}));
    for (int i = 0; i < 20000; ++i) {
        std::string input = i % 2 ? whole : std::string("PROXY TCP4 198.51.100.22 203.0.113.7 1 2\r\n");
        const auto flips = 1 + random() % 4;
        for (unsigned f = 0; f < flips; ++f) input[random() % input.size()] = static_cast<char>(random());
        input.resize(random() % (input.size() + 1));
        auto parsed = parse_proxy_header(input);
        if (auto* h = std::get_if<ProxyHeader>(&parsed)) {
            EXPECT_LE(h->length, input.size());
            EXPECT_GT(h->length, 0u);
        }
    }
}
