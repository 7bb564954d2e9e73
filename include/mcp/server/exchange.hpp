#pragma once
// Everything a handler may ask about the request it serves. Immutable, passed explicitly.
#include <mcp/protocol/revision.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/server/request_context.hpp>
#include <mcp/sessions/session.hpp>

#include <boost/json/value.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {

class Exchange {
public:
    Exchange(Era era, std::shared_ptr<const ClientState> client, std::shared_ptr<Session> session,
             boost::json::value request_id, boost::json::value progress_token,
             std::optional<LogLevel> request_log_level, std::shared_ptr<const Principal> principal = nullptr,
             std::string client_address = {});

    Era era() const { return era_; }
    std::string_view protocol_version() const { return client_->protocol_version; }
    const boost::json::object& client_capabilities() const { return client_->capabilities; }
    const Implementation& client_info() const { return client_->info; }
    // A dotted capability path, e.g. "sampling", "elicitation.url", "roots.listChanged".
    bool client_supports(std::string_view capability) const;
    // The settings the client declared for an extension (capabilities.extensions[id], per request
    // on 2026-07-28, at initialize before), or nullptr when it did not declare it.
    const boost::json::object* client_extension(std::string_view id) const;

    const boost::json::value& request_id() const { return request_id_; }
    // The request's _meta.progressToken (string or integer), null when absent.
    const boost::json::value& progress_token() const { return progress_token_; }
    // The lowest level the client wants to see now; nothing when it asked for no log messages.
    std::optional<LogLevel> log_level() const;
    // The 2025-era session, if any.
    const std::shared_ptr<Session>& session() const { return session_; }
    // Who is asking (an HTTP authenticator's verdict); null when anonymous.
    const std::shared_ptr<const Principal>& principal() const { return principal_; }
    // Where from: the client's address as the transport saw it (behind trusted proxies, the
    // forwarded one; IPv6 by its prefix), empty on stdio and in-process (Inbound::client_address).
    const std::string& client_address() const { return client_address_; }

private:
    Era era_;
    std::shared_ptr<const ClientState> client_;
    std::shared_ptr<Session> session_;
    boost::json::value request_id_;
    boost::json::value progress_token_;
    std::optional<LogLevel> request_log_level_;
    std::shared_ptr<const Principal> principal_;
    std::string client_address_;
};

}  // namespace mcp
