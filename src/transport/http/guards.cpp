#include "transport/http/guards.hpp"

#include <algorithm>

namespace mcp::detail {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), ascii_lower);
    return out;
}

bool listed(const std::string& host, const std::vector<std::string>& allowed) {
    if (host.empty()) return false;
    return std::any_of(allowed.begin(), allowed.end(), [&](const std::string& a) { return ascii_iequals(a, host); });
}

}  // namespace

std::string host_of_host_header(std::string_view host) {
    host = trim(host);
    if (host.starts_with('[')) {
        const auto close = host.find(']');
        if (close == std::string_view::npos) return {};
        const auto rest = host.substr(close + 1);
        if (!rest.empty() && (rest[0] != ':' || rest.size() == 1)) return {};
        return lower(host.substr(0, close + 1));
    }
    const auto colon = host.find(':');
    if (colon != std::string_view::npos) {
        const auto port = host.substr(colon + 1);
        if (port.empty() || !std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); }))
            return {};
        host = host.substr(0, colon);
    }
    return lower(host);
}

std::string host_of_origin(std::string_view origin) {
    origin = trim(origin);
    const auto scheme = origin.find("://");
    if (scheme == std::string_view::npos) return {};
    const auto s = lower(origin.substr(0, scheme));
    if (s != "http" && s != "https") return {};
    auto authority = origin.substr(scheme + 3);
    if (const auto slash = authority.find('/'); slash != std::string_view::npos) authority = authority.substr(0, slash);
    if (authority.find('@') != std::string_view::npos) return {};  // no userinfo in an Origin
    return host_of_host_header(authority);
}

bool host_allowed(std::string_view host_header, const std::vector<std::string>& allowed) {
    return listed(host_of_host_header(host_header), allowed);
}

bool origin_allowed(std::string_view origin, const std::vector<std::string>& allowed) {
    if (trim(origin).empty()) return true;
    return listed(host_of_origin(origin), allowed);
}

bool accepts(std::string_view accept, std::string_view type) {
    if (trim(accept).empty()) return true;
    const auto family = type.substr(0, type.find('/') + 1);  // "application/", matched by "application/*"
    while (!accept.empty()) {
        const auto comma = accept.find(',');
        auto range = accept.substr(0, comma);
        accept = comma == std::string_view::npos ? std::string_view() : accept.substr(comma + 1);
        if (const auto semi = range.find(';'); semi != std::string_view::npos) range = range.substr(0, semi);
        range = trim(range);
        if (ascii_iequals(range, type) || range == "*/*") return true;
        if (range.size() == family.size() + 1 && range.ends_with('*') &&
            ascii_iequals(range.substr(0, family.size()), family))
            return true;
    }
    return false;
}

bool is_json_content_type(std::string_view content_type) {
    auto media = content_type.substr(0, content_type.find(';'));
    return ascii_iequals(trim(media), "application/json");
}

}  // namespace mcp::detail
