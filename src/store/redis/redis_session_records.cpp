#include "store/redis/redis_keys.hpp"
#include "store/redis/redis_store.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <charconv>

namespace mcp::detail {

namespace {

using redis_keys::client_sessions;
using redis_keys::session;
using redis_keys::session_subscriptions;
// (not `subscribers`: a member of RedisSessionRecords has that name)
std::string subscribers_key(std::string_view uri) { return redis_keys::subscribers(uri); }

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

// Best effort: a candidate left behind is passed over when read.
void forget_candidate(RedisClient& client, const std::string& index, std::string_view id) {
    try {
        client.command({"SREM", index, std::string(id)});
    } catch (const StoreUnavailable&) {}
}

}  // namespace

// The milliseconds of Redis's clock, in a script: the nodes' clocks may disagree with it and
// with each other, so scores that are times come from one place.
constexpr std::string_view kNowMs = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000) ";

SessionRecords::Insert RedisSessionRecords::insert(const SessionRecord& record, std::size_t max_per_client) {
    // Two steps, each on one key's slot: the record if the id is free, then its place in the client's
    // quota. A record whose second step failed or found the quota full is removed again, or expires
    // unused after the half-open time: the client was never given its id.
    static const std::string create =
        "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end "
        "redis.call('HSET', KEYS[1], 'rev', 0, 'level', ARGV[1], 'client', ARGV[2], 'q', ARGV[4]) "
        "redis.call('PEXPIRE', KEYS[1], ARGV[3]) return 1";
    // The client's sessions are scored by when they expire: those gone are dropped before counting,
    // so a count costs no walk over them.
    static const std::string count =
        std::string(kNowMs) +
        "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now) "
        "if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end "
        "redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3]) "
        "if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end "
        "return 1";
    const auto ttl = redis_ms(half_open_ttl_);
    // The client is given the session id once this returns: a replica should have it too.
    auto created =
        client_.pipeline_replicated({{"EVAL", create, "1", session(record.id), std::string(to_string(record.level)),
                                      client_field(record), ttl, record.charged_to}});
    if (checked(created.front()).integer == 0) return Insert::id_taken;
    const auto counted = checked(client_.command(
        {"EVAL", count, "1", client_sessions(record.charged_to), ttl, std::to_string(max_per_client), record.id}));
    if (counted.integer == 1) return Insert::inserted;
    client_.command({"DEL", session(record.id)});
    return Insert::client_full;
}

std::optional<SessionRecord> RedisSessionRecords::load(std::string_view id, bool touch) {
    static const std::string script =
        "local h = redis.call('HGETALL', KEYS[1]) local s = redis.call('SMEMBERS', KEYS[2]) "
        "if ARGV[1] == '1' and #h > 0 then "
        "redis.call('PEXPIRE', KEYS[1], ARGV[2]) redis.call('PEXPIRE', KEYS[2], ARGV[2]) end "
        "return {h, s}";
    const auto reply = checked(client_.command(
        {"EVAL", script, "2", session(id), session_subscriptions(id), touch ? "1" : "0", redis_ms(ttl_)}));
    if (reply.elements.size() != 2) return std::nullopt;
    auto record = parse(id, checked(reply.elements[0]), checked(reply.elements[1]));
    if (!record || !touch || !index_refresh_due(id)) return record;
    // A touch moves the session's expiry in its client's count (whose expired members go then, so
    // that a client keeping one session alive keeps no dead ones); the subscriber sets live as long
    // as their sessions. Both at most once per refresh interval per session and node, set to outlive
    // the session by that interval: between refreshes the count holds the session a little longer
    // than it lives, never shorter.
    static const std::string recount = std::string(kNowMs) +
                                       "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now) "
                                       "redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2]) "
                                       "redis.call('PEXPIRE', KEYS[1], ARGV[1]) return 0";
    const auto outliving = redis_ms(ttl_ + refresh_interval());
    std::vector<std::vector<std::string>> refresh{
        {"EVAL", recount, "1", client_sessions(record->charged_to), outliving, std::string(id)}};
    for (const auto& uri : record->subscriptions) refresh.push_back({"PEXPIRE", subscribers_key(uri), outliving});
    client_.pipeline(refresh);
    return record;
}

std::chrono::milliseconds RedisSessionRecords::refresh_interval() const { return ttl_ / 4; }

bool RedisSessionRecords::index_refresh_due(std::string_view id) {
    const auto now = std::chrono::steady_clock::now();
    const auto interval = refresh_interval();
    std::lock_guard lock(refreshed_mutex_);
    // Entries older than the interval would be refreshed anyway: dropping them keeps the map to the
    // sessions this node touched lately.
    if (now - last_sweep_ > interval) {
        std::erase_if(refreshed_, [&](const auto& entry) { return now - entry.second >= interval; });
        last_sweep_ = now;
    }
    auto [it, added] = refreshed_.try_emplace(std::string(id), now);
    if (!added && now - it->second < interval) return false;
    it->second = now;
    return true;
}

