#pragma once
// Type classification shared by the binder (bind.hpp) and the schema generator (schema.hpp).
#include <boost/describe/enumerators.hpp>
#include <boost/describe/members.hpp>
#include <boost/json/fwd.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace mcp::json {

// Customization point for types the binder does not know: specialize with
//   static boost::json::value to_json(const T&);
//   static T from_json(const boost::json::value&);   // throw BindError (or anything) on bad input
//   static boost::json::object schema();
template <class T>
struct Adapter;

namespace detail {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

template <class T>
struct is_set : std::false_type {};
template <class T, class C, class A>
struct is_set<std::set<T, C, A>> : std::true_type {};

template <class T>
struct is_string_map : std::false_type {};
template <class V, class C, class A>
struct is_string_map<std::map<std::string, V, C, A>> : std::true_type {};
template <class V, class H, class E, class A>
struct is_string_map<std::unordered_map<std::string, V, H, E, A>> : std::true_type {};

template <class T>
inline constexpr bool is_described_struct = boost::describe::has_describe_members<T>::value&& std::is_class_v<T>;
template <class T>
inline constexpr bool is_described_enum = boost::describe::has_describe_enumerators<T>::value;

template <class T>
inline constexpr bool has_adapter = requires {
    sizeof(Adapter<T>);
};

template <class T>
inline constexpr bool is_integer = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// Views into the value being decoded, for reading without copying: valid while it lives.
template <class T>
inline constexpr bool is_json_view =
    std::is_same_v<T, const boost::json::value*> || std::is_same_v<T, const boost::json::object*> ||
    std::is_same_v<T, const boost::json::array*>;

template <class T>
using described_members =
    boost::describe::describe_members<T, boost::describe::mod_public | boost::describe::mod_inherited>;

}  // namespace detail
}  // namespace mcp::json
