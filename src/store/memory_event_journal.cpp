#include "store/event_journal.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <list>
#include <mutex>
#include <unordered_map>

namespace mcp::detail {

namespace {

// A stream written again after it was dropped must not reuse its old ids (a client resuming from
// one would skip the new events): ids come from one counter for the whole journal, so each stream's
// are increasing and never reused.
class MemoryEventJournal final : public EventJournal {
public:
    MemoryEventJournal(std::size_t max_events, std::size_t max_bytes, std::size_t max_streams)
        : max_events_(max_events), max_bytes_(max_bytes), max_streams_(max_streams) {}

    std::string append(std::string_view stream, std::string data) override {
        std::lock_guard lock(mutex_);
        Stream& s = touch(stream);
        const std::uint64_t seq = ++last_seq_;
        s.last = seq;
        s.bytes += data.size();
        s.events.push_back(Stored{seq, std::move(data)});
        std::size_t drop = 0;
        for (std::size_t kept = s.events.size(); drop < s.events.size() && (kept > max_events_ || s.bytes > max_bytes_);
             ++drop, --kept) {
            s.bytes -= s.events[drop].data.size();
            s.dropped_up_to = s.events[drop].seq;
        }
        s.events.erase(s.events.begin(), s.events.begin() + static_cast<std::ptrdiff_t>(drop));
        return std::to_string(seq);
    }

    std::vector<Event> after(std::string_view stream, std::string_view after_id, bool& complete) override {
        std::uint64_t after_seq = 0;
        if (!after_id.empty()) {
            auto [end, ec] = std::from_chars(after_id.data(), after_id.data() + after_id.size(), after_seq);
            if (ec != std::errc() || end != after_id.data() + after_id.size()) {
                complete = false;
                return {};
            }
        }
        std::lock_guard lock(mutex_);
        std::vector<Event> out;
        auto it = streams_.find(std::string(stream));
        complete = true;
        if (it == streams_.end()) return out;
        const Stream& s = it->second;
        complete = s.dropped_up_to <= after_seq;
        auto first = std::upper_bound(s.events.begin(), s.events.end(), after_seq,
                                      [](std::uint64_t seq, const Stored& e) { return seq < e.seq; });
        for (; first != s.events.end(); ++first) out.push_back(Event{std::to_string(first->seq), first->data});
        return out;
    }

    std::string last_id(std::string_view stream) override {
        std::lock_guard lock(mutex_);
        auto it = streams_.find(std::string(stream));
        return it == streams_.end() || it->second.last == 0 ? std::string() : std::to_string(it->second.last);
    }

    bool exists(std::string_view stream) override {
        std::lock_guard lock(mutex_);
        return streams_.contains(std::string(stream));
    }

    void drop(std::string_view stream) override {
        std::lock_guard lock(mutex_);
        auto it = streams_.find(std::string(stream));
        if (it == streams_.end()) return;
        order_.erase(it->second.position);
        streams_.erase(it);
    }

private:
    struct Stored {
        std::uint64_t seq;
        std::string data;
    };
    struct Stream {
        std::vector<Stored> events;  // most streams hold one or two: a vector costs least
        std::uint64_t last = 0;
        std::size_t bytes = 0;
        std::uint64_t dropped_up_to = 0;  // highest sequence number no longer retained
        std::list<std::string>::iterator position;
    };

    // The stream, moved to the most recently written end; creating one may drop the oldest.
    Stream& touch(std::string_view name) {
        auto it = streams_.find(std::string(name));
        if (it != streams_.end()) {
            order_.splice(order_.end(), order_, it->second.position);
            return it->second;
        }
        if (streams_.size() >= max_streams_ && !order_.empty()) {
            streams_.erase(order_.front());
            order_.pop_front();
        }
        order_.emplace_back(name);
        auto& s = streams_[std::string(name)];
        s.position = std::prev(order_.end());
        return s;
    }

    const std::size_t max_events_;
    const std::size_t max_bytes_;
    const std::size_t max_streams_;
    std::mutex mutex_;
    std::uint64_t last_seq_ = 0;
    std::unordered_map<std::string, Stream> streams_;
    std::list<std::string> order_;
};

}  // namespace

std::unique_ptr<EventJournal> make_memory_event_journal(std::size_t max_events, std::size_t max_bytes,
                                                        std::size_t max_streams) {
    return std::make_unique<MemoryEventJournal>(max_events, max_bytes, max_streams);
}

}  // namespace mcp::detail
