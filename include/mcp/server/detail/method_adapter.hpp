#pragma once
// Turns a typed method handler into the MethodDefinition the core runs: the params schema and
// binding, and the result object.
#include <mcp/json/bind.hpp>
#include <mcp/json/schema.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/detail/callable.hpp>
#include <mcp/server/detail/invoke.hpp>
#include <mcp/server/method.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <functional>
#include <type_traits>

namespace mcp::detail {

// Runs the handler with validated params (the envelope removed); returns the result object.
using MethodInvoker = std::function<boost::json::object(const boost::json::object& params, Context& ctx)>;

struct MethodDefinition {
    MethodSpec spec;
    boost::json::object params_schema;
    MethodInvoker invoke;
};

template <class R>
inline constexpr bool is_method_result = std::is_void_v<R> || std::is_same_v<R, boost::json::object> ||
                                         json::detail::is_described_struct<R> || json::detail::is_string_map<R>::value;

template <class F>
MethodDefinition make_method(MethodSpec spec, F fn) {
    using R = std::remove_cvref_t<result_of<F>>;
    constexpr std::size_t inputs = input_count<F>;
    static_assert(inputs <= 1, "a method handler takes at most one params argument (plus mcp::Context&)");
    static_assert(is_method_result<R>,
                  "a method handler returns void, boost::json::object, or a described struct or string map: "
                  "a JSON-RPC result of MCP is an object");

    MethodDefinition def;
    def.invoke = [fn = std::move(fn)](const boost::json::object& params, Context& ctx) -> boost::json::object {
        auto invoke = [&]() -> decltype(auto) { return call_with_object<F>(fn, params, ctx); };
        if constexpr (std::is_void_v<R>) {
            invoke();
            return {};
        } else if constexpr (std::is_same_v<R, boost::json::object>) {
            return invoke();
        } else {
            auto result = json::to_json(invoke());
            return std::move(result.as_object());
        }
    };

    if (spec.params_schema) {
        def.params_schema = *spec.params_schema;
    } else if constexpr (inputs == 1) {
        using In = arg_of<F, 0>;
        if constexpr (std::is_same_v<In, boost::json::object>) {
            def.params_schema = json::detail::schema_type("object");
        } else {
            static_assert(json::detail::is_described_struct<In>,
                          "a method's params must be a described struct (BOOST_DESCRIBE_STRUCT) or "
                          "boost::json::object");
            def.params_schema = json::schema_of<In>();
        }
    } else {
        def.params_schema = json::detail::schema_type("object");
    }
    def.spec = std::move(spec);
    return def;
}

}  // namespace mcp::detail
