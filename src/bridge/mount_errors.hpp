#pragma once
// The error every part of a mount answers with when its inner server cannot be reached
// (docs/adr/0029-gateway.md, decision 5): -32603, naming the mount in message and data.
#include <mcp/protocol/errors.hpp>

#include <string>

namespace mcp::detail {

Error unreachable_mount(const std::string& prefix, const std::string& why);

}  // namespace mcp::detail
