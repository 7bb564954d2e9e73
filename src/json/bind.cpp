#include <mcp/json/bind.hpp>

#include <cmath>

namespace mcp::json {

BindError::BindError(std::string path, std::string detail)
    : std::runtime_error((path.empty() ? std::string("/") : path) + ": " + detail),
      path_(std::move(path)),
      detail_(std::move(detail)) {}

namespace detail {

namespace {

void append_escaped(std::string& out, std::string_view key) {
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
}

const char* kind_name(const boost::json::value& v) {
    switch (v.kind()) {
        case boost::json::kind::null: return "null";
        case boost::json::kind::bool_: return "boolean";
        case boost::json::kind::int64:
        case boost::json::kind::uint64: return "integer";
        case boost::json::kind::double_: return "number";
        case boost::json::kind::string: return "string";
        case boost::json::kind::array: return "array";
        case boost::json::kind::object: return "object";
    }
    return "value";
}

}  // namespace

std::string Path::str() const {
    std::vector<const Path*> chain;
    for (const Path* p = this; p != nullptr && p->parent != nullptr; p = p->parent) chain.push_back(p);
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        out += '/';
        if ((*it)->is_index)
            out += std::to_string((*it)->index);
        else
            append_escaped(out, (*it)->key);
    }
    return out;
}

void fail(const Path& path, std::string detail) { throw BindError(path.str(), std::move(detail)); }

void fail_kind(const Path& path, std::string_view expected, const boost::json::value& got) {
    fail(path, "expected " + std::string(expected) + ", got " + kind_name(got));
}

bool read_bool(const boost::json::value& v, const Path& path) {
    if (!v.is_bool()) fail_kind(path, "boolean", v);
    return v.get_bool();
}

std::int64_t read_int64(const boost::json::value& v, const Path& path, std::int64_t lo, std::int64_t hi) {
    std::int64_t n = 0;
    if (v.is_int64()) {
        n = v.get_int64();
    } else if (v.is_uint64()) {
        if (v.get_uint64() > static_cast<std::uint64_t>(hi)) fail(path, "integer out of range");
        n = static_cast<std::int64_t>(v.get_uint64());
    } else if (v.is_double()) {
        double d = v.get_double();
        if (std::trunc(d) != d) fail_kind(path, "integer", v);
        // 2^63 is exactly representable; anything at or beyond it is out of range.
        if (d < -9223372036854775808.0 || d >= 9223372036854775808.0) fail(path, "integer out of range");
        n = static_cast<std::int64_t>(d);
    } else {
        fail_kind(path, "integer", v);
    }
    if (n < lo || n > hi) fail(path, "integer out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return n;
}

std::uint64_t read_uint64(const boost::json::value& v, const Path& path, std::uint64_t hi) {
    std::uint64_t n = 0;
    if (v.is_uint64()) {
        n = v.get_uint64();
    } else if (v.is_int64()) {
        if (v.get_int64() < 0) fail(path, "expected a non-negative integer");
        n = static_cast<std::uint64_t>(v.get_int64());
    } else if (v.is_double()) {
        double d = v.get_double();
        if (std::trunc(d) != d) fail_kind(path, "integer", v);
        if (d < 0) fail(path, "expected a non-negative integer");
        if (d >= 18446744073709551616.0) fail(path, "integer out of range");
        n = static_cast<std::uint64_t>(d);
    } else {
        fail_kind(path, "integer", v);
    }
    if (n > hi) fail(path, "integer out of range [0, " + std::to_string(hi) + "]");
    return n;
}

double read_double(const boost::json::value& v, const Path& path) {
    if (v.is_double()) return v.get_double();
    if (v.is_int64()) return static_cast<double>(v.get_int64());
    if (v.is_uint64()) return static_cast<double>(v.get_uint64());
    fail_kind(path, "number", v);
}

const boost::json::string& read_string(const boost::json::value& v, const Path& path) {
    if (!v.is_string()) fail_kind(path, "string", v);
    return v.get_string();
}

const boost::json::object& read_object(const boost::json::value& v, const Path& path) {
    if (!v.is_object()) fail_kind(path, "object", v);
    return v.get_object();
}

const boost::json::array& read_array(const boost::json::value& v, const Path& path) {
    if (!v.is_array()) fail_kind(path, "array", v);
    return v.get_array();
}

}  // namespace detail
}  // namespace mcp::json
