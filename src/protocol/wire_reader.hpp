#pragma once
// Reading what a peer sent into model types: accessors that throw std::invalid_argument naming the
// member that is missing or of the wrong kind.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

const boost::json::object& object_of(const boost::json::value& v, std::string_view what);
std::string required_string(const boost::json::object& o, std::string_view key);
// "" when absent or null.
std::string optional_string(const boost::json::object& o, std::string_view key);
std::optional<double> optional_number(const boost::json::object& o, std::string_view key);
std::optional<std::int64_t> optional_integer(const boost::json::object& o, std::string_view key);
bool optional_bool(const boost::json::object& o, std::string_view key);
// nullptr when absent or null.
const boost::json::array* optional_array(const boost::json::object& o, std::string_view key);
// Empty when absent or null.
boost::json::object optional_object(const boost::json::object& o, std::string_view key);

}  // namespace mcp::detail
