#pragma once
// Turns a typed prompt handler into the PromptDefinition the core runs: arguments converted
// from their wire strings, the argument list derived from a described struct, and the mapping of
// return values to GetPromptResult.
#include <mcp/json/schema.hpp>
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/detail/callable.hpp>
#include <mcp/server/detail/from_string.hpp>
#include <mcp/server/detail/invoke.hpp>
#include <mcp/server/detail/tool_adapter.hpp>
#include <mcp/server/prompt.hpp>

#include <boost/json/value.hpp>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mcp {

namespace detail {

using PromptInvoker = std::function<boost::json::value(const PromptArguments& arguments, Context& ctx)>;

struct PromptDefinition {
    PromptSpec spec;
    PromptInvoker invoke;
    // Allowed values of enum-typed arguments, offered as completions.
    std::map<std::string, std::vector<std::string>, std::less<>> enum_values;
};

boost::json::value prompt_result(const GetPromptResult& result);

template <class R>
boost::json::value to_prompt_result(R&& r) {
    using T = std::remove_cvref_t<R>;
    GetPromptResult out;
    if constexpr (std::is_same_v<T, GetPromptResult>) {
        out = std::forward<R>(r);
    } else if constexpr (std::is_same_v<T, std::vector<PromptMessage>>) {
        out.messages = std::forward<R>(r);
    } else if constexpr (std::is_same_v<T, PromptMessage>) {
        out.messages.push_back(std::forward<R>(r));
    } else if constexpr (is_text<T>) {
        out.messages.push_back(user_message(text(std::string(r))));
    } else if constexpr (is_content_block<T>) {
        out.messages.push_back(user_message(Content(std::forward<R>(r))));
    } else {
        static_assert(sizeof(T) == 0, "unsupported prompt handler return type");
    }
    return prompt_result(out);
}

// Reads one argument; absent optional arguments stay empty.
template <class M>
void read_prompt_argument(const PromptArguments& args, const char* name, M& out) {
    auto it = args.find(std::string_view(name));
    if constexpr (json::detail::is_optional<M>::value) {
        if (it == args.end()) {
            out.reset();
        } else {
            out = from_string<typename M::value_type>(it->second, name);
        }
    } else {
        if (it == args.end()) throw InvalidParams(std::string("Missing required argument: ") + name);
        out = from_string<M>(it->second, name);
    }
}

template <class In>
In bind_prompt_arguments(const PromptArguments& args) {
    In in{};
    boost::mp11::mp_for_each<json::detail::described_members<In>>(
        [&](auto member) { read_prompt_argument(args, member.name, in.*member.pointer); });
    return in;
}

template <class In>
void describe_prompt_arguments(PromptDefinition& def) {
    json::SchemaHints<In> hints;
    if constexpr (requires(json::SchemaHints<In> & h) { mcp_schema(h); }) mcp_schema(hints);
    boost::mp11::mp_for_each<json::detail::described_members<In>>([&](auto member) {
        using M = std::remove_cvref_t<decltype(std::declval<In&>().*member.pointer)>;
        using V = value_type_of<M>;
        static_assert(is_string_convertible<V>,
                      "prompt arguments must be strings, numbers, booleans or described enums");
        PromptArgument arg;
        arg.name = member.name;
        arg.required = !json::detail::is_optional<M>::value;
        if (const auto* h = hints.find(member.name)) {
            if (const auto* d = h->keywords().if_contains("description"); d && d->is_string())
                arg.description = d->get_string();
            if (const auto* t = h->keywords().if_contains("title"); t && t->is_string()) arg.title = t->get_string();
        }
        def.spec.arguments.push_back(std::move(arg));
        if (auto values = enum_values<V>(); !values.empty()) def.enum_values[member.name] = std::move(values);
    });
}

template <class F>
PromptDefinition make_prompt(PromptSpec spec, F fn) {
    using R = std::remove_cvref_t<result_of<F>>;
    constexpr std::size_t inputs = input_count<F>;
    static_assert(inputs <= 1, "a prompt handler takes at most one input argument (plus mcp::Context&)");
    static_assert(!std::is_void_v<R>, "a prompt handler must return its messages");

    PromptDefinition def;
    def.spec = std::move(spec);
    if constexpr (inputs == 1) {
        using In = arg_of<F, 0>;
        if constexpr (!std::is_same_v<In, PromptArguments> && !std::is_same_v<In, std::map<std::string, std::string>>) {
            static_assert(json::detail::is_described_struct<In>,
                          "a prompt's input must be a described struct or a std::map<std::string, std::string>");
            def.spec.arguments.clear();
            describe_prompt_arguments<In>(def);
        }
    }
    def.invoke = [fn = std::move(fn)](const PromptArguments& args, Context& ctx) -> boost::json::value {
        auto invoke = [&]() -> decltype(auto) {
            if constexpr (inputs == 0) {
                return call_handler<F>(fn, ctx);
            } else {
                using In = arg_of<F, 0>;
                if constexpr (std::is_same_v<In, PromptArguments>) {
                    return call_handler<F>(fn, ctx, args);
                } else if constexpr (std::is_same_v<In, std::map<std::string, std::string>>) {
                    In copy(args.begin(), args.end());
                    return call_handler<F>(fn, ctx, copy);
                } else {
                    In input = bind_prompt_arguments<In>(args);
                    return call_handler<F>(fn, ctx, input);
                }
            }
        };
        return to_prompt_result(invoke());
    };
    return def;
}

}  // namespace detail
}  // namespace mcp
