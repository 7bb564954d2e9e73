#pragma once
// JSON Schema (2020-12) generated from C++ types, the same set of types bind.hpp binds.
// A described struct becomes {"type":"object","properties":…,"required":[…]}: every field is
// required unless it is a std::optional. Descriptions and constraints are attached with an
// mcp_schema() function found by argument-dependent lookup next to the struct:
//
//   struct Greet { std::string name; std::optional<int> times; };
//   BOOST_DESCRIBE_STRUCT(Greet, (), (name, times))
//   inline void mcp_schema(mcp::json::SchemaHints<Greet>& h) {
//       h.field(&Greet::name).description("Who to greet").min_length(1);
//       h.field(&Greet::times).description("How many times").minimum(1).maximum(10);
//   }
#include <mcp/json/traits.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <typeindex>
#include <utility>
#include <vector>

namespace mcp::json {

// Keywords added to one generated schema node. Each setter returns *this for chaining.
class FieldHints {
public:
    FieldHints& description(const std::string& text);
    FieldHints& title(const std::string& text);
    FieldHints& minimum(double v);
    FieldHints& maximum(double v);
    FieldHints& exclusive_minimum(double v);
    FieldHints& exclusive_maximum(double v);
    FieldHints& multiple_of(double v);
    FieldHints& min_length(std::size_t n);
    FieldHints& max_length(std::size_t n);
    FieldHints& pattern(const std::string& ecma_regex);
    FieldHints& format(const std::string& name);  // annotation only: not enforced
    FieldHints& min_items(std::size_t n);
    FieldHints& max_items(std::size_t n);
    FieldHints& default_value(boost::json::value v);
    FieldHints& examples(boost::json::array values);
    FieldHints& deprecated(bool yes = true);
    // Any other keyword, set verbatim (e.g. "x-mcp-header").
    FieldHints& keyword(std::string_view name, boost::json::value v);

    const boost::json::object& keywords() const { return keywords_; }

private:
    boost::json::object keywords_;
};

class SchemaHintsBase {
public:
    // Keywords for the object itself.
    FieldHints& self() { return self_; }
    SchemaHintsBase& description(const std::string& text) {
        self_.description(text);
        return *this;
    }
    SchemaHintsBase& title(const std::string& text) {
        self_.title(text);
        return *this;
    }
    // additionalProperties:false — unknown arguments are refused instead of ignored.
    SchemaHintsBase& strict() {
        self_.keyword("additionalProperties", false);
        return *this;
    }

