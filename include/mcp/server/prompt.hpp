#pragma once
// Prompt registration. Prompt arguments are strings on the wire; a described struct's fields are
// converted from them (strings, numbers, booleans, described enums; std::optional when not
// required). Field descriptions and titles come from mcp_schema() hints, as for tools.
//
// Accepted handler shapes (Context& may be added last in each):
//   R()   R(const In&)   R(const std::map<std::string, std::string>& raw_arguments)
// R may be a string (one user message), a content block (one user message), mcp::PromptMessage,
// std::vector<mcp::PromptMessage> or mcp::GetPromptResult.
#include <mcp/json/schema.hpp>
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/detail/callable.hpp>
#include <mcp/server/detail/from_string.hpp>
#include <mcp/server/tool.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mcp {

struct PromptArgument {
    std::string name;
    std::string title;
    std::string description;
    bool required = false;
};

struct PromptSpec {
    std::string name;
    std::string description;  // required, non-empty
    std::string title;
    std::vector<Icon> icons;
    boost::json::object meta;
    // Only for handlers taking the raw argument map; typed handlers derive them from their struct.
    std::vector<PromptArgument> arguments;
    // The handler never blocks: no I/O waits, no long-held locks, no ctx.elicit/sample/roots
    // for a 2025-11-25 client (that would be an error). It then runs on the transport's thread
    // instead of the handler pool, sparing the two thread hand-offs of a pooled call (docs/adr/0012).
    bool runs_inline = false;
};

using PromptArguments = std::map<std::string, std::string, std::less<>>;

namespace detail {

using PromptInvoker = std::function<boost::json::value(const PromptArguments& arguments, Context& ctx)>;

struct PromptDefinition {
    PromptSpec spec;
    PromptInvoker invoke;
    // Allowed values of enum-typed arguments, offered as completions.
    std::map<std::string, std::vector<std::string>, std::less<>> enum_values;
};

boost::json::value prompt_result(GetPromptResult result);

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
    return prompt_result(std::move(out));
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
    if constexpr (requires(json::SchemaHints<In>& h) { mcp_schema(h); }) mcp_schema(hints);
    boost::mp11::mp_for_each<json::detail::described_members<In>>([&](auto member) {
        using M = std::remove_cvref_t<decltype(std::declval<In&>().*member.pointer)>;
        using V = value_type_of<M>;
        static_assert(is_string_convertible<V>,
                      "prompt arguments must be strings, numbers, booleans or described enums");
        PromptArgument arg;
        arg.name = member.name;
        arg.required = !json::detail::is_optional<M>::value;
        if (const auto* h = hints.find(member.name)) {
            if (const auto* d = h->keywords().if_contains("description"); d && d->is_string()) arg.description = d->get_string();
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
                if constexpr (takes_context<F>) return fn(ctx); else return fn();
            } else {
                using In = arg_of<F, 0>;
                if constexpr (std::is_same_v<In, PromptArguments>) {
                    if constexpr (takes_context<F>) return fn(args, ctx); else return fn(args);
                } else if constexpr (std::is_same_v<In, std::map<std::string, std::string>>) {
                    In copy(args.begin(), args.end());
                    if constexpr (takes_context<F>) return fn(copy, ctx); else return fn(copy);
                } else {
                    In input = bind_prompt_arguments<In>(args);
                    if constexpr (takes_context<F>) return fn(input, ctx); else return fn(input);
                }
            }
        };
        return to_prompt_result(invoke());
    };
    return def;
}

}  // namespace detail
}  // namespace mcp
