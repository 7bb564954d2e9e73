#include "bridge/mount_names.hpp"

#include <cctype>
#include <cstddef>

namespace mcp::detail {

namespace {

constexpr std::size_t kMaxName = 64;

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.'; }

// The length of the URI's scheme (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) before
// ':'); 0 when it has none.
std::size_t scheme_length(std::string_view uri) {
    const auto colon = uri.find(':');
    if (colon == std::string_view::npos || colon == 0) return 0;
    if (std::isalpha(static_cast<unsigned char>(uri[0])) == 0) return 0;
    for (std::size_t i = 1; i < colon; ++i) {
        const char c = uri[i];
        if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '+' && c != '-' && c != '.') return 0;
    }
    return colon;
}

// Where the part after the scheme starts that the prefix goes in front of: past "://" when the
// URI has an authority, else past ':'.
std::size_t insertion_point(std::string_view uri, std::size_t scheme) {
    return uri.substr(scheme + 1).starts_with("//") ? scheme + 3 : scheme + 1;
}

}  // namespace

std::string mount_prefix(std::string_view name) {
    std::string prefix(name);
    for (char& c : prefix) {
        if (!name_char(c)) c = '_';
    }
    return prefix;
}

std::optional<std::string> mounted_name(std::string_view prefix, std::string_view name) {
    if (prefix.empty()) return std::string(name);
    if (prefix.size() + 1 + name.size() > kMaxName) return std::nullopt;
    std::string outer(prefix);
    outer += '_';
    outer += name;
    return outer;
}

std::optional<std::string> mounted_uri(std::string_view prefix, std::string_view uri) {
    const std::size_t scheme = scheme_length(uri);
    if (scheme == 0) return std::nullopt;
    if (prefix.empty()) return std::string(uri);
    const std::size_t at = insertion_point(uri, scheme);
    std::string outer(uri.substr(0, at));
    outer += prefix;
    outer += '/';
    outer += uri.substr(at);
    return outer;
}

std::optional<std::string> unmounted_uri(std::string_view prefix, std::string_view uri) {
    const std::size_t scheme = scheme_length(uri);
    if (scheme == 0) return std::nullopt;
    if (prefix.empty()) return std::string(uri);
    const std::size_t at = insertion_point(uri, scheme);
    const std::string_view rest = uri.substr(at);
    if (!rest.starts_with(prefix) || rest.substr(prefix.size()).substr(0, 1) != "/") return std::nullopt;
    std::string inner(uri.substr(0, at));
    inner += rest.substr(prefix.size() + 1);
    return inner;
}

}  // namespace mcp::detail
