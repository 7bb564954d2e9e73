#include "util/fair_share.hpp"

#include <algorithm>
#include <utility>

namespace mcp::detail {

struct FairShare::Entry {
    std::string client;
    std::function<void()> evict;
    std::list<std::shared_ptr<Entry>>::iterator position;  // in its client's list, while held
    bool held = true;
};

struct FairShare::State {
    std::mutex mutex;
    // Each client's holds, least recently used first.
    std::unordered_map<std::string, std::list<std::shared_ptr<Entry>>> by_client;
    std::size_t total = 0;

    // Out of its client's list (mutex held).
    void release_locked(Entry& entry) {
        auto it = by_client.find(entry.client);
        it->second.erase(entry.position);
        if (it->second.empty()) by_client.erase(it);
        entry.held = false;
        --total;
    }
};

FairShare::Hold& FairShare::Hold::operator=(Hold&& other) noexcept {
    if (this != &other) {
        give_back();
        state_ = std::move(other.state_);
        entry_ = std::move(other.entry_);
    }
    return *this;
}

FairShare::Hold::~Hold() { give_back(); }

void FairShare::Hold::give_back() {
    if (!state_) return;
    {
        std::lock_guard lock(state_->mutex);
        if (entry_->held) state_->release_locked(*entry_);
    }
    state_.reset();
    entry_.reset();
}

void FairShare::Hold::touch() {
    if (!state_) return;
    std::lock_guard lock(state_->mutex);
    if (!entry_->held) return;
    auto& list = state_->by_client.at(entry_->client);
    list.splice(list.end(), list, entry_->position);
}

FairShare::FairShare(Bound bound) : bound_(bound), state_(std::make_shared<State>()) {}

std::variant<FairShare::Hold, FairShare::Refusal> FairShare::take(const std::string& client, Limits limits,
                                                                  std::function<void()> evict) {
    auto entry = std::make_shared<Entry>();
    entry->client = client;
    entry->evict = std::move(evict);
    std::shared_ptr<Entry> evicted;
    {
        std::lock_guard lock(state_->mutex);
        const auto mine = state_->by_client.find(client);
        const std::size_t holding = mine == state_->by_client.end() ? 0 : mine->second.size();
        if (!client.empty() && holding >= limits.per_client) {
            report_refusal(bound_, Limit::client, client);
            return Refusal::client_limit;
        }
        if (state_->total >= limits.total) {
            // The client holding the most, and the share of each among those holding any.
            auto heaviest =
                std::max_element(state_->by_client.begin(), state_->by_client.end(),
                                 [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
            const std::size_t clients = state_->by_client.size() + (holding == 0 ? 1 : 0);
            const std::size_t share = (limits.total + clients - 1) / clients;
            if (heaviest == state_->by_client.end() || heaviest->first == client || heaviest->second.size() <= share) {
                report_refusal(bound_, Limit::total, client);
                return Refusal::full;
            }
            evicted = heaviest->second.front();
            state_->release_locked(*evicted);
        }
        auto& list = state_->by_client[client];
        entry->position = list.insert(list.end(), entry);
        ++state_->total;
    }
    Hold hold(state_, std::move(entry));  // given back should the eviction throw
    if (evicted) {
        report_eviction(bound_, evicted->client);
        // Taken out first: the evicted resource's own hold keeps the entry, not what ends it.
        if (auto end = std::exchange(evicted->evict, nullptr)) end();
    }
    return hold;
}

FairShare::Hold FairShare::hold_anyway(const std::string& client, std::function<void()> evict) {
    auto entry = std::make_shared<Entry>();
    entry->client = client;
    entry->evict = std::move(evict);
    std::lock_guard lock(state_->mutex);
    auto& list = state_->by_client[client];
    entry->position = list.insert(list.end(), entry);
    ++state_->total;
    return Hold(state_, std::move(entry));
}

std::size_t FairShare::held() const {
    std::lock_guard lock(state_->mutex);
    return state_->total;
}

std::size_t FairShare::held_by(std::string_view client) const {
    std::lock_guard lock(state_->mutex);
    auto it = state_->by_client.find(std::string(client));
    return it == state_->by_client.end() ? 0 : it->second.size();
}

}  // namespace mcp::detail
