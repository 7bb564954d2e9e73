#include <mcp/server/blocking.hpp>

#include "util/handler_pool.hpp"

namespace mcp {

namespace {

// Nested scopes on one thread count once.
thread_local bool t_in_blocking_scope = false;

}  // namespace

BlockingScope::BlockingScope() : pool_(nullptr) {
    detail::HandlerPool* pool = detail::HandlerPool::current();
    if (pool == nullptr || t_in_blocking_scope) return;
    pool->begin_blocking();
    pool_ = pool;
    t_in_blocking_scope = true;
}

BlockingScope::~BlockingScope() {
    if (pool_ == nullptr) return;
    static_cast<detail::HandlerPool*>(pool_)->end_blocking();
    t_in_blocking_scope = false;
}

}  // namespace mcp
