#pragma once
// Opt-in: mcp::Client's calls as Asio asynchronous operations, for hosts that already run Asio.
// Any completion token works; with boost::asio::use_awaitable they are awaitables:
//
//   boost::json::value tools = co_await mcp::async_request(client, "tools/list", {}, {}, boost::asio::use_awaitable);
//   mcp::CallToolResult r = co_await mcp::async_call_tool(client, "echo", {{"text", "hi"}}, {},
//   boost::asio::use_awaitable);
//
// The completion runs on the handler's associated executor (the coroutine's), never on the
// client's callback pool. The only public header of the library that includes Asio: a translation
// unit that includes it compiles Asio as the library does (BOOST_ASIO_SEPARATE_COMPILATION and
// the library's Asio objects), or header-only.
#include <mcp/client/client.hpp>

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>

#include <exception>
#include <memory>
#include <string>
#include <utility>

namespace mcp {

namespace detail {

// Hands a callback's outcome to the handler on its own executor, keeping that executor busy
// meanwhile. The handler may be move-only (a coroutine's): it is held where the callback, which
// must be copyable, can reach it.
template <class Result, class Handler>
auto completion_for(Handler handler) {
    struct State {
        Handler handler;
        boost::asio::executor_work_guard<boost::asio::associated_executor_t<Handler>> work;
    };
    auto work = boost::asio::make_work_guard(boost::asio::get_associated_executor(handler));
    auto state = std::make_shared<State>(State{std::move(handler), std::move(work)});
    return [state](std::exception_ptr error, Result result) {
        auto executor = state->work.get_executor();
        boost::asio::dispatch(executor, [state, error, result = std::move(result)]() mutable {
            std::move(state->handler)(error, std::move(result));
            state->work.reset();
        });
    };
}

}  // namespace detail

template <class CompletionToken>
auto async_request(Client& client, std::string method, boost::json::object params, CallOptions options,
                   CompletionToken&& token) {
    return boost::asio::async_initiate<CompletionToken, void(std::exception_ptr, boost::json::value)>(
        [&client](auto handler, std::string m, boost::json::object p, CallOptions o) {
            client.async_request(std::move(m), std::move(p), std::move(o),
                                 detail::completion_for<boost::json::value>(std::move(handler)));
        },
        token, std::move(method), std::move(params), std::move(options));
}

template <class CompletionToken>
auto async_call_tool(Client& client, std::string name, boost::json::object arguments, CallOptions options,
                     CompletionToken&& token) {
    return boost::asio::async_initiate<CompletionToken, void(std::exception_ptr, CallToolResult)>(
        [&client](auto handler, std::string n, boost::json::object a, CallOptions o) {
            client.async_call_tool(std::move(n), std::move(a), std::move(o),
                                   detail::completion_for<CallToolResult>(std::move(handler)));
        },
        token, std::move(name), std::move(arguments), std::move(options));
}

}  // namespace mcp
