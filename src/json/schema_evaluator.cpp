#include "json/schema_evaluator.hpp"

#include "json/schema_json.hpp"

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace mcp::json::schema_impl {

namespace {

namespace bj = boost::json;

// One step of the instance path. Links live in the evaluator's stack frames, so tracking the path
// costs nothing until an error has to be reported.
struct PathLink {
    const PathLink* parent;
    std::string_view key;
    std::size_t index;
    bool is_index;
};

struct State {
    std::vector<ValidationError>* errors;
    std::size_t max_errors;
    // Set when evaluation cannot go on (depth or step limit, regex too complex). It fails the
    // whole validation: a `not` or an `anyOf` must not turn it into a success.
    std::optional<ValidationError> abort_error;
    std::uint64_t* steps;  // schema applications so far, shared with nested error-detail states
};

struct Ctx {
    State* state;
    const PathLink* path;
    unsigned depth;     // nested schema applications so far
    unsigned in_place;  // of which at the current instance location
    bool record;        // false while probing a subschema (anyOf, not, if, contains...)
};

Ctx descend(const Ctx& c, const PathLink& link) { return {c.state, &link, c.depth + 1, 0, c.record}; }
Ctx in_place(const Ctx& c, bool record) { return {c.state, c.path, c.depth + 1, c.in_place + 1, record}; }

// True when the caller should stop evaluating: probing (one failure decides), enough errors, or aborted.
bool stop(const Ctx& c) { return !c.record || c.state->abort_error || c.state->errors->size() >= c.state->max_errors; }

std::string pointer_of(const PathLink* link) {
    std::vector<const PathLink*> links;
    for (; link != nullptr; link = link->parent) links.push_back(link);
    std::string out;
    for (auto it = links.rbegin(); it != links.rend(); ++it) {
        out += '/';
        if ((*it)->is_index) {
            out += std::to_string((*it)->index);
            continue;
        }
        for (const char ch : (*it)->key) {
            if (ch == '~') {
                out += "~0";
            } else if (ch == '/') {
                out += "~1";
            } else {
                out += ch;
            }
        }
    }
    return out;
}

ValidationError make_error(const Ctx& c, const char* keyword, std::string_view message) {
    ValidationError e;
    e.instance_path = pointer_of(c.path);
    e.keyword = keyword;
    e.message = (e.instance_path.empty() ? std::string("/") : e.instance_path) + ": ";
    e.message += message;
    return e;
}

// Message building stays out of line so that its temporaries do not enlarge the frames of the
// recursive evaluation functions (that is what bounds stack use on deep instances).
template <class MakeMessage>
[[gnu::noinline]] void push_error(const Ctx& c, const char* keyword, const MakeMessage& make_message) {
    c.state->errors->push_back(make_error(c, keyword, make_message()));
}

// Records an error (building its message only when recording) and tells whether to stop.
template <class MakeMessage>
bool report(const Ctx& c, const char* keyword, const MakeMessage& make_message) {
    if (c.record && !c.state->abort_error) push_error(c, keyword, make_message);
    return stop(c);
}

template <class MakeMessage>
[[gnu::noinline]] void abort_evaluation(const Ctx& c, const char* keyword, const MakeMessage& make_message) {
    if (!c.state->abort_error) c.state->abort_error = make_error(c, keyword, make_message());
}

std::string quoted(std::string_view s) { return bj::serialize(bj::string_view(s.data(), s.size())); }

// The value itself when short, so that messages stay readable for large enums and consts.
template <class Json>
std::string brief(const Json& v) {
    std::string s = bj::serialize(v);
    return s.size() <= 120 ? " " + s : std::string();
}

std::uint8_t type_bits(const bj::value& v) {
    switch (v.kind()) {
        case bj::kind::null: return kNull;
        case bj::kind::bool_: return kBoolean;
        case bj::kind::int64:
        case bj::kind::uint64: return kNumber | kInteger;
        case bj::kind::double_: return is_integral(v) ? kNumber | kInteger : kNumber;
        case bj::kind::string: return kString;
        case bj::kind::array: return kArray;
        case bj::kind::object: return kObject;
    }
    return 0;
}

std::string type_list(std::uint8_t types) {
    static constexpr std::pair<std::uint8_t, const char*> kNames[] = {
        {kString, "string"}, {kNumber, "number"}, {kInteger, "integer"}, {kBoolean, "boolean"},
        {kObject, "object"}, {kArray, "array"},   {kNull, "null"},
    };
    std::string out;
    for (const auto& [bit, name] : kNames) {
        if ((types & bit) == 0) continue;
        if (!out.empty()) out += " or ";
        out += name;
    }
    return out;
}

bool eval(const Node& node, const bj::value& v, const Ctx& c);

[[gnu::noinline]] bool eval_number(const NumberRules& r, const bj::value& v, const Ctx& c) {
    bool ok = true;
    // Returns whether to stop. A NaN limit or instance compares unordered, which fails every bound.
    auto fails = [&](const bj::value* limit, bool (*pass)(std::partial_ordering), const char* keyword,
                     const char* relation) {
        if (limit == nullptr || pass(compare_numbers(v, *limit))) return false;
        ok = false;
        return report(c, keyword, [&] {
            return bj::serialize(v) + " is " + relation + " " + keyword + " " + bj::serialize(*limit);
        });
    };
    if (fails(
            r.maximum, [](std::partial_ordering o) { return o <= 0; }, "maximum", "greater than") ||
        fails(
            r.exclusive_maximum, [](std::partial_ordering o) { return o < 0; }, "exclusiveMaximum", "not less than") ||
        fails(
            r.minimum, [](std::partial_ordering o) { return o >= 0; }, "minimum", "less than") ||
        fails(
            r.exclusive_minimum, [](std::partial_ordering o) { return o > 0; }, "exclusiveMinimum",
            "not greater than")) {
        return false;
    }
    if (r.multiple_of != nullptr && !is_multiple_of(v, *r.multiple_of)) {
        ok = false;
        report(c, "multipleOf",
               [&] { return bj::serialize(v) + " is not a multiple of " + bj::serialize(*r.multiple_of); });
    }
    return ok;
}

[[gnu::noinline]] bool eval_string(const StringRules& r, std::string_view s, const Ctx& c) {
    bool ok = true;
    if (r.min_length != 0 || r.max_length != kUnbounded) {
        const std::size_t length = utf8_length(s);
        if (length < r.min_length) {
            ok = false;
            if (report(c, "minLength", [&] {
                    return "string has " + std::to_string(length) + " characters, fewer than minLength " +
                           std::to_string(r.min_length);
                })) {
                return false;
            }
        }
        if (length > r.max_length) {
            ok = false;
            if (report(c, "maxLength", [&] {
                    return "string has " + std::to_string(length) + " characters, more than maxLength " +
                           std::to_string(r.max_length);
                })) {
                return false;
            }
        }
    }
    if (r.pattern) {
        switch (r.pattern->search(s)) {
            case Pattern::Result::match: break;
            case Pattern::Result::no_match:
                ok = false;
                if (report(c, "pattern",
                           [&] { return "string does not match pattern " + quoted(r.pattern->source()); })) {
                    return false;
                }
                break;
            case Pattern::Result::too_complex:
                abort_evaluation(c, "pattern", [&] {
                    return "pattern " + quoted(r.pattern->source()) + " is too complex to evaluate";
                });
                return false;
        }
    }
    return ok;
}

struct Duplicate {
    enum { none, found, too_complex } outcome = none;
    std::size_t first = 0;
    std::size_t second = 0;
};

// Items are sorted by a hash consistent with JSON equality; only equal hashes are compared, so
// the check is O(n log n) unless hashes collide, and collisions are bounded by kMaxUniqueComparisons.
[[gnu::noinline]] Duplicate find_duplicate(const bj::array& a) {
    constexpr std::size_t kPairwise = 16;
    if (a.size() <= kPairwise) {
        for (std::size_t i = 0; i < a.size(); ++i) {
            for (std::size_t j = i + 1; j < a.size(); ++j) {
                if (json_equal(a[i], a[j])) return {Duplicate::found, i, j};
            }
        }
        return {};
    }
    std::vector<std::pair<std::size_t, std::size_t>> hashed;  // (hash, index)
    hashed.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) hashed.emplace_back(json_hash(a[i]), i);
    std::sort(hashed.begin(), hashed.end());
    std::size_t comparisons = 0;
    for (std::size_t run = 0; run < hashed.size();) {
        std::size_t end = run + 1;
        while (end < hashed.size() && hashed[end].first == hashed[run].first) ++end;
        for (std::size_t i = run; i < end; ++i) {
            for (std::size_t j = i + 1; j < end; ++j) {
                if (++comparisons > kMaxUniqueComparisons) return {Duplicate::too_complex};
                if (json_equal(a[hashed[i].second], a[hashed[j].second])) {
                    return {Duplicate::found, std::min(hashed[i].second, hashed[j].second),
                            std::max(hashed[i].second, hashed[j].second)};
                }
            }
        }
        run = end;
    }
    return {};
}

[[gnu::noinline]] bool eval_array(const ArrayRules& r, const bj::array& a, const Ctx& c) {
    bool ok = true;
    const std::size_t n = a.size();
    if (n < r.min_items) {
        ok = false;
        if (report(c, "minItems", [&] {
                return "array has " + std::to_string(n) + " items, fewer than minItems " + std::to_string(r.min_items);
            })) {
            return false;
        }
    }
    if (n > r.max_items) {
        ok = false;
        if (report(c, "maxItems", [&] {
                return "array has " + std::to_string(n) + " items, more than maxItems " + std::to_string(r.max_items);
            })) {
            return false;
        }
    }
    if (r.unique_items) {
        const Duplicate d = find_duplicate(a);
        if (d.outcome == Duplicate::too_complex) {
            abort_evaluation(c, "uniqueItems",
                             [] { return std::string("too many hash collisions to check uniqueItems"); });
            return false;
        }
        if (d.outcome == Duplicate::found) {
            ok = false;
            if (report(c, "uniqueItems", [&] {
                    return "items " + std::to_string(d.first) + " and " + std::to_string(d.second) +
                           " are equal (uniqueItems)";
                })) {
                return false;
            }
        }
    }
    const std::size_t prefix = r.prefix_items.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Node* item = i < prefix ? r.prefix_items[i] : r.items;
        if (item == nullptr) {
            if (i >= prefix) break;
            continue;
        }
        if (i >= prefix && item->always_false) {
            ok = false;
            if (report(c, "items", [&] {
                    return "array has " + std::to_string(n) + " items, at most " + std::to_string(prefix) + " allowed";
                })) {
                return false;
            }
            break;
        }
        const PathLink link{c.path, {}, i, true};
        if (!eval(*item, a[i], descend(c, link))) {
            ok = false;
            if (stop(c)) return false;
        }
    }
    if (r.contains != nullptr) {
        std::uint64_t matches = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const PathLink link{c.path, {}, i, true};
            if (eval(*r.contains, a[i], descend(in_place(c, false), link))) ++matches;
            if (c.state->abort_error) return false;
            if (matches > r.max_contains || (matches >= r.min_contains && r.max_contains == kUnbounded)) break;
        }
        if (matches < r.min_contains) {
            ok = false;
            if (report(c, matches == 0 && r.min_contains == 1 ? "contains" : "minContains", [&] {
                    if (matches == 0) return std::string("array has no item matching contains");
                    return "array has " + std::to_string(matches) +
                           " items matching contains, fewer than minContains " + std::to_string(r.min_contains);
                })) {
                return false;
            }
        }
        if (matches > r.max_contains) {
            ok = false;
            if (report(c, "maxContains", [&] {
                    return "array has more than maxContains " + std::to_string(r.max_contains) +
                           " items matching contains";
                })) {
                return false;
            }
        }
    }
    return ok;
}

