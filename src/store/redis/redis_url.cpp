#include "store/redis/redis_url.hpp"

#include "util/percent_encoding.hpp"

#include <charconv>
#include <stdexcept>

namespace mcp::detail {

namespace {

constexpr std::string_view kRedis = "redis://";
constexpr std::string_view kSentinel = "redis-sentinel://";
constexpr std::string_view kRedisTls = "rediss://";
constexpr std::string_view kSentinelTls = "rediss-sentinel://";
constexpr std::string_view kCluster = "redis-cluster://";
constexpr std::string_view kClusterTls = "rediss-cluster://";
constexpr std::uint16_t kSentinelPort = 26379;
constexpr std::size_t kMaxMasterName = 128;

// User names and passwords arrive percent-encoded when they hold reserved characters.
// The message never repeats the text: it may be a password.
std::string credential(std::string_view text, std::string_view what) {
    auto decoded = percent_decoded(text);
    if (!decoded) throw std::invalid_argument("bad percent-encoding in the Redis URL's " + std::string(what));
    return std::move(*decoded);
}

// [user]:password, or a bare password as older clients wrote it.
void read_userinfo(std::string_view userinfo, std::string& username, std::string& password) {
    if (const auto colon = userinfo.find(':'); colon != std::string_view::npos) {
        username = credential(userinfo.substr(0, colon), "user or password");
        password = credential(userinfo.substr(colon + 1), "user or password");
    } else {
        password = credential(userinfo, "user or password");
    }
}

// host[:port], the host in brackets when it is an IPv6 address; an empty host is 127.0.0.1.
RedisAddress read_address(std::string_view text, std::uint16_t default_port) {
    RedisAddress out{"127.0.0.1", default_port};
    const auto bracket = text.find(']');
    if (const auto colon = text.rfind(':');
        colon != std::string_view::npos && (bracket == std::string_view::npos || bracket < colon)) {
        unsigned port = 0;
        const auto digits = text.substr(colon + 1);
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
        if (ec != std::errc() || end != digits.data() + digits.size() || port == 0 || port > 65535) {
            throw std::invalid_argument("bad port in the Redis URL");
        }
        out.port = static_cast<std::uint16_t>(port);
        text = text.substr(0, colon);
    }
    if (text.starts_with('[') && text.ends_with(']')) text = text.substr(1, text.size() - 2);
    if (text.find_first_of("[]@, ") != std::string_view::npos) throw std::invalid_argument("bad host in the Redis URL");
    if (!text.empty()) out.host = text;
    return out;
}

int read_db(std::string_view text) {
    int db = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), db);
    if (ec != std::errc() || end != text.data() + text.size() || db < 0)
        throw std::invalid_argument("bad database number in the Redis URL");
    return db;
}

// Splits "authority/path?query" after the scheme, and the userinfo off the authority.
struct Parts {
    std::string_view userinfo;
    std::string_view hosts;
    std::string_view path;  // without its leading '/'
    std::string_view query;
    bool has_userinfo = false;
};

Parts split(std::string_view rest) {
    Parts out;
    if (const auto q = rest.find('?'); q != std::string_view::npos) {
        out.query = rest.substr(q + 1);
        rest = rest.substr(0, q);
    }
    const auto slash = rest.find('/');
    auto authority = rest.substr(0, slash);
    if (slash != std::string_view::npos) out.path = rest.substr(slash + 1);
    if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
        out.userinfo = authority.substr(0, at);
        out.has_userinfo = true;
        authority.remove_prefix(at + 1);
    }
    out.hosts = authority;
    return out;
}

// master-name[/db]
void read_sentinel_path(std::string_view path, RedisUrl& url) {
    auto& sentinels = *url.sentinels;
    const auto slash = path.find('/');
    auto name = credential(path.substr(0, slash), "master name");
    if (name.empty() || name.size() > kMaxMasterName) {
        throw std::invalid_argument("a redis-sentinel:// URL names its master: redis-sentinel://host:port/master-name");
    }
    for (const unsigned char c : name) {
        // Sentinel's own messages (+switch-master) separate fields with spaces.
        if (c <= ' ' || c == 0x7f) throw std::invalid_argument("bad master name in the Redis URL");
    }
    sentinels.master_name = std::move(name);
    if (slash != std::string_view::npos) url.db = read_db(path.substr(slash + 1));
}

