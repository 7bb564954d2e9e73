// The out-of-line members of the client's exceptions (mcp/client/errors.hpp).
#include <mcp/client/errors.hpp>

namespace mcp {

InputRoundsExceeded::InputRoundsExceeded(int rounds)
    : ClientFailure("the server still asked for input after " + std::to_string(rounds) + " rounds"), rounds_(rounds) {}

OutputSchemaMismatch::OutputSchemaMismatch(const std::string& tool, json::ValidationError error)
    : ClientFailure("the result of tool " + tool + " does not match its outputSchema: " + error.message),
      error_(std::move(error)) {}

}  // namespace mcp
