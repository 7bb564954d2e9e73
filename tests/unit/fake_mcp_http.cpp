#include "fake_mcp_http.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace fake {

Rpc rpc_of(const mcp::test::ReceivedRequest& request) {
    Rpc rpc;
    boost::system::error_code ec;
    const auto parsed = boost::json::parse(request.body, ec);
    const auto* o = ec ? nullptr : parsed.if_object();
    if (o == nullptr) return rpc;
    if (const auto* m = o->if_contains("method"); m != nullptr && m->is_string()) rpc.method = m->get_string();
    if (const auto* id = o->if_contains("id")) rpc.id = *id;
    if (const auto* p = o->if_contains("params"); p != nullptr && p->is_object()) rpc.params = p->get_object();
    return rpc;
}

std::string json(int status, const boost::json::value& body, std::string_view fields) {
    return mcp::test::http_response(status, boost::json::serialize(body),
                                    "Content-Type: application/json\r\n" + std::string(fields));
}

std::string result(const boost::json::value& id, const boost::json::value& value, std::string_view fields) {
    return json(200, boost::json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", value}}, fields);
}

std::string accepted() { return mcp::test::http_response(202, ""); }

std::string sse_head(std::string_view fields) {
    return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n" +
           std::string(fields) + "\r\n";
}

std::string event(std::string_view data, std::string_view id, std::optional<int> retry, std::string_view type) {
    std::string out;
    if (!type.empty()) out += "event: " + std::string(type) + "\n";
    if (!id.empty()) out += "id: " + std::string(id) + "\n";
    if (retry) out += "retry: " + std::to_string(*retry) + "\n";
    out += "data: " + std::string(data) + "\n\n";
    return out;
}

std::string message(const boost::json::value& jsonrpc, std::string_view id) {
    return event(boost::json::serialize(jsonrpc), id);
}

boost::json::object initialize_result(std::string_view version) {
    return {{"protocolVersion", version},
            {"capabilities", {{"tools", boost::json::object()}}},
            {"serverInfo", {{"name", "fake"}, {"version", "1"}}}};
}

boost::json::object discover_result() {
    return {{"resultType", "complete"},
            {"supportedVersions", {"2026-07-28"}},
            {"capabilities", {{"tools", boost::json::object()}}},
            {"_meta", {{"io.modelcontextprotocol/serverInfo", {{"name", "fake"}, {"version", "1"}}}}}};
}

boost::json::object text_result(std::string_view text) { return {{"content", {{{"type", "text"}, {"text", text}}}}}; }

Server::Server(Route route) : route_(std::move(route)) {
    server_ = std::make_unique<mcp::test::TestServer>([this](mcp::test::Peer& peer) {
        while (auto request = peer.read_request()) {
            {
                std::lock_guard lock(mutex_);
                seen_.push_back({*request, Clock::now()});
            }
            if (!route_(peer, *request)) {
                peer.shutdown();
                return;
            }
        }
    });
}

Server::~Server() { server_.reset(); }

std::vector<Seen> Server::seen() const {
    std::lock_guard lock(mutex_);
    return seen_;
}

std::vector<Seen> Server::seen(std::string_view start) const {
    std::vector<Seen> out;
    for (auto& s : seen()) {
        if (std::string_view(s.request.line).starts_with(start)) out.push_back(std::move(s));
    }
    return out;
}

}  // namespace fake
