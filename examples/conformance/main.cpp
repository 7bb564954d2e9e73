// mcp-cpp-conformance: the fixtures the official MCP conformance suite
// (@modelcontextprotocol/conformance) calls by name, served for both protocol revisions on one
// endpoint. tests/conformance/run.mjs starts it with `--http 127.0.0.1:<port>` and runs the suite.
// The fixtures that ask the client (elicitation, sampling, roots) are in client_requests.cpp, the
// Skills extension's in skills.cpp, the tasks extension's in tasks.cpp.
#include "fixtures.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <array>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace conformance {

using namespace std::chrono_literals;

// ---- Test data: the same bytes the suite's reference server serves.

// A 1x1 red PNG.
constexpr const char* kPngBase64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
// The same PNG as bytes, for the binary resource (the framework base64-encodes mcp::Blob).
constexpr std::array<unsigned char, 70> kPngBytes = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00,
    0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xfc, 0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05, 0x05, 0x02, 0x00,
    0x5f, 0xc8, 0xf1, 0xd2, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
// A minimal WAV file (header, two bytes of silence).
constexpr const char* kWavBase64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

// The schema of the json-schema-2020-12 scenario, verbatim: the suite checks that $schema, $defs
// (with $anchor), allOf/anyOf, if/then/else and additionalProperties survive into tools/list.
constexpr const char* kJsonSchema202012 = R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {
    "address": {
      "$anchor": "addressDef",
      "type": "object",
      "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
    }
  },
  "properties": {
    "name": {"type": "string"},
    "address": {"$ref": "#/$defs/address"},
    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
    "phone": {"type": "string"},
    "email": {"type": "string"}
  },
  "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
  "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
  "then": {"required": ["phone"]},
  "else": {"required": ["email"]},
  "additionalProperties": false
})";

// test_x_mcp_header: `region` is mirrored in the Mcp-Param-Region header on the 2026 wire.
constexpr const char* kXMcpHeaderSchema = R"({
  "type": "object",
  "properties": {
    "region": {"type": "string", "description": "A region name, also sent as Mcp-Param-Region", "x-mcp-header": "Region"}
  },
  "required": ["region"]
})";

boost::json::object parse_object(const char* text) { return boost::json::parse(text).as_object(); }

// ---- Prompt arguments.

struct PromptArgs {
    std::string arg1;
    std::string arg2;
};
BOOST_DESCRIBE_STRUCT(PromptArgs, (), (arg1, arg2))
inline void mcp_schema(mcp::json::SchemaHints<PromptArgs>& h) {
    h.field(&PromptArgs::arg1).description("First test argument");
    h.field(&PromptArgs::arg2).description("Second test argument");
}

struct EmbeddedResourceArgs {
    std::string resourceUri;  // the wire name, hence camelCase
};
BOOST_DESCRIBE_STRUCT(EmbeddedResourceArgs, (), (resourceUri))
inline void mcp_schema(mcp::json::SchemaHints<EmbeddedResourceArgs>& h) {
    h.field(&EmbeddedResourceArgs::resourceUri).description("URI of the resource to embed");
}

// ---- Tools: content of every kind.

void add_content_tools(mcp::Server& server) {
    server.tool("test_simple_text", "Returns a simple text response",
                [] { return "This is a simple text response for testing."; });

    server.tool("test_image_content", "Returns a 1x1 PNG image",
                [] { return mcp::image_base64(kPngBase64, "image/png"); });

    server.tool("test_audio_content", "Returns a short WAV audio clip",
                [] { return mcp::audio_base64(kWavBase64, "audio/wav"); });

    server.tool("test_embedded_resource", "Returns an embedded text resource", [] {
        return mcp::embedded_text("test://embedded-resource", "This is an embedded resource content.", "text/plain");
    });

    server.tool("test_multiple_content_types", "Returns text, an image and an embedded resource together", [] {
        return std::vector<mcp::Content>{
            mcp::text("Multiple content types test:"), mcp::image_base64(kPngBase64, "image/png"),
            mcp::embedded_text("test://mixed-content-resource", R"({"test":"data","value":123})", "application/json")};
    });

    server.tool("test_error_handling", "Always fails, with an isError result",
                []() -> std::string { throw mcp::ToolError("This tool intentionally returns an error for testing"); });
}

