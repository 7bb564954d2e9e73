#pragma once
// Resource and resource template registration.
//
//   server.resource("docs://readme", {.mime_type = "text/markdown"}, [] { return readme(); });
//   server.resource_template("docs://pages/{slug}", {.mime_type = "text/markdown"},
//                            [](std::string_view slug) { return page(slug); });
//
// Static handlers: R() or R(Context&). Template handlers take the template's variables, either
// positionally (one parameter per variable, in order of appearance, each a string, string_view,
// number, bool, described enum or std::optional of one), as a described struct whose fields are
// named like the variables, or as const mcp::UriVariables&; Context& may be added last.
// R may be a string (text), mcp::Blob (bytes), mcp::ResourceContents (or either alternative),
// std::vector<mcp::ResourceContents> or mcp::ReadResourceResult. Throw mcp::ResourceNotFound
// for a URI that matches the template but names nothing.
#include <mcp/protocol/content.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/protocol/uri_template.hpp>
#include <mcp/server/completion.hpp>
#include <mcp/server/context.hpp>

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

struct ResourceSpec {
    std::string name;  // defaults to the URI's last segment
    std::string title;
    std::string description;
    std::string mime_type;
    std::optional<std::uint64_t> size;
    Annotations annotations;
    std::vector<Icon> icons;
    boost::json::object meta;
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
    // OAuth scopes a principal needs to read it (or, for a template, any URI it matches); a request without them gets
    // HTTP 403 with an insufficient_scope challenge (a JSON-RPC error on stdio). Checked only for requests that carry a
    // principal (docs/adr/0014-authorization.md).
    std::vector<std::string> required_scopes;
    // completion/complete for its variables (a template's; a resource has none) that have no completer of their own
    // (Server::complete_*); without it, an enum-typed one completes from its values.
    CompletionHandler complete;
};

}  // namespace mcp
