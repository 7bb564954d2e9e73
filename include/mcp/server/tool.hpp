#pragma once
// Tools: what a tool declares (ToolSpec) and the handlers Server::tool accepts.
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
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/server/context.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

// Whether a call of the tool may run as a task the client polls for (docs/adr/0021-tasks.md).
enum class TaskSupport : std::uint8_t {
    forbidden,  // never: every call answers with its result
    optional,   // when the client can take one (2026: the tasks extension declared; 2025: params.task)
    required,   // always: a client that cannot take a task is refused (-32021 / -32601)
};

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
    // A hand-written output schema, advertised verbatim. Like a generated one, it is enforced on the
    // tool's structuredContent (ServerOptions::validate_tool_output): a mismatch becomes an isError
    // result naming the path.
    std::optional<boost::json::object> output_schema;
    // Client capabilities the tool cannot work without, as dotted paths ("sampling",
    // "elicitation.url"). A 2026-07-28 request that does not declare them gets -32021 before the
    // handler runs; a 2025 session without them gets an isError result.
    std::vector<std::string> required_client_capabilities;
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
    // OAuth scopes a principal needs to call it; a request without them gets HTTP 403 with an
    // insufficient_scope challenge (a JSON-RPC error on stdio). Checked only for requests that
    // carry a principal (docs/adr/0014-authorization.md).
    std::vector<std::string> required_scopes;
    // Long-running: the call may become a task. The client gets the task's id at once, the handler
    // runs on, and its result, errors, progress (as the status message) and questions to the client
    // (elicit, sample: the task waits in input_required) go to the task. ctx.stop_token() trips on
    // tasks/cancel. Not with runs_inline.
    TaskSupport task_support = TaskSupport::forbidden;
    // With task_support: the task starts where the handler calls ctx.start_task() rather than
    // before the handler runs. What it asks the client before that is asked as in any call (2026:
    // input_required rounds), and on the 2026 wire the handler runs again from the top in the task,
    // with those answers at hand.
    bool task_started_by_handler = false;
};

}  // namespace mcp
