#pragma once
// The compiled form of a schema: one Node per subschema, with every local $ref resolved to a Node
// pointer. Nodes point into the schema document owned by CompiledSchema and live as long as it.
#include "json/schema_regex.hpp"

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace mcp::json::schema_impl {

// Subschema nesting accepted in a schema document.
inline constexpr std::size_t kMaxSchemaDepth = 512;
// Nested schema applications to one instance location ($ref, allOf, not, ...): a $ref cycle that
// consumes no instance depth stops here.
inline constexpr unsigned kMaxInPlaceDepth = 256;
// All nested schema applications, which bounds the evaluator's stack use on deep instances
// (about 400 bytes per application in a release build).
inline constexpr unsigned kMaxEvalDepth = 2048;
// Schema applications in one validation. Recursive anyOf/oneOf branches can make the work
// exponential in the instance depth; this turns that into an error after a fraction of a second.
inline constexpr std::uint64_t kMaxEvalSteps = 20'000'000;
// Pairwise equality checks allowed for one uniqueItems evaluation (only hash collisions need them).
inline constexpr std::size_t kMaxUniqueComparisons = 1'000'000;

inline constexpr std::uint64_t kUnbounded = std::numeric_limits<std::uint64_t>::max();

enum TypeBit : std::uint8_t {
    kNull = 1,
    kBoolean = 2,
    kObject = 4,
    kArray = 8,
    kNumber = 16,
    kString = 32,
    kInteger = 64,
};

struct Node;

struct NumberRules {
    const boost::json::value* minimum = nullptr;
    const boost::json::value* maximum = nullptr;
    const boost::json::value* exclusive_minimum = nullptr;
    const boost::json::value* exclusive_maximum = nullptr;
    const boost::json::value* multiple_of = nullptr;
};

struct StringRules {
    std::uint64_t min_length = 0;
    std::uint64_t max_length = kUnbounded;
    std::optional<Pattern> pattern;
};

struct ArrayRules {
    std::uint64_t min_items = 0;
    std::uint64_t max_items = kUnbounded;
    bool unique_items = false;
    std::vector<const Node*> prefix_items;
    const Node* items = nullptr;  // items after prefix_items
    const Node* contains = nullptr;
    std::uint64_t min_contains = 1;
    std::uint64_t max_contains = kUnbounded;
};

struct NamedNode {
    std::string_view name;
    const Node* node;
};

struct PatternNode {
    Pattern pattern;
    const Node* node;
};

struct DependentRequired {
    std::string_view name;
    std::vector<std::string_view> required;
};

struct ObjectRules {
    std::uint64_t min_properties = 0;
    std::uint64_t max_properties = kUnbounded;
    std::vector<std::string_view> required;
    std::vector<DependentRequired> dependent_required;
    std::vector<NamedNode> dependent_schemas;
    std::vector<NamedNode> properties;  // sorted by name
    std::vector<PatternNode> pattern_properties;
    const Node* additional_properties = nullptr;
    const Node* property_names = nullptr;
};

// Keyword groups that apply to one instance type are allocated only when the schema uses them.
struct Node {
    bool always_false = false;  // the boolean schema `false`
    std::uint8_t types = 0;     // TypeBit mask; 0 when "type" is absent
    const boost::json::value* const_value = nullptr;
    const boost::json::array* enum_values = nullptr;
    std::unique_ptr<NumberRules> number;
    std::unique_ptr<StringRules> string;
    std::unique_ptr<ArrayRules> array;
    std::unique_ptr<ObjectRules> object;
    const Node* ref = nullptr;
    std::vector<const Node*> all_of;
    std::vector<const Node*> any_of;
    std::vector<const Node*> one_of;
    const Node* not_schema = nullptr;
    const Node* if_schema = nullptr;
    const Node* then_schema = nullptr;
    const Node* else_schema = nullptr;
};

struct CompiledSchema {
    boost::json::value document;  // the caller's schema, copied; nodes point into it
    std::deque<Node> nodes;       // deque: growing it keeps node addresses stable
    const Node* root = nullptr;
};

}  // namespace mcp::json::schema_impl