const Node* find_property(const std::vector<NamedNode>& properties, std::string_view name) {
    const auto it = std::lower_bound(properties.begin(), properties.end(), name,
                                     [](const NamedNode& p, std::string_view n) { return p.name < n; });
    return it != properties.end() && it->name == name ? it->node : nullptr;
}

// Applies properties, patternProperties and additionalProperties to each member.
[[gnu::noinline]] bool eval_members(const ObjectRules& r, const bj::object& o, const Ctx& c) {
    bool ok = true;
    for (const auto& kv : o) {
        const PathLink link{c.path, kv.key(), 0, false};
        const Ctx child = descend(c, link);
        bool matched = false;
        if (const Node* p = find_property(r.properties, kv.key())) {
            matched = true;
            if (!eval(*p, kv.value(), child)) {
                ok = false;
                if (stop(c)) return false;
            }
        }
        for (const auto& pp : r.pattern_properties) {
            const auto result = pp.pattern.search(kv.key());
            if (result == Pattern::Result::too_complex) {
                abort_evaluation(child, "patternProperties", [&] {
                    return "pattern " + quoted(pp.pattern.source()) + " is too complex to evaluate";
                });
                return false;
            }
            if (result == Pattern::Result::no_match) continue;
            matched = true;
            if (!eval(*pp.node, kv.value(), child)) {
                ok = false;
                if (stop(c)) return false;
            }
        }
        if (matched || r.additional_properties == nullptr) continue;
        if (r.additional_properties->always_false) {
            ok = false;
            if (report(child, "additionalProperties",
                       [] { return std::string("additional property is not allowed"); })) {
                return false;
            }
        } else if (!eval(*r.additional_properties, kv.value(), child)) {
            ok = false;
            if (stop(c)) return false;
        }
    }
    return ok;
}

