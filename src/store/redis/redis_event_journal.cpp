#include "store/redis/redis_keys.hpp"
#include "store/redis/redis_store.hpp"

namespace mcp::detail {

namespace {
std::string key(std::string_view stream) { return redis_keys::journal(stream); }
}  // namespace

std::string RedisEventJournal::append(std::string_view stream, std::string data) {
    auto replies = client_.pipeline(
        {{"XADD", key(stream), "MAXLEN", "~", std::to_string(limits_.events_per_stream), "*", "d", std::move(data)},
         {"PEXPIRE", key(stream), redis_ms(limits_.ttl)}});
    return checked(replies[0]).text;
}

std::vector<EventJournal::Event> RedisEventJournal::after(std::string_view stream, std::string_view after,
                                                          bool& complete) {
    std::string start = "-";  // all of them, or those after `after` (exclusive)
    if (!after.empty()) start.assign("(").append(after);
    auto reply = checked(client_.command({"XRANGE", key(stream), start, "+"}));
    complete = true;  // trimming is approximate in Redis; a gap is not detected here
    std::vector<Event> out;
    for (auto& entry : reply.elements) {
        if (entry.elements.size() != 2 || entry.elements[1].elements.size() != 2) continue;
        out.push_back(Event{std::move(entry.elements[0].text), std::move(entry.elements[1].elements[1].text)});
    }
    return out;
}

bool RedisEventJournal::exists(std::string_view stream) {
    return checked(client_.command({"EXISTS", key(stream)})).integer == 1;
}

std::string RedisEventJournal::last_id(std::string_view stream) {
    auto reply = checked(client_.command({"XREVRANGE", key(stream), "+", "-", "COUNT", "1"}));
    return reply.elements.empty() ? std::string() : reply.elements[0].elements[0].text;
}

void RedisEventJournal::drop(std::string_view stream) { checked(client_.command({"DEL", key(stream)})); }

}  // namespace mcp::detail
