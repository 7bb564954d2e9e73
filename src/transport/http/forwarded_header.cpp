#include "transport/http/forwarded_header.hpp"

#include "transport/http/guards.hpp"

namespace mcp::detail {

namespace {

// ":4711": a port after an address, one to five digits.
bool port_suffix(std::string_view text) {
    return text.size() >= 2 && text.size() <= 6 && text[0] == ':' &&
           text.find_first_not_of("0123456789", 1) == std::string_view::npos;
}

// An address as a hop gives it: "192.0.2.7", "192.0.2.7:4711", "[2001:db8::1]", "[2001:db8::1]:4711"
// or a bare IPv6 address (X-Forwarded-For writes those). Anything else is no address.
std::optional<Address> hop_address(std::string_view text) {
    text = trim(text);
    if (text.starts_with('[')) {
        const auto close = text.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        if (close + 1 < text.size() && !port_suffix(text.substr(close + 1))) return std::nullopt;
        text = text.substr(1, close - 1);
    } else if (const auto colon = text.find(':'); colon != std::string_view::npos && colon == text.rfind(':')) {
        if (!port_suffix(text.substr(colon))) return std::nullopt;
        text = text.substr(0, colon);  // IPv4 with a port
    }
    // Digits, dots and colons only: the address parser stops at a NUL ("192.0.2.1\0..."), and a
    // zone id ("fe80::1%eth0") names no host.
    if (text.empty() || text.find_first_not_of("0123456789abcdefABCDEF.:") != std::string_view::npos)
        return std::nullopt;
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(std::string(text), ec);
    if (ec) return std::nullopt;
    return unmapped(address);
}

// Splits `text` on `separator` outside quoted strings; false when a quoted string is not closed.
bool split_unquoted(std::string_view text, char separator, std::vector<std::string_view>& out) {
    bool quoted = false;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (quoted && text[i] == '\\') {
            ++i;
        } else if (text[i] == '"') {
            quoted = !quoted;
        } else if (!quoted && text[i] == separator) {
            out.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    if (quoted) return false;
    out.push_back(text.substr(start));
    return true;
}

// The last kMaxForwardedHops of `hops`.
std::vector<std::optional<Address>> nearest(std::vector<std::optional<Address>> hops) {
    if (hops.size() > kMaxForwardedHops) hops.erase(hops.begin(), hops.end() - kMaxForwardedHops);
    return hops;
}

}  // namespace

std::vector<std::optional<Address>> x_forwarded_for_hops(const std::vector<std::string_view>& fields) {
    std::vector<std::optional<Address>> hops;
    for (const auto field : fields) {
        std::size_t start = 0;
        while (start <= field.size()) {
            const auto comma = field.find(',', start);
            const auto item =
                field.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
            if (!trim(item).empty()) hops.push_back(hop_address(item));
            if (comma == std::string_view::npos) break;
            start = comma + 1;
        }
    }
    return nearest(std::move(hops));
}

std::vector<std::optional<Address>> forwarded_hops(const std::vector<std::string_view>& fields) {
    std::vector<std::optional<Address>> hops;
    for (const auto field : fields) {
        std::vector<std::string_view> elements;
        if (!split_unquoted(field, ',', elements)) {
            hops.emplace_back();  // unreadable from here on
            return nearest(std::move(hops));
        }
        for (const auto element : elements) {
            if (trim(element).empty()) continue;
            std::vector<std::string_view> pairs;
            split_unquoted(element, ';', pairs);
            std::optional<std::optional<Address>> hop;
            for (const auto pair : pairs) {
                const auto equals = pair.find('=');
                if (equals == std::string_view::npos || !ascii_iequals(trim(pair.substr(0, equals)), "for")) continue;
                auto value = trim(pair.substr(equals + 1));
                if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
                    value = value.substr(1, value.size() - 2);
                hop = hop_address(value);
            }
            // An element without for= is a hop all the same, one that names no address: skipping it
            // would let the element before it, which the client may have written, pass for it.
            hops.push_back(hop.value_or(std::nullopt));
        }
    }
    return nearest(std::move(hops));
}

}  // namespace mcp::detail
