#include "store/redis/redis_store.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <charconv>

namespace mcp::detail {

namespace {

constexpr std::string_view kSubscribersPrefix = "mcp:sub:";
constexpr std::string_view kClientPrefix = "mcp:cs:";
std::string key(std::string_view id) { return "mcp:s:" + std::string(id); }
std::string client_key_of(std::string_view client) { return std::string(kClientPrefix) + std::string(client); }
std::string subscriptions_key(std::string_view id) { return "mcp:ss:" + std::string(id); }
std::string subscribers_key(std::string_view uri) { return std::string(kSubscribersPrefix) + std::string(uri); }

// The hash's "client" field: the owner and what initialize settled, as JSON.
std::string client_field(const SessionRecord& record) {
    boost::json::object out;
    out["owner"] = record.owner;
    if (const auto& client = record.client) {
        out["v"] = client->protocol_version;
        out["caps"] = client->capabilities;
        out["info"] = {{"name", client->info.name}, {"version", client->info.version}, {"title", client->info.title}};
    }
    return boost::json::serialize(out);
}

std::string string_field(const boost::json::object& o, std::string_view k) {
    const auto* f = o.if_contains(k);
    return f && f->is_string() ? std::string(f->get_string()) : std::string();
}

// Reads the "client" field into `record`; false when it is malformed. Fields of the wrong type
// inside an otherwise usable record are ignored.
bool read_client_field(std::string_view text, SessionRecord& record) {
    boost::system::error_code ec;
    auto parsed = boost::json::parse(text, ec);
    const auto* o = ec ? nullptr : parsed.if_object();
    if (o == nullptr) return false;
    const auto* owner = o->if_contains("owner");
    if (!owner || !owner->is_string()) return false;
    record.owner = owner->get_string();
    const auto* v = o->if_contains("v");
    if (!v || !v->is_string()) return true;
    auto client = std::make_shared<ClientState>();
    client->protocol_version = v->get_string();
    if (const auto* caps = o->if_contains("caps"); caps && caps->is_object()) client->capabilities = caps->get_object();
    if (const auto* info = o->if_contains("info"); info && info->is_object()) {
        client->info.name = string_field(info->get_object(), "name");
        client->info.version = string_field(info->get_object(), "version");
        client->info.title = string_field(info->get_object(), "title");
    }
    record.client = std::move(client);
    return true;
}

// Nothing when the session does not exist or its record is malformed (no valid revision, level
// or client field).
std::optional<SessionRecord> parse(std::string_view id, const RespValue& hash, const RespValue& subscriptions) {
    if (hash.elements.empty()) return std::nullopt;
    SessionRecord record;
    record.id = id;
    bool has_revision = false, has_level = false, has_client = false;
    for (std::size_t i = 0; i + 1 < hash.elements.size(); i += 2) {
        const auto& field = hash.elements[i].text;
        const auto& value = hash.elements[i + 1].text;
        if (field == "rev") {
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), record.revision);
            has_revision = ec == std::errc() && end == value.data() + value.size() && record.revision >= 0;
        } else if (field == "level") {
            const auto level = parse_log_level(value);
            has_level = level.has_value();
            if (level) record.level = *level;
        } else if (field == "client") {
            has_client = read_client_field(value, record);
        } else if (field == "q") {
            record.charged_to = value;
        }
    }
    if (!has_revision || !has_level || !has_client) return std::nullopt;
    for (const auto& uri : subscriptions.elements) record.subscriptions.push_back(uri.text);
    return record;
}

}  // namespace

// The milliseconds of Redis's clock, in a script: the nodes' clocks may disagree with it and
// with each other, so scores that are times come from one place.
constexpr std::string_view kNowMs = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000) ";

SessionRecords::Insert RedisSessionRecords::insert(const SessionRecord& record, std::size_t max_per_client) {
    // The client's sessions are scored by when they expire: those gone are dropped before counting,
    // so a count costs no walk over them.
    static const std::string script =
        std::string(kNowMs) +
        "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end "
        "redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now) "
        "if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return -1 end "
        "redis.call('HSET', KEYS[1], 'rev', 0, 'level', ARGV[1], 'client', ARGV[2], 'q', ARGV[4]) "
        "redis.call('PEXPIRE', KEYS[1], ARGV[3]) "
        "redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[6]) "
        "if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end "
        "return 1";
    // The client is given the session id once this returns: a replica should have it too.
    auto replies = client_.pipeline_replicated(
        {{"EVAL", script, "2", key(record.id), client_key_of(record.charged_to), std::string(to_string(record.level)),
          client_field(record), redis_ms(half_open_ttl_), record.charged_to, std::to_string(max_per_client),
          record.id}});
    const auto result = checked(replies.front()).integer;
    return result == 1 ? Insert::inserted : result == 0 ? Insert::id_taken : Insert::client_full;
}

