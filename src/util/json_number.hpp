#pragma once
#include <boost/json/value.hpp>

#include <cmath>
#include <cstdint>

namespace mcp::detail {

// Whole numbers go out as JSON integers ("50", not Boost.JSON's shortest double form "5E1").
inline boost::json::value json_number(double v) {
    if (std::trunc(v) == v && std::fabs(v) < 9.0e15) return static_cast<std::int64_t>(v);
    return v;
}

}  // namespace mcp::detail
