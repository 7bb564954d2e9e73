#pragma once
// A child process in a process group of its own, its stdin, stdout and stderr on pipes, every other
// descriptor closed, its resource limits set, and the signals it may be sent. POSIX (Linux's
// close_range where there is one).
#include <mcp/client/stdio_limits.hpp>

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mcp::detail {

struct SpawnSpec {
    std::string command;
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> env;
    bool inherit_env = true;
    std::string cwd;
    StdioLimits limits;
};

struct ChildProcess {
    pid_t pid = 0;       // also the process group's id
    int stdin_fd = -1;   // ours to write
    int stdout_fd = -1;  // ours to read
    int stderr_fd = -1;  // ours to read
};

// Throws std::system_error when the command cannot be started.
ChildProcess spawn(const SpawnSpec& spec);

// A descriptor that becomes readable when the child exits (Linux pidfd); -1 where there is none.
int exit_descriptor(pid_t pid);

// The child's exit status (or 128 + the signal that killed it) once it has exited and is reaped.
std::optional<int> try_reap(pid_t pid);

// Sends `signal` to every process of the group; false when none is left.
bool signal_group(pid_t group, int signal);

// SIGPIPE ignored unless the application set a handler of its own.
void ignore_sigpipe();

}  // namespace mcp::detail
