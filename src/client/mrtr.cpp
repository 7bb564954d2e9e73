#include "client/mrtr.hpp"

#include "protocol/wire_reader.hpp"

#include <stdexcept>

namespace mcp::detail {

bool is_input_required(const boost::json::value& result) {
    const auto* o = result.if_object();
    const auto* type = o != nullptr ? o->if_contains("resultType") : nullptr;
    return type != nullptr && type->is_string() && type->get_string() == "input_required";
}

InputRequired read_input_required(const boost::json::object& result) {
    InputRequired input;
    if (const auto* state = result.if_contains("requestState"); state != nullptr && !state->is_null())
        input.request_state = *state;
    const auto* requests = result.if_contains("inputRequests");
    if (requests != nullptr && !requests->is_null()) {
        input.requests = read_input_requests(*requests);
    } else if (!input.request_state) {
        throw std::invalid_argument("an input_required result with neither inputRequests nor requestState");
    }
    return input;
}

std::vector<InputRequest> read_input_requests(const boost::json::value& input_requests) {
    std::vector<InputRequest> out;
    for (const auto& kv : object_of(input_requests, "\"inputRequests\"")) {
        const auto& request = object_of(kv.value(), "an input request");
        out.push_back(InputRequest{std::string(kv.key()), required_string(request, "method"),
                                   optional_object(request, "params")});
    }
    return out;
}

boost::json::object answer_requests(const std::vector<InputRequest>& requests, const InputAnswerer& answer) {
    boost::json::object responses;
    for (const auto& request : requests) responses[request.key] = answer(request);
    return responses;
}

boost::json::object retry_params(const boost::json::object& original, const InputRequired& input,
                                 const InputAnswerer& answer) {
    boost::json::object params = original;
    params.erase("inputResponses");
    params.erase("requestState");
    if (!input.requests.empty()) params["inputResponses"] = answer_requests(input.requests, answer);
    if (input.request_state) params["requestState"] = *input.request_state;
    return params;
}

}  // namespace mcp::detail
