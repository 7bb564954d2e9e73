// Tasks in Redis (redis_store.hpp lists the keys). Requests a task waits for and the answers it
// got are fields of their own ("i:<key>", "a:<key>"), so no script decodes or re-encodes JSON.
#include "store/redis/redis_keys.hpp"
#include "store/redis/redis_store.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>

#include <charconv>

namespace mcp::detail {

namespace {

// How often a node running tasks says it is alive, and how long the word lasts: a node silent
// for kNodeLease is taken for dead, and its tasks fail when next read.
constexpr std::chrono::milliseconds kHeartbeat{1000};
constexpr std::chrono::milliseconds kNodeLease{5000};

using redis_keys::client_tasks;
using redis_keys::owner_tasks;
std::string key(std::string_view id) { return redis_keys::task(id); }

std::int64_t to_int(const std::string& text) {
    std::int64_t v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
}

// A JSON object from fields "<prefix><key>" whose values are JSON texts.
void add_member(std::string& object, std::string_view member, const std::string& json) {
    object += object.empty() ? "{" : ",";
    object += boost::json::serialize(boost::json::string(member));
    object += ':';
    object += json;
}

std::optional<TaskRecord> parse_record(std::string_view id, const RespValue& hash) {
    if (hash.elements.empty()) return std::nullopt;
    TaskRecord r;
    r.id = id;
    bool has_status = false;
    for (std::size_t i = 0; i + 1 < hash.elements.size(); i += 2) {
        const auto& f = hash.elements[i].text;
        const auto& v = hash.elements[i + 1].text;
        if (f == "owner")
            r.owner = v;
        else if (f == "node")
            r.node = v;
        else if (f == "status") {
            auto s = parse_task_status(v);
            has_status = s.has_value();
            if (s) r.status = *s;
        } else if (f == "msg")
            r.message = v;
        else if (f == "created")
            r.created_ms = to_int(v);
        else if (f == "updated")
            r.updated_ms = to_int(v);
        else if (f == "ttl")
            r.ttl_ms = to_int(v);
        else if (f == "result")
            r.result = v;
        else if (f == "error")
            r.error = v;
        else if (f.starts_with("i:"))
            add_member(r.input_requests, std::string_view(f).substr(2), v);
        else if (f.starts_with("a:"))
            add_member(r.answers, std::string_view(f).substr(2), v);
    }
    if (!has_status) return std::nullopt;
    if (!r.input_requests.empty()) r.input_requests += '}';
    if (!r.answers.empty()) r.answers += '}';
    return r;
}

// Lua: a task that still runs on ARGV[1], a node found silent past its lease, fails, and the
// hash is returned. KEYS[1] task; ARGV[2] the error, ARGV[3] now.
constexpr std::string_view kFailOrphan =
    "local st = redis.call('HGET', KEYS[1], 'status') "
    "if (st == 'working' or st == 'input_required') and redis.call('HGET', KEYS[1], 'node') == ARGV[1] then "
    "  for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do "
    "    if string.sub(f, 1, 2) == 'i:' or string.sub(f, 1, 2) == 'a:' then redis.call('HDEL', KEYS[1], f) end end "
    "  redis.call('HSET', KEYS[1], 'status', 'failed', 'error', ARGV[2], 'updated', ARGV[3]) end "
    "return redis.call('HGETALL', KEYS[1])";

// Appends each member of a JSON object text as a key and its value's JSON text; false when the
// text is no object.
bool append_members(std::vector<std::string>& command, std::string_view object_text) {
    boost::system::error_code ec;
    auto parsed = boost::json::parse(object_text, ec);
    if (ec || !parsed.is_object()) return false;
    for (const auto& kv : parsed.get_object()) {
        command.emplace_back(kv.key());
        command.push_back(boost::json::serialize(kv.value()));
    }
    return true;
}

std::string orphan_error() {
    return boost::json::serialize(boost::json::object{{"code", -32603}, {"message", kNodeLostMessage}});
}

}  // namespace

RedisTaskStore::RedisTaskStore(RedisClient& client, std::string node) : client_(client), node_(std::move(node)) {}

RedisTaskStore::~RedisTaskStore() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (heartbeat_.joinable()) heartbeat_.join();
}

void RedisTaskStore::beat() { client_.command({"SET", redis_keys::node(node_), "1", "PX", redis_ms(kNodeLease)}); }

