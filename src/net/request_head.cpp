#include "net/request_head.hpp"

#include "net/http_error.hpp"
#include "net/proxy.hpp"
#include "util/ascii.hpp"

#include <algorithm>

namespace mcp::net {

namespace {

// RFC 9110 §5.6.2: tchar.
bool is_token(std::string_view s) {
    constexpr std::string_view kSymbols = "!#$%&'*+-.^_`|~";
    return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               kSymbols.find(c) != std::string_view::npos;
    });
}

bool is_field_value(std::string_view s) {
    return s.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

bool carries_body(std::string_view method) { return method == "POST" || method == "PUT" || method == "PATCH"; }

HttpError invalid(const std::string& what) { return {HttpErrorKind::invalid_request, what}; }

}  // namespace

std::string request_head(const HttpRequest& request, const Url& url, const Url* proxy, std::string_view user_agent) {
    if (!is_token(request.method)) throw invalid("not an HTTP method: " + request.method);
    std::string head = request.method + " " + (proxy != nullptr ? url.absolute_form() : url.target) + " HTTP/1.1\r\n";
    head += "Host: " + url.host_header() + "\r\n";
    for (const auto& field : request.headers.fields()) {
        if (!is_token(field.name)) throw invalid("not a header field name: " + field.name);
        if (!is_field_value(field.value)) throw invalid("the value of " + field.name + " holds CR, LF or NUL");
        for (const std::string_view ours : {"Host", "Content-Length", "Transfer-Encoding"}) {
            if (detail::ascii_iequals(field.name, ours)) throw invalid(field.name + " is set by the client");
        }
        head += field.name + ": " + field.value + "\r\n";
    }
    if (!request.headers.contains("User-Agent") && is_field_value(user_agent))
        head += "User-Agent: " + std::string(user_agent) + "\r\n";
    if (!request.body.empty() || carries_body(request.method)) {
        head += "Content-Length: " + std::to_string(request.body.size()) + "\r\n";
    }
    if (proxy != nullptr) head += proxy_authorization(*proxy);
    head += "\r\n";
    return head;
}

}  // namespace mcp::net
