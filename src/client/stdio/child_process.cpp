#include "client/stdio/child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <cerrno>
#include <cstring>
#include <system_error>

extern char** environ;

namespace mcp::detail {

namespace {

[[noreturn]] void fail(int error, const std::string& what) {
    throw std::system_error(error, std::generic_category(), what);
}

struct Pipe {
    int read = -1;
    int write = -1;
};

Pipe make_pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) fail(errno, "pipe2");
    return {fds[0], fds[1]};
}

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

std::vector<std::string> environment_of(const SpawnSpec& spec) {
    std::vector<std::string> out;
    const auto overridden = [&](std::string_view entry) {
        const auto name = entry.substr(0, entry.find('='));
        for (const auto& [k, v] : spec.env) {
            if (k == name) return true;
        }
        return false;
    };
    if (spec.inherit_env) {
        for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
            if (!overridden(*e)) out.emplace_back(*e);
        }
    }
    for (const auto& [k, v] : spec.env) out.push_back(std::string(k).append("=").append(v));
    return out;
}

std::vector<char*> pointers_to(std::vector<std::string>& strings) {
    std::vector<char*> out;
    out.reserve(strings.size() + 1);
    for (auto& s : strings) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// posix_spawn's attributes and file actions, released however spawn() ends.
struct SpawnSetup {
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t actions;
    SpawnSetup() {
        posix_spawnattr_init(&attr);
        posix_spawn_file_actions_init(&actions);
    }
    ~SpawnSetup() {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
    }
    SpawnSetup(const SpawnSetup&) = delete;
    SpawnSetup& operator=(const SpawnSetup&) = delete;
};

}  // namespace

ChildProcess spawn(const SpawnSpec& spec) {
    Pipe in = make_pipe();
    Pipe out;
    Pipe err;
    try {
        out = make_pipe();
        err = make_pipe();
    } catch (...) {
        close_fd(in.read), close_fd(in.write), close_fd(out.read), close_fd(out.write);
        throw;
    }

    SpawnSetup setup;
    // A group of its own, so that signals reach what the server starts; default signal handling and
    // an empty mask, whatever the client ignores or blocks (SIGPIPE).
    posix_spawnattr_setpgroup(&setup.attr, 0);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&setup.attr, &none);
    sigset_t defaults;
    sigfillset(&defaults);
    sigdelset(&defaults, SIGKILL);
    sigdelset(&defaults, SIGSTOP);
    posix_spawnattr_setsigdefault(&setup.attr, &defaults);
    posix_spawnattr_setflags(&setup.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    posix_spawn_file_actions_adddup2(&setup.actions, in.read, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&setup.actions, out.write, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&setup.actions, err.write, STDERR_FILENO);
    posix_spawn_file_actions_addclosefrom_np(&setup.actions, STDERR_FILENO + 1);
    if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&setup.actions, spec.cwd.c_str());

    std::vector<std::string> argv_strings{spec.command};
    argv_strings.insert(argv_strings.end(), spec.args.begin(), spec.args.end());
    auto argv = pointers_to(argv_strings);
    auto env_strings = environment_of(spec);
    auto envp = pointers_to(env_strings);

    pid_t pid = 0;
    const int error = ::posix_spawnp(&pid, spec.command.c_str(), &setup.actions, &setup.attr, argv.data(), envp.data());
    close_fd(in.read);
    close_fd(out.write);
    close_fd(err.write);
    if (error != 0) {
        close_fd(in.write);
        close_fd(out.read);
        close_fd(err.read);
        fail(error, "cannot start " + spec.command);
    }
    return ChildProcess{pid, in.write, out.read, err.read};
}

int exit_descriptor(pid_t pid) {
#ifdef SYS_pidfd_open
    const long fd = ::syscall(SYS_pidfd_open, pid, 0);
    return fd >= 0 ? static_cast<int>(fd) : -1;
#else
    (void)pid;
    return -1;
#endif
}

std::optional<int> try_reap(pid_t pid) {
    int status = 0;
    pid_t r;
    do {
        r = ::waitpid(pid, &status, WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r != pid) return std::nullopt;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return std::nullopt;
}

bool signal_group(pid_t group, int signal) {
    // ESRCH: nobody is left. EPERM: someone is, but not ours to signal: nothing more to do either.
    return ::kill(-group, signal) == 0;
}

void ignore_sigpipe() {
    struct sigaction current {};
    if (::sigaction(SIGPIPE, nullptr, &current) != 0) return;
    if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO) != 0) return;
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, nullptr);
}

}  // namespace mcp::detail
