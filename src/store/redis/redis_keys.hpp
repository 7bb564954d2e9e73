#pragma once
// Every key and channel of the Redis backend, in one place. The part in braces is the hash tag:
// Redis Cluster places a key by it alone, so the keys one script touches share a tag (a session's
// record and its subscriptions, a mailbox slot's marker and answer) and the indexes that span
// entities (a client's sessions, a URI's subscribers, an owner's tasks) have a tag of their own
// and are changed in steps of their own (docs/adr/0027-redis-cluster.md). Every key has a time to
// live:
//   mcp:s:{<session>}          session hash (rev, level, client, q: the client it counts against), PX the
//                              half-open time until a request touches it, then the idle timeout,
//                              refreshed on use
//   mcp:ss:{<session>}         the session's resource subscriptions, expiring with it
//   mcp:cs:{<client>}          the client's sessions by the time they expire, for its quota; expiring
//                              with the last of them
//   mcp:sub:{<uri>}            session ids subscribed to a resource: candidates, each checked against
//                              the session's own subscriptions when read
//   mcp:j:{<session/stream>}   SSE journal (a Redis stream), trimmed and expiring with the session
//   mcp:mbo:{<key>} / mcp:mb:{<key>}  mailbox: "a handler waits" marker, and the delivered answer
//   mcp:t:{<task>}             task hash (status, times, result or error, "i:<key>" requests it
//                              waits for, "a:<key>" answers), PX its time to live from creation
//   mcp:to:{<owner>}           the owner's tasks by creation time, for tasks/list: candidates, each
//                              read from its hash
//   mcp:tc:{<client>}          the client's tasks by creation time, for --max-tasks
//   mcp:node:{<node>}          "this node runs tasks and is alive", PX a few seconds, renewed
//   channel mcp:bus:<topic>:{<n>}  wake-ups between nodes, n in [0, shards): spread over the
//                              cluster's slots, one channel on a single Redis
#include <cstdint>
#include <string>
#include <string_view>

namespace mcp::detail::redis_keys {

// prefix{id}, the id's braces and '%' percent-encoded so that the whole id is the tag (an id
// starting with '}' would otherwise leave an empty tag, and the whole key hashed); an empty id is
// "%", which no encoded id is.
std::string tagged(std::string_view prefix, std::string_view id);

inline std::string session(std::string_view id) { return tagged("mcp:s:", id); }
inline std::string session_subscriptions(std::string_view id) { return tagged("mcp:ss:", id); }
inline std::string client_sessions(std::string_view client) { return tagged("mcp:cs:", client); }
inline std::string subscribers(std::string_view uri) { return tagged("mcp:sub:", uri); }
inline std::string journal(std::string_view stream) { return tagged("mcp:j:", stream); }
inline std::string mailbox_marker(std::string_view key) { return tagged("mcp:mbo:", key); }
inline std::string mailbox_answer(std::string_view key) { return tagged("mcp:mb:", key); }
inline std::string task(std::string_view id) { return tagged("mcp:t:", id); }
inline std::string owner_tasks(std::string_view owner) { return tagged("mcp:to:", owner); }
inline std::string client_tasks(std::string_view client) { return tagged("mcp:tc:", client); }
inline std::string node(std::string_view node) { return tagged("mcp:node:", node); }

// The bus channel of `topic` numbered `shard`.
inline std::string channel(std::string_view topic, unsigned shard) {
    return tagged(std::string("mcp:bus:").append(topic).append(":"), std::to_string(shard));
}

}  // namespace mcp::detail::redis_keys
