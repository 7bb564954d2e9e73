#include "sessions/resumable_session.hpp"

#include "sessions/session_state.hpp"
#include "util/random.hpp"

#include <mcp/protocol/errors.hpp>

#include <vector>

namespace mcp::detail {

namespace {

// The finished POST streams kept for a resume, most recent first.
constexpr std::size_t kRecentStreams = 64;

// Messages not tied to a call go out on the standalone (GET) stream.
class StandaloneChannel final : public MessageSink {
public:
    explicit StandaloneChannel(std::weak_ptr<ResumableStream> stream) : stream_(std::move(stream)) {}
    bool send(boost::json::value message) override {
        auto stream = stream_.lock();
        if (!stream) return false;
        stream->publish(message);
        return true;
    }

private:
    std::weak_ptr<ResumableStream> stream_;
};

}  // namespace

ResumableSession::ResumableSession(std::shared_ptr<Session> session, EventJournal& journal, const KeyRing& keys,
                                   StreamWaker* waker)
    : session_(std::move(session)), journal_(journal), keys_(keys), waker_(waker), standalone_(make_stream("get")) {
    SessionState::of(*session_).set_channel(std::make_shared<StandaloneChannel>(standalone_));
}

std::shared_ptr<ResumableStream> ResumableSession::make_stream(std::string stream_id) {
    return std::make_shared<ResumableStream>(session_->id(), std::move(stream_id), journal_, keys_, waker_);
}

std::shared_ptr<ResumableStream> ResumableSession::open_stream() {
    // Random ids: with a shared journal, other nodes open streams of the same session.
    auto stream = make_stream(random_token(9));
    std::lock_guard lock(mutex_);
    streams_.emplace(stream->id(), stream);
    return stream;
}

void ResumableSession::finish(ResumableStream& stream) {
    stream.finish();
    std::lock_guard lock(mutex_);
    if (!streams_.contains(stream.id())) return;  // closed meanwhile
    finished_.push_back(stream.id());
    while (finished_.size() > kRecentStreams) {
        forget(finished_.front(), true);
        finished_.pop_front();
    }
}

// A client has had its chance to resume it.
void ResumableSession::forget(const std::string& stream_id, bool discard) {
    auto it = streams_.find(stream_id);
    if (it == streams_.end()) return;
    try {
        if (discard) it->second->discard();
    } catch (const StoreUnavailable&) {
        // The shared journal expires by itself.
    }
    streams_.erase(it);
}

std::shared_ptr<ResumableStream> ResumableSession::held(std::string_view stream_id) {
    auto it = streams_.find(std::string(stream_id));
    return it == streams_.end() ? nullptr : it->second;
}

std::shared_ptr<ResumableStream> ResumableSession::local_stream(std::string_view stream_id) {
    if (stream_id == "get") return standalone_;
    std::lock_guard lock(mutex_);
    return held(stream_id);
}

void ResumableSession::catch_up_all() {
    std::vector<std::shared_ptr<ResumableStream>> streams{standalone_};
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, stream] : streams_) streams.push_back(stream);
    }
    for (const auto& stream : streams) stream->catch_up();
}

std::shared_ptr<ResumableStream> ResumableSession::find_stream(std::string_view stream_id,
                                                               std::string_view after_event) {
    if (auto stream = local_stream(stream_id)) return stream;
    if (waker_ == nullptr) return nullptr;
    // Opened on another node: its events are in the shared journal.
    if (!after_event.empty() && !journal_.exists(ResumableStream::journal_key(session_->id(), stream_id)))
        return nullptr;
    std::lock_guard lock(mutex_);
    if (auto stream = held(stream_id)) return stream;
    auto stream = make_stream(std::string(stream_id));
    streams_.emplace(stream->id(), stream);
    adopted_.push_back(stream->id());
    while (adopted_.size() > kRecentStreams) {
        forget(adopted_.front(), false);  // its node keeps its journal
        adopted_.pop_front();
    }
    return stream;
}

std::optional<BoundedCount::Place> ResumableSession::lease_get_connection(std::size_t limit) {
    return get_connections_.try_take(limit);
}

void ResumableSession::close(bool discard) {
    session_->close();
    auto end = [discard](ResumableStream& stream) {
        stream.detach_all();
        if (!discard) return;
        try {
            stream.discard();
        } catch (const StoreUnavailable&) {
            // The shared journal expires by itself.
        }
    };
    end(*standalone_);
    std::lock_guard lock(mutex_);
    for (const auto& [id, stream] : streams_) end(*stream);
    streams_.clear();
    finished_.clear();
    adopted_.clear();
}

void ResumableSession::close_standalone() {
    session_->close();
    standalone_->detach_all();
}

}  // namespace mcp::detail