// The first task this node runs starts its heartbeat; its lease exists before the task does.
void RedisTaskStore::start_heartbeat() {
    std::lock_guard started(mutex_);
    if (heartbeat_.joinable()) return;
    beat();
    heartbeat_ = std::thread([this] {
        std::unique_lock lock(mutex_);
        while (!wake_.wait_for(lock, kHeartbeat, [&] { return stopping_; })) {
            lock.unlock();
            try {
                beat();
            } catch (const StoreUnavailable&) {
                // Tried again next beat; a lease that ran out meanwhile fails this node's tasks.
            }
            lock.lock();
        }
    });
}

bool RedisTaskStore::create(const TaskRecord& r, std::size_t max_per_client) {
    start_heartbeat();
    // Three keys of three slots, in steps: the client's count (--max-tasks) and the owner's list
    // (tasks/list) first, then the task. The owner's list only names candidates, each read from its
    // hash: one whose task was refused or never written is passed over, and both lists drop entries
    // older than a task's time to live.
    static const std::string count =
        "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4]) "
        "if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end "
        "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2]) redis.call('PEXPIRE', KEYS[1], ARGV[5]) return 1";
    static const std::string list =
        "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3]) "
        "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2]) redis.call('PEXPIRE', KEYS[1], ARGV[4]) return 1";
    static const std::string task =
        "redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'node', ARGV[2], 'status', ARGV[3], 'created', ARGV[4], "
        "'updated', ARGV[4], 'ttl', ARGV[5], 'msg', ARGV[6]) "
        "redis.call('PEXPIRE', KEYS[1], ARGV[5]) return 1";
    const auto created = std::to_string(r.created_ms);
    const auto ttl = std::to_string(r.ttl_ms);
    const auto oldest = std::to_string(r.created_ms - r.ttl_ms);
    auto steps = client_.pipeline(
        {{"EVAL", count, "1", client_tasks(r.charged_to), created, r.id, std::to_string(max_per_client), oldest, ttl},
         {"EVAL", list, "1", owner_tasks(r.owner), created, r.id, oldest, ttl}});
    checked(steps[1]);
    if (checked(steps[0]).integer == 0) {
        try {
            client_.command({"ZREM", owner_tasks(r.owner), r.id});
        } catch (const StoreUnavailable&) {
            // A candidate without a task, passed over.
        }
        return false;
    }
    // The client is given the task id once this returns: a replica should have it too.
    auto replies = client_.pipeline_replicated(
        {{"EVAL", task, "1", key(r.id), r.owner, r.node, std::string(to_string(r.status)), created, ttl, r.message}});
    return checked(replies.front()).integer == 1;
}

std::optional<TaskRecord> RedisTaskStore::get(std::string_view id) {
    auto record = parse_record(id, checked(client_.command({"HGETALL", key(id)})));
    if (!record || terminal(record->status) ||
        checked(client_.command({"EXISTS", redis_keys::node(record->node)})).integer == 1)
        return record;
    // Its node is silent: the task fails, unless it changed meanwhile.
    auto reply = client_.pipeline_replicated(
        {{"EVAL", std::string(kFailOrphan), "1", key(id), record->node, orphan_error(), std::to_string(epoch_ms())}});
    return parse_record(id, checked(reply.front()));
}

bool RedisTaskStore::finish(std::string_view id, const TaskEnd& end) {
    // ARGV: status, now, result, error, message; empty ones are not written.
    static const std::string script =
        "local st = redis.call('HGET', KEYS[1], 'status') "
        "if st ~= 'working' and st ~= 'input_required' then return 0 end "
        "for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do "
        "  if string.sub(f, 1, 2) == 'i:' or string.sub(f, 1, 2) == 'a:' then redis.call('HDEL', KEYS[1], f) end end "
        "redis.call('HSET', KEYS[1], 'status', ARGV[1], 'updated', ARGV[2]) "
        "if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'result', ARGV[3]) end "
        "if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'error', ARGV[4]) end "
        "if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'msg', ARGV[5]) end return 1";
    auto replies = client_.pipeline_replicated({{"EVAL", script, "1", key(id), std::string(to_string(end.status)),
                                                 std::to_string(epoch_ms()), end.result, end.error, end.message}});
    return checked(replies.front()).integer == 1;
}

bool RedisTaskStore::await_input(std::string_view id, std::string_view requests) {
    // ARGV: now, then key and request pairs.
    static const std::string script =
        "local st = redis.call('HGET', KEYS[1], 'status') "
        "if st ~= 'working' and st ~= 'input_required' then return 0 end "
        "redis.call('HSET', KEYS[1], 'status', 'input_required', 'updated', ARGV[1]) "
        "for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], 'i:' .. ARGV[i], ARGV[i + 1]) end return 1";
    std::vector<std::string> command{"EVAL", script, "1", key(id), std::to_string(epoch_ms())};
    append_members(command, requests);  // none: the task waits with no request named
    return checked(client_.command(std::move(command))).integer == 1;
}

