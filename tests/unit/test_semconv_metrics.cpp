// The OpenTelemetry MCP semantic conventions' metrics as Prometheus series: the labels of
// mcp.server.operation.duration (method, tool or prompt, error type and JSON-RPC code, protocol
// version, all from fixed sets) and of mcp.server.session.duration, and the advised buckets.
#include "server/call_metrics.hpp"
#include "server/operation_metrics.hpp"
#include "sessions/session_metrics.hpp"
#include "util/metrics_exposition.hpp"

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>

#include <string>

using namespace mcp::detail;
using namespace std::chrono_literals;

namespace {

std::string exposition() { return metrics::expose(metrics::registry(), metrics::Format::prometheus_text); }

// The _count line of one operation series, as the text format writes it.
std::string operation_count(const std::string& method, const std::string& operation, const std::string& tool,
                            const std::string& prompt, const std::string& error, const std::string& code,
                            const std::string& version) {
    return "mcp_server_operation_duration_seconds_count{mcp_method_name=\"" + method + "\",gen_ai_operation_name=\"" +
           operation + "\",gen_ai_tool_name=\"" + tool + "\",gen_ai_prompt_name=\"" + prompt + "\",error_type=\"" +
           error + "\",rpc_response_status_code=\"" + code + "\",mcp_protocol_version=\"" + version + "\"} ";
}

}  // namespace

TEST(SemconvMetrics, OperationLabelsComeFromFixedSets) {
    const OperationMetrics tool("tools/call", "unit_tool", "");
    tool.observe(Outcome::ok, 0, "2025-11-25", 5ms);
    tool.observe(Outcome::ok, 0, "2025-11-25", 7ms);
    tool.observe(Outcome::tool_error, 0, "2026-07-28", 5ms);
    tool.observe(Outcome::invalid_params, -32602, "2025-06-18", 5ms);
    tool.observe(Outcome::refused, -32029, "2026-07-28", 5ms);
    tool.observe(Outcome::other_error, -31999, "2025-03-26", 5ms);  // an application's own code
    tool.observe(Outcome::cancelled, 0, "1999-01-01", 5ms);         // not a revision served

    const auto text = exposition();
    auto count = [&](const std::string& error, const std::string& code, const std::string& version) {
        return operation_count("tools/call", "execute_tool", "unit_tool", "", error, code, version);
    };
    EXPECT_NE(text.find(count("", "", "2025-11-25") + "2\n"), std::string::npos) << text;
    EXPECT_NE(text.find(count("tool_error", "", "2026-07-28") + "1\n"), std::string::npos) << text;
    EXPECT_NE(text.find(count("-32602", "-32602", "2025-06-18") + "1\n"), std::string::npos) << text;
    EXPECT_NE(text.find(count("-32029", "-32029", "2026-07-28") + "1\n"), std::string::npos) << text;
    EXPECT_NE(text.find(count("_OTHER", "", "2025-03-26") + "1\n"), std::string::npos) << text;
    EXPECT_NE(text.find(count("cancelled", "", "") + "1\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("-31999"), std::string::npos) << "a code outside the list became a label";
    EXPECT_EQ(text.find("1999-01-01"), std::string::npos) << "an unknown version became a label";
}

TEST(SemconvMetrics, PromptsAndMethodsWithoutAnEntity) {
    const OperationMetrics prompt("prompts/get", "", "unit_prompt");
    prompt.observe(Outcome::ok, 0, "2026-07-28", 1ms);
    method_operation_metrics(nullptr).observe(Outcome::method_not_found, -32601, "2026-07-28", 1ms);

    const auto text = exposition();
    EXPECT_NE(text.find(operation_count("prompts/get", "", "", "unit_prompt", "", "", "2026-07-28") + "1\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(operation_count("unknown", "", "", "", "-32601", "-32601", "2026-07-28") + "1\n"),
              std::string::npos)
        << text;
}

TEST(SemconvMetrics, OperationBucketsAreTheConventionsAdvice) {
    const OperationMetrics tool("tools/call", "bucket_tool", "");
    tool.observe(Outcome::ok, 0, "2026-07-28", 15ms);
    const auto text = exposition();
    const std::string series =
        "mcp_server_operation_duration_seconds_bucket{mcp_method_name=\"tools/call\",gen_ai_operation_name="
        "\"execute_tool\",gen_ai_tool_name=\"bucket_tool\",gen_ai_prompt_name=\"\",error_type=\"\","
        "rpc_response_status_code=\"\",mcp_protocol_version=\"2026-07-28\",le=";
    EXPECT_NE(text.find(series + "\"0.01\"} 0\n"), std::string::npos) << text;
    EXPECT_NE(text.find(series + "\"0.02\"} 1\n"), std::string::npos) << text;
    EXPECT_NE(text.find(series + "\"300.0\"} 1\n"), std::string::npos) << text;
}

TEST(SemconvMetrics, SessionDurationByHowItEnded) {
    observe_session_end(SessionEnd::closed, "2025-11-25", 2s);
    observe_session_end(SessionEnd::closed, "2025-11-25", 3s);
    observe_session_end(SessionEnd::timed_out, "2025-06-18", 30min);
    observe_session_end(SessionEnd::evicted, "2026-07-28", 1s);  // not a session-era revision

    const auto text = exposition();
    const std::string count = "mcp_server_session_duration_seconds_count{error_type=\"";
    EXPECT_NE(text.find(count + "\",mcp_protocol_version=\"2025-11-25\"} 2\n"), std::string::npos) << text;
    EXPECT_NE(text.find(count + "timeout\",mcp_protocol_version=\"2025-06-18\"} 1\n"), std::string::npos) << text;
    EXPECT_NE(text.find(count + "evicted\",mcp_protocol_version=\"\"} 1\n"), std::string::npos) << text;
    EXPECT_NE(
        text.find("mcp_server_session_duration_seconds_sum{error_type=\"\",mcp_protocol_version=\"2025-11-25\"} 5"),
        std::string::npos)
        << text;
}

TEST(SemconvMetrics, ErrorCodeIsReadFromTheResponse) {
    auto code = [](const char* text) { return error_code_of(boost::json::parse(text)); };
    EXPECT_EQ(code(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}})"), -32602);
    EXPECT_EQ(code(R"({"jsonrpc":"2.0","id":1,"result":{"isError":true}})"), 0);
    EXPECT_EQ(code(R"({"jsonrpc":"2.0","id":1,"error":{"code":"-32602"}})"), 0);
    EXPECT_EQ(code(R"({"jsonrpc":"2.0","id":1,"error":"not an object"})"), 0);
}
