#pragma once
// Marks a section of handler code that waits on something outside the process (a slow query, a
// lock held elsewhere). While it lasts, the handler pool may start another thread at once
// so waiting calls do not hold back queued ones. Framework waits (elicit, sample) use it too.
// Outside a handler thread it does nothing.

namespace mcp {

class BlockingScope {
public:
    BlockingScope();
    ~BlockingScope();
    BlockingScope(const BlockingScope&) = delete;
    BlockingScope& operator=(const BlockingScope&) = delete;

private:
    void* pool_;  // the current thread's pool, or nullptr
};

}  // namespace mcp
