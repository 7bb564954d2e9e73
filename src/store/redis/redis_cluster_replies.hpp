#pragma once
// What Redis Cluster tells a client about where keys live, read with suspicion: a node that
// answers nonsense must not make the client route to nowhere, allocate without limit or crash.
#include "store/redis/redis_url.hpp"
#include "store/redis/resp.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail {

// One shard of a CLUSTER SHARDS reply (Redis 7.0): its slot ranges and the address of its master,
// nothing when it has no master that is online (failed over but not yet replaced, or loading).
struct ClusterShard {
    std::vector<std::pair<std::uint16_t, std::uint16_t>> slots;  // inclusive ranges
    std::optional<RedisAddress> master;
};

// The shards of a CLUSTER SHARDS reply; nothing for an error or anything malformed (a field of the
// wrong type, a slot out of range, a range backwards, more shards or nodes than a cluster can
// have). The master's address is its endpoint (its ip when the endpoint is unknown) and its
// "tls-port" when `tls` and it has one, else its "port".
std::optional<std::vector<ClusterShard>> cluster_shards(const RespValue& reply, bool tls);

// A MOVED or ASK error ("MOVED 3999 127.0.0.1:6381"): the slot and where it is now. An empty host
// (a node that does not know its own address) is `replier`'s. Nothing for any other text.
struct ClusterRedirect {
    bool ask = false;
    std::uint16_t slot = 0;
    RedisAddress to;
};
std::optional<ClusterRedirect> cluster_redirect(std::string_view error, std::string_view replier);

}  // namespace mcp::detail
