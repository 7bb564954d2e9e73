#include "bridge/mount_completions.hpp"
#include "bridge/mount_errors.hpp"

#include <mcp/client/errors.hpp>
#include <mcp/client/options.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/server/context.hpp>

#include <map>
#include <utility>

namespace mcp::detail {

namespace {

Completion outer_completion(CompletionResult inner) {
    Completion out{.values = std::move(inner.values), .has_more = inner.has_more};
    if (inner.total && *inner.total >= 0) out.total = static_cast<std::size_t>(*inner.total);
    return out;
}

}  // namespace

CompletionHandler forwarded_completion(std::string prefix, CompletionRef inner, InnerClient client) {
    return [prefix = std::move(prefix), inner = std::move(inner), client = std::move(client)](
               const CompletionRequest& request, Context& ctx) -> Completion {
        auto c = client();
        if (!c) throw unreachable_mount(prefix, "it is not connected");
        if (!c->server_capabilities().contains("completions")) return {};
        CallOptions options;
        options.stop = ctx.stop_token();
        if (auto trace = ctx.outgoing_trace(); !trace.traceparent.empty()) options.trace = std::move(trace);
        const std::map<std::string, std::string> context(request.context.begin(), request.context.end());
        try {
            return outer_completion(c->complete(inner, request.argument, request.value, context, options));
        } catch (const ClientFailure& e) {
            throw unreachable_mount(prefix, e.what());
        }
    };
}

}  // namespace mcp::detail
