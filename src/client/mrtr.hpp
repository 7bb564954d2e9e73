#pragma once
// Multi-round-trip requests (2026-07-28 basic/patterns/mrtr.mdx), the client's side. Pure: the
// connection (connection.cpp) sends, answers and counts rounds.
//
// An input_required result names requests (elicitation, sampling, roots) under keys, and maybe a
// requestState. The retry is the same method with the same params, plus inputResponses (an answer
// per key) and the requestState exactly as received, never one the result did not carry, and a
// fresh id. A result without resultType is complete.
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mcp::detail {

struct InputRequest {
    std::string key;
    std::string method;
    boost::json::object params;
};

struct InputRequired {
    std::vector<InputRequest> requests;
    std::optional<boost::json::value> request_state;  // verbatim
};

// Whether a result asks for input (resultType "input_required").
bool is_input_required(const boost::json::value& result);

// The requests of an input_required result. Throws std::invalid_argument when it has neither
// inputRequests nor requestState, or a request is not {method, params}.
InputRequired read_input_required(const boost::json::object& result);
// An inputRequests map (also a 2026 task's) as requests.
std::vector<InputRequest> read_input_requests(const boost::json::value& input_requests);

// The answer to one input request, as the result object the server expects under its key.
using InputAnswerer = std::function<boost::json::object(const InputRequest&)>;

// An answer per request, under its key (inputResponses; a 2026 task's tasks/update too).
boost::json::object answer_requests(const std::vector<InputRequest>& requests, const InputAnswerer& answer);

// The params of the retry: `original` (as first sent, without _meta), every request answered, and
// the state, when there was one.
boost::json::object retry_params(const boost::json::object& original, const InputRequired& input,
                                 const InputAnswerer& answer);

}  // namespace mcp::detail