    // Merges the collected keywords into a generated object schema.
    void apply(boost::json::object& schema) const;
    // The hints given for one property (nullptr if none).
    const FieldHints* find(std::string_view field) const;

protected:
    FieldHints& field_named(std::string_view name);

private:
    FieldHints self_;
    std::vector<std::pair<std::string, FieldHints>> fields_;
};

template <class T>
class SchemaHints : public SchemaHintsBase {
public:
    template <class M>
    FieldHints& field(M T::*member) {
        const char* name = nullptr;
        boost::mp11::mp_for_each<detail::described_members<T>>([&](auto d) {
            if constexpr (std::is_same_v<std::remove_cv_t<decltype(d.pointer)>, M T::*>) {
                if (d.pointer == member) name = d.name;
            }
        });
        if (name == nullptr) throw std::invalid_argument("SchemaHints::field: member is not described");
        return field_named(name);
    }
};

namespace detail {

// Bookkeeping for recursive structs: the first time a struct refers to itself (directly or
// through others) it moves to "$defs" and is referenced with "$ref".
class SchemaBuilder {
public:
    // Returns true (and a $ref in `ref`) when `type` is already being generated.
    bool enter(std::type_index type, boost::json::object& ref);
    void leave(std::type_index type, boost::json::object& schema);
    // Attaches "$defs" to the root schema when recursion needed them.
    void finish(boost::json::object& root);

private:
    struct Frame {
        std::type_index type;
        bool recursive = false;
    };
    std::vector<Frame> stack_;
    std::vector<std::pair<std::type_index, std::string>> names_;
    boost::json::object defs_;
    std::string name_of(std::type_index type);
};

boost::json::object schema_type(std::string_view type);
boost::json::object integer_schema(bool is_unsigned);
boost::json::object array_schema(boost::json::object items, bool unique);
boost::json::object map_schema(boost::json::object values);
boost::json::object enum_schema(const std::vector<std::string_view>& names);
void add_property(boost::json::object& schema, std::string_view name, boost::json::object property, bool required);

template <class T>
boost::json::object generate(SchemaBuilder& b);

template <class T>
boost::json::object generate_struct(SchemaBuilder& b) {
    boost::json::object schema;
    if (b.enter(typeid(T), schema)) return schema;
    schema = schema_type("object");
    schema["properties"] = boost::json::object();
    SchemaHints<T> hints;
    if constexpr (requires(SchemaHints<T> & h) { mcp_schema(h); }) mcp_schema(hints);
    boost::mp11::mp_for_each<described_members<T>>([&](auto member) {
        using M = std::remove_cvref_t<decltype(std::declval<T&>().*member.pointer)>;
        boost::json::object property;
        if constexpr (is_optional<M>::value) {
            property = generate<typename M::value_type>(b);
        } else {
            property = generate<M>(b);
        }
        if (const FieldHints* h = hints.find(member.name)) {
            for (const auto& kv : h->keywords()) property[kv.key()] = kv.value();
        }
        add_property(schema, member.name, std::move(property), !is_optional<M>::value);
    });
    hints.apply(schema);
    b.leave(typeid(T), schema);
    return schema;
}

template <class T>
boost::json::object generate(SchemaBuilder& b) {
    if constexpr (has_adapter<T>) {
        return Adapter<T>::schema();
    } else if constexpr (std::is_same_v<T, boost::json::value>) {
        return {};
    } else if constexpr (std::is_same_v<T, boost::json::object>) {
        return schema_type("object");
    } else if constexpr (std::is_same_v<T, boost::json::array>) {
        return schema_type("array");
    } else if constexpr (std::is_same_v<T, bool>) {
        return schema_type("boolean");
    } else if constexpr (is_integer<T>) {
        return integer_schema(std::is_unsigned_v<T>);
    } else if constexpr (std::is_floating_point_v<T>) {
        return schema_type("number");
    } else if constexpr (std::is_same_v<T, std::string>) {
        return schema_type("string");
    } else if constexpr (is_described_enum<T>) {
        std::vector<std::string_view> names;
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto e) { names.push_back(e.name); });
        return enum_schema(names);
    } else if constexpr (is_optional<T>::value) {
        // Outside a struct field an optional is a nullable value.
        auto inner = generate<typename T::value_type>(b);
        boost::json::object schema;
        schema["anyOf"] = boost::json::array{std::move(inner), schema_type("null")};
        return schema;
    } else if constexpr (is_vector<T>::value || is_set<T>::value) {
        return array_schema(generate<typename T::value_type>(b), is_set<T>::value);
    } else if constexpr (is_string_map<T>::value) {
        return map_schema(generate<typename T::mapped_type>(b));
    } else if constexpr (is_described_struct<T>) {
        return generate_struct<T>(b);
    } else {
        static_assert(sizeof(T) == 0,
                      "mcp::json cannot make a schema for this type: describe it with "
                      "BOOST_DESCRIBE_STRUCT / BOOST_DESCRIBE_ENUM, or specialize mcp::json::Adapter<T>");
    }
}

}  // namespace detail

// The JSON Schema of T.
template <class T>
boost::json::object schema_of() {
    detail::SchemaBuilder b;
    auto root = detail::generate<T>(b);
    b.finish(root);
    return root;
}

}  // namespace mcp::json
