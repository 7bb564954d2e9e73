#pragma once
// Carries thread-local context (a principal, a trace context, logging fields, anything a user
// registers) from the transport thread that received a request to the handler thread that runs it.
// Captured when the request arrives, restored around the handler, cleared after it.
#include <any>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mcp {

class ContextSnapshot;

class ContextRegistry {
public:
    struct Accessor {
        std::string name;
        std::function<std::any()> capture;             // reads the value on the capturing thread
        std::function<void(const std::any&)> restore;  // writes it on the handler thread
        std::function<void()> clear;                   // resets it on the handler thread afterwards
    };

    // The registry every Server uses unless given another one.
    static ContextRegistry& global();

    // Thread-safe; accessors added later apply to snapshots captured later.
    void add(Accessor accessor);

    // Convenience for a thread_local reached through a function returning a reference to it:
    //   thread_local std::string tenant;  registry.add_thread_local<std::string>("tenant", [] () -> std::string& {
    //   return tenant; });
    // Restore copies the captured value in; clear assigns T{}.
    template <class T>
    void add_thread_local(std::string name, T& (*slot)()) {
        add(Accessor{std::move(name), [slot] { return std::any(slot()); },
                     [slot](const std::any& v) { slot() = std::any_cast<const T&>(v); }, [slot] { slot() = T{}; }});
    }

    // Captures every registered accessor on the calling thread.
    ContextSnapshot capture() const;
    // Calls every accessor's clear() on the calling thread: a transport thread that set
    // request values (in an authenticator) resets them before its next request.
    void clear_current_thread() const;

    std::size_t size() const;

    ContextRegistry();
    ~ContextRegistry();
    ContextRegistry(const ContextRegistry&) = delete;
    ContextRegistry& operator=(const ContextRegistry&) = delete;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

class ContextSnapshot {
public:
    ContextSnapshot() = default;

    // Restores the captured values on the current thread; the returned scope clears them
    // (every accessor's clear) when it ends, even when the handler threw.
    class Scope {
    public:
        Scope(Scope&& other) noexcept : accessors_(std::move(other.accessors_)) { other.accessors_.reset(); }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
        Scope& operator=(Scope&&) = delete;
        ~Scope();

    private:
        friend class ContextSnapshot;
        explicit Scope(std::shared_ptr<const std::vector<ContextRegistry::Accessor>> accessors)
            : accessors_(std::move(accessors)) {}
        std::shared_ptr<const std::vector<ContextRegistry::Accessor>> accessors_;
    };

    [[nodiscard]] Scope restore() const;
    bool empty() const { return values_.empty(); }

private:
    friend class ContextRegistry;
    std::shared_ptr<const std::vector<ContextRegistry::Accessor>> accessors_;
    std::vector<std::any> values_;
};

}  // namespace mcp