bool RedisTaskStore::answer(std::string_view id, std::string_view responses) {
    // 1: the last awaited request was answered; 0: others still wait, or nothing applied.
    static const std::string script =
        "if redis.call('HGET', KEYS[1], 'status') ~= 'input_required' then return 0 end "
        "local any = false "
        "for i = 2, #ARGV, 2 do "
        "  if redis.call('HDEL', KEYS[1], 'i:' .. ARGV[i]) == 1 then "
        "    redis.call('HSET', KEYS[1], 'a:' .. ARGV[i], ARGV[i + 1]) any = true end end "
        "if not any then return 0 end "
        "redis.call('HSET', KEYS[1], 'updated', ARGV[1]) "
        "for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do if string.sub(f, 1, 2) == 'i:' then return 0 end end "
        "return 1";
    std::vector<std::string> command{"EVAL", script, "1", key(id), std::to_string(epoch_ms())};
    if (!append_members(command, responses)) return false;
    // The client is told its answer was taken once this returns.
    return checked(client_.pipeline_replicated({std::move(command)}).front()).integer == 1;
}

std::optional<std::string> RedisTaskStore::resume(std::string_view id) {
    // The answers as field/value pairs, or nil when the task ended.
    static const std::string script =
        "local st = redis.call('HGET', KEYS[1], 'status') "
        "if st ~= 'working' and st ~= 'input_required' then return nil end "
        "local out = {} "
        "for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do "
        "  if string.sub(f, 1, 2) == 'a:' then "
        "    table.insert(out, string.sub(f, 3)) table.insert(out, redis.call('HGET', KEYS[1], f)) "
        "    redis.call('HDEL', KEYS[1], f) end end "
        "redis.call('HSET', KEYS[1], 'status', 'working', 'updated', ARGV[1]) return out";
    auto reply = checked(client_.command({"EVAL", script, "1", key(id), std::to_string(epoch_ms())}));
    if (reply.is_nil()) return std::nullopt;
    std::string answers;
    for (std::size_t i = 0; i + 1 < reply.elements.size(); i += 2)
        add_member(answers, reply.elements[i].text, reply.elements[i + 1].text);
    if (!answers.empty()) answers += '}';
    return answers;
}

void RedisTaskStore::set_message(std::string_view id, std::string_view message) {
    static const std::string script =
        "local st = redis.call('HGET', KEYS[1], 'status') "
        "if st == 'working' or st == 'input_required' then redis.call('HSET', KEYS[1], 'msg', ARGV[1], 'updated', "
        "ARGV[2]) end return 0";
    checked(client_.command({"EVAL", script, "1", key(id), std::string(message), std::to_string(epoch_ms())}));
}

std::optional<TaskRecord> RedisTaskStore::cancel(std::string_view id) {
    // A task whose node is silent has failed (get() says so), and stays failed.
    if (!get(id)) return std::nullopt;
    static const std::string script =
        "local st = redis.call('HGET', KEYS[1], 'status') "
        "if st == 'working' or st == 'input_required' then "
        "  for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do "
        "    if string.sub(f, 1, 2) == 'i:' or string.sub(f, 1, 2) == 'a:' then redis.call('HDEL', KEYS[1], f) end end "
        "  redis.call('HSET', KEYS[1], 'status', 'cancelled', 'updated', ARGV[1]) end "
        "return redis.call('HGETALL', KEYS[1])";
    auto replies = client_.pipeline_replicated({{"EVAL", script, "1", key(id), std::to_string(epoch_ms())}});
    return parse_record(id, checked(replies.front()));
}

std::vector<TaskRecord> RedisTaskStore::list(std::string_view owner, std::int64_t after_ms, std::string_view after_id,
                                             std::size_t limit) {
    // Members of one score come in the order of their ids, which the cursor's id continues from.
    auto ids =
        checked(client_.command({"ZRANGE", owner_tasks(owner), std::to_string(std::max<std::int64_t>(after_ms, 0)),
                                 "+inf", "BYSCORE", "WITHSCORES", "LIMIT", "0", std::to_string(limit + 64)}));
    std::vector<std::string> wanted;
    for (std::size_t i = 0; i + 1 < ids.elements.size() && wanted.size() < limit; i += 2) {
        const auto& id = ids.elements[i].text;
        const auto score = to_int(ids.elements[i + 1].text);
        if (score < after_ms || (score == after_ms && id <= after_id)) continue;
        wanted.push_back(id);
    }
    std::vector<TaskRecord> out;
    for (const auto& id : wanted) {
        if (auto r = get(id)) out.push_back(std::move(*r));
    }
    return out;
}

}  // namespace mcp::detail
