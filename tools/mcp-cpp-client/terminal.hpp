#pragma once
// What mcp-cpp-client does on the user's terminal: a server's form (elicitation) asked field by
// field on /dev/tty, and a call's progress drawn as a bar on stderr when stderr is a terminal.
#include <mcp/client/types.hpp>
#include <mcp/protocol/client_features.hpp>

#include <mutex>

namespace mcp_client_tool {

// Asks the form on /dev/tty: each field (empty keeps the schema's default), then whether to send
// it. Without a terminal it says so on stderr and declines.
mcp::ElicitResult ask_on_terminal(const mcp::Elicitation& request);

class ProgressBar {
public:
    ProgressBar();
    // A progress notification: the bar redrawn (nothing when stderr is no terminal).
    void update(const mcp::Progress& progress);
    // Erases the bar, before other output and at the end.
    void clear();
    // The same, with terminal_mutex() held.
    void erase();

private:
    bool terminal_;
    bool drawn_ = false;
};

// Held while writing to the terminal, so that the bar and a form do not interleave.
std::mutex& terminal_mutex();
// The bar, if any, that a form must erase first.
void set_active_progress(ProgressBar* bar);

}  // namespace mcp_client_tool
