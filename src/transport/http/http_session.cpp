#include "transport/http/http_session.hpp"

#include "util/random.hpp"

namespace mcp::detail {

namespace {

constexpr std::size_t kRecentStreams = 64;

// Messages not tied to a call go out on the standalone (GET) stream.
class StandaloneChannel final : public MessageSink {
public:
    explicit StandaloneChannel(std::weak_ptr<SseStream> stream) : stream_(std::move(stream)) {}
    bool send(boost::json::value message) override {
        auto stream = stream_.lock();
        if (!stream) return false;
        stream->publish(message);
        return true;
    }

private:
    std::weak_ptr<SseStream> stream_;
};

}  // namespace

HttpSession::HttpSession(std::shared_ptr<Session> session, EventJournal& journal, const KeyRing& keys,
                         const HttpOptions& options)
    : session_(std::move(session)),
      journal_(journal),
      keys_(keys),
      options_(options),
      standalone_(std::make_shared<SseStream>(session_->id(), "get", journal, keys, options.sse_retry.count(), nullptr)) {
    session_->set_channel(std::make_shared<StandaloneChannel>(standalone_));
}

std::shared_ptr<SseStream> HttpSession::open_stream() {
    std::lock_guard lock(mutex_);
    const std::uint64_t n = next_stream_++;
    auto stream = std::make_shared<SseStream>(session_->id(), std::to_string(n), journal_, keys_, options_.sse_retry.count(), nullptr);
    streams_.emplace(n, stream);
    // Forget the oldest finished streams; a client has had its chance to resume them.
    for (auto it = streams_.begin(); streams_.size() > kRecentStreams && it != streams_.end();) {
        if (!it->second->finished()) {
            ++it;
            continue;
        }
        it->second->discard();
        it = streams_.erase(it);
    }
    return stream;
}

std::shared_ptr<SseStream> HttpSession::find_stream(std::string_view stream_id) {
    if (stream_id == "get") return standalone_;
    std::lock_guard lock(mutex_);
    for (const auto& [n, stream] : streams_) {
        if (stream->id() == stream_id) return stream;
    }
    return nullptr;
}

std::size_t HttpSession::attached_streams() {
    std::lock_guard lock(mutex_);
    std::size_t n = standalone_->attached() ? 1 : 0;
    for (const auto& [id, stream] : streams_) n += stream->attached() ? 1 : 0;
    return n;
}

void HttpSession::close() {
    session_->close();
    standalone_->detach_all();
    standalone_->discard();
    std::lock_guard lock(mutex_);
    for (const auto& [id, stream] : streams_) {
        stream->detach_all();
        stream->discard();
    }
    streams_.clear();
}

HttpSessions::HttpSessions(Server& server, const HttpOptions& options, EventJournal& journal)
    : server_(server),
      options_(options),
      journal_(journal),
      store_(make_memory_session_store(options.max_sessions, options.session_idle_timeout)) {}

std::shared_ptr<HttpSession> HttpSessions::create() {
    // 144 random bits, visible ASCII, as the spec requires of session ids.
    return std::make_shared<HttpSession>(server_.open_session(nullptr, random_token()), journal_, server_.key_ring(),
                                         options_);
}

bool HttpSessions::full() const { return store_->size() >= options_.max_sessions; }

bool HttpSessions::admit(const std::shared_ptr<HttpSession>& session) {
    if (!store_->insert(session->session())) return false;
    std::lock_guard lock(mutex_);
    live_[session->id()] = session;
    return true;
}

std::shared_ptr<HttpSession> HttpSessions::find(std::string_view id) {
    if (!store_->find(id)) return nullptr;
    std::lock_guard lock(mutex_);
    auto it = live_.find(id);
    return it == live_.end() ? nullptr : it->second;
}

bool HttpSessions::remove(std::string_view id) {
    if (!store_->remove(id)) return false;
    std::shared_ptr<HttpSession> session;
    {
        std::lock_guard lock(mutex_);
        auto it = live_.find(id);
        if (it == live_.end()) return true;
        session = std::move(it->second);
        live_.erase(it);
    }
    end(session);
    return true;
}

void HttpSessions::expire() {
    for (const auto& expired : store_->expire()) {
        std::shared_ptr<HttpSession> session;
        {
            std::lock_guard lock(mutex_);
            auto it = live_.find(expired->id());
            if (it == live_.end()) continue;
            session = std::move(it->second);
            live_.erase(it);
        }
        end(session);
    }
}

void HttpSessions::close_standalone_streams() {
    std::map<std::string, std::shared_ptr<HttpSession>, std::less<>> all;
    {
        std::lock_guard lock(mutex_);
        all = live_;
    }
    for (const auto& [id, session] : all) session->close_standalone();
}

void HttpSessions::end(const std::shared_ptr<HttpSession>& session) {
    session->close();
    // A session that goes away cancels what it still had running: nobody is left to answer.
    session->session()->cancel_all();
}

}  // namespace mcp::detail
