#include "json/schema_compiler.hpp"

#include "json/schema_json.hpp"
#include "util/percent_encoding.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace mcp::json::schema_impl {

namespace {

namespace bj = boost::json;

[[noreturn]] void malformed(std::string_view location, std::string_view what) {
    std::string msg = "schema ";
    msg += location.empty() ? std::string_view("/") : location;
    msg += ": ";
    msg += what;
    throw std::invalid_argument(msg);
}

// JSON Pointer of `token` under `parent`.
std::string child_location(std::string_view parent, std::string_view token) {
    std::string out(parent);
    out += '/';
    for (const char c : token) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
    return out;
}

std::string child_location(std::string_view parent, std::size_t index) {
    return std::string(parent) + '/' + std::to_string(index);
}

std::string quoted(std::string_view s) { return bj::serialize(bj::string_view(s.data(), s.size())); }

std::string percent_decode(std::string_view s, std::string_view location) {
    auto decoded = mcp::detail::percent_decoded(s);
    if (!decoded) malformed(location, "invalid percent-encoding in $ref");
    return std::move(*decoded);
}

// Follows a JSON Pointer ("/a/b~1c/0") from `root`; nullptr when it leads nowhere.
const bj::value* follow_pointer(const bj::value& root, std::string_view pointer, std::string_view location) {
    const bj::value* cur = &root;
    std::size_t pos = 0;
    while (pos < pointer.size()) {
        // One "/token" per iteration.
        const std::size_t end = std::min(pointer.find('/', pos + 1), pointer.size());
        std::string token;
        for (std::size_t i = pos + 1; i < end; ++i) {
            if (pointer[i] != '~') {
                token += pointer[i];
            } else if (i + 1 < end && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
                token += pointer[++i] == '0' ? '~' : '/';
            } else {
                malformed(location, "invalid JSON Pointer escape in $ref");
            }
        }
        pos = end;
        if (const auto* obj = cur->if_object()) {
            cur = obj->if_contains(token);
        } else if (const auto* arr = cur->if_array()) {
            const bool digits = !token.empty() && token.size() <= 18 &&
                                std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
                                (token.size() == 1 || token[0] != '0');
            const std::size_t index = digits ? std::stoull(token) : arr->size();
            cur = index < arr->size() ? &(*arr)[index] : nullptr;
        } else {
            cur = nullptr;
        }
        if (cur == nullptr) return nullptr;
    }
    return cur;
}

bool valid_anchor_name(std::string_view name) {
    auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
    if (name.empty() || !alpha(name[0])) return false;
    return std::all_of(name.begin() + 1, name.end(),
                       [&](char c) { return alpha(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; });
}

std::uint8_t type_bit(std::string_view name, std::string_view location) {
    if (name == "null") return kNull;
    if (name == "boolean") return kBoolean;
    if (name == "object") return kObject;
    if (name == "array") return kArray;
    if (name == "number") return kNumber;
    if (name == "string") return kString;
    if (name == "integer") return kInteger;
    malformed(location, "unknown type " + quoted(name));
}

// A schema resource: the document root or a subschema with its own "$id". Fragment-only $refs
// resolve against the innermost enclosing resource.
struct Resource {
    const bj::value* root;
    std::string location;
    std::unordered_map<std::string_view, const bj::value*> anchors;
};

struct PendingRef {
    Node* node;
    std::string_view ref;
    Resource* resource;
    std::string location;  // of the "$ref" keyword, for diagnostics
};

class Compiler {
public:
    explicit Compiler(CompiledSchema& out) : out_(out) {}

    void run() {
        out_.root = compile(out_.document, "", nullptr, 0);
        resolve_refs();
    }

private:
    Node* compile(const bj::value& schema, const std::string& location, Resource* resource, std::size_t depth);
    Resource* enter_resource(const bj::object& obj, const bj::value& schema, const std::string& location,
                             Resource* parent);
    void register_anchors(const bj::object& obj, const bj::value& schema, const std::string& location,
                          Resource& resource);
    void compile_generic(Node& node, const bj::object& obj, const std::string& location, Resource* resource,
                         std::size_t depth);
    void compile_number(Node& node, const bj::object& obj, const std::string& location);
    void compile_string(Node& node, const bj::object& obj, const std::string& location);
    void compile_array(Node& node, const bj::object& obj, const std::string& location, Resource* resource,
                       std::size_t depth);
    void compile_object(Node& node, const bj::object& obj, const std::string& location, Resource* resource,
                        std::size_t depth);
    std::vector<const Node*> compile_list(const bj::value& v, const std::string& location, Resource* resource,
                                          std::size_t depth);
    std::vector<NamedNode> compile_map(const bj::value& v, const std::string& location, Resource* resource,
                                       std::size_t depth);
    void resolve_refs();
    void resolve(const PendingRef& ref, std::vector<std::pair<PendingRef, std::string>>& anchor_refs);

    CompiledSchema& out_;
    std::unordered_map<const bj::value*, Node*> compiled_;
    std::deque<Resource> resources_;
    std::unordered_map<std::string_view, Resource*> resources_by_id_;
    std::vector<PendingRef> pending_;
};

const bj::value* number_at(const bj::object& obj, std::string_view key, const std::string& location) {
    const bj::value* v = obj.if_contains(key);
    if (v != nullptr && !v->is_number()) malformed(child_location(location, key), "expected a number");
    return v;
}

std::optional<std::uint64_t> count_at(const bj::object& obj, std::string_view key, const std::string& location) {
    const bj::value* v = obj.if_contains(key);
    if (v == nullptr) return std::nullopt;
    // JSON Schema allows integral doubles such as 2.0 wherever a non-negative integer is expected.
    if (!v->is_number() || !is_integral(*v) || (v->is_int64() && v->get_int64() < 0) ||
        (v->is_double() && (v->get_double() < 0 || v->get_double() >= 18446744073709551616.0))) {
        malformed(child_location(location, key), "expected a non-negative integer");
    }
    if (v->is_int64()) return static_cast<std::uint64_t>(v->get_int64());
    if (v->is_uint64()) return v->get_uint64();
    return static_cast<std::uint64_t>(v->get_double());
}

std::vector<std::string_view> string_list(const bj::value& v, const std::string& location) {
    const auto* arr = v.if_array();
    if (arr == nullptr) malformed(location, "expected an array of strings");
    std::vector<std::string_view> out;
    out.reserve(arr->size());
    for (const auto& e : *arr) {
        if (!e.is_string()) malformed(location, "expected an array of strings");
        out.emplace_back(e.get_string());
    }
    return out;
}

Pattern compile_pattern(std::string_view source, const std::string& location) {
    try {
        return Pattern(source);
    } catch (const std::invalid_argument& e) {
        malformed(location, std::string("invalid regular expression ") + quoted(source) + ": " + e.what());
    }
}

Node* Compiler::compile(const bj::value& schema, const std::string& location, Resource* resource, std::size_t depth) {
    if (const auto it = compiled_.find(&schema); it != compiled_.end()) return it->second;
    if (depth > kMaxSchemaDepth) malformed(location, "subschemas are nested too deeply");
    Node& node = out_.nodes.emplace_back();
    compiled_.emplace(&schema, &node);
    if (schema.is_bool()) {
        node.always_false = !schema.get_bool();
        return &node;
    }
    const auto* obj = schema.if_object();
    if (obj == nullptr) malformed(location, "expected a schema (an object or a boolean)");
    resource = enter_resource(*obj, schema, location, resource);
    register_anchors(*obj, schema, location, *resource);
    compile_generic(node, *obj, location, resource, depth);
    compile_number(node, *obj, location);
    compile_string(node, *obj, location);
    compile_array(node, *obj, location, resource, depth);
    compile_object(node, *obj, location, resource, depth);
    return &node;
}

Resource* Compiler::enter_resource(const bj::object& obj, const bj::value& schema, const std::string& location,
                                   Resource* parent) {
    std::string_view id;
    if (const bj::value* v = obj.if_contains("$id")) {
        if (!v->is_string()) malformed(child_location(location, "$id"), "expected a string");
        id = v->get_string();
        id = id.substr(0, id.find('#'));
    }
    if (parent != nullptr && id.empty()) return parent;
    Resource& res = resources_.emplace_back(Resource{&schema, location, {}});
    if (!id.empty()) resources_by_id_.emplace(id, &res);
    return &res;
}

void Compiler::register_anchors(const bj::object& obj, const bj::value& schema, const std::string& location,
                                Resource& resource) {
    for (const std::string_view key : {"$anchor", "$dynamicAnchor"}) {
        const bj::value* v = obj.if_contains(key);
        if (v == nullptr) continue;
        if (!v->is_string() || !valid_anchor_name(v->get_string())) {
            malformed(child_location(location, key), "expected an anchor name");
        }
        // In 2020-12 a $dynamicAnchor also serves as a plain anchor for $ref. Since $dynamicRef is
        // not enforced, only a clash involving $anchor is reported.
        const bool inserted = resource.anchors.emplace(v->get_string(), &schema).second;
        if (!inserted && key == "$anchor") {
            malformed(child_location(location, key), "duplicate anchor " + quoted(v->get_string()));
        }
    }
}

std::vector<const Node*> Compiler::compile_list(const bj::value& v, const std::string& location, Resource* resource,
                                                std::size_t depth) {
    const auto* arr = v.if_array();
    if (arr == nullptr || arr->empty()) malformed(location, "expected a non-empty array of schemas");
    std::vector<const Node*> out;
    out.reserve(arr->size());
    for (std::size_t i = 0; i < arr->size(); ++i) {
        out.push_back(compile((*arr)[i], child_location(location, i), resource, depth + 1));
    }
    return out;
}

std::vector<NamedNode> Compiler::compile_map(const bj::value& v, const std::string& location, Resource* resource,
                                             std::size_t depth) {
    const auto* obj = v.if_object();
    if (obj == nullptr) malformed(location, "expected an object of schemas");
    std::vector<NamedNode> out;
    out.reserve(obj->size());
    for (const auto& kv : *obj) {
        out.push_back({kv.key(), compile(kv.value(), child_location(location, kv.key()), resource, depth + 1)});
    }
    return out;
}

void Compiler::compile_generic(Node& node, const bj::object& obj, const std::string& location, Resource* resource,
                               std::size_t depth) {
    if (const bj::value* v = obj.if_contains("type")) {
        const std::string loc = child_location(location, "type");
        if (v->is_string()) {
            node.types = type_bit(v->get_string(), loc);
        } else if (v->is_array() && !v->get_array().empty()) {
            for (const auto& name : string_list(*v, loc)) node.types |= type_bit(name, loc);
        } else {
            malformed(loc, "expected a type name or a non-empty array of type names");
        }
    }
    if (const bj::value* v = obj.if_contains("enum")) {
        node.enum_values = v->if_array();
        if (node.enum_values == nullptr) malformed(child_location(location, "enum"), "expected an array");
    }
    node.const_value = obj.if_contains("const");
    if (const bj::value* v = obj.if_contains("$ref")) {
        if (!v->is_string()) malformed(child_location(location, "$ref"), "expected a string");
        pending_.push_back({&node, v->get_string(), resource, child_location(location, "$ref")});
    }
    if (const bj::value* v = obj.if_contains("$defs"))
        compile_map(*v, child_location(location, "$defs"), resource, depth);
    auto sub = [&](std::string_view key) -> const Node* {
        const bj::value* v = obj.if_contains(key);
        return v != nullptr ? compile(*v, child_location(location, key), resource, depth + 1) : nullptr;
    };
    auto list = [&](std::string_view key) {
        const bj::value* v = obj.if_contains(key);
        return v != nullptr ? compile_list(*v, child_location(location, key), resource, depth)
                            : std::vector<const Node*>{};
    };
    node.all_of = list("allOf");
    node.any_of = list("anyOf");
    node.one_of = list("oneOf");
    node.not_schema = sub("not");
    node.if_schema = sub("if");
    // then/else without if are ignored by the evaluator but must still be well-formed.
    node.then_schema = sub("then");
    node.else_schema = sub("else");
}

void Compiler::compile_number(Node& node, const bj::object& obj, const std::string& location) {
    NumberRules r;
    r.minimum = number_at(obj, "minimum", location);
    r.maximum = number_at(obj, "maximum", location);
    r.exclusive_minimum = number_at(obj, "exclusiveMinimum", location);
    r.exclusive_maximum = number_at(obj, "exclusiveMaximum", location);
    r.multiple_of = number_at(obj, "multipleOf", location);
    if (r.multiple_of != nullptr && !(compare_numbers(*r.multiple_of, bj::value(0)) > 0)) {
        malformed(child_location(location, "multipleOf"), "expected a number greater than 0");
    }
    if (r.minimum || r.maximum || r.exclusive_minimum || r.exclusive_maximum || r.multiple_of) {
        node.number = std::make_unique<NumberRules>(r);
    }
}

void Compiler::compile_string(Node& node, const bj::object& obj, const std::string& location) {
    const auto min_length = count_at(obj, "minLength", location);
    const auto max_length = count_at(obj, "maxLength", location);
    const bj::value* pattern = obj.if_contains("pattern");
    if (!min_length && !max_length && pattern == nullptr) return;
    auto r = std::make_unique<StringRules>();
    r->min_length = min_length.value_or(0);
    r->max_length = max_length.value_or(kUnbounded);
    if (pattern != nullptr) {
        const std::string loc = child_location(location, "pattern");
        if (!pattern->is_string()) malformed(loc, "expected a string");
        r->pattern.emplace(compile_pattern(pattern->get_string(), loc));
    }
    node.string = std::move(r);
}

void Compiler::compile_array(Node& node, const bj::object& obj, const std::string& location, Resource* resource,
                             std::size_t depth) {
    const auto min_items = count_at(obj, "minItems", location);
    const auto max_items = count_at(obj, "maxItems", location);
    const auto min_contains = count_at(obj, "minContains", location);
    const auto max_contains = count_at(obj, "maxContains", location);
    const bj::value* unique = obj.if_contains("uniqueItems");
    const bj::value* prefix = obj.if_contains("prefixItems");
    const bj::value* items = obj.if_contains("items");
    const bj::value* contains = obj.if_contains("contains");
    if (!min_items && !max_items && !min_contains && !max_contains && !unique && !prefix && !items && !contains) return;
    auto r = std::make_unique<ArrayRules>();
    r->min_items = min_items.value_or(0);
    r->max_items = max_items.value_or(kUnbounded);
    r->min_contains = min_contains.value_or(1);
    r->max_contains = max_contains.value_or(kUnbounded);
    if (unique != nullptr) {
        if (!unique->is_bool()) malformed(child_location(location, "uniqueItems"), "expected a boolean");
        r->unique_items = unique->get_bool();
    }
    if (prefix != nullptr)
        r->prefix_items = compile_list(*prefix, child_location(location, "prefixItems"), resource, depth);
    if (items != nullptr) {
        const std::string loc = child_location(location, "items");
        if (items->is_array()) malformed(loc, "expected a schema; the array form of items is prefixItems in 2020-12");
        r->items = compile(*items, loc, resource, depth + 1);
    }
    if (contains != nullptr)
        r->contains = compile(*contains, child_location(location, "contains"), resource, depth + 1);
    node.array = std::move(r);
}

void Compiler::compile_object(Node& node, const bj::object& obj, const std::string& location, Resource* resource,
                              std::size_t depth) {
    const auto min_properties = count_at(obj, "minProperties", location);
    const auto max_properties = count_at(obj, "maxProperties", location);
    const bj::value* required = obj.if_contains("required");
    const bj::value* dep_required = obj.if_contains("dependentRequired");
    const bj::value* dep_schemas = obj.if_contains("dependentSchemas");
    const bj::value* properties = obj.if_contains("properties");
    const bj::value* pattern_properties = obj.if_contains("patternProperties");
    const bj::value* additional = obj.if_contains("additionalProperties");
    const bj::value* names = obj.if_contains("propertyNames");
    if (!min_properties && !max_properties && !required && !dep_required && !dep_schemas && !properties &&
        !pattern_properties && !additional && !names) {
        return;
    }
    auto r = std::make_unique<ObjectRules>();
    r->min_properties = min_properties.value_or(0);
    r->max_properties = max_properties.value_or(kUnbounded);
    if (required != nullptr) r->required = string_list(*required, child_location(location, "required"));
    if (dep_required != nullptr) {
        const std::string loc = child_location(location, "dependentRequired");
        const auto* map = dep_required->if_object();
        if (map == nullptr) malformed(loc, "expected an object of string arrays");
        for (const auto& kv : *map) {
            r->dependent_required.push_back({kv.key(), string_list(kv.value(), child_location(loc, kv.key()))});
        }
    }
    if (dep_schemas != nullptr) {
        r->dependent_schemas = compile_map(*dep_schemas, child_location(location, "dependentSchemas"), resource, depth);
    }
    if (properties != nullptr) {
        r->properties = compile_map(*properties, child_location(location, "properties"), resource, depth);
        std::sort(r->properties.begin(), r->properties.end(),
                  [](const NamedNode& a, const NamedNode& b) { return a.name < b.name; });
    }
    if (pattern_properties != nullptr) {
        const std::string loc = child_location(location, "patternProperties");
        const auto* map = pattern_properties->if_object();
        if (map == nullptr) malformed(loc, "expected an object of schemas");
        for (const auto& kv : *map) {
            const std::string sub_loc = child_location(loc, kv.key());
            Pattern pattern = compile_pattern(kv.key(), sub_loc);
            r->pattern_properties.push_back({std::move(pattern), compile(kv.value(), sub_loc, resource, depth + 1)});
        }
    }
    if (additional != nullptr) {
        r->additional_properties =
            compile(*additional, child_location(location, "additionalProperties"), resource, depth + 1);
    }
    if (names != nullptr)
        r->property_names = compile(*names, child_location(location, "propertyNames"), resource, depth + 1);
    node.object = std::move(r);
}

void Compiler::resolve_refs() {
    // A JSON Pointer may lead to a subschema no keyword reached (e.g. under "definitions"); compiling
    // it can queue more $refs and anchors, so anchors are looked up only once the queue is drained.
    std::vector<std::pair<PendingRef, std::string>> anchor_refs;
    while (!pending_.empty()) {
        PendingRef ref = std::move(pending_.back());
        pending_.pop_back();
        resolve(ref, anchor_refs);
    }
    for (const auto& [ref, anchor] : anchor_refs) {
        const auto it = ref.resource->anchors.find(anchor);
        if (it == ref.resource->anchors.end()) malformed(ref.location, "cannot resolve " + quoted(ref.ref));
        ref.node->ref = compiled_.at(it->second);
    }
}

void Compiler::resolve(const PendingRef& ref, std::vector<std::pair<PendingRef, std::string>>& anchor_refs) {
    const std::size_t hash = ref.ref.find('#');
    const std::string_view uri = ref.ref.substr(0, hash);
    const std::string fragment =
        hash == std::string_view::npos ? std::string() : percent_decode(ref.ref.substr(hash + 1), ref.location);
    Resource* resource = ref.resource;
    if (!uri.empty()) {
        // Only a URI naming a resource of this document (its exact "$id") is followed; anything
        // else is a remote reference, which is accepted but not enforced.
        const auto it = resources_by_id_.find(uri);
        if (it == resources_by_id_.end()) return;
        resource = it->second;
    }
    if (fragment.empty()) {
        ref.node->ref = compiled_.at(resource->root);
    } else if (fragment[0] == '/') {
        const bj::value* target = follow_pointer(*resource->root, fragment, ref.location);
        if (target == nullptr) malformed(ref.location, "cannot resolve " + quoted(ref.ref));
        if (!target->is_object() && !target->is_bool()) {
            malformed(ref.location, quoted(ref.ref) + " does not point to a schema");
        }
        ref.node->ref = compile(*target, resource->location + fragment, resource, 0);
    } else {
        PendingRef deferred = ref;
        deferred.resource = resource;
        anchor_refs.emplace_back(std::move(deferred), fragment);
    }
}

}  // namespace

void compile_schema(CompiledSchema& schema) { Compiler(schema).run(); }

}  // namespace mcp::json::schema_impl
