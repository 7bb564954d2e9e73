#pragma once
// JSON value semantics needed by the schema validator: numeric comparison across the int64,
// uint64 and double representations of Boost.JSON, JSON equality (1 == 1.0), a hash consistent
// with that equality, and UTF-8 code point counting.
#include <boost/json/value.hpp>

#include <compare>
#include <cstddef>
#include <string_view>

namespace mcp::json::schema_impl {

// Both arguments must be numbers. Exact (no rounding through double); unordered only for NaN.
std::partial_ordering compare_numbers(const boost::json::value& a, const boost::json::value& b);

// True for int64/uint64 values and for finite doubles without a fractional part.
bool is_integral(const boost::json::value& v);

// `m` must be a positive number.
bool is_multiple_of(const boost::json::value& x, const boost::json::value& m);

// JSON equality: numbers compare by value, objects ignore member order. Iterative, so deeply
// nested values cannot exhaust the stack.
bool json_equal(const boost::json::value& a, const boost::json::value& b);

// Equal values (per json_equal) have equal hashes. Descends a bounded number of levels.
std::size_t json_hash(const boost::json::value& v);

// Number of code points in a UTF-8 string (continuation bytes are not counted).
std::size_t utf8_length(std::string_view s);

// "null", "boolean", "integer" (int64/uint64), "number" (double), "string", "array", "object".
const char* kind_name(const boost::json::value& v);

}  // namespace mcp::json::schema_impl
