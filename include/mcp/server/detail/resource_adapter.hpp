#pragma once
// Turns typed resource and template handlers into the definitions the core runs: template
// variables converted to the handler's parameters, and the mapping of return values to
// ReadResourceResult.
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/uri_template.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/detail/callable.hpp>
#include <mcp/server/detail/from_string.hpp>
#include <mcp/server/detail/tool_adapter.hpp>
#include <mcp/server/resource.hpp>

#include <boost/json/value.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace mcp {

namespace detail {

// Builds the ReadResourceResult wire object for the requested URI.
using ResourceInvoker = std::function<boost::json::value(const std::string& uri, Context& ctx)>;
using TemplateInvoker =
    std::function<boost::json::value(const std::string& uri, const UriVariables& vars, Context& ctx)>;

struct ResourceDefinition {
    std::string uri;
    ResourceSpec spec;
    ResourceInvoker invoke;
};

struct TemplateDefinition {
    std::string uri_template;
    ResourceSpec spec;
    TemplateInvoker invoke;
    std::map<std::string, std::vector<std::string>, std::less<>> enum_values;
};

boost::json::value resource_text(const std::string& uri, const std::string& mime_type, std::string_view text);
boost::json::value resource_blob(const std::string& uri, const std::string& mime_type, const Blob& blob);
boost::json::value resource_contents(const std::string& uri, std::vector<ResourceContents> contents);
boost::json::value resource_result(const std::string& uri, ReadResourceResult result);

template <class R>
boost::json::value to_resource_result(R&& r, const std::string& uri, const std::string& mime_type) {
    using T = std::remove_cvref_t<R>;
    if constexpr (is_text<T>) {
        return resource_text(uri, mime_type, std::string_view(r));
    } else if constexpr (std::is_same_v<T, Blob>) {
        return resource_blob(uri, mime_type, r);
    } else if constexpr (std::is_same_v<T, ResourceContents> || std::is_same_v<T, TextResourceContents> ||
                         std::is_same_v<T, BlobResourceContents>) {
        return resource_contents(uri, {ResourceContents(std::forward<R>(r))});
    } else if constexpr (std::is_same_v<T, std::vector<ResourceContents>>) {
        return resource_contents(uri, std::forward<R>(r));
    } else if constexpr (std::is_same_v<T, ReadResourceResult>) {
        return resource_result(uri, std::forward<R>(r));
    } else {
        static_assert(sizeof(T) == 0, "unsupported resource handler return type");
    }
}

template <class F>
ResourceDefinition make_resource(std::string uri, ResourceSpec spec, F fn) {
    static_assert(input_count<F> == 0, "a static resource handler takes no arguments (or only mcp::Context&)");
    ResourceDefinition def;
    def.uri = std::move(uri);
    def.invoke = [fn = std::move(fn), mime = spec.mime_type](const std::string& requested, Context& ctx) {
        if constexpr (takes_context<F>)
            return to_resource_result(fn(ctx), requested, mime);
        else
            return to_resource_result(fn(), requested, mime);
    };
    def.spec = std::move(spec);
    return def;
}

template <class M>
M template_variable(const UriVariables& vars, const std::string& name) {
    auto it = vars.find(name);
    if constexpr (json::detail::is_optional<M>::value) {
        if (it == vars.end()) return std::nullopt;
        return from_string<typename M::value_type>(it->second, name);
    } else {
        if (it == vars.end()) throw InvalidParams("Missing URI template variable: " + name);
        return from_string<M>(it->second, name);
    }
}

template <class F, std::size_t... I>
auto call_positional(const F& fn, const std::vector<std::string>& names, const UriVariables& vars, Context* ctx,
                     std::index_sequence<I...>) {
    if constexpr (sizeof...(I) < arity_of<F>) {
        return fn(template_variable<arg_of<F, I>>(vars, names[I])..., *ctx);
    } else {
        return fn(template_variable<arg_of<F, I>>(vars, names[I])...);
    }
}

template <class F>
TemplateDefinition make_template(std::string uri_template, ResourceSpec spec, F fn) {
    constexpr std::size_t inputs = input_count<F>;
    const UriTemplate parsed(uri_template);  // validates the template
    const std::vector<std::string>& names = parsed.variables();

    TemplateDefinition def;
    def.uri_template = std::move(uri_template);
    constexpr bool by_map = inputs == 1 && std::is_same_v<arg_of<F, 0>, UriVariables>;
    constexpr bool by_struct = [] {
        if constexpr (inputs == 1)
            return json::detail::is_described_struct<arg_of<F, 0>>;
        else
            return false;
    }();

    if constexpr (by_struct) {
        using In = arg_of<F, 0>;
        boost::mp11::mp_for_each<json::detail::described_members<In>>([&](auto member) {
            using M = std::remove_cvref_t<decltype(std::declval<In&>().*member.pointer)>;
            if (std::find(names.begin(), names.end(), member.name) == names.end()) {
                throw std::invalid_argument(std::string("resource template ") + def.uri_template + " has no variable " +
                                            member.name);
            }
            if (auto values = enum_values<value_type_of<M>>(); !values.empty()) def.enum_values[member.name] = values;
        });
    } else if constexpr (!by_map) {
        if (inputs != names.size()) {
            throw std::invalid_argument("resource template " + def.uri_template + " has " +
                                        std::to_string(names.size()) + " variables but its handler takes " +
                                        std::to_string(inputs) + " parameters");
        }
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (
                (void)[&] {
                    if (auto values = enum_values<value_type_of<arg_of<F, I>>>(); !values.empty())
                        def.enum_values[names[I]] = values;
                }(),
                ...);
        }
        (std::make_index_sequence<inputs>{});
    }

    def.invoke = [fn = std::move(fn), names, mime = spec.mime_type](const std::string& uri, const UriVariables& vars,
                                                                    Context& ctx) -> boost::json::value {
        auto invoke = [&]() -> decltype(auto) {
            if constexpr (by_map) {
                if constexpr (takes_context<F>)
                    return fn(vars, ctx);
                else
                    return fn(vars);
            } else if constexpr (by_struct) {
                using In = arg_of<F, 0>;
                In in{};
                boost::mp11::mp_for_each<json::detail::described_members<In>>([&](auto member) {
                    using M = std::remove_cvref_t<decltype(in.*member.pointer)>;
                    in.*member.pointer = template_variable<M>(vars, member.name);
                });
                if constexpr (takes_context<F>)
                    return fn(in, ctx);
                else
                    return fn(in);
            } else {
                return call_positional(fn, names, vars, &ctx, std::make_index_sequence<inputs>{});
            }
        };
        return to_resource_result(invoke(), uri, mime);
    };
    def.spec = std::move(spec);
    return def;
}

}  // namespace detail
}  // namespace mcp
