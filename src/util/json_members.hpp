#pragma once
// Several members of a JSON object found in one pass over it.
#include <boost/json/object.hpp>

#include <array>
#include <cstddef>
#include <string_view>

namespace mcp::detail {

// The values of the members called `names`, null for each the object lacks. One pass: a lookup
// per name (most of them misses, on a request's hot path) costs more than reading each key once.
template <std::size_t N>
std::array<const boost::json::value*, N> members_named(const boost::json::object& object,
                                                       const std::array<std::string_view, N>& names) {
    std::array<const boost::json::value*, N> found{};
    for (const auto& member : object) {
        const std::string_view key = member.key();
        for (std::size_t i = 0; i < N; ++i) {
            if (key == names[i]) {
                found[i] = &member.value();
                break;
            }
        }
    }
    return found;
}

}  // namespace mcp::detail
