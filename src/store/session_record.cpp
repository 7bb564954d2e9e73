#include "store/session_record.hpp"

#include "server/session_impl.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcp::detail {

std::string client_record(Session& session) {
    auto& impl = session.impl();
    boost::json::object record;
    {
        std::lock_guard lock(impl.mutex);
        record["owner"] = impl.owner;
    }
    if (auto client = session.client()) {
        record["v"] = client->protocol_version;
        record["caps"] = client->capabilities;
        record["info"] = {{"name", client->info.name}, {"version", client->info.version}, {"title", client->info.title}};
    }
    return boost::json::serialize(record);
}

bool load_stored_session(Session& session, const StoredSession& stored) {
    if (stored.revision < 0) return false;  // missing or unreadable
    const auto level = parse_log_level(stored.level);
    if (!level) return false;
    boost::system::error_code ec;
    auto parsed = boost::json::parse(stored.client, ec);
    const auto* record = ec ? nullptr : parsed.if_object();
    if (record == nullptr) return false;
    const auto* owner = record->if_contains("owner");
    if (!owner || !owner->is_string()) return false;

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
    auto& impl = session.impl();
    std::lock_guard lock(impl.mutex);
    if (stored.revision <= impl.store_revision) return true;  // nothing newer than what is here
    impl.store_revision = stored.revision;
    impl.owner = owner->get_string();
    impl.log_level.store(*level);
    impl.client = std::move(client);
    impl.subscriptions = {stored.subscriptions.begin(), stored.subscriptions.end()};
    return true;
}

}  // namespace mcp::detail
