#pragma once
// Tool registration: ToolSpec, and the adapter that turns a typed callable into the
// transport-agnostic ToolDefinition the core runs.
//
// Accepted handler shapes (Context& may be added last in each):
//   R()   R(const In&)   R(const boost::json::object& raw_arguments)
// In is a described struct (its JSON Schema is the tool's inputSchema). R may be void, a string,
// a content block (mcp::Content or one of its alternatives), std::vector<mcp::Content>,
// mcp::CallToolResult, or any JSON-bindable type: a described struct or map gives outputSchema
// and structuredContent; other types (numbers, vectors…) are wrapped as {"result": …}.
// Raw arguments live in the request's arena (docs/adr/0012-hot-path.md): a copy kept beyond the
// call should be assigned into a value of its own rather than copy-constructed, or it keeps the
// whole request's memory alive.
#include <mcp/json/bind.hpp>
#include <mcp/json/schema.hpp>
#include <mcp/protocol/content.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/detail/callable.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

struct ToolSpec {
    std::string name;         // [A-Za-z0-9_.-]{1,64}
    std::string description;  // required, non-empty
    std::string title;
    ToolAnnotations annotations;
    std::vector<Icon> icons;
    boost::json::object meta;
    // A hand-written input schema, advertised verbatim and enforced by the validator (see
    // docs/json-schema.md). Its root must be {"type":"object"}. Overrides the generated one.
    std::optional<boost::json::object> input_schema;
    // A hand-written output schema, advertised verbatim.
    std::optional<boost::json::object> output_schema;
    // Client capabilities the tool cannot work without, as dotted paths ("sampling",
    // "elicitation.url"). A 2026-07-28 request that does not declare them gets -32021 before the
    // handler runs; a 2025 session without them gets an isError result.
    std::vector<std::string> required_client_capabilities;
    // The handler never blocks: no I/O waits, no long-held locks, no ctx.elicit/sample/roots
    // for a 2025-11-25 client (that would be an error). It then runs on the transport's thread
    // instead of the handler pool, sparing the two thread hand-offs of a pooled call (docs/adr/0012).
    bool runs_inline = false;
};

namespace detail {

// Runs the handler with validated arguments; returns the CallToolResult wire object.
using ToolInvoker = std::function<boost::json::value(const boost::json::object& arguments, Context& ctx)>;

struct ToolDefinition {
    ToolSpec spec;
    boost::json::object input_schema;
    std::optional<boost::json::object> output_schema;
    ToolInvoker invoke;
};

template <class T>
inline constexpr bool is_content_block =
    std::is_same_v<T, Content> || std::is_same_v<T, TextContent> || std::is_same_v<T, ImageContent> ||
    std::is_same_v<T, AudioContent> || std::is_same_v<T, EmbeddedResource> || std::is_same_v<T, ResourceLink>;

template <class T>
inline constexpr bool is_text = std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view> ||
                                std::is_same_v<T, const char*> || std::is_same_v<T, char*>;

template <class T>
inline constexpr bool is_json_object_type =
    json::detail::is_described_struct<T> || json::detail::is_string_map<T>::value;

boost::json::value text_tool_result(std::string_view text);
boost::json::value content_tool_result(std::vector<Content> content);
boost::json::value full_tool_result(const CallToolResult& result);
// structuredContent plus a text block mirroring it; non-objects are wrapped as {"result": …}.
boost::json::value structured_tool_result(boost::json::value structured);
boost::json::object wrapped_output_schema(boost::json::object inner);

template <class R>
boost::json::value to_tool_result(R&& r) {
    using T = std::remove_cvref_t<R>;
    if constexpr (is_text<T>) {
        return text_tool_result(std::string_view(r));
    } else if constexpr (is_content_block<T>) {
        return content_tool_result({Content(std::forward<R>(r))});
    } else if constexpr (std::is_same_v<T, std::vector<Content>>) {
        return content_tool_result(std::forward<R>(r));
    } else if constexpr (std::is_same_v<T, CallToolResult>) {
        return full_tool_result(r);
    } else {
        return structured_tool_result(json::to_json(r));
    }
}

template <class R>
std::optional<boost::json::object> output_schema_for() {
    if constexpr (std::is_void_v<R> || is_text<R> || is_content_block<R> || std::is_same_v<R, std::vector<Content>> ||
                  std::is_same_v<R, CallToolResult> || std::is_same_v<R, boost::json::value> ||
                  std::is_same_v<R, boost::json::object>) {
        return std::nullopt;  // no fixed shape to declare
    } else if constexpr (is_json_object_type<R>) {
        return json::schema_of<R>();
    } else {
        return wrapped_output_schema(json::schema_of<R>());
    }
}

template <class F>
ToolDefinition make_tool(ToolSpec spec, F fn) {
    using R = std::remove_cvref_t<result_of<F>>;
    constexpr std::size_t inputs = input_count<F>;
    static_assert(inputs <= 1, "a tool handler takes at most one input argument (plus mcp::Context&)");

    ToolDefinition def;
    def.output_schema = spec.output_schema ? spec.output_schema : output_schema_for<R>();

    auto call = [fn = std::move(fn)](const boost::json::object& args, Context& ctx) -> boost::json::value {
        auto invoke = [&]() -> decltype(auto) {
            if constexpr (inputs == 0) {
                if constexpr (takes_context<F>) return fn(ctx); else return fn();
            } else {
                using In = arg_of<F, 0>;
                if constexpr (std::is_same_v<In, boost::json::object>) {
                    if constexpr (takes_context<F>) return fn(args, ctx); else return fn(args);
                } else {
                    In input = json::from_json<In>(args);
                    if constexpr (takes_context<F>) return fn(input, ctx); else return fn(input);
                }
            }
        };
        if constexpr (std::is_void_v<R>) {
            invoke();
            return content_tool_result({});
        } else {
            return to_tool_result(invoke());
        }
    };
    def.invoke = std::move(call);

    if (spec.input_schema) {
        def.input_schema = *spec.input_schema;
    } else if constexpr (inputs == 1) {
        using In = arg_of<F, 0>;
        if constexpr (std::is_same_v<In, boost::json::object>) {
            def.input_schema = json::detail::schema_type("object");
        } else {
            static_assert(is_json_object_type<In>,
                          "a tool's input must be a described struct (BOOST_DESCRIBE_STRUCT) or boost::json::object");
            def.input_schema = json::schema_of<In>();
        }
    } else {
        def.input_schema = json::detail::schema_type("object");
    }
    def.spec = std::move(spec);
    return def;
}

}  // namespace detail
}  // namespace mcp
