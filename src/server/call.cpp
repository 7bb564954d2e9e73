#include "server/call.hpp"

#include "util/client_key.hpp"

namespace mcp::detail {

CallState::CallState(ServerCore& c, boost::json::value doc, std::shared_ptr<CallSink> s, std::shared_ptr<Session> sess)
    : core(c), document(std::move(doc)), sink(std::move(s)), session(std::move(sess)) {}

const boost::json::object& CallState::params() const {
    static const boost::json::object empty;
    return message.params != nullptr ? *message.params : empty;
}

std::string CallState::client() const {
    const auto& principal = exchange->principal();
    return client_key(principal ? std::string_view(principal->subject) : std::string_view(),
                      exchange->client_address());
}

std::optional<SessionState::Answering> CallState::untrack() {
    if (!session || key.empty()) return std::nullopt;
    return SessionState::of(*session).untrack(*this);
}

}  // namespace mcp::detail
