// tools/list and tools/call.
#include "server/client_requests/wire.hpp"
#include "server/methods/methods.hpp"
#include "server/tasks/task_runs.hpp"
#include "util/log.hpp"

#include <mcp/json/bind.hpp>
#include <mcp/protocol/errors.hpp>

#include <boost/json/serialize.hpp>

namespace mcp::detail {

namespace {

boost::json::value error_result(std::string_view message) {
    auto result = text_tool_result(message);
    result.as_object()["isError"] = true;
    return result;
}

void merge(boost::json::object& into, const boost::json::object& from) {
    for (const auto& kv : from) {
        auto& slot = into[kv.key()];
        if (slot.is_object() && kv.value().is_object())
            merge(slot.as_object(), kv.value().as_object());
        else
            slot = kv.value();
    }
}

// The required capabilities the client did not declare, as a ClientCapabilities object
// ("elicitation.url" becomes {"elicitation": {"url": {}}}), or nothing when all are there.
std::optional<boost::json::object> missing_capabilities(const std::vector<std::string>& required,
                                                        const Exchange& exchange) {
    std::optional<boost::json::object> missing;
    for (const auto& path : required) {
        if (exchange.client_supports(path)) continue;
        if (!missing) missing.emplace();
        merge(*missing, capability_object(path));
    }
    return missing;
}

// A structured result that breaks the tool's outputSchema is the tool's failure, told to the model
// like any other (spec: servers MUST return structured results that conform to it). Error results
// are exempt: they need not carry structuredContent.
boost::json::value checked_output(const ToolEntry& entry, boost::json::value result) {
    const auto* object = result.if_object();
    if (object == nullptr) return result;
    if (const auto* error = object->if_contains("isError"); error != nullptr && error->is_bool() && error->get_bool())
        return result;
    const auto* structured = object->if_contains("structuredContent");
    std::string problem;
    if (structured == nullptr) {
        problem = "no structuredContent, though the tool declares an outputSchema";
    } else if (auto invalid = entry.output_validator->validate(*structured)) {
        problem = invalid->message;
    } else {
        return result;
    }
    log().warn("tool {} returned a result its outputSchema refuses: {}", entry.def.spec.name, problem);
    return error_result("Output validation failed: " + problem);
}

}  // namespace

boost::json::value list_tools(ServerCore& core, CallState& call) {
    return list_page(core, call, core.catalog.tools, "tools");
}

bool tool_runs_inline(const ServerCore& core, const CallState& call) {
    return names_inline_entry(core.catalog.tools, call);
}

std::vector<std::string> tool_scopes(const ServerCore& core, std::string_view name) {
    return declared_scopes(core.catalog.tools, name);
}

boost::json::value call_tool(ServerCore& core, CallState& call) {
    const auto params = bind_params<CallToolParams>(call.params());
    const auto name = params.name;
    auto entry = core.catalog.tools.find(name);
    if (!entry) throw InvalidParams("Unknown tool: " + std::string(name));
    call.entity = entry->metrics;

    // Kept as the json::value it is: the validator reads one, and a value made from the object
    // would be a copy of it.
    static const boost::json::value no_arguments = boost::json::object();
    const boost::json::value& arguments_value =
        params.arguments != nullptr ? call.params().at("arguments") : no_arguments;
    const boost::json::object* arguments = &arguments_value.get_object();
    if (call.headers) check_param_headers(entry->header_params, *arguments, *call.headers);
    if (auto missing = missing_capabilities(entry->def.spec.required_client_capabilities, *call.exchange)) {
        if (call.exchange->era() == Era::stateless) {
            throw Error(error_code::missing_required_client_capability, "Missing required client capability",
                        boost::json::object{{"requiredCapabilities", std::move(*missing)}});
        }
        return error_result("This tool needs a client capability the client did not declare: " +
                            boost::json::serialize(*missing));
    }
    if (auto invalid = entry->validator.validate(arguments_value)) {
        return error_result("Invalid arguments: " + invalid->message);
    }

    // A task answers the request now and runs on (server/tasks/). Inside one, the handler keeps
    // its thread while a 2025 client answers: a parked call would hold the task's request.
    if (!call.task) call.may_become_task = may_become_task(*entry, call);
    if (call.may_become_task && !entry->def.spec.task_started_by_handler) start_task(call);

    // Errors of the tool itself go back to the model as an isError result; protocol errors
    // (mcp::Error) stay JSON-RPC errors.
    call.replayable = entry->def.spec.replayable && !call.may_become_task;
    Context ctx(call);
    std::optional<boost::json::value> result;  // emplaced, not assigned: it keeps the storage it was made in
    try {
        result.emplace(entry->def.invoke(*arguments, ctx));
    } catch (const InputRequired&) {
        throw;  // 2026: the dispatcher answers input_required
    } catch (const CapabilityMissing& e) {
        if (call.exchange->era() == Era::stateless) throw;  // -32021
        return error_result(e.what());
    } catch (const UrlElicitationRequired& e) {
        if (call.exchange->era() != Era::sessions || !call.exchange->client_supports("elicitation.url"))
            return error_result(e.what());
        boost::json::array elicitations;
        for (const auto& r : e.elicitations()) elicitations.push_back(url_elicitation_params(r));
        throw Error(error_code::url_elicitation_required, e.what(),
                    boost::json::object{{"elicitations", std::move(elicitations)}});
    } catch (const Error&) {
        throw;
    } catch (const StoreUnavailable&) {
        throw;  // not the tool's failure: the client is told to retry (HTTP 503)
    } catch (const json::BindError& e) {
        return error_result(std::string("Invalid arguments: ") + e.what());
    } catch (const std::exception& e) {
        log().debug("tool {} failed: {}", name, printable(e.what()));
        return error_result(e.what());
    } catch (...) {
        return error_result("The tool failed with an unknown exception");
    }
    if (!entry->output_validator || !core.options.validate_tool_output) return std::move(*result);
    return checked_output(*entry, std::move(*result));
}

}  // namespace mcp::detail
