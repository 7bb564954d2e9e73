#include "store/redis/redis_cluster_replies.hpp"

#include "store/redis/redis_slot.hpp"

#include <charconv>

namespace mcp::detail {

namespace {

// More nodes than that per shard, or shards per cluster, is not a cluster Redis can run.
constexpr std::size_t kMaxNodesPerShard = 64;
constexpr std::size_t kMaxShards = kClusterSlots;
constexpr std::size_t kMaxHost = 255;

bool is_text(const RespValue& v) { return v.type == RespValue::Type::bulk || v.type == RespValue::Type::simple; }

std::optional<std::uint16_t> port_of(const RespValue& v) {
    if (v.type != RespValue::Type::integer || v.integer <= 0 || v.integer > 65535) return std::nullopt;
    return static_cast<std::uint16_t>(v.integer);
}

bool valid_host(std::string_view host) {
    if (host.empty() || host.size() > kMaxHost || host == "?") return false;
    for (const unsigned char c : host) {
        if (c <= ' ' || c == 0x7f || c == '/' || c == '@' || c == ',') return false;
    }
    return true;
}

// A node's fields, a flat list of names and values; nothing when one has the wrong type. Only a
// master that is online gives an address.
struct Node {
    bool master = false;
    bool online = true;  // a reply without "health" (older servers) is taken as online
    std::optional<RedisAddress> address;
};

std::optional<Node> read_node(const RespValue& fields, bool tls) {
    if (fields.type != RespValue::Type::array || fields.elements.size() % 2 != 0) return std::nullopt;
    Node out;
    std::optional<std::uint16_t> port, tls_port;
    std::string endpoint, ip;
    for (std::size_t i = 0; i < fields.elements.size(); i += 2) {
        const auto& name = fields.elements[i];
        const auto& value = fields.elements[i + 1];
        if (!is_text(name)) return std::nullopt;
        if (name.text == "port" || name.text == "tls-port") {
            const auto p = port_of(value);
            if (!p) return std::nullopt;
            (name.text == "port" ? port : tls_port) = p;
        } else if (name.text == "ip" || name.text == "endpoint" || name.text == "role" || name.text == "health") {
            if (!is_text(value)) return std::nullopt;
            if (name.text == "ip") ip = value.text;
            if (name.text == "endpoint") endpoint = value.text;
            if (name.text == "role") out.master = value.text == "master";
            if (name.text == "health") out.online = value.text == "online";
        }
    }
    const auto chosen_port = tls && tls_port ? tls_port : port;
    const auto& host = valid_host(endpoint) ? endpoint : ip;
    if (chosen_port && valid_host(host)) out.address = RedisAddress{host, *chosen_port};
    return out;
}

// "slots": start, end, start, end... as integers.
bool read_slots(const RespValue& list, ClusterShard& shard) {
    if (list.type != RespValue::Type::array || list.elements.size() % 2 != 0 ||
        list.elements.size() > 2 * static_cast<std::size_t>(kClusterSlots))
        return false;
    for (std::size_t i = 0; i < list.elements.size(); i += 2) {
        const auto& a = list.elements[i];
        const auto& b = list.elements[i + 1];
        if (a.type != RespValue::Type::integer || b.type != RespValue::Type::integer) return false;
        if (a.integer < 0 || b.integer < a.integer || b.integer >= kClusterSlots) return false;
        shard.slots.emplace_back(static_cast<std::uint16_t>(a.integer), static_cast<std::uint16_t>(b.integer));
    }
    return true;
}

std::optional<ClusterShard> read_shard(const RespValue& fields, bool tls) {
    if (fields.type != RespValue::Type::array || fields.elements.size() % 2 != 0) return std::nullopt;
    ClusterShard out;
    bool has_slots = false, has_nodes = false;
    for (std::size_t i = 0; i < fields.elements.size(); i += 2) {
        const auto& name = fields.elements[i];
        const auto& value = fields.elements[i + 1];
        if (!is_text(name)) return std::nullopt;
        if (name.text == "slots") {
            if (has_slots || !read_slots(value, out)) return std::nullopt;
            has_slots = true;
        } else if (name.text == "nodes") {
            if (has_nodes || value.type != RespValue::Type::array || value.elements.size() > kMaxNodesPerShard)
                return std::nullopt;
            has_nodes = true;
            for (const auto& n : value.elements) {
                const auto node = read_node(n, tls);
                if (!node) return std::nullopt;
                if (node->master && node->online && node->address && !out.master) out.master = node->address;
            }
        }
    }
    if (!has_slots || !has_nodes) return std::nullopt;
    return out;
}

}  // namespace

std::optional<std::vector<ClusterShard>> cluster_shards(const RespValue& reply, bool tls) {
    if (reply.type != RespValue::Type::array || reply.elements.size() > kMaxShards) return std::nullopt;
    std::vector<ClusterShard> out;
    for (const auto& s : reply.elements) {
        auto shard = read_shard(s, tls);
        if (!shard) return std::nullopt;
        out.push_back(std::move(*shard));
    }
    return out;
}

std::optional<ClusterRedirect> cluster_redirect(std::string_view error, std::string_view replier) {
    ClusterRedirect out;
    if (error.starts_with("MOVED ")) {
        error.remove_prefix(6);
    } else if (error.starts_with("ASK ")) {
        out.ask = true;
        error.remove_prefix(4);
    } else {
        return std::nullopt;
    }
    const auto space = error.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    const auto digits = error.substr(0, space);
    unsigned slot = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), slot);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || slot >= kClusterSlots)
        return std::nullopt;
    out.slot = static_cast<std::uint16_t>(slot);
    auto address = error.substr(space + 1);
    const auto colon = address.rfind(':');
    if (colon == std::string_view::npos) return std::nullopt;
    const auto port_text = address.substr(colon + 1);
    unsigned port = 0;
    const auto [pend, pec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (port_text.empty() || pec != std::errc() || pend != port_text.data() + port_text.size() || port == 0 ||
        port > 65535)
        return std::nullopt;
    auto host = address.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    if (host.empty()) host = replier;
    if (!valid_host(host)) return std::nullopt;
    out.to = RedisAddress{std::string(host), static_cast<std::uint16_t>(port)};
    return out;
}

}  // namespace mcp::detail
