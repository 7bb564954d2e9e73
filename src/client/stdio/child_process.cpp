#include "client/stdio/child_process.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
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

// Where the command may be: itself when it names a path, else each directory of the client's PATH
// (as execvp looks, an empty entry being the current directory).
std::vector<std::string> candidates_for(const std::string& command) {
    if (command.empty()) return {};
    if (command.find('/') != std::string::npos) return {command};
    const char* path = std::getenv("PATH");
    const std::string_view dirs = path != nullptr ? path : "/bin:/usr/bin";
    std::vector<std::string> out;
    for (std::size_t start = 0;;) {
        const auto end = dirs.find(':', start);
        const auto dir = dirs.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        out.push_back(dir.empty() ? command : std::string(dir).append("/").append(command));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return out;
}

struct Limit {
    int resource;
    rlimit value;
};

// The limits to set, each at most the client's own hard limit (raising one needs privileges).
std::vector<Limit> limits_of(const StdioLimits& limits) {
    std::vector<Limit> out;
    const auto add = [&](int resource, const std::optional<std::uint64_t>& value, std::uint64_t unit) {
        if (!value) return;
        rlimit current{};
        if (::getrlimit(resource, &current) != 0) fail(errno, "getrlimit");
        const rlim_t wanted = *value > RLIM_INFINITY / unit ? RLIM_INFINITY : static_cast<rlim_t>(*value * unit);
        const rlim_t limit = std::min(wanted, current.rlim_max);
        out.push_back({resource, {limit, limit}});
    };
    add(RLIMIT_DATA, limits.memory_mib, 1024 * 1024);
    add(RLIMIT_CPU, limits.cpu_seconds, 1);
    add(RLIMIT_NOFILE, limits.open_files, 1);
    add(RLIMIT_NPROC, limits.processes, 1);
    return out;
}

// Everything the child needs between fork and exec, made before the fork: after it, the child of a
// threaded process may make only async-signal-safe calls (no allocation, no lock).
struct ExecPlan {
    int stdin_fd;
    int stdout_fd;
    int stderr_fd;
    int error_fd;     // the exec's failure is written here; close-on-exec, so its success closes it
    const char* cwd;  // null: the client's
    const std::vector<Limit>& limits;
    const std::vector<std::string>& candidates;
    char* const* argv;
    char* const* envp;
    sigset_t no_signals;
    int max_fd;  // for a kernel without close_range
};

// `fd` as the child's `target`, open across the exec.
bool place(int fd, int target) {
    if (fd == target) return ::fcntl(fd, F_SETFD, 0) == 0;
    return ::dup2(fd, target) == target;
}

// Closes every descriptor from 3 on but the error pipe.
void close_others(const ExecPlan& plan) {
    const auto close_between = [&](int first, int last) {
        if (first > last) return;
        if (::syscall(SYS_close_range, first, last, 0) == 0) return;
        for (int fd = first; fd <= last; ++fd) ::close(fd);
    };
    close_between(STDERR_FILENO + 1, plan.error_fd - 1);
    close_between(plan.error_fd + 1, plan.max_fd);
}

// The child's end when it cannot run the command: the error for the client, and no exit handler of
// the client's.
[[noreturn]] void give_up(const ExecPlan& plan, int error) {
    while (::write(plan.error_fd, &error, sizeof error) < 0 && errno == EINTR) {}
    ::_exit(127);
}

[[noreturn]] void exec_child(const ExecPlan& plan) {
    // A group of its own, so that signals reach what the server starts; default signal handling and
    // an empty mask, whatever the client ignores or blocks (SIGPIPE).
    if (::setpgid(0, 0) != 0) give_up(plan, errno);
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    for (int signal = 1; signal < NSIG; ++signal) {
        if (signal != SIGKILL && signal != SIGSTOP) ::sigaction(signal, &default_action, nullptr);
    }
    if (::pthread_sigmask(SIG_SETMASK, &plan.no_signals, nullptr) != 0) give_up(plan, EINVAL);
    if (!place(plan.stdin_fd, STDIN_FILENO) || !place(plan.stdout_fd, STDOUT_FILENO) ||
        !place(plan.stderr_fd, STDERR_FILENO))
        give_up(plan, errno);
    close_others(plan);
    if (plan.cwd != nullptr && ::chdir(plan.cwd) != 0) give_up(plan, errno);
    for (const auto& limit : plan.limits) {
        if (::setrlimit(limit.resource, &limit.value) != 0) give_up(plan, errno);
    }
    // execvp's search, without its allocations: the first candidate that runs; else its error for a
    // candidate found but not runnable (EACCES), or not found (ENOENT).
    int error = ENOENT;
    for (const auto& candidate : plan.candidates) {
        ::execve(candidate.c_str(), plan.argv, plan.envp);
        if (errno == EACCES) {
            error = EACCES;
        } else if (errno != ENOENT && errno != ENOTDIR) {
            error = errno;
            break;
        }
    }
    give_up(plan, error);
}

// The signals blocked while forking, so that no handler of the client's runs in the child before
// it has put them back to their defaults.
class SignalsBlocked {
public:
    SignalsBlocked() {
        sigset_t all;
        sigfillset(&all);
        ::pthread_sigmask(SIG_SETMASK, &all, &previous_);
    }
    ~SignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
    SignalsBlocked(const SignalsBlocked&) = delete;
    SignalsBlocked& operator=(const SignalsBlocked&) = delete;

private:
    sigset_t previous_{};
};

// The exec's errno, or 0 when it ran (the pipe closed on exec with nothing in it).
int exec_error(int error_fd) {
    int error = 0;
    ssize_t got = 0;
    do {
        got = ::read(error_fd, &error, sizeof error);
    } while (got < 0 && errno == EINTR);
    return got == static_cast<ssize_t>(sizeof error) ? error : 0;
}

}  // namespace

