#include "sessions/resumable_stream.hpp"

#include "json/text_writer.hpp"

#include <mcp/protocol/errors.hpp>

namespace mcp::detail {

namespace {
constexpr std::string_view kPurpose = "sse-event";
}

std::string seal_event_id(const KeyRing& keys, const EventPosition& p) {
    return keys.seal(kPurpose, p.session_id + '\n' + p.stream_id + '\n' + p.event_id);
}

std::optional<EventPosition> open_event_id(const KeyRing& keys, std::string_view id) {
    auto plain = keys.open(kPurpose, id);
    if (!plain) return std::nullopt;
    const auto first = plain->find('\n');
    const auto second = first == std::string::npos ? std::string::npos : plain->find('\n', first + 1);
    if (second == std::string::npos) return std::nullopt;
    return EventPosition{plain->substr(0, first), plain->substr(first + 1, second - first - 1),
                         plain->substr(second + 1)};
}

std::string ResumableStream::journal_key(std::string_view session_id, std::string_view stream_id) {
    return std::string(session_id) + '/' + std::string(stream_id);
}

ResumableStream::ResumableStream(std::string session_id, std::string stream_id, EventJournal& journal,
                                 const KeyRing& keys, StreamWaker* waker)
    : session_id_(std::move(session_id)),
      stream_id_(std::move(stream_id)),
      journal_key_(journal_key(session_id_, stream_id_)),
      journal_(journal),
      keys_(keys),
      waker_(waker) {}

std::string ResumableStream::sealed(const std::string& event_id) const {
    return seal_event_id(keys_, {session_id_, stream_id_, event_id});
}

void ResumableStream::prime() {
    std::lock_guard lock(mutex_);
    if (live_) live_->prime(sealed(last_delivered_));
}

void ResumableStream::deliver_new() {
    if (!live_) return;
    bool complete = true;
    for (auto& e : journal_.after(journal_key_, last_delivered_, complete)) {
        last_delivered_ = e.id;
        if (e.data.empty()) {  // the end marker
            finished_ = true;
            live_->finish();
            live_.reset();
            return;
        }
        if (!live_->event(e.data, sealed(e.id))) {
            live_.reset();  // gone: the journal keeps the rest for a resume
            return;
        }
    }
}

void ResumableStream::publish(const boost::json::value& message) { publish_text(json_text(message)); }

void ResumableStream::publish_text(const std::string& data) {
    bool wake_others = false;
    {
        std::lock_guard lock(mutex_);
        if (finished_ || discarded_) return;
        std::string id;
        try {
            id = journal_.append(journal_key_, data);
        } catch (const StoreUnavailable&) {
            if (live_ && !live_->event(data, sealed(last_delivered_))) live_.reset();
            return;
        }
        if (!waker_) {
            // One node: this stream's ids are consecutive, nothing can have come in between.
            if (live_ && live_->event(data, sealed(id)))
                last_delivered_ = id;
            else
                live_.reset();
        } else if (live_here()) {
            // Other nodes may have added events too: deliver in journal order.
            try {
                deliver_new();
            } catch (const StoreUnavailable&) {
                // Journaled: the next event or a catch-up delivers it.
            }
        } else {
            live_.reset();
            wake_others = true;  // the connection, if any, is on another node
        }
    }
    if (wake_others) waker_->wake(session_id_, stream_id_);
}

void ResumableStream::finish() {
    bool wake_others = false;
    {
        std::lock_guard lock(mutex_);
        if (finished_) return;
        finished_ = true;
        try {
            // The end marker, for connections resumed elsewhere.
            if (!discarded_) journal_.append(journal_key_, {});
        } catch (const StoreUnavailable&) {
            // A connection resumed elsewhere ends when the journal expires.
        }
        wake_others = waker_ != nullptr && !live_here();
        if (live_) live_->finish();
        live_.reset();
    }
    if (wake_others) waker_->wake(session_id_, stream_id_);
}

bool ResumableStream::finished() {
    std::lock_guard lock(mutex_);
    return finished_;
}

void ResumableStream::attach(const std::shared_ptr<StreamConnection>& connection, const std::string& after_event) {
    std::lock_guard lock(mutex_);
    if (live_) live_->finish();
    live_ = connection;
    last_delivered_ = after_event;
    try {
        deliver_new();
    } catch (const StoreUnavailable&) {
        live_.reset();
        throw;
    }
    if (finished_ && live_) {  // ended before any end marker was seen here (a local finish)
        live_->finish();
        live_.reset();
    }
}

void ResumableStream::attach_live(const std::shared_ptr<StreamConnection>& connection) {
    std::lock_guard lock(mutex_);
    auto last = journal_.last_id(journal_key_);  // may throw StoreUnavailable: nothing changed yet
    if (live_) live_->finish();
    last_delivered_ = std::move(last);
    connection->prime(sealed(last_delivered_));
    live_ = connection;
}

void ResumableStream::detach_all() {
    std::lock_guard lock(mutex_);
    if (live_) live_->finish();
    live_.reset();
}

bool ResumableStream::attached() {
    std::lock_guard lock(mutex_);
    return live_here();
}

void ResumableStream::catch_up() {
    std::lock_guard lock(mutex_);
    deliver_new();
}

void ResumableStream::discard() {
    std::lock_guard lock(mutex_);  // a publish or finish under way journals before the drop, or not at all
    discarded_ = true;
    journal_.drop(journal_key_);
}

}  // namespace mcp::detail