[[gnu::noinline]] bool eval_property_names(const Node& names, const bj::object& o, const Ctx& c) {
    // Property names are validated as string instances; short ones are built on the stack.
    unsigned char buffer[256];
    bool ok = true;
    for (const auto& kv : o) {
        bj::monotonic_resource resource(buffer, sizeof buffer);
        const bj::value name(kv.key(), &resource);
        const PathLink link{c.path, kv.key(), 0, false};
        if (eval(names, name, descend(in_place(c, false), link))) continue;
        if (c.state->abort_error) return false;
        ok = false;
        if (report(c, "propertyNames",
                   [&] { return "property name " + quoted(kv.key()) + " does not match the propertyNames schema"; })) {
            return false;
        }
    }
    return ok;
}

[[gnu::noinline]] bool eval_object(const ObjectRules& r, const bj::value& v, const Ctx& c) {
    const bj::object& o = v.get_object();
    bool ok = true;
    if (o.size() < r.min_properties) {
        ok = false;
        if (report(c, "minProperties", [&] {
                return "object has " + std::to_string(o.size()) + " properties, fewer than minProperties " +
                       std::to_string(r.min_properties);
            })) {
            return false;
        }
    }
    if (o.size() > r.max_properties) {
        ok = false;
        if (report(c, "maxProperties", [&] {
                return "object has " + std::to_string(o.size()) + " properties, more than maxProperties " +
                       std::to_string(r.max_properties);
            })) {
            return false;
        }
    }
    for (const std::string_view name : r.required) {
        if (o.contains(name)) continue;
        ok = false;
        if (report(c, "required", [&] { return "missing required property " + quoted(name); })) return false;
    }
    for (const auto& dep : r.dependent_required) {
        if (!o.contains(dep.name)) continue;
        for (const std::string_view name : dep.required) {
            if (o.contains(name)) continue;
            ok = false;
            if (report(c, "dependentRequired", [&] {
                    return "property " + quoted(name) + " is required when " + quoted(dep.name) + " is present";
                })) {
                return false;
            }
        }
    }
    if ((!r.properties.empty() || !r.pattern_properties.empty() || r.additional_properties != nullptr) &&
        !eval_members(r, o, c)) {
        ok = false;
        if (stop(c)) return false;
    }
    if (r.property_names != nullptr && !eval_property_names(*r.property_names, o, c)) {
        ok = false;
        if (stop(c)) return false;
    }
    for (const auto& dep : r.dependent_schemas) {
        if (o.contains(dep.name) && !eval(*dep.node, v, in_place(c, c.record))) {
            ok = false;
            if (stop(c)) return false;
        }
    }
    return ok;
}

