#pragma once
// The PROXY protocol header an L4 balancer writes before a connection's own bytes, naming the
// client it accepted the connection from (version 1, text, and version 2, binary:
// https://www.haproxy.org/download/2.8/doc/proxy-protocol.txt). Read from trusted proxies only.
#include "transport/http/client_address.hpp"

#include <cstddef>
#include <optional>
#include <string_view>
#include <variant>

namespace mcp::detail {

// A whole header: its length in bytes, and the client's address; nothing for a connection the
// balancer made itself (v1 UNKNOWN, v2 LOCAL, a family without addresses), which is then the
// balancer's own.
struct ProxyHeader {
    std::size_t length;
    std::optional<Address> source;
};

enum class ProxyVerdict : unsigned char {
    not_proxy,  // the bytes start as no header does: the connection's own bytes
    need_more,  // a header so far, not yet whole
    invalid,    // a header that breaks the format: the connection is refused
};

// The longest header read: a v1 line is at most 107 bytes; a v2 header is 16 bytes and its
// addresses (216 for UNIX sockets) and TLVs, which are skipped.
inline constexpr std::size_t kMaxProxyHeaderBytes = 1024;

// Reads a header at the start of `bytes` (the connection's first bytes, as many as have come).
std::variant<ProxyHeader, ProxyVerdict> parse_proxy_header(std::string_view bytes);

}  // namespace mcp::detail