ChildProcess spawn(const SpawnSpec& spec) {
    Pipe in;
    Pipe out;
    Pipe err;
    Pipe status;
    const auto close_all = [&] {
        for (auto* pipe : {&in, &out, &err, &status}) close_fd(pipe->read), close_fd(pipe->write);
    };
    try {
        in = make_pipe();
        out = make_pipe();
        err = make_pipe();
        status = make_pipe();
    } catch (...) {
        close_all();
        throw;
    }

    std::vector<std::string> argv_strings{spec.command};
    argv_strings.insert(argv_strings.end(), spec.args.begin(), spec.args.end());
    auto argv = pointers_to(argv_strings);
    auto env_strings = environment_of(spec);
    auto envp = pointers_to(env_strings);
    const auto candidates = candidates_for(spec.command);
    std::vector<Limit> limits;
    try {
        limits = limits_of(spec.limits);
    } catch (...) {
        close_all();
        throw;
    }
    ExecPlan plan{.stdin_fd = in.read,
                  .stdout_fd = out.write,
                  .stderr_fd = err.write,
                  .error_fd = status.write,
                  .cwd = spec.cwd.empty() ? nullptr : spec.cwd.c_str(),
                  .limits = limits,
                  .candidates = candidates,
                  .argv = argv.data(),
                  .envp = envp.data(),
                  .no_signals = {},
                  .max_fd = static_cast<int>(std::min<long>(::sysconf(_SC_OPEN_MAX), 1 << 20))};
    sigemptyset(&plan.no_signals);

    pid_t pid = 0;
    {
        SignalsBlocked blocked;
        pid = ::fork();
        if (pid == 0) exec_child(plan);
    }
    const int fork_error = pid < 0 ? errno : 0;
    close_fd(in.read);
    close_fd(out.write);
    close_fd(err.write);
    close_fd(status.write);
    const int error = fork_error != 0 ? fork_error : exec_error(status.read);
    close_fd(status.read);
    if (error != 0) {
        if (pid > 0) {
            while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {}
        }
        close_all();
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
