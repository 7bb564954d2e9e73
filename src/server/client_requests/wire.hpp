#pragma once
// Client requests on the wire: the method and params of each kind, the capability it needs, and
// the parsing of the client's answer.
#include <mcp/server/client_requests.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <map>
#include <string>

namespace mcp::detail {

enum class InputKind { elicitation, url_elicitation, sampling, roots };

struct WireRequest {
    InputKind kind;
    std::string key;
    std::string method;
    boost::json::object params;
    std::string capability;  // dotted path the client must declare
};

// Numbers requests of each kind in call order, for requests without a key ("elicitation-1").
class KeyCounter {
public:
    std::string next(InputKind kind);

private:
    std::map<InputKind, int> counts_;
};

WireRequest to_wire(const InputRequest& request, KeyCounter& keys);

// The kind as metrics name it: "elicitation" (form or URL), "sampling" or "roots".
std::string_view kind_name(InputKind kind);

// The client's result as the answer the handler gets. Throws std::invalid_argument saying what is
// wrong with it.
InputAnswer parse_answer(const WireRequest& request, const boost::json::value& result);

// elicitation/create params of a URL elicitation (an id is generated when it has none).
boost::json::object url_elicitation_params(const UrlElicitRequest& request);

// The capability object a missing dotted path stands for: "elicitation.url" is
// {"elicitation": {"url": {}}}.
boost::json::object capability_object(std::string_view path);

}  // namespace mcp::detail