// The first error of each alternative, to explain why an anyOf/oneOf matched nothing.
[[gnu::noinline]] std::string alternatives_detail(const std::vector<const Node*>& alternatives, const bj::value& v,
                                                  const Ctx& c) {
    constexpr std::size_t kShown = 4;
    std::string out = ":";
    for (std::size_t i = 0; i < alternatives.size() && i < kShown; ++i) {
        std::vector<ValidationError> errors;
        State state{&errors, 1, std::nullopt, c.state->steps};
        const Ctx sub{&state, c.path, c.depth + 1, c.in_place + 1, true};
        eval(*alternatives[i], v, sub);
        if (state.abort_error) errors.push_back(std::move(*state.abort_error));
        out += (i == 0 ? " [" : "; [") + std::to_string(i) + "] ";
        out += errors.empty() ? std::string("?") : errors.front().message;
    }
    if (alternatives.size() > kShown) out += "; ...";
    return out;
}

[[gnu::noinline]] bool eval_any_of(const Node& node, const bj::value& v, const Ctx& c) {
    const Ctx probe = in_place(c, false);
    for (const Node* alternative : node.any_of) {
        if (eval(*alternative, v, probe)) return true;
        if (c.state->abort_error) return false;
    }
    report(c, "anyOf",
           [&] { return "value does not match any anyOf alternative" + alternatives_detail(node.any_of, v, c); });
    return false;
}

