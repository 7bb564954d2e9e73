#pragma once
// completion/complete of a mounted prompt or resource template, asked of the inner server
// (docs/adr/0029-gateway.md, decision 14).
#include <mcp/client/client.hpp>
#include <mcp/client/types.hpp>
#include <mcp/server/completion.hpp>

#include <functional>
#include <memory>
#include <string>

namespace mcp::detail {

// The client serving the mount now; null while there is none.
using InnerClient = std::function<std::shared_ptr<Client>()>;

// Completes an argument of `inner` (its inner name or URI template) by the inner server's
// completion/complete, the request's context.arguments passed on and its answer returned as it is.
// An inner server without the completions capability completes nothing; its JSON-RPC errors are
// thrown as they came, and one that cannot be reached is a -32603 error naming the mount.
CompletionHandler forwarded_completion(std::string prefix, CompletionRef inner, InnerClient client);

}  // namespace mcp::detail
