#include "client/input_answers.hpp"

#include "client/elicitation_defaults.hpp"

#include <mcp/protocol/errors.hpp>

#include <stdexcept>
#include <string>

namespace mcp::detail {

namespace {

[[noreturn]] void undeclared(std::string_view method) {
    throw Error(error_code::method_not_found, "This client does not handle " + std::string(method));
}

template <class T>
T read_params(const boost::json::object& params, std::string_view method) {
    try {
        return from_wire<T>(params);
    } catch (const std::invalid_argument& e) {
        throw InvalidParams("Invalid " + std::string(method) + " params: " + e.what());
    }
}

}  // namespace

boost::json::object answer_input(const ClientHandlers& handlers, const std::optional<std::vector<Root>>& roots,
                                 std::string_view method, const boost::json::object& params) {
    if (method == "elicitation/create") {
        if (!handlers.elicitation) undeclared(method);
        const auto request = read_params<Elicitation>(params, method);
        if (request.mode == ElicitMode::url && !handlers.url_elicitation)
            throw InvalidParams("This client does not accept URL elicitations");
        auto result = handlers.elicitation(request);
        if (result.accepted() && request.mode == ElicitMode::form)
            fill_defaults(request.requested_schema, result.content);
        return to_wire(result);
    }
    if (method == "sampling/createMessage") {
        if (!handlers.sampling) undeclared(method);
        return to_wire(handlers.sampling(read_params<SamplingRequest>(params, method)));
    }
    if (method == "roots/list") {
        if (handlers.roots) return to_wire(handlers.roots());
        if (!roots) undeclared(method);
        return to_wire(*roots);
    }
    undeclared(method);
}

std::optional<RoundRequest> round_request(const ClientHandlers& handlers, bool has_roots, std::string_view key,
                                          std::string_view method, const boost::json::object& params) {
    try {
        if (method == "elicitation/create" && handlers.elicitation) {
            auto request = read_params<Elicitation>(params, method);
            if (request.mode == ElicitMode::url && !handlers.url_elicitation) return std::nullopt;
            return RoundRequest{std::string(key), std::move(request)};
        }
        if (method == "sampling/createMessage" && handlers.sampling)
            return RoundRequest{std::string(key), read_params<SamplingRequest>(params, method)};
        if (method == "roots/list" && (handlers.roots || has_roots))
            return RoundRequest{std::string(key), RootsListRequest{}};
    } catch (const Error&) {
        // Unreadable: answer_input refuses it as it refuses any.
    }
    return std::nullopt;
}

boost::json::object round_result(const RoundRequest& request, RoundAnswer answer) {
    if (const auto* elicitation = std::get_if<Elicitation>(&request.request)) {
        auto* result = std::get_if<ElicitResult>(&answer);
        if (result == nullptr)
            throw std::logic_error("CallOptions::input_round: an elicitation answered by another kind");
        if (result->accepted() && elicitation->mode == ElicitMode::form)
            fill_defaults(elicitation->requested_schema, result->content);
        return to_wire(*result);
    }
    if (std::holds_alternative<RootsListRequest>(request.request)) {
        const auto* roots = std::get_if<std::vector<Root>>(&answer);
        if (roots == nullptr)
            throw std::logic_error("CallOptions::input_round: a roots request answered by another kind");
        return to_wire(*roots);
    }
    const auto* result = std::get_if<SamplingResult>(&answer);
    if (result == nullptr)
        throw std::logic_error("CallOptions::input_round: a sampling request answered by another kind");
    return to_wire(*result);
}

}  // namespace mcp::detail