[[gnu::noinline]] bool eval_one_of(const Node& node, const bj::value& v, const Ctx& c) {
    const Ctx probe = in_place(c, false);
    std::size_t matched[2] = {0, 0};
    std::size_t count = 0;
    for (std::size_t i = 0; i < node.one_of.size() && count < 2; ++i) {
        if (eval(*node.one_of[i], v, probe)) matched[count++] = i;
        if (c.state->abort_error) return false;
    }
    if (count == 1) return true;
    report(c, "oneOf", [&] {
        if (count == 0) return "value does not match any oneOf alternative" + alternatives_detail(node.one_of, v, c);
        return "value matches more than one oneOf alternative ([" + std::to_string(matched[0]) + "] and [" +
               std::to_string(matched[1]) + "])";
    });
    return false;
}

bool eval(const Node& node, const bj::value& v, const Ctx& c) {
    if (c.state->abort_error) return false;
    // Only $ref recursion can reach these limits: any other nesting is bounded by the schema size.
    if (c.in_place > kMaxInPlaceDepth || c.depth > kMaxEvalDepth || ++*c.state->steps > kMaxEvalSteps) {
        abort_evaluation(c, "$ref", [&] {
            return std::string(c.in_place > kMaxInPlaceDepth
                                   ? "schema evaluation exceeded the depth limit (cyclic $ref?)"
                               : c.depth > kMaxEvalDepth ? "instance nesting exceeds the validation depth limit"
                                                         : "validation exceeded its step limit (recursive schema too "
                                                           "expensive for this instance)");
        });
        return false;
    }
    if (node.always_false) {
        report(c, "false", [] { return std::string("no value is allowed here (schema is false)"); });
        return false;
    }
    bool ok = true;
    if (node.types != 0 && (node.types & type_bits(v)) == 0) {
        ok = false;
        if (report(c, "type", [&] { return "expected " + type_list(node.types) + ", got " + kind_name(v); })) {
            return false;
        }
    }
    if (node.const_value != nullptr && !json_equal(v, *node.const_value)) {
        ok = false;
        if (report(c, "const", [&] { return "value does not equal const" + brief(*node.const_value); })) return false;
    }
    if (node.enum_values != nullptr && std::none_of(node.enum_values->begin(), node.enum_values->end(),
                                                    [&](const bj::value& e) { return json_equal(v, e); })) {
        ok = false;
        if (report(c, "enum", [&] { return "value not in enum" + brief(*node.enum_values); })) return false;
    }
    bool typed_ok = true;
    switch (v.kind()) {
        case bj::kind::int64:
        case bj::kind::uint64:
        case bj::kind::double_: typed_ok = node.number == nullptr || eval_number(*node.number, v, c); break;
        case bj::kind::string: typed_ok = node.string == nullptr || eval_string(*node.string, v.get_string(), c); break;
        case bj::kind::array: typed_ok = node.array == nullptr || eval_array(*node.array, v.get_array(), c); break;
        case bj::kind::object: typed_ok = node.object == nullptr || eval_object(*node.object, v, c); break;
        default: break;
    }
    if (!typed_ok) {
        ok = false;
        if (stop(c)) return false;
    }
    const Ctx same = in_place(c, c.record);
    if (node.ref != nullptr && !eval(*node.ref, v, same)) {
        ok = false;
        if (stop(c)) return false;
    }
    for (const Node* sub : node.all_of) {
        if (!eval(*sub, v, same)) {
            ok = false;
            if (stop(c)) return false;
        }
    }
    if (!node.any_of.empty() && !eval_any_of(node, v, c)) {
        ok = false;
        if (stop(c)) return false;
    }
    if (!node.one_of.empty() && !eval_one_of(node, v, c)) {
        ok = false;
        if (stop(c)) return false;
    }
    if (node.not_schema != nullptr) {
        if (eval(*node.not_schema, v, in_place(c, false))) {
            ok = false;
            if (report(c, "not", [] { return std::string("value must not match the \"not\" schema"); })) return false;
        } else if (c.state->abort_error) {
            return false;
        }
    }
    if (node.if_schema != nullptr) {
        const bool condition = eval(*node.if_schema, v, in_place(c, false));
        if (c.state->abort_error) return false;
        const Node* branch = condition ? node.then_schema : node.else_schema;
        if (branch != nullptr && !eval(*branch, v, same)) ok = false;
    }
    return ok;
}

}  // namespace

void evaluate(const Node& root, const bj::value& instance, std::size_t max_errors,
              std::vector<ValidationError>& errors) {
    if (max_errors == 0) return;
    std::uint64_t steps = 0;
    State state{&errors, max_errors, std::nullopt, &steps};
    eval(root, instance, Ctx{&state, nullptr, 0, 0, true});
    if (state.abort_error && errors.size() < max_errors) errors.push_back(std::move(*state.abort_error));
}

}  // namespace mcp::json::schema_impl
