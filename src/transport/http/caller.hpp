#pragma once
// What the MCP endpoint learned about a request's sender before the core sees the request.
#include "util/client_key.hpp"

#include <mcp/server/request_context.hpp>
#include <mcp/server/sink.hpp>

#include <memory>
#include <string>
#include <utility>

namespace mcp::detail {

struct Caller {
    std::shared_ptr<const Principal> principal;
    TraceContext trace;
    std::string address;  // the client's, as the quotas count it (client_address.hpp)
    // The connection for the request's span; its client_address views the peer's or `whole`.
    InboundNetwork network;
    std::string whole;  // a client behind proxies, written whole when spans are recorded

    const std::string& subject() const {
        static const std::string anonymous;
        return principal ? principal->subject : anonymous;
    }
    // Who the client is for the bounds kept per client.
    std::string key() const { return client_key(subject(), address); }
    // What the core is told of the request. No cancel token: the transport cancels a call through
    // the call's own stop source (detail::handle_parsed).
    Inbound inbound(std::shared_ptr<Session> session, const RequestHeaders* headers, Era era) const {
        auto connection = network;
        if (!whole.empty()) connection.client_address = whole;
        return Inbound{std::move(session), {}, headers, principal, trace, era, address, connection};
    }
};

}  // namespace mcp::detail
