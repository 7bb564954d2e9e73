#pragma once
// The params of each request and client notification, as described structs bound by
// json::from_json. Members are named as on the wire. Strings and objects are views into the
// request's document: a struct is valid while the request is.
#include <mcp/json/bind.hpp>
#include <mcp/protocol/errors.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/object.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

struct ClientInfoParams {
    std::optional<std::string> name;
    std::optional<std::string> version;
    std::optional<std::string> title;
};
BOOST_DESCRIBE_STRUCT(ClientInfoParams, (), (name, version, title))

struct InitializeParams {
    std::string_view protocolVersion;
    const boost::json::object* capabilities = nullptr;
    std::optional<ClientInfoParams> clientInfo;
};
BOOST_DESCRIBE_STRUCT(InitializeParams, (), (protocolVersion, capabilities, clientInfo))

struct SetLevelParams {
    std::string_view level;
};
BOOST_DESCRIBE_STRUCT(SetLevelParams, (), (level))

// resources/read, resources/subscribe, resources/unsubscribe.
struct ResourceParams {
    std::string_view uri;
};
BOOST_DESCRIBE_STRUCT(ResourceParams, (), (uri))

// tools/list, prompts/list, resources/list, resources/templates/list.
struct ListParams {
    std::optional<std::string_view> cursor;
};
BOOST_DESCRIBE_STRUCT(ListParams, (), (cursor))

struct CallToolParams {
    std::string_view name;
    const boost::json::object* arguments = nullptr;
};
BOOST_DESCRIBE_STRUCT(CallToolParams, (), (name, arguments))

struct GetPromptParams {
    std::string_view name;
    std::optional<std::map<std::string, std::string, std::less<>>> arguments;
};
BOOST_DESCRIBE_STRUCT(GetPromptParams, (), (name, arguments))

struct CompletionRef {
    std::string_view type;  // ref/prompt or ref/resource
    std::optional<std::string_view> name;
    std::optional<std::string_view> uri;
};
BOOST_DESCRIBE_STRUCT(CompletionRef, (), (type, name, uri))

struct CompletionArgument {
    std::string_view name;
    std::optional<std::string_view> value;
};
BOOST_DESCRIBE_STRUCT(CompletionArgument, (), (name, value))

struct CompletionContext {
    const boost::json::object* arguments = nullptr;  // values other than strings are ignored
};
BOOST_DESCRIBE_STRUCT(CompletionContext, (), (arguments))

struct CompleteParams {
    CompletionRef ref;
    CompletionArgument argument;
    std::optional<CompletionContext> context;
};
BOOST_DESCRIBE_STRUCT(CompleteParams, (), (ref, argument, context))

struct ListenFilter {
    std::optional<bool> toolsListChanged;
    std::optional<bool> promptsListChanged;
    std::optional<bool> resourcesListChanged;
    const boost::json::array* resourceSubscriptions = nullptr;  // counted before its items are read
    const boost::json::array* taskIds = nullptr;                // the tasks extension (SEP-2663)
};
BOOST_DESCRIBE_STRUCT(ListenFilter, (),
                      (toolsListChanged, promptsListChanged, resourcesListChanged, resourceSubscriptions, taskIds))

struct ListenParams {
    ListenFilter notifications;
};
BOOST_DESCRIBE_STRUCT(ListenParams, (), (notifications))

struct CancelledParams {
    const boost::json::value* requestId = nullptr;
};
BOOST_DESCRIBE_STRUCT(CancelledParams, (), (requestId))

// What a retry of a 2026 multi-round-trip request carries besides its own params.
struct RoundParams {
    std::optional<std::string_view> requestState;
    const boost::json::object* inputResponses = nullptr;
};
BOOST_DESCRIBE_STRUCT(RoundParams, (), (requestState, inputResponses))

// Binds a request's params; throws InvalidParams (-32602) naming what does not fit.
template <class Params>
Params bind_params(const boost::json::object& params) {
    try {
        return json::from_json<Params>(params);
    } catch (const json::BindError& e) {
        throw InvalidParams("Invalid params: " + (e.path().empty() ? std::string() : e.path() + ": ") + e.detail());
    }
}

}  // namespace mcp::detail
