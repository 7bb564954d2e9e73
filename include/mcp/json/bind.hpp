#pragma once
// Typed binding between Boost.JSON values and C++ types: bool, integers, floating point,
// std::string, described enums (as their enumerator names), std::optional, std::vector, std::set,
// string-keyed maps, described structs (BOOST_DESCRIBE_STRUCT), Boost.JSON values themselves, and
// any type with an Adapter<T> specialization. Decoding also binds views into the source value,
// valid only while it lives: std::string_view, and const boost::json::value*, object* or array*
// (nullptr when the member is absent or null).
//
//   auto greet = mcp::json::from_json<Greet>(value);   // throws BindError naming the field
//   boost::json::value v = mcp::json::to_json(greet);
#include <mcp/json/traits.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp::json {

// A value that does not fit the C++ type. path() is a JSON Pointer ("" is the root).
class BindError : public std::runtime_error {
public:
    BindError(std::string path, std::string detail);
    const std::string& path() const noexcept { return path_; }
    const std::string& detail() const noexcept { return detail_; }

private:
    std::string path_;
    std::string detail_;
};

namespace detail {

// The location being decoded, as a chain of stack frames; turned into a string only on error.
struct Path {
    const Path* parent = nullptr;
    std::string_view key;
    std::size_t index = 0;
    bool is_index = false;

    Path child(std::string_view k) const { return Path{this, k, 0, false}; }
    Path at(std::size_t i) const { return Path{this, {}, i, true}; }
    std::string str() const;
};

[[noreturn]] void fail(const Path& path, std::string detail);
[[noreturn]] void fail_kind(const Path& path, std::string_view expected, const boost::json::value& got);

bool read_bool(const boost::json::value& v, const Path& path);
std::int64_t read_int64(const boost::json::value& v, const Path& path, std::int64_t lo, std::int64_t hi);
std::uint64_t read_uint64(const boost::json::value& v, const Path& path, std::uint64_t hi);
double read_double(const boost::json::value& v, const Path& path);
const boost::json::string& read_string(const boost::json::value& v, const Path& path);
const boost::json::object& read_object(const boost::json::value& v, const Path& path);
const boost::json::array& read_array(const boost::json::value& v, const Path& path);

template <class T>
void decode(const boost::json::value& v, T& out, const Path& path);

template <class T>
void decode_enum(const boost::json::value& v, T& out, const Path& path) {
    const auto& s = read_string(v, path);
    bool found = false;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto e) {
        if (!found && s == e.name) {
            out = e.value;
            found = true;
        }
    });
    if (!found) fail(path, "\"" + std::string(s) + "\" is not one of the allowed values");
}

template <class T>
void decode_struct(const boost::json::object& obj, T& out, const Path& path) {
    boost::mp11::mp_for_each<described_members<T>>([&](auto member) {
        using M = std::remove_cvref_t<decltype(out.*member.pointer)>;
        const Path field = path.child(member.name);
        if (const auto* found = obj.if_contains(member.name)) {
            decode(*found, out.*member.pointer, field);
        } else if constexpr (is_optional<M>::value) {
            out.*member.pointer = std::nullopt;
        } else if constexpr (is_json_view<M>) {
            out.*member.pointer = nullptr;
        } else {
            fail(path, std::string("missing required property \"") + member.name + "\"");
        }
    });
}

