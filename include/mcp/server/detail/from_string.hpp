#pragma once
// Conversion of string values (prompt arguments, URI template variables) to typed parameters.
#include <mcp/json/traits.hpp>

#include <boost/mp11/algorithm.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

// Each throws mcp::InvalidParams naming `what` when the text does not fit.
std::int64_t parse_int64(std::string_view text, std::string_view what, std::int64_t lo, std::int64_t hi);
std::uint64_t parse_uint64(std::string_view text, std::string_view what, std::uint64_t hi);
double parse_double(std::string_view text, std::string_view what);
bool parse_bool(std::string_view text, std::string_view what);
[[noreturn]] void fail_enum(std::string_view text, std::string_view what);

// The parameter type without std::optional.
template <class M>
struct unwrap_optional {
    using type = M;
};
template <class M>
struct unwrap_optional<std::optional<M>> {
    using type = M;
};
template <class M>
using value_type_of = typename unwrap_optional<M>::type;

template <class T>
inline constexpr bool is_string_convertible = std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view> ||
                                              std::is_arithmetic_v<T> || json::detail::is_described_enum<T>;

template <class T>
T from_string(std::string_view text, std::string_view what) {
    if constexpr (std::is_same_v<T, std::string>) {
        return std::string(text);
    } else if constexpr (std::is_same_v<T, std::string_view>) {
        return text;
    } else if constexpr (std::is_same_v<T, bool>) {
        return parse_bool(text, what);
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        return static_cast<T>(parse_int64(text, what, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
    } else if constexpr (std::is_integral_v<T>) {
        return static_cast<T>(parse_uint64(text, what, std::numeric_limits<T>::max()));
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(parse_double(text, what));
    } else if constexpr (json::detail::is_described_enum<T>) {
        std::optional<T> found;
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto e) {
            if (!found && text == e.name) found = e.value;
        });
        if (!found) fail_enum(text, what);
        return *found;
    } else {
        static_assert(sizeof(T) == 0, "this parameter type cannot be read from a string");
    }
}

// The allowed values of an enum parameter, for completions; empty for other types.
template <class T>
std::vector<std::string> enum_values() {
    std::vector<std::string> out;
    if constexpr (json::detail::is_described_enum<T>) {
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto e) { out.emplace_back(e.name); });
    }
    return out;
}

}  // namespace mcp::detail
