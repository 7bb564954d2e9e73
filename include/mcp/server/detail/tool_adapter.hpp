#pragma once
// Turns a typed tool handler into the ToolDefinition the core runs: argument binding, the
// generated input and output schemas, and the mapping of return values to CallToolResult.
#include <mcp/json/bind.hpp>
#include <mcp/json/schema.hpp>
#include <mcp/protocol/content.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/detail/callable.hpp>
#include <mcp/server/detail/invoke.hpp>
#include <mcp/server/tool.hpp>

#include <boost/json/value.hpp>

#include <functional>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mcp {

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

// In `storage` when given: a call's text result goes into its scratch arena (result_storage),
// which takes the allocations of its three containers off the call.
boost::json::value text_tool_result(std::string_view text, const boost::json::storage_ptr& storage = {});
boost::json::value content_tool_result(std::vector<Content> content);
boost::json::value full_tool_result(const CallToolResult& result);
// structuredContent plus a text block mirroring it; non-objects are wrapped as {"result": …}.
boost::json::value structured_tool_result(boost::json::value structured);
boost::json::object wrapped_output_schema(boost::json::object inner);

template <class R>
boost::json::value to_tool_result(R&& r, const Context& ctx) {
    using T = std::remove_cvref_t<R>;
    if constexpr (is_text<T>) {
        return text_tool_result(std::string_view(r), result_storage(ctx));
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
        auto invoke = [&]() -> decltype(auto) { return call_with_object<F>(fn, args, ctx); };
        if constexpr (std::is_void_v<R>) {
            invoke();
            return content_tool_result({});
        } else {
            return to_tool_result(invoke(), ctx);
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
