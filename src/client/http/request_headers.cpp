#include "client/http/request_headers.hpp"

#include "client/negotiation.hpp"
#include "protocol/param_headers.hpp"
#include "util/ascii.hpp"

#include <mcp/protocol/revision.hpp>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace mcp::detail {

namespace {

constexpr std::array<std::string_view, 11> kReserved{
    "Accept",        "Content-Type", "MCP-Protocol-Version", "Mcp-Session-Id",    "Mcp-Method", "Mcp-Name",
    "Last-Event-ID", "Host",         "Content-Length",       "Transfer-Encoding", "Connection"};
constexpr std::string_view kParamPrefix = "Mcp-Param-";

bool is_token(std::string_view s) {
    constexpr std::string_view kSymbols = "!#$%&'*+-.^_`|~";
    return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               kSymbols.find(c) != std::string_view::npos;
    });
}

bool is_reserved(std::string_view name) {
    if (name.size() >= kParamPrefix.size() && ascii_iequals(name.substr(0, kParamPrefix.size()), kParamPrefix))
        return true;
    return std::any_of(kReserved.begin(), kReserved.end(), [&](std::string_view r) { return ascii_iequals(r, name); });
}

void add_custom(net::HttpHeaders& headers, const CustomHeaders& custom) {
    for (const auto& [name, value] : custom) headers.add(name, value);
}

void add_session(net::HttpHeaders& headers, std::string_view session_id, std::string_view version) {
    if (!session_id.empty()) headers.add("Mcp-Session-Id", std::string(session_id));
    if (has_version_header(version)) headers.add("MCP-Protocol-Version", std::string(version));
}

}  // namespace

void check_custom_headers(const CustomHeaders& headers) {
    for (const auto& [name, value] : headers) {
        if (!is_token(name)) throw std::invalid_argument("not a header field name: \"" + name + "\"");
        if (is_reserved(name)) throw std::invalid_argument("the header " + name + " is set by the transport");
        if (value.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos)
            throw std::invalid_argument("the value of the header " + name + " holds CR, LF or NUL");
    }
}

bool has_version_header(std::string_view version) { return version >= revision::v2025_06_18; }

net::HttpHeaders post_headers(const OutboundMessage& message, std::string_view session_id,
                              const CustomHeaders& custom) {
    net::HttpHeaders headers;
    headers.add("Content-Type", "application/json");
    headers.add("Accept", "application/json, text/event-stream");
    if (is_modern_version(message.protocol_version)) {
        headers.add("MCP-Protocol-Version", message.protocol_version);
        if (!message.method.empty()) headers.add("Mcp-Method", message.method);
        if (message.name) headers.add("Mcp-Name", encode_header_value(*message.name));
        for (const auto& [name, value] : message.params)
            headers.add(std::string(kParamPrefix) + name, encode_header_value(value));
    } else {
        add_session(headers, session_id, message.protocol_version);
    }
    add_custom(headers, custom);
    return headers;
}

net::HttpHeaders stream_headers(std::string_view session_id, std::string_view version, std::string_view last_event_id,
                                const CustomHeaders& custom) {
    net::HttpHeaders headers;
    headers.add("Accept", "text/event-stream");
    add_session(headers, session_id, version);
    if (!last_event_id.empty()) headers.add("Last-Event-ID", std::string(last_event_id));
    add_custom(headers, custom);
    return headers;
}

net::HttpHeaders end_session_headers(std::string_view session_id, std::string_view version,
                                     const CustomHeaders& custom) {
    net::HttpHeaders headers;
    add_session(headers, session_id, version);
    add_custom(headers, custom);
    return headers;
}

net::HttpHeaders legacy_stream_headers(const CustomHeaders& custom) {
    net::HttpHeaders headers;
    headers.add("Accept", "text/event-stream");
    add_custom(headers, custom);
    return headers;
}

net::HttpHeaders legacy_post_headers(const CustomHeaders& custom) {
    net::HttpHeaders headers;
    headers.add("Content-Type", "application/json");
    add_custom(headers, custom);
    return headers;
}

}  // namespace mcp::detail
