// tools/list and tools/call.
#include "server/methods/methods.hpp"
#include "util/log.hpp"

#include <mcp/json/bind.hpp>

namespace mcp::detail {

namespace {

boost::json::value error_result(std::string_view message) {
    auto result = text_tool_result(message);
    result.as_object()["isError"] = true;
    return result;
}

}  // namespace

boost::json::value list_tools(ServerCore& core, CallState& call) { return list_page(core, call, core.tools, "tools"); }

boost::json::value call_tool(ServerCore& core, CallState& call) {
    const auto& params = call.params();
    const std::string_view name = require_string(params, "name");
    auto entry = core.tools.find(name);
    if (!entry) throw InvalidParams("Unknown tool: " + std::string(name));

    static const boost::json::object no_arguments;
    const boost::json::object* arguments = optional_object(params, "arguments");
    if (arguments == nullptr) arguments = &no_arguments;
    if (auto invalid = entry->validator.validate(*arguments)) {
        return error_result("Invalid arguments: " + invalid->message);
    }

    // Errors of the tool itself go back to the model as an isError result; protocol errors
    // (mcp::Error) stay JSON-RPC errors.
    Context ctx(call);
    try {
        return entry->def.invoke(*arguments, ctx);
    } catch (const Error&) {
        throw;
    } catch (const json::BindError& e) {
        return error_result(std::string("Invalid arguments: ") + e.what());
    } catch (const std::exception& e) {
        log().debug("tool {} failed: {}", name, e.what());
        return error_result(e.what());
    } catch (...) {
        return error_result("The tool failed with an unknown exception");
    }
}

}  // namespace mcp::detail
