#include <mcp/server/exchange.hpp>

namespace mcp {

Exchange::Exchange(Era era, std::shared_ptr<const ClientState> client, std::shared_ptr<Session> session,
                   boost::json::value request_id, boost::json::value progress_token,
                   std::optional<LogLevel> request_log_level, std::shared_ptr<const Principal> principal,
                   std::string client_address)
    : era_(era),
      client_(std::move(client)),
      session_(std::move(session)),
      request_id_(std::move(request_id)),
      progress_token_(std::move(progress_token)),
      request_log_level_(request_log_level),
      principal_(std::move(principal)),
      client_address_(std::move(client_address)) {
    if (!client_) client_ = std::make_shared<const ClientState>();
}

bool Exchange::client_supports(std::string_view capability) const {
    const boost::json::object* node = &client_->capabilities;
    while (true) {
        const auto dot = capability.find('.');
        const auto key = capability.substr(0, dot);
        const auto* child = node->if_contains(key);
        if (child == nullptr || child->is_null()) return false;
        if (dot == std::string_view::npos) return true;
        if (!child->is_object()) return false;
        node = &child->get_object();
        capability.remove_prefix(dot + 1);
    }
}

const boost::json::object* Exchange::client_extension(std::string_view id) const {
    const auto* extensions = client_->capabilities.if_contains("extensions");
    const auto* settings =
        extensions != nullptr && extensions->is_object() ? extensions->get_object().if_contains(id) : nullptr;
    return settings != nullptr ? settings->if_object() : nullptr;
}

std::optional<LogLevel> Exchange::log_level() const {
    if (era_ == Era::stateless) return request_log_level_;
    if (session_) return session_->log_level();
    return request_log_level_;
}

}  // namespace mcp
