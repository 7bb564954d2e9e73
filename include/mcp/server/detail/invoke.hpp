#pragma once
// Calling a handler the way its signature asks: with its input, if it takes one, and with the
// Context, if it wants it.
#include <mcp/json/bind.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/detail/callable.hpp>

#include <boost/json/object.hpp>

#include <type_traits>

namespace mcp::detail {

// Calls `fn` (a handler of type F) with `input` (none or one argument), and `ctx` last when F
// takes a Context.
template <class F, class Fn, class... In>
decltype(auto) call_handler(Fn& fn, Context& ctx, In&... input) {
    if constexpr (takes_context<F>)
        return fn(input..., ctx);
    else
        return fn(input...);
}

// Calls a tool or method handler whose input, if any, is the request's JSON object: as it is,
// or bound to the handler's described struct.
template <class F, class Fn>
decltype(auto) call_with_object(Fn& fn, const boost::json::object& object, Context& ctx) {
    if constexpr (input_count<F> == 0) {
        return call_handler<F>(fn, ctx);
    } else {
        using In = arg_of<F, 0>;
        if constexpr (std::is_same_v<In, boost::json::object>) {
            return call_handler<F>(fn, ctx, object);
        } else {
            In input = json::from_json<In>(object);
            return call_handler<F>(fn, ctx, input);
        }
    }
}

}  // namespace mcp::detail