// The parameters a URL of its scheme may have: sentinel-* through Sentinel, tls-* over TLS.
void read_query(std::string_view query, RedisUrl& url) {
    std::string known = url.sentinels ? "sentinel-user, sentinel-password" : "";
    if (url.tls)
        known += std::string(known.empty() ? "" : ", ") + "tls-ca-file, tls-cert-file, tls-key-file, tls-server-name";
    if (known.empty()) known = "none without rediss://, rediss-cluster:// or redis-sentinel://";
    while (!query.empty()) {
        const auto amp = query.find('&');
        const auto pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        const auto eq = pair.find('=');
        const auto key = pair.substr(0, eq);
        const auto value = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
        std::string* target = nullptr;
        if (url.sentinels && key == "sentinel-user") target = &url.sentinels->username;
        if (url.sentinels && key == "sentinel-password") target = &url.sentinels->password;
        if (url.tls && key == "tls-ca-file") target = &url.tls->ca_file;
        if (url.tls && key == "tls-cert-file") target = &url.tls->cert_file;
        if (url.tls && key == "tls-key-file") target = &url.tls->key_file;
        if (url.tls && key == "tls-server-name") target = &url.tls->server_name;
        if (target == nullptr) throw std::invalid_argument("unknown parameter in the Redis URL (known: " + known + ")");
        *target = credential(value, key);
        if (key.starts_with("tls-") && target->empty())
            throw std::invalid_argument("empty " + std::string(key) + " in the Redis URL");
    }
}

// host[:port][,host[:port]...], at most kMaxSentinels of them.
std::vector<RedisAddress> read_addresses(std::string_view hosts, std::uint16_t default_port, std::string_view what) {
    std::vector<RedisAddress> out;
    while (true) {
        const auto comma = hosts.find(',');
        const auto one = hosts.substr(0, comma);
        if (one.empty()) throw std::invalid_argument("empty " + std::string(what) + " address in the Redis URL");
        if (out.size() == RedisUrl::kMaxSentinels) {
            throw std::invalid_argument("more than " + std::to_string(RedisUrl::kMaxSentinels) + " " +
                                        std::string(what) + "s in the Redis URL");
        }
        out.push_back(read_address(one, default_port));
        if (comma == std::string_view::npos) break;
        hosts.remove_prefix(comma + 1);
    }
    return out;
}

RedisUrl parse_sentinel(std::string_view rest, bool tls) {
    RedisUrl out;
    out.sentinels.emplace();
    if (tls) out.tls.emplace();
    const auto parts = split(rest);
    if (parts.has_userinfo) read_userinfo(parts.userinfo, out.username, out.password);
    out.sentinels->nodes = read_addresses(parts.hosts, kSentinelPort, "sentinel");
    read_sentinel_path(parts.path, out);
    read_query(parts.query, out);
    return out;
}

RedisUrl parse_cluster(std::string_view rest, bool tls) {
    RedisUrl out;
    if (tls) out.tls.emplace();
    const auto parts = split(rest);
    if (parts.has_userinfo) read_userinfo(parts.userinfo, out.username, out.password);
    out.cluster = read_addresses(parts.hosts, out.port, "cluster node");
    if (rest.substr(0, rest.find('?')).find('/') != std::string_view::npos)
        throw std::invalid_argument("a redis-cluster:// URL names no database: a cluster has only database 0");
    read_query(parts.query, out);
    return out;
}

RedisUrl parse_redis(std::string_view rest, bool tls) {
    RedisUrl out;
    if (tls) out.tls.emplace();
    const auto parts = split(rest);
    if (parts.has_userinfo) read_userinfo(parts.userinfo, out.username, out.password);
    const auto address = read_address(parts.hosts, out.port);
    out.host = address.host;
    out.port = address.port;
    if (!parts.path.empty()) out.db = read_db(parts.path);
    read_query(parts.query, out);
    return out;
}

}  // namespace

std::string RedisAddress::to_string() const {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

RedisUrl RedisUrl::parse(std::string_view url) {
    if (url.starts_with(kRedis)) return parse_redis(url.substr(kRedis.size()), false);
    if (url.starts_with(kRedisTls)) return parse_redis(url.substr(kRedisTls.size()), true);
    if (url.starts_with(kSentinel)) return parse_sentinel(url.substr(kSentinel.size()), false);
    if (url.starts_with(kSentinelTls)) return parse_sentinel(url.substr(kSentinelTls.size()), true);
    if (url.starts_with(kCluster)) return parse_cluster(url.substr(kCluster.size()), false);
    if (url.starts_with(kClusterTls)) return parse_cluster(url.substr(kClusterTls.size()), true);
    throw std::invalid_argument(
        "a Redis URL starts with redis://, rediss://, redis-sentinel://, rediss-sentinel://, redis-cluster:// or "
        "rediss-cluster://");
}

}  // namespace mcp::detail
