#include "transport/http/sse_stream.hpp"

#include "transport/http/sse.hpp"

#include <boost/json/serialize.hpp>

#include <charconv>

namespace mcp::detail {

namespace {
constexpr std::string_view kPurpose = "sse-event";
}

std::string seal_event_id(const KeyRing& keys, const EventPosition& p) {
    return keys.seal(kPurpose, p.session_id + '\n' + p.stream_id + '\n' + std::to_string(p.seq));
}

std::optional<EventPosition> open_event_id(const KeyRing& keys, std::string_view id) {
    auto plain = keys.open(kPurpose, id);
    if (!plain) return std::nullopt;
    const auto first = plain->find('\n');
    const auto second = first == std::string::npos ? std::string::npos : plain->find('\n', first + 1);
    if (second == std::string::npos) return std::nullopt;
    EventPosition p{plain->substr(0, first), plain->substr(first + 1, second - first - 1), 0};
    const char* begin = plain->data() + second + 1;
    const char* end = plain->data() + plain->size();
    auto [ptr, ec] = std::from_chars(begin, end, p.seq);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    return p;
}

SseStream::SseStream(std::string session_id, std::string stream_id, EventJournal& journal, const KeyRing& keys,
                     long retry_ms)
    : session_id_(std::move(session_id)),
      stream_id_(std::move(stream_id)),
      journal_key_(session_id_ + '/' + stream_id_),
      journal_(journal),
      keys_(keys),
      retry_ms_(retry_ms) {}

SseStream::~SseStream() { journal_.drop(journal_key_); }

std::string SseStream::event(std::string_view data, std::uint64_t seq) const {
    return sse_event(data, seal_event_id(keys_, {session_id_, stream_id_, seq}));
}

void SseStream::prime() {
    std::lock_guard lock(mutex_);
    if (live_) live_->push(sse_priming(seal_event_id(keys_, {session_id_, stream_id_, 0}), retry_ms_));
}

void SseStream::publish(const boost::json::value& message) {
    std::string data = boost::json::serialize(message);
    std::lock_guard lock(mutex_);
    if (finished_) return;
    const std::uint64_t seq = next_seq_++;
    if (live_ && !live_->push(event(data, seq))) live_.reset();  // gone: the journal still has it
    journal_.append(journal_key_, seq, std::move(data));
}

void SseStream::finish() {
    std::lock_guard lock(mutex_);
    finished_ = true;
    if (live_) live_->finish();
    live_.reset();
}

bool SseStream::finished() {
    std::lock_guard lock(mutex_);
    return finished_;
}

bool SseStream::attach(const std::shared_ptr<Outbox>& outbox, std::uint64_t after_seq) {
    std::lock_guard lock(mutex_);
    if (live_) live_->finish();
    bool complete = true;
    for (auto& e : journal_.after(journal_key_, after_seq, complete)) outbox->push(event(e.data, e.seq));
    if (finished_) {
        outbox->finish();
        live_.reset();
    } else {
        live_ = outbox;
    }
    return complete;
}

void SseStream::attach_live(const std::shared_ptr<Outbox>& outbox) {
    std::lock_guard lock(mutex_);
    if (live_) live_->finish();
    outbox->push(sse_priming(seal_event_id(keys_, {session_id_, stream_id_, next_seq_ - 1}), retry_ms_));
    live_ = outbox;
}

void SseStream::detach_all() {
    std::lock_guard lock(mutex_);
    if (live_) live_->finish();
    live_.reset();
}

bool SseStream::attached() {
    std::lock_guard lock(mutex_);
    return live_ && !live_->detached();
}

}  // namespace mcp::detail
