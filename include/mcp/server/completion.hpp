#pragma once
// completion/complete: suggestions for prompt arguments and resource template variables.
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

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

}  // namespace mcp
