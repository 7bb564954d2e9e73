#include "server/dispatch.hpp"

#include "server/methods/methods.hpp"
#include "server/session_impl.hpp"
#include "util/log.hpp"

#include <mcp/json/bind.hpp>
#include <mcp/protocol/errors.hpp>

#include <unordered_map>

namespace mcp::detail {

namespace {

const std::unordered_map<std::string_view, Method>& method_table() {
    static const std::unordered_map<std::string_view, Method> table{
        {"initialize", {initialize, false, true}},
        {"ping", {ping, false, true}},
        {"logging/setLevel", {set_log_level, false, false}},
        {"tools/list", {list_tools, false, false}},
        {"tools/call", {call_tool, true, false}},
        {"prompts/list", {list_prompts, false, false}},
        {"prompts/get", {get_prompt, true, false}},
        {"resources/list", {list_resources, false, false}},
        {"resources/templates/list", {list_resource_templates, false, false}},
        {"resources/read", {read_resource, true, false}},
        {"resources/subscribe", {subscribe, false, false}},
        {"resources/unsubscribe", {unsubscribe, false, false}},
        {"completion/complete", {complete, true, false}},
    };
    return table;
}

boost::json::value error_response(const CallState& call, const Error& e) {
    int code = e.code();
    // The 2026-07-28 revision reports an unknown resource as invalid params.
    if (code == error_code::resource_not_found && call.exchange && call.exchange->era() == Era::modern) {
        code = error_code::invalid_params;
    }
    return jsonrpc::make_error(call.message.id, code, e.what(), e.data());
}

}  // namespace

const Method* find_method(std::string_view name) {
    const auto& table = method_table();
    auto it = table.find(name);
    return it == table.end() ? nullptr : &it->second;
}

void handle_notification(ServerCore& core, const jsonrpc::Message& message, const std::shared_ptr<Session>& session) {
    if (message.method == "notifications/initialized") {
        initialized(core, message, session);
    } else if (message.method == "notifications/cancelled") {
        cancelled(core, message, session);
    } else {
        log().debug("ignoring notification {}", message.method);
    }
}

void run_call(const Method& method, const std::shared_ptr<CallState>& call) {
    boost::json::value response;
    try {
        response = jsonrpc::make_result(call->message.id, method.run(call->core, *call));
    } catch (const Error& e) {
        response = error_response(*call, e);
    } catch (const json::BindError& e) {
        response = jsonrpc::make_error(call->message.id, error_code::invalid_params, std::string("Invalid params: ") + e.what());
    } catch (const std::exception& e) {
        log().warn("{} failed: {}", call->message.method, e.what());
        response = jsonrpc::make_error(call->message.id, error_code::internal_error, std::string("Internal error: ") + e.what());
    } catch (...) {
        response = jsonrpc::make_error(call->message.id, error_code::internal_error, "Internal error");
    }
    if (call->session && !call->key.empty()) call->session->impl().untrack(*call);
    if (call->cancelled_by_client.load()) {
        call->sink->complete(std::nullopt);  // a cancelled request gets no response
    } else {
        call->sink->complete(std::move(response));
    }
}

}  // namespace mcp::detail