// ---- Tools: notifications during a call (logging, progress, a resumed SSE stream).

void add_notifying_tools(mcp::Server& server) {
    server.tool("test_tool_with_logging", "Sends three info log messages while it runs", [](mcp::ToolContext& ctx) {
        ctx.info("Tool execution started");
        std::this_thread::sleep_for(50ms);
        ctx.info("Tool processing data");
        std::this_thread::sleep_for(50ms);
        ctx.info("Tool execution completed");
        return "Logging test completed";
    });

    server.tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100", [](mcp::ToolContext& ctx) {
        ctx.progress(0, 100, "Starting");
        std::this_thread::sleep_for(50ms);
        ctx.progress(50, 100, "Halfway");
        std::this_thread::sleep_for(50ms);
        ctx.progress(100, 100, "Done");
        return "Progress test completed";
    });

    // 2026 probe: logs only reach a client that asked for them with _meta logLevel.
    server.tool("test_logging_tool", "Sends log messages; only clients that asked for a log level see them",
                [](mcp::ToolContext& ctx) {
                    ctx.info("test_logging_tool started");
                    ctx.info("test_logging_tool finished");
                    return "Logging tool completed";
                });

    // 2026 probe: a streamed response may carry notifications, never server requests. Elicitation
    // itself arrives with the multi-round-trip feature; for now it streams notifications and a result.
    server.tool("test_streaming_elicitation", "Streams notifications, then a result, and never sends a request",
                [](mcp::ToolContext& ctx) {
                    ctx.progress(1, 2, "Streaming");
                    ctx.info("test_streaming_elicitation streaming");
                    std::this_thread::sleep_for(20ms);
                    ctx.progress(2, 2, "Done");
                    return "Streaming completed without server requests";
                });

    // 2025 SSE polling (SEP-1699): the POST's stream ends before the result; the client resumes
    // with GET + Last-Event-ID and gets the result there.
    server.tool("test_reconnection", "Closes its SSE stream early, then finishes; the client resumes the stream",
                [](mcp::ToolContext& ctx) {
                    ctx.close_sse_stream();
                    std::this_thread::sleep_for(300ms);
                    return "Reconnection test completed";
                });
}

// ---- Tools: schemas, capabilities, headers.

void add_protocol_tools(mcp::Server& server) {
    server.tool({.name = "json_schema_2020_12_tool",
                 .description = "Takes arguments described by a JSON Schema 2020-12 schema",
                 .input_schema = parse_object(kJsonSchema202012)},
                [](const boost::json::object& args) { return "Received: " + boost::json::serialize(args); });

    // Without the sampling capability a 2026 request gets -32021 before this runs.
    server.tool({.name = "test_missing_capability",
                 .description = "Needs the client's sampling capability",
                 .required_client_capabilities = {"sampling"}},
                [] { return "The client declared sampling"; });

    server.tool(
        {.name = "test_x_mcp_header",
         .description = "Echoes its region argument, mirrored in the Mcp-Param-Region header",
         .input_schema = parse_object(kXMcpHeaderSchema)},
        [](const boost::json::object& args) { return "Region: " + std::string(args.at("region").as_string()); });
}

// ---- Tools that change the lists: each call adds the dynamic tool or prompt, or removes it if
// present, so every call fires notifications/*/list_changed (2025) or reaches the
// subscriptions/listen streams (2026). The change is broadcast, so behind a load balancer every
// node makes it (README "Running several nodes").

