#pragma once
// Server-wide settings. mcp::run() fills them from flags, a config file and MCP_* variables.
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/security/key_ring.hpp>
#include <mcp/telemetry/tracing_options.hpp>
#include <mcp/util/execution_options.hpp>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace mcp {

// Caching hints on 2026-07-28 results (ttlMs, cacheScope).
struct CacheOptions {
    std::chrono::milliseconds list_ttl{0};  // tools/prompts/resources lists and server/discover
    std::chrono::milliseconds read_ttl{0};  // resources/read
    bool public_scope = false;              // "public" lets shared caches reuse results across users
};

// How long a handler waits for the client's answer on the 2025 wire (ADR 0010), and how long
// a 2026 requestState stays valid.
struct ClientRequestOptions {
    std::chrono::milliseconds elicitation_timeout{5 * 60'000};  // a person fills in a form
    std::chrono::milliseconds sampling_timeout{10 * 60'000};    // a person approves, then a model writes
    std::chrono::milliseconds roots_timeout{30'000};            // the client answers by itself
    std::chrono::milliseconds request_state_ttl{15 * 60'000};
    // 2025-era calls of replayable handlers waiting for their clients' answers at once on this
    // node (docs/adr/0015-parked-calls.md). At the bound, the oldest parked call of a client above
    // its share makes room (docs/adr/0024-fair-limits.md); else one more gets "Server overloaded"
    // (HTTP 503).
    std::size_t max_parked_calls = 100'000;
};

// 2025-era sessions (HTTP): how many, how long an idle one lives, and what their resumable SSE
// streams keep for Last-Event-ID.
struct SessionOptions {
    // Sessions this node holds. At the bound, the least recently used session of a client above
    // its share is ended to make room (docs/adr/0024-fair-limits.md); else initialize gets 503.
    std::size_t max_sessions = 10'000;
    std::chrono::milliseconds idle_timeout{30 * 60'000};
    // A session whose client sends nothing after initialize (not even notifications/initialized)
    // is ended this long after it was made.
    std::chrono::milliseconds half_open_timeout{30'000};
    std::size_t journal_events_per_stream = 1'000;
    std::size_t journal_bytes_per_stream = 4 * 1024 * 1024;
};

// Tasks (docs/adr/0021-tasks.md): long tool calls the client polls for.
struct TaskOptions {
    // How long a task and its result stay readable, from its creation (ttlMs).
    std::chrono::milliseconds ttl{60 * 60'000};
    // How often clients are told to poll (pollIntervalMs).
    std::chrono::milliseconds poll_interval{500};
    // Tasks one client (its principal, else its address) may hold within their time to live,
    // across the nodes sharing a store; one more is refused (HTTP 429).
    std::size_t max_per_client = 1000;
};

// What one client may hold (docs/adr/0024-fair-limits.md), beside the bounds in all. A client is
// the principal when there is one, else the address the transport reports (behind trusted
// proxies, the forwarded one; IPv6 by its prefix). Past a quota: HTTP 429 with Retry-After and
// JSON-RPC error -32029. The transport's own (connections, GET streams) are in HttpOptions.
struct ClientQuotas {
    std::size_t sessions = 1'000;       // 2025-era sessions, across the nodes sharing a store
    std::size_t listen_streams = 100;   // subscriptions/listen streams on this node
    std::size_t parked_calls = 10'000;  // 2025-era parked calls on this node
    std::size_t calls = 1'000;          // calls of user code queued or running on this node
};

// The audit log: one JSON line per tools/call, prompts/get and resources/read, with who asked,
// what it named, the outcome and the duration.
struct AuditOptions {
    std::string path;        // empty: off; "stderr"; or a file, appended to
    bool arguments = false;  // the call's arguments too (tokens are never among them)
};

// Memory malloc holds free after a large drop (sessions with many parked calls ended) goes back to
// the system: one thread per process looks every `interval` and, once what malloc holds free has
// grown by `min_bytes` since the last release, calls glibc's malloc_trim (with another allocator
// there is nothing to find). The first server to start sets these for the process
// (docs/adr/0028-memory-after-a-burst.md).
struct MemoryReleaseOptions {
    std::chrono::milliseconds interval{2000};  // 0: never
    std::size_t min_bytes = std::size_t{32} << 20;
};

struct ServerOptions {
    std::string instructions;     // sent in the initialize and server/discover results
    std::size_t page_size = 100;  // items per tools/prompts/resources list page
    jsonrpc::Limits limits;
    CacheOptions cache;
    ClientRequestOptions client_requests;
    // Open subscriptions/listen streams, all clients together. At the bound, the oldest stream of a
    // client above its share makes room; else one more gets 503.
    std::size_t max_listen_streams = 1000;
    std::size_t max_subscriptions = 1000;  // resource subscriptions per session or listen stream
    // The level a 2025-era session starts at before the client calls logging/setLevel.
    LogLevel default_client_log_level = LogLevel::info;
    // Whether tools/list, prompts/list and resources/list show a principal the entries whose
    // required scopes it lacks (calling them is refused either way).
    bool list_unauthorized = false;
    // Whether a tool's structured result is checked against its outputSchema; a mismatch becomes
    // an isError result naming the path, and is logged. Off saves the check's cost.
    bool validate_tool_output = true;
    ExecutionOptions execution;
    SessionOptions sessions;
    TaskOptions tasks;
    ClientQuotas clients;
    // Where 2025-era HTTP sessions, their SSE journals and the answers handlers wait for live:
    // "memory" (one node) or "redis://[[user]:password@]host[:port][/db]", shared by the nodes behind
    // one load balancer (docs/adr/0011-several-nodes.md); also redis-sentinel://, and rediss:// and
    // rediss-sentinel:// over TLS (docs/adr/0020-redis-sentinel.md, docs/adr/0025-redis-tls.md).
    std::string store = "memory";
    // Seals every opaque token (SSE event ids, request state). Nodes behind one load balancer
    // need the same ring; without one the server generates a key and says so in its log.
    std::optional<KeyRing> keys;
    AuditOptions audit;
    MemoryReleaseOptions memory_release;
    // OpenTelemetry spans of every request, exported over OTLP/HTTP (docs/adr/0030-tracing.md);
    // off while the endpoint is empty.
    telemetry::TracingOptions tracing;
};

}  // namespace mcp
