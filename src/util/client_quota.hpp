#pragma once
// How many of one kind of thing each client has under way (its connections, its GET streams, its
// calls in flight), bounded by a quota per client. Taking a place fails at the quota; a place
// is given back when its holder is destroyed. A client's entry exists only while it holds a place,
// so the table is no larger than what is held. Places may outlive the quota that gave them.
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mcp::detail {

class ClientQuota {
    struct Counts {
        std::mutex mutex;
        std::unordered_map<std::string, std::size_t> held;
    };

public:
    class Place {
    public:
        Place(Place&& other) noexcept = default;
        Place& operator=(Place&& other) noexcept;
        Place(const Place&) = delete;
        Place& operator=(const Place&) = delete;
        ~Place();

    private:
        friend class ClientQuota;
        Place(std::shared_ptr<Counts> counts, std::string client)
            : counts_(std::move(counts)), client_(std::move(client)) {}
        void give_back();
        std::shared_ptr<Counts> counts_;  // null once moved from
        std::string client_;
    };

    // A place for `client`, or nothing when it holds `per_client` already. A client with no key
    // (stdio, in-process: no principal, no address) has no quota: there is no other to share with.
    std::optional<Place> try_take(std::string_view client, std::size_t per_client);
    std::size_t held_by(std::string_view client) const;

private:
    std::shared_ptr<Counts> counts_ = std::make_shared<Counts>();
};

}  // namespace mcp::detail
