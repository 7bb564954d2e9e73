// mcp-cpp-probe: a test-only server that reports the request context its handler sees —
// principal, a user thread-local set by the authenticator, trace context, log fields — so tests
// can show that context crosses from the transport thread to the handler and nowhere else.
#include <mcp/mcp.hpp>

#include <chrono>
#include <thread>

namespace {

thread_local std::string tenant;  // set by the authenticator from X-Tenant

struct WhoAmI {
    std::optional<int> delay_ms;
};
BOOST_DESCRIBE_STRUCT(WhoAmI, (), (delay_ms))

struct ConfirmInput {
    std::string what;
};
BOOST_DESCRIBE_STRUCT(ConfirmInput, (), (what))

}  // namespace

int main(int argc, char** argv) {
    mcp::Server server{{.name = "mcp-cpp-probe", .version = "1.0.0"}};
    server.context_registry().add_thread_local<std::string>("probe.tenant", []() -> std::string& { return tenant; });

    server.set_authenticator([](const mcp::HttpRequestView& request) -> std::shared_ptr<const mcp::Principal> {
        tenant = std::string(request.header("X-Tenant"));
        const auto auth = request.header("Authorization");
        if (auth.empty()) return nullptr;
        if (!auth.starts_with("Bearer ") || auth == "Bearer bad")
            throw mcp::Unauthorized("invalid token", "Bearer realm=\"probe\"");
        return std::make_shared<const mcp::Principal>(mcp::Principal{std::string(auth.substr(7)), {"read"}, {}});
    });

    server.tool("whoami", "Reports the request context the handler sees", [](const WhoAmI& in, mcp::ToolContext& ctx) {
        // Sleeping lets a second request overtake this one on the same I/O thread.
        std::this_thread::sleep_for(std::chrono::milliseconds(in.delay_ms.value_or(0)));
        boost::json::object fields;
        for (const auto& [k, v] : mcp::current_log_fields()) fields[k] = v;
        const auto& principal = ctx.exchange().principal();
        return boost::json::object{{"subject", principal ? principal->subject : ""},
                                   {"tenant", tenant},
                                   {"traceparent", mcp::current_trace().traceparent},
                                   {"tracestate", mcp::current_trace().tracestate},
                                   {"fields", fields}};
    });

    // A form elicitation under an authenticator: on the 2026 wire its requestState is bound to the
    // principal that started the call (tests/e2e/client_requests_v2.test.mjs).
    server.tool(
        "confirm", "Asks the user to confirm something (form elicitation); reports the answer and the principal",
        [](const ConfirmInput& in, mcp::ToolContext& ctx) {
            mcp::FormSchema form;
            form.boolean("ok").title("Confirm?");
            auto answer = ctx.elicit("Confirm " + in.what + "?", form, "confirm");
            const bool ok = answer.accepted() && answer.content.contains("ok") && answer.content.at("ok") == true;
            const auto& principal = ctx.exchange().principal();
            return std::string(ok ? "confirmed " : "not confirmed ") + in.what + " for " +
                   (principal ? principal->subject : std::string("anonymous"));
        });
    return mcp::run(server, argc, argv);
}
