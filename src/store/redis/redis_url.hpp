#pragma once
// Where the Redis of --store is, and how to log in to it:
//   redis://[[user]:password@]host[:port][/db]
//   redis-sentinel://[[user]:password@]host[:port][,host[:port]...]/master-name[/db]
//                    [?sentinel-user=name&sentinel-password=secret]
//   redis-cluster://[[user]:password@]host[:port][,host[:port]...]   Redis Cluster: any of its nodes,
//                    asked for the others (no database: a cluster has only 0)
//   rediss://..., rediss-sentinel://... and rediss-cluster://...: the same over TLS (every connection),
//                    [?tls-ca-file=path&tls-cert-file=path&tls-key-file=path&tls-server-name=name]
// The host defaults to 127.0.0.1, the port to 6379 (Redis) or 26379 (Sentinel). The user and
// password log in to the master; sentinel-user and sentinel-password, when given, to the
// sentinels. Names, passwords and paths holding '@', ':', '/', '%', '&' or '?' are percent-encoded
// (%40, %3A, %2F, %25, %26, %3F); a path's '/' may stay as it is.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

struct RedisAddress {
    std::string host;
    std::uint16_t port = 0;

    bool operator==(const RedisAddress&) const = default;
    std::string to_string() const;  // host:port, IPv6 in brackets
};

struct RedisUrl {
    // The sentinels to ask where the master of `master_name` is (redis-sentinel://).
    struct Sentinels {
        std::vector<RedisAddress> nodes;
        std::string master_name;
        std::string username;  // empty: the default user
        std::string password;  // empty: the sentinels ask for none
    };
    // rediss:// and rediss-sentinel:// (docs/adr/0025-redis-tls.md).
    struct Tls {
        std::string ca_file;    // PEM CAs trusted instead of the system's roots
        std::string cert_file;  // a PEM client certificate (chain) and its key, for servers that ask
        std::string key_file;
        std::string server_name;  // SNI and the name certificates must hold; empty: each host's own
    };
    static constexpr std::size_t kMaxSentinels = 32;  // and cluster seeds

    std::string host = "127.0.0.1";  // redis:// only
    std::uint16_t port = 6379;       // redis:// only; the default of every Redis and cluster address
    int db = 0;
    std::string username;  // an ACL user (Redis 6); empty for the default user
    std::string password;
    std::optional<Sentinels> sentinels;
    std::optional<std::vector<RedisAddress>> cluster;  // redis-cluster://: the nodes to ask first
    std::optional<Tls> tls;

    // Throws std::invalid_argument naming what is wrong (never echoing a password).
    static RedisUrl parse(std::string_view url);
};

}  // namespace mcp::detail
