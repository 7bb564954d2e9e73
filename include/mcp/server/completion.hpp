#pragma once
// completion/complete: suggestions for prompt arguments and resource template variables.
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

class Context;

struct CompletionRequest {
    std::string argument;  // the prompt argument or template variable being completed
    std::string value;     // what the user typed so far
    // Values of the other arguments the client already resolved (context.arguments).
    std::map<std::string, std::string, std::less<>> context;
};

// Returns candidate values; the framework sends at most 100 and reports the total.
using Completer = std::function<std::vector<std::string>(const CompletionRequest& request)>;

// A completer over a fixed list, keeping the values that start with what was typed.
Completer complete_from(std::vector<std::string> values);

// What a CompletionHandler answers. The framework sends the first 100 values, `total` (the values'
// count when unset), and hasMore when there are more values than it sent or `has_more` says so.
struct Completion {
    std::vector<std::string> values;
    std::optional<std::size_t> total;
    bool has_more = false;
};

// Completes every argument of one prompt or template with the call's Context (its cancellation,
// its trace): PromptSpec::complete, ResourceSpec::complete. A mount forwards it to the inner server.
using CompletionHandler = std::function<Completion(const CompletionRequest& request, Context& ctx)>;

}  // namespace mcp
