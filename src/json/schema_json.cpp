#include "json/schema_json.hpp"

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace mcp::json::schema_impl {

namespace bj = boost::json;

namespace {

constexpr double kTwo63 = 9223372036854775808.0;
constexpr double kTwo64 = 18446744073709551616.0;

std::partial_ordering compare_int_uint(std::int64_t i, std::uint64_t u) {
    if (i < 0) return std::partial_ordering::less;
    return static_cast<std::uint64_t>(i) <=> u;
}

std::partial_ordering compare_int_double(std::int64_t i, double d) {
    if (std::isnan(d)) return std::partial_ordering::unordered;
    if (d >= kTwo63) return std::partial_ordering::less;
    if (d < -kTwo63) return std::partial_ordering::greater;
    // floor(d) is in int64 range here, so the integer comparison is exact.
    const double f = std::floor(d);
    const auto fi = static_cast<std::int64_t>(f);
    if (i != fi) return i <=> fi;
    return d > f ? std::partial_ordering::less : std::partial_ordering::equivalent;
}

std::partial_ordering compare_uint_double(std::uint64_t u, double d) {
    if (std::isnan(d)) return std::partial_ordering::unordered;
    if (d < 0) return std::partial_ordering::greater;
    if (d >= kTwo64) return std::partial_ordering::less;
    const double f = std::floor(d);
    const auto fu = static_cast<std::uint64_t>(f);
    if (u != fu) return u <=> fu;
    return d > f ? std::partial_ordering::less : std::partial_ordering::equivalent;
}

std::partial_ordering reverse(std::partial_ordering o) { return 0 <=> o; }

// Sign and magnitude of an integral number that fits in 64 bits, for exact multipleOf.
bool exact_integer(const bj::value& v, bool& negative, std::uint64_t& magnitude) {
    switch (v.kind()) {
        case bj::kind::int64: {
            const std::int64_t i = v.get_int64();
            negative = i < 0;
            // -(i + 1) + 1 avoids overflow for INT64_MIN.
            magnitude = negative ? static_cast<std::uint64_t>(-(i + 1)) + 1 : static_cast<std::uint64_t>(i);
            return true;
        }
        case bj::kind::uint64:
            negative = false;
            magnitude = v.get_uint64();
            return true;
        case bj::kind::double_: {
            const double d = v.get_double();
            if (!is_integral(v) || std::fabs(d) >= kTwo64) return false;
            negative = d < 0;
            magnitude = static_cast<std::uint64_t>(std::fabs(d));
            return true;
        }
        default: return false;
    }
}

double to_double(const bj::value& v) {
    switch (v.kind()) {
        case bj::kind::int64: return static_cast<double>(v.get_int64());
        case bj::kind::uint64: return static_cast<double>(v.get_uint64());
        default: return v.get_double();
    }
}

std::size_t mix(std::uint64_t x) {
    // splitmix64 finalizer
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return static_cast<std::size_t>(x);
}

std::size_t hash_number(const bj::value& v) {
    switch (v.kind()) {
        case bj::kind::int64: return mix(static_cast<std::uint64_t>(v.get_int64()));
        case bj::kind::uint64: return mix(v.get_uint64());
        default: {
            // Integral doubles hash like the integer they equal, so 1 and 1.0 collide.
            const double d = v.get_double();
            if (is_integral(v)) {
                if (d >= -kTwo63 && d < kTwo63) return mix(static_cast<std::uint64_t>(static_cast<std::int64_t>(d)));
                if (d >= 0 && d < kTwo64) return mix(static_cast<std::uint64_t>(d));
            }
            return mix(std::bit_cast<std::uint64_t>(d));
        }
    }
}

constexpr int kHashDepth = 32;

std::size_t hash_at(const bj::value& v, int depth) {
    switch (v.kind()) {
        case bj::kind::null: return 0x6e756c6cU;
        case bj::kind::bool_: return v.get_bool() ? 0x74727565U : 0x66616c73U;
        case bj::kind::int64:
        case bj::kind::uint64:
        case bj::kind::double_: return hash_number(v);
        case bj::kind::string: return std::hash<std::string_view>{}(v.get_string());
        case bj::kind::array: {
            const auto& a = v.get_array();
            std::size_t h = mix(0xa11a7 + a.size());
            if (depth >= kHashDepth) return h;
            for (const auto& e : a) h = mix(h ^ hash_at(e, depth + 1));
            return h;
        }
        case bj::kind::object: {
            const auto& o = v.get_object();
            std::size_t h = mix(0x0b1ec7 + o.size());
            if (depth >= kHashDepth) return h;
            // Member order must not matter: combine the member hashes commutatively.
            std::size_t sum = 0;
            for (const auto& kv : o) {
                sum += mix(std::hash<std::string_view>{}(kv.key()) ^ hash_at(kv.value(), depth + 1));
            }
            return mix(h ^ sum);
        }
    }
    return 0;
}

}  // namespace

std::partial_ordering compare_numbers(const bj::value& a, const bj::value& b) {
    switch (a.kind()) {
        case bj::kind::int64:
            switch (b.kind()) {
                case bj::kind::int64: return a.get_int64() <=> b.get_int64();
                case bj::kind::uint64: return compare_int_uint(a.get_int64(), b.get_uint64());
                default: return compare_int_double(a.get_int64(), b.get_double());
            }
        case bj::kind::uint64:
            switch (b.kind()) {
                case bj::kind::int64: return reverse(compare_int_uint(b.get_int64(), a.get_uint64()));
                case bj::kind::uint64: return a.get_uint64() <=> b.get_uint64();
                default: return compare_uint_double(a.get_uint64(), b.get_double());
            }
        default:
            switch (b.kind()) {
                case bj::kind::int64: return reverse(compare_int_double(b.get_int64(), a.get_double()));
                case bj::kind::uint64: return reverse(compare_uint_double(b.get_uint64(), a.get_double()));
                default: return a.get_double() <=> b.get_double();
            }
    }
}

bool is_integral(const bj::value& v) {
    switch (v.kind()) {
        case bj::kind::int64:
        case bj::kind::uint64: return true;
        case bj::kind::double_: {
            const double d = v.get_double();
            return std::isfinite(d) && d == std::trunc(d);
        }
        default: return false;
    }
}

bool is_multiple_of(const bj::value& x, const bj::value& m) {
    bool xneg = false, mneg = false;
    std::uint64_t xmag = 0, mmag = 0;
    if (exact_integer(x, xneg, xmag) && exact_integer(m, mneg, mmag)) return mmag != 0 && xmag % mmag == 0;
    // Decimal divisors such as 0.01 have no exact binary representation: accept a quotient
    // within a few ulps of an integer.
    const double q = to_double(x) / to_double(m);
    if (!std::isfinite(q)) return false;
    return std::fabs(q - std::nearbyint(q)) <= std::fmax(1.0, std::fabs(q)) * 8 * DBL_EPSILON;
}

bool json_equal(const bj::value& a, const bj::value& b) {
    std::vector<std::pair<const bj::value*, const bj::value*>> pending;
    const bj::value* x = &a;
    const bj::value* y = &b;
    for (;;) {
        if (x->is_number() || y->is_number()) {
            if (!x->is_number() || !y->is_number() || compare_numbers(*x, *y) != 0) return false;
        } else if (x->kind() != y->kind()) {
            return false;
        } else {
            switch (x->kind()) {
                case bj::kind::bool_:
                    if (x->get_bool() != y->get_bool()) return false;
                    break;
                case bj::kind::string:
                    if (x->get_string() != y->get_string()) return false;
                    break;
                case bj::kind::array: {
                    const auto& xa = x->get_array();
                    const auto& ya = y->get_array();
                    if (xa.size() != ya.size()) return false;
                    for (std::size_t i = 0; i < xa.size(); ++i) pending.emplace_back(&xa[i], &ya[i]);
                    break;
                }
                case bj::kind::object: {
                    const auto& xo = x->get_object();
                    const auto& yo = y->get_object();
                    if (xo.size() != yo.size()) return false;
                    for (const auto& kv : xo) {
                        const bj::value* other = yo.if_contains(kv.key());
                        if (other == nullptr) return false;
                        pending.emplace_back(&kv.value(), other);
                    }
                    break;
                }
                default:  // null
                    break;
            }
        }
        if (pending.empty()) return true;
        std::tie(x, y) = pending.back();
        pending.pop_back();
    }
}

std::size_t json_hash(const bj::value& v) { return hash_at(v, 0); }

std::size_t utf8_length(std::string_view s) {
    std::size_t n = 0;
    for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

const char* kind_name(const bj::value& v) {
    switch (v.kind()) {
        case bj::kind::null: return "null";
        case bj::kind::bool_: return "boolean";
        case bj::kind::int64:
        case bj::kind::uint64: return "integer";
        case bj::kind::double_: return "number";
        case bj::kind::string: return "string";
        case bj::kind::array: return "array";
        case bj::kind::object: return "object";
    }
    return "value";
}

}  // namespace mcp::json::schema_impl
