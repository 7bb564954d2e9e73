#pragma once
// What a server sends a client, read into the client's types (mcp/client/types.hpp). Each reader
// throws std::invalid_argument naming what is missing or malformed.
#include <mcp/client/errors.hpp>
#include <mcp/client/types.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <stdexcept>
#include <string>
#include <string_view>

namespace mcp::detail {

Tool tool_from_wire(const boost::json::value& wire);
Prompt prompt_from_wire(const boost::json::value& wire);
Resource resource_from_wire(const boost::json::value& wire);
ResourceTemplate resource_template_from_wire(const boost::json::value& wire);
// The task fields of either era (ttl/ttlMs, pollInterval/pollIntervalMs), and what 2026 inlines.
Task task_from_wire(const boost::json::value& wire);
CompletionResult completion_from_wire(const boost::json::value& result);
LogMessage log_message_from_wire(const boost::json::object& params);
Progress progress_from_wire(const boost::json::object& params);

// Runs a reader of what the server sent: what it finds malformed is the server's mistake, an
// mcp::ProtocolViolation saying what was being read.
template <class Reader>
auto reading(std::string_view what, Reader&& reader) -> decltype(reader()) {
    try {
        return reader();
    } catch (const std::invalid_argument& e) {
        throw ProtocolViolation("malformed " + std::string(what) + ": " + e.what());
    }
}

// A listing's page: the array under `key`, each item read by `read`, and nextCursor.
template <class T>
Page<T> page_from_wire(const boost::json::value& result, std::string_view key, T (*read)(const boost::json::value&));

}  // namespace mcp::detail
