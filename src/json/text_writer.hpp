#pragma once
// JSON text appended to a string, for the hot paths (each request a client sends, each message a
// server writes): a direct walk
// of the value, where boost::json::serializer's resumable machine, built anew for each piece,
// cost more than the rest of writing a small request. The output is boost::json::serialize's,
// byte for byte (doubles are written by Boost.JSON itself).
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace mcp::detail {

void append_json(std::string& out, const boost::json::value& value);
// The value's JSON text, as boost::json::serialize gives it.
std::string json_text(const boost::json::value& value);
void append_json(std::string& out, const boost::json::object& object);
// A JSON string: quoted, with what JSON requires escaped. The bytes are not checked as UTF-8.
void append_json(std::string& out, std::string_view string);
// An object's members, without its braces (what goes inside another object's).
void append_members(std::string& out, const boost::json::object& object);

}  // namespace mcp::detail
