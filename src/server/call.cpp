#include "server/call.hpp"

#include <boost/json/serialize.hpp>

namespace mcp::detail {

CallState::CallState(ServerCore& c, boost::json::value doc, std::shared_ptr<CallSink> s, std::shared_ptr<Session> sess)
    : core(c), document(std::move(doc)), sink(std::move(s)), session(std::move(sess)) {}

const boost::json::object& CallState::params() const {
    static const boost::json::object empty;
    return message.params != nullptr ? *message.params : empty;
}

std::string request_key(const boost::json::value& id) { return boost::json::serialize(id); }

}  // namespace mcp::detail
