#pragma once
#include <stdexcept>

namespace mcp {

// The shared store (Redis) cannot be reached or did not answer in time. Requests that need it are
// answered 503 with a JSON-RPC error; 2026-era requests, which need no store, go on being served.
class StoreUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace mcp