bool RedisSessionRecords::remove(std::string_view id) {
    // The record and its subscriptions go at once; the indexes that name the session after, each
    // on its own: one left behind names a session that no longer exists, which readers skip (and
    // subscribers() drops), and a quota entry expires by its score.
    static const std::string script =
        "if redis.call('EXISTS', KEYS[1]) == 0 then return nil end "
        "local out = {redis.call('HGET', KEYS[1], 'q') or ''} "
        "for _, uri in ipairs(redis.call('SMEMBERS', KEYS[2])) do out[#out + 1] = uri end "
        "redis.call('DEL', KEYS[1], KEYS[2]) return out";
    {
        std::lock_guard lock(refreshed_mutex_);
        refreshed_.erase(std::string(id));
    }
    auto reply = checked(client_.command({"EVAL", script, "2", session(id), session_subscriptions(id)}));
    if (reply.elements.empty()) return false;
    std::vector<std::vector<std::string>> indexes;
    indexes.push_back({"ZREM", client_sessions(reply.elements[0].text), std::string(id)});
    for (std::size_t i = 1; i < reply.elements.size(); ++i)
        indexes.push_back({"SREM", subscribers_key(reply.elements[i].text), std::string(id)});
    try {
        client_.pipeline(indexes);
    } catch (const StoreUnavailable&) {
        // Harmless, as above.
    }
    return true;
}

std::int64_t RedisSessionRecords::apply(std::string_view id, const SessionChange& change) {
    // Each script changes a session that still exists and returns the new revision, -1 when it is gone.
    static const std::string set_level =
        "if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
        "redis.call('HSET', KEYS[1], 'level', ARGV[1]) return redis.call('HINCRBY', KEYS[1], 'rev', 1)";
    static const std::string subscribe =
        "if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
        "redis.call('SADD', KEYS[2], ARGV[1]) redis.call('PEXPIRE', KEYS[2], ARGV[2]) "
        "return redis.call('HINCRBY', KEYS[1], 'rev', 1)";
    static const std::string unsubscribe =
        "if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end "
        "redis.call('SREM', KEYS[2], ARGV[1]) "
        "return redis.call('HINCRBY', KEYS[1], 'rev', 1)";
    if (change.kind == SessionChange::Kind::log_level) {
        return checked(client_.command({"EVAL", set_level, "1", session(id), std::string(to_string(change.level))}))
            .integer;
    }
    // The session's own set says what it is subscribed to; the URI's set only names candidates. So
    // a subscription enters the URI's set before the session's, and leaves it after: a step that
    // fails between them leaves a candidate that subscribers() passes over.
    const auto index = subscribers_key(change.uri);
    const std::vector<std::string> own{"EVAL",
                                       change.kind == SessionChange::Kind::subscribe ? subscribe : unsubscribe,
                                       "2",
                                       session(id),
                                       session_subscriptions(id),
                                       change.uri,
                                       redis_ms(ttl_)};
    if (change.kind == SessionChange::Kind::subscribe) {
        for (const auto& reply : client_.pipeline(
                 {{"SADD", index, std::string(id)}, {"PEXPIRE", index, redis_ms(ttl_ + refresh_interval())}}))
            checked(reply);
        const auto revision = checked(client_.command(own)).integer;
        if (revision < 0) forget_candidate(client_, index, id);
        return revision;
    }
    const auto revision = checked(client_.command(own)).integer;
    forget_candidate(client_, index, id);
    return revision;
}

std::vector<bool> RedisSessionRecords::exist(const std::vector<std::string>& ids) {
    if (ids.empty()) return {};
    std::vector<std::vector<std::string>> commands;
    commands.reserve(ids.size());
    for (const auto& id : ids) commands.push_back({"EXISTS", session(id)});
    auto replies = client_.pipeline(commands);
    std::vector<bool> out;
    out.reserve(replies.size());
    for (const auto& reply : replies) out.push_back(checked(reply).integer != 0);
    return out;
}

std::vector<std::string> RedisSessionRecords::subscribers(std::string_view uri) {
    // Candidates from the URI's set, each checked against its session: one whose session is gone is
    // dropped from the set (nothing else removes it); one whose session exists but is not (or not
    // yet) subscribed is passed over and kept, since its subscription may be on its way.
    const auto index = subscribers_key(uri);
    auto candidates = checked(client_.command({"SMEMBERS", index}));
    if (candidates.elements.empty()) return {};
    std::vector<std::vector<std::string>> checks;
    for (const auto& id : candidates.elements) {
        checks.push_back({"EXISTS", session(id.text)});
        checks.push_back({"SISMEMBER", session_subscriptions(id.text), std::string(uri)});
    }
    const auto replies = client_.pipeline(checks);
    std::vector<std::string> out;
    std::vector<std::string> gone{"SREM", index};
    for (std::size_t i = 0; i < candidates.elements.size(); ++i) {
        if (checked(replies[2 * i]).integer == 0)
            gone.push_back(std::move(candidates.elements[i].text));
        else if (checked(replies[2 * i + 1]).integer == 1)
            out.push_back(std::move(candidates.elements[i].text));
    }
    if (gone.size() > 2) client_.command(std::move(gone));
    return out;
}

}  // namespace mcp::detail