template <class T>
void decode(const boost::json::value& v, T& out, const Path& path) {
    if constexpr (has_adapter<T>) {
        out = Adapter<T>::from_json(v);
    } else if constexpr (std::is_same_v<T, boost::json::value>) {
        out = v;
    } else if constexpr (std::is_same_v<T, boost::json::object>) {
        out = read_object(v, path);
    } else if constexpr (std::is_same_v<T, boost::json::array>) {
        out = read_array(v, path);
    } else if constexpr (std::is_same_v<T, bool>) {
        out = read_bool(v, path);
    } else if constexpr (is_integer<T> && std::is_signed_v<T>) {
        out = static_cast<T>(read_int64(v, path, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
    } else if constexpr (is_integer<T>) {
        out = static_cast<T>(read_uint64(v, path, std::numeric_limits<T>::max()));
    } else if constexpr (std::is_floating_point_v<T>) {
        out = static_cast<T>(read_double(v, path));
    } else if constexpr (std::is_same_v<T, std::string>) {
        out.assign(read_string(v, path));
    } else if constexpr (std::is_same_v<T, std::string_view>) {
        out = read_string(v, path);
    } else if constexpr (std::is_same_v<T, const boost::json::value*>) {
        out = v.is_null() ? nullptr : &v;
    } else if constexpr (std::is_same_v<T, const boost::json::object*>) {
        out = v.is_null() ? nullptr : &read_object(v, path);
    } else if constexpr (std::is_same_v<T, const boost::json::array*>) {
        out = v.is_null() ? nullptr : &read_array(v, path);
    } else if constexpr (is_described_enum<T>) {
        decode_enum(v, out, path);
    } else if constexpr (is_optional<T>::value) {
        if (v.is_null()) {
            out.reset();
        } else {
            typename T::value_type inner{};
            decode(v, inner, path);
            out = std::move(inner);
        }
    } else if constexpr (is_vector<T>::value || is_set<T>::value) {
        const auto& arr = read_array(v, path);
        out.clear();
        if constexpr (is_vector<T>::value) out.reserve(arr.size());
        for (std::size_t i = 0; i < arr.size(); ++i) {
            typename T::value_type item{};
            decode(arr[i], item, path.at(i));
            if constexpr (is_vector<T>::value) {
                out.push_back(std::move(item));
            } else if (!out.insert(std::move(item)).second) {
                fail(path.at(i), "duplicate item");
            }
        }
    } else if constexpr (is_string_map<T>::value) {
        const auto& obj = read_object(v, path);
        out.clear();
        for (const auto& kv : obj) {
            typename T::mapped_type item{};
            decode(kv.value(), item, path.child(kv.key()));
            out.emplace(std::string(kv.key()), std::move(item));
        }
    } else if constexpr (is_described_struct<T>) {
        decode_struct(read_object(v, path), out, path);
    } else {
        static_assert(sizeof(T) == 0,
                      "mcp::json cannot bind this type: describe it with BOOST_DESCRIBE_STRUCT / "
                      "BOOST_DESCRIBE_ENUM, or specialize mcp::json::Adapter<T>");
    }
}

template <class T>
boost::json::value encode(const T& in);

template <class T>
boost::json::value encode_enum(const T& in) {
    const char* name = nullptr;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto e) {
        if (in == e.value) name = e.name;
    });
    if (name == nullptr) throw BindError("", "enum value outside its described enumerators");
    return boost::json::string(name);
}

template <class T>
boost::json::value encode(const T& in) {
    if constexpr (has_adapter<T>) {
        return Adapter<T>::to_json(in);
    } else if constexpr (std::is_same_v<T, boost::json::value> || std::is_same_v<T, boost::json::object> ||
                         std::is_same_v<T, boost::json::array>) {
        return boost::json::value(in);
    } else if constexpr (std::is_same_v<T, bool>) {
        return boost::json::value(in);
    } else if constexpr (is_integer<T> && std::is_signed_v<T>) {
        return boost::json::value(static_cast<std::int64_t>(in));
    } else if constexpr (is_integer<T>) {
        return boost::json::value(static_cast<std::uint64_t>(in));
    } else if constexpr (std::is_floating_point_v<T>) {
        return boost::json::value(static_cast<double>(in));
    } else if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>) {
        return boost::json::string(in);
    } else if constexpr (is_json_view<T>) {
        return in != nullptr ? boost::json::value(*in) : boost::json::value(nullptr);
    } else if constexpr (is_described_enum<T>) {
        return encode_enum(in);
    } else if constexpr (is_optional<T>::value) {
        return in ? encode(*in) : boost::json::value(nullptr);
    } else if constexpr (is_vector<T>::value || is_set<T>::value) {
        boost::json::array arr;
        arr.reserve(in.size());
        for (const auto& item : in) arr.push_back(encode(item));
        return arr;
    } else if constexpr (is_string_map<T>::value) {
        boost::json::object obj;
        for (const auto& [k, item] : in) obj.emplace(k, encode(item));
        return obj;
    } else if constexpr (is_described_struct<T>) {
        boost::json::object obj;
        boost::mp11::mp_for_each<described_members<T>>([&](auto member) {
            using M = std::remove_cvref_t<decltype(in.*member.pointer)>;
            if constexpr (is_optional<M>::value || is_json_view<M>) {
                if (!(in.*member.pointer)) return;  // absent, not null
            }
            obj.emplace(member.name, encode(in.*member.pointer));
        });
        return obj;
    } else {
        static_assert(sizeof(T) == 0,
                      "mcp::json cannot bind this type: describe it with BOOST_DESCRIBE_STRUCT / "
                      "BOOST_DESCRIBE_ENUM, or specialize mcp::json::Adapter<T>");
    }
}

}  // namespace detail

template <class T>
T from_json(const boost::json::value& v) {
    T out{};
    detail::decode(v, out, detail::Path{});
    return out;
}

// Binds an object without copying it into a value first (tool arguments can be large).
template <class T>
T from_json(const boost::json::object& obj) {
    T out{};
    if constexpr (detail::is_described_struct<T>) {
        detail::decode_struct(obj, out, detail::Path{});
    } else if constexpr (std::is_same_v<T, boost::json::object>) {
        out = obj;
    } else {
        detail::decode(boost::json::value(obj), out, detail::Path{});
    }
    return out;
}

template <class T>
boost::json::value to_json(const T& in) {
    return detail::encode(in);
}

}  // namespace mcp::json
