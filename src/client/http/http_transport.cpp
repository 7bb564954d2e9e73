#include <mcp/client/http.hpp>

#include "client/http/http_core.hpp"

namespace mcp {

HttpTransport::HttpTransport(HttpServerParams params)
    : core_(std::make_shared<detail::HttpCore>(std::move(params), detail::HttpCore::Mode::streamable)) {}

HttpTransport::~HttpTransport() = default;

void HttpTransport::open(boost::asio::io_context& io, TransportEvents events) { core_->open(io, std::move(events)); }

void HttpTransport::send(OutboundMessage message) { core_->send(std::move(message)); }

bool HttpTransport::cancel(const boost::json::value& id) { return core_->cancel(id); }

void HttpTransport::answered(const boost::json::value& id) { core_->answered(id); }

bool HttpTransport::switch_to_legacy_sse() { return core_->switch_to_legacy_sse(); }

void HttpTransport::close() { core_->close(); }

std::string HttpTransport::session_id() const { return core_->session_id(); }

LegacySseTransport::LegacySseTransport(HttpServerParams params)
    : core_(std::make_shared<detail::HttpCore>(std::move(params), detail::HttpCore::Mode::legacy_sse)) {}

LegacySseTransport::~LegacySseTransport() = default;

void LegacySseTransport::open(boost::asio::io_context& io, TransportEvents events) {
    core_->open(io, std::move(events));
}

void LegacySseTransport::send(OutboundMessage message) { core_->send(std::move(message)); }

void LegacySseTransport::close() { core_->close(); }

}  // namespace mcp
