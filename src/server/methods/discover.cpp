// server/discover (2026-07-28): supported versions, capabilities, instructions.
#include "server/methods/methods.hpp"

#include <mcp/protocol/revision.hpp>

namespace mcp::detail {

boost::json::value discover(ServerCore& core, CallState&) {
    boost::json::array versions;
    for (auto v : revision::stateless_era()) versions.emplace_back(v);
    boost::json::object result;
    result["supportedVersions"] = std::move(versions);
    result["capabilities"] = server_capabilities(core);
    if (!core.options.instructions.empty()) result["instructions"] = core.options.instructions;
    return result;
}

}  // namespace mcp::detail
