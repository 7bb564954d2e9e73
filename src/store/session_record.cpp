#include "store/session_record.hpp"

#include "server/session_impl.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcp::detail {

std::string session_record(Session& session, std::int64_t revision) {
    auto& impl = session.impl();
    boost::json::object record{{"rev", revision}, {"owner", impl.owner}, {"level", to_string(session.log_level())}};
    if (auto client = session.client()) {
        record["v"] = client->protocol_version;
        record["caps"] = client->capabilities;
        record["info"] = {{"name", client->info.name}, {"version", client->info.version}, {"title", client->info.title}};
    }
    boost::json::array subscriptions;
    {
        std::lock_guard lock(impl.mutex);
        impl.store_revision = revision;
        for (const auto& uri : impl.subscriptions) subscriptions.emplace_back(uri);
    }
    record["subs"] = std::move(subscriptions);
    return boost::json::serialize(record);
}

bool apply_session_record(Session& session, std::string_view text) {
    boost::system::error_code ec;
    auto parsed = boost::json::parse(text, ec);
    const auto* record = ec ? nullptr : parsed.if_object();
    if (record == nullptr) return false;
    auto& impl = session.impl();
    const auto* owner = record->if_contains("owner");
    const auto* level = record->if_contains("level");
    const auto* subs = record->if_contains("subs");
    if (!owner || !owner->is_string() || !level || !level->is_string() || !subs || !subs->is_array()) return false;
    const auto parsed_level = parse_log_level(level->get_string());
    if (!parsed_level) return false;
    const auto* rev = record->if_contains("rev");
    if (!rev || !rev->is_int64()) return false;
    std::shared_ptr<ClientState> client;
    if (const auto* v = record->if_contains("v"); v && v->is_string()) {
        client = std::make_shared<ClientState>();
        client->protocol_version = v->get_string();
        if (const auto* caps = record->if_contains("caps"); caps && caps->is_object()) client->capabilities = caps->get_object();
        if (const auto* info = record->if_contains("info"); info && info->is_object()) {
            const auto& i = info->get_object();
            auto field = [&](const char* k) {
                const auto* f = i.if_contains(k);
                return f && f->is_string() ? std::string(f->get_string()) : std::string();
            };
            client->info.name = field("name");
            client->info.version = field("version");
            client->info.title = field("title");
        }
    }
    std::lock_guard lock(impl.mutex);
    if (rev->get_int64() <= impl.store_revision) return true;  // nothing newer than what is here
    impl.store_revision = rev->get_int64();
    impl.owner = owner->get_string();
    impl.log_level.store(*parsed_level);
    impl.client = std::move(client);
    impl.subscriptions.clear();
    for (const auto& uri : subs->get_array()) {
        if (uri.is_string()) impl.subscriptions.emplace(uri.get_string());
    }
    return true;
}

std::int64_t session_record_revision(std::string_view text) {
    boost::system::error_code ec;
    auto parsed = boost::json::parse(text, ec);
    const auto* record = ec ? nullptr : parsed.if_object();
    const auto* rev = record ? record->if_contains("rev") : nullptr;
    return rev && rev->is_int64() ? rev->get_int64() : -1;
}

}  // namespace mcp::detail
