#include "transport/http/http_metrics.hpp"

#include <string>

namespace mcp::detail {

namespace {

using metrics::Type;

metrics::Family& family(std::string_view name, std::string_view help, Type type, std::vector<std::string> labels = {}) {
    return metrics::registry().family(name, help, type, std::move(labels));
}

}  // namespace

HttpMetrics::HttpMetrics()
    : bytes_in(family("mcp_http_received_bytes_total", "Bytes of HTTP requests read", Type::counter).counter({})),
      bytes_out(family("mcp_http_sent_bytes_total", "Bytes of HTTP responses written", Type::counter).counter({})),
      sse_streams(family("mcp_sse_streams_open", "SSE responses open now (POST responses and GET streams)", Type::gauge)
                      .gauge({})),
      responses_(family("mcp_http_responses_total", "HTTP responses by status code", Type::counter, {"code"})) {
    auto& refusals =
        family("mcp_http_refusals_total", "Requests refused and connections dropped by the transport, by reason",
               Type::counter, {"reason"});
    const char* reasons[] = {"host_origin",    "body_too_large", "head_too_large", "malformed",
                             "header_timeout", "body_timeout",   "write_timeout",  "connection_limit"};
    for (std::size_t i = 0; i < refusals_.size(); ++i) refusals_[i] = &refusals.counter({reasons[i]});
    auto& tokens = family("mcp_auth_tokens_total", "Bearer tokens by verdict", Type::counter, {"verdict"});
    const char* verdicts[] = {"accepted", "missing", "invalid", "insufficient_scope", "unavailable"};
    for (std::size_t i = 0; i < tokens_.size(); ++i) tokens_[i] = &tokens.counter({verdicts[i]});
}

void HttpMetrics::response(unsigned status, std::size_t bytes) {
    bytes_out.add(bytes);
    if (status >= by_status_.size()) status = 0;
    auto& slot = by_status_[status];
    auto* counter = slot.load(std::memory_order_acquire);
    if (counter == nullptr) {
        counter = &responses_.counter({std::to_string(status)});
        slot.store(counter, std::memory_order_release);
    }
    counter->add();
}

HttpMetrics& http_metrics() {
    static HttpMetrics m;
    return m;
}

}  // namespace mcp::detail