std::optional<SessionRecord> RedisSessionRecords::load(std::string_view id, bool touch) {
    // A touch restarts the session's time to live, and moves its expiry in its client's count (whose
    // expired members go then, so that a client keeping one session alive keeps no dead ones).
    static const std::string script =
        "local h = redis.call('HGETALL', KEYS[1]) local s = redis.call('SMEMBERS', KEYS[2]) "
        "if ARGV[1] == '1' and #h > 0 then " +
        std::string(kNowMs) +
        "redis.call('PEXPIRE', KEYS[1], ARGV[2]) redis.call('PEXPIRE', KEYS[2], ARGV[2]) "
        "local q = redis.call('HGET', KEYS[1], 'q') "
        "if q then "
        "redis.call('ZREMRANGEBYSCORE', ARGV[3] .. q, '-inf', now) "
        "redis.call('ZADD', ARGV[3] .. q, 'XX', now + tonumber(ARGV[2]), ARGV[4]) "
        "redis.call('PEXPIRE', ARGV[3] .. q, ARGV[2]) "
        "end end "
        "return {h, s}";
    const auto reply = checked(client_.command({"EVAL", script, "2", key(id), subscriptions_key(id), touch ? "1" : "0",
                                                redis_ms(ttl_), std::string(kClientPrefix), std::string(id)}));
    if (reply.elements.size() != 2) return std::nullopt;
    auto record = parse(id, checked(reply.elements[0]), checked(reply.elements[1]));
    if (!record || !touch || record->subscriptions.empty()) return record;
    // The subscriber sets live as long as their sessions.
    std::vector<std::vector<std::string>> refresh;
    for (const auto& uri : record->subscriptions) refresh.push_back({"PEXPIRE", subscribers_key(uri), redis_ms(ttl_)});
    client_.pipeline(refresh);
    return record;
}

bool RedisSessionRecords::remove(std::string_view id) {
    static const std::string script =
        "if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end "
        "for _, uri in ipairs(redis.call('SMEMBERS', KEYS[2])) do redis.call('SREM', ARGV[2] .. uri, ARGV[1]) end "
        "local q = redis.call('HGET', KEYS[1], 'q') "
        "if q then redis.call('ZREM', ARGV[3] .. q, ARGV[1]) end "
        "redis.call('DEL', KEYS[1], KEYS[2]) return 1";
    auto reply = checked(client_.command({"EVAL", script, "2", key(id), subscriptions_key(id), std::string(id),
                                          std::string(kSubscribersPrefix), std::string(kClientPrefix)}));
    return reply.integer == 1;
}

std::int64_t RedisSessionRecords::apply(std::string_view id, const SessionChange& change) {
    // Each script changes a session that still exists and returns the new revision, -1 when it is gone.
    static const std::string set_level =
        "if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
        "redis.call('HSET', KEYS[1], 'level', ARGV[1]) return redis.call('HINCRBY', KEYS[1], 'rev', 1)";
    static const std::string subscribe =
        "if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
        "redis.call('SADD', KEYS[2], ARGV[1]) redis.call('PEXPIRE', KEYS[2], ARGV[3]) "
        "redis.call('SADD', KEYS[3], ARGV[2]) redis.call('PEXPIRE', KEYS[3], ARGV[3]) "
        "return redis.call('HINCRBY', KEYS[1], 'rev', 1)";
    static const std::string unsubscribe =
        "if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
        "redis.call('SREM', KEYS[2], ARGV[1]) redis.call('SREM', KEYS[3], ARGV[2]) "
        "return redis.call('HINCRBY', KEYS[1], 'rev', 1)";
    if (change.kind == SessionChange::Kind::log_level) {
        return checked(client_.command({"EVAL", set_level, "1", key(id), std::string(to_string(change.level))}))
            .integer;
    }
    const auto& script = change.kind == SessionChange::Kind::subscribe ? subscribe : unsubscribe;
    return checked(client_.command({"EVAL", script, "3", key(id), subscriptions_key(id), subscribers_key(change.uri),
                                    change.uri, std::string(id), redis_ms(ttl_)}))
        .integer;
}

std::vector<bool> RedisSessionRecords::exist(const std::vector<std::string>& ids) {
    if (ids.empty()) return {};
    std::vector<std::vector<std::string>> commands;
    commands.reserve(ids.size());
    for (const auto& id : ids) commands.push_back({"EXISTS", key(id)});
    auto replies = client_.pipeline(commands);
    std::vector<bool> out;
    out.reserve(replies.size());
    for (const auto& reply : replies) out.push_back(checked(reply).integer != 0);
    return out;
}

std::vector<std::string> RedisSessionRecords::subscribers(std::string_view uri) {
    // Sessions that expired are dropped from the set here: nothing else removes them.
    static const std::string script =
        "local out = {} "
        "for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do "
        "if redis.call('EXISTS', ARGV[1] .. id) == 1 then out[#out + 1] = id else redis.call('SREM', KEYS[1], id) end "
        "end return out";
    auto reply = checked(client_.command({"EVAL", script, "1", subscribers_key(uri), "mcp:s:"}));
    std::vector<std::string> out;
    for (auto& e : reply.elements) out.push_back(std::move(e.text));
    return out;
}

}  // namespace mcp::detail
