#include "store/redis/redis_keys.hpp"

namespace mcp::detail::redis_keys {

std::string tagged(std::string_view prefix, std::string_view id) {
    std::string out;
    out.reserve(prefix.size() + id.size() + 3);
    out.append(prefix).append("{");
    if (id.empty()) out += '%';
    for (const char c : id) {
        if (c == '{')
            out += "%7B";
        else if (c == '}')
            out += "%7D";
        else if (c == '%')
            out += "%25";
        else
            out += c;
    }
    out += '}';
    return out;
}

}  // namespace mcp::detail::redis_keys