void add_list_changing_tools(mcp::Server& server) {
    struct Dynamic {
        std::mutex mutex;
        bool tool = false;
        bool prompt = false;
    };
    auto state = std::make_shared<Dynamic>();
    server.on_broadcast("conformance.dynamic-tool", [&server, state](std::string_view present) {
        std::lock_guard lock(state->mutex);
        state->tool = present == "yes";
        if (state->tool) {
            server.tool("test_dynamic_tool", "A tool that test_trigger_tool_change added", [] { return "dynamic"; });
        } else {
            server.remove_tool("test_dynamic_tool");
        }
    });
    server.on_broadcast("conformance.dynamic-prompt", [&server, state](std::string_view present) {
        std::lock_guard lock(state->mutex);
        state->prompt = present == "yes";
        if (state->prompt) {
            server.prompt("test_dynamic_prompt", "A prompt that test_trigger_prompt_change added",
                          [] { return "A dynamic prompt"; });
        } else {
            server.remove_prompt("test_dynamic_prompt");
        }
    });
    // Each broadcast names the state to reach, not a toggle, so the nodes cannot drift apart.
    server.tool("test_trigger_tool_change", "Adds or removes the tool test_dynamic_tool", [&server, state] {
        bool add = false;
        {
            std::lock_guard lock(state->mutex);
            add = !state->tool;
        }
        server.broadcast("conformance.dynamic-tool", add ? "yes" : "no");
        return add ? "Added test_dynamic_tool" : "Removed test_dynamic_tool";
    });
    server.tool("test_trigger_prompt_change", "Adds or removes the prompt test_dynamic_prompt", [&server, state] {
        bool add = false;
        {
            std::lock_guard lock(state->mutex);
            add = !state->prompt;
        }
        server.broadcast("conformance.dynamic-prompt", add ? "yes" : "no");
        return add ? "Added test_dynamic_prompt" : "Removed test_dynamic_prompt";
    });
}

// ---- Resources.

void add_resources(mcp::Server& server) {
    server.resource("test://static-text",
                    {.name = "static-text", .description = "A static text resource", .mime_type = "text/plain"},
                    [] { return "This is the content of the static text resource."; });

    server.resource(
        "test://static-binary",
        {.name = "static-binary", .description = "A static binary resource (a PNG)", .mime_type = "image/png"}, [] {
            return mcp::Blob{{kPngBytes.begin(), kPngBytes.end()}, "image/png"};
        });

    server.resource(
        "test://watched-resource",
        {.name = "watched-resource", .description = "A resource clients may subscribe to", .mime_type = "text/plain"},
        [] { return "This is a watched resource."; });

    server.resource_template(
        "test://template/{id}/data",
        {.name = "template-data", .description = "JSON data for an id", .mime_type = "application/json"},
        [](std::string_view id) {
            boost::json::object o{{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + std::string(id)}};
            return boost::json::serialize(o);
        });
}

// ---- Prompts and completion.

void add_prompts(mcp::Server& server) {
    server.prompt("test_simple_prompt", "A simple prompt without arguments",
                  [] { return "This is a simple prompt for testing."; });

    server.prompt("test_prompt_with_arguments", "A prompt with two required arguments", [](const PromptArgs& in) {
        return "Prompt with arguments: arg1='" + in.arg1 + "', arg2='" + in.arg2 + "'";
    });
    server.complete_prompt_argument("test_prompt_with_arguments", "arg1",
                                    mcp::complete_from({"test", "testValue1", "value1"}));
    server.complete_prompt_argument("test_prompt_with_arguments", "arg2",
                                    mcp::complete_from({"test", "testValue2", "value2"}));

    server.prompt(
        "test_prompt_with_embedded_resource", "A prompt that embeds the resource it is given",
        [](const EmbeddedResourceArgs& in) {
            return std::vector<mcp::PromptMessage>{
                mcp::user_message(mcp::embedded_text(in.resourceUri, "Embedded resource content for testing.")),
                mcp::user_message(mcp::text("Please process the embedded resource above."))};
        });

    server.prompt("test_prompt_with_image", "A prompt that contains an image", [] {
        return std::vector<mcp::PromptMessage>{mcp::user_message(mcp::image_base64(kPngBase64, "image/png")),
                                               mcp::user_message(mcp::text("Please analyze the image above."))};
    });
}

}  // namespace conformance

int main(int argc, char** argv) {
    mcp::Server server{
        {.name = "mcp-cpp-conformance", .version = "0.1.0", .title = "mcp-cpp fixtures for the MCP conformance suite"}};
    conformance::add_content_tools(server);
    conformance::add_notifying_tools(server);
    conformance::add_protocol_tools(server);
    conformance::add_list_changing_tools(server);
    conformance::add_resources(server);
    conformance::add_prompts(server);
    conformance::add_client_request_fixtures(server);
    conformance::add_skill_fixtures(server);
    conformance::add_task_fixtures(server);
    return mcp::run(server, argc, argv);
}
