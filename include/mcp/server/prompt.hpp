#pragma once
// Prompt registration. Prompt arguments are strings on the wire; a described struct's fields are
// converted from them (strings, numbers, booleans, described enums; std::optional when not
// required). Field descriptions and titles come from mcp_schema() hints, as for tools.
//
// Accepted handler shapes (Context& may be added last in each):
//   R()   R(const In&)   R(const std::map<std::string, std::string>& raw_arguments)
// R may be a string (one user message), a content block (one user message), mcp::PromptMessage,
// std::vector<mcp::PromptMessage> or mcp::GetPromptResult.
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/server/completion.hpp>
#include <mcp/server/context.hpp>

#include <boost/json/object.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mcp {

struct PromptSpec {
    std::string name;
    std::string description;  // required, non-empty
    std::string title;
    std::vector<Icon> icons;
    boost::json::object meta;
    // Only for handlers taking the raw argument map; typed handlers derive them from their struct.
    std::vector<PromptArgument> arguments;
    // The handler never blocks: no I/O waits, no long-held locks, and no ctx.elicit/sample/roots
    // for a 2025-11-25 client unless it is replayable too (waiting there throws). It then runs on the transport's
    // thread instead of the handler pool, sparing the two thread hand-offs of a pooled call (docs/adr/0012).
    bool runs_inline = false;
    // The handler may run again from the top: what it does before asking the client (elicit,
    // sample, roots, ask) can be repeated. A 2025-11-25 call then waits for the client's answers
    // as a small record instead of holding a handler thread, and the handler runs again once they
    // are in, as every handler does for 2026-07-28 clients (docs/adr/0015-parked-calls.md). Keep
    // side effects after the questions.
    bool replayable = false;
    // OAuth scopes a principal needs to get it; a request without them gets HTTP 403 with an
    // insufficient_scope challenge (a JSON-RPC error on stdio). Checked only for requests that
    // carry a principal (docs/adr/0014-authorization.md).
    std::vector<std::string> required_scopes;
    // completion/complete for its arguments that have no completer of their own
    // (Server::complete_*); without it, an enum-typed one completes from its values.
    CompletionHandler complete;
};

using PromptArguments = std::map<std::string, std::string, std::less<>>;

}  // namespace mcp
