#include "transport/http/http_session.hpp"

#include "server/core.hpp"
#include "server/session_impl.hpp"
#include "util/log.hpp"
#include "util/random.hpp"

#include <vector>

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

// Tells the other nodes that a stream has new events in the shared journal.
class HttpSessions::Waker final : public StreamWaker {
public:
    explicit Waker(Cluster& cluster) : cluster_(cluster) {}
    void wake(const std::string& session_id, const std::string& stream_id) override {
        try {
            cluster_.publish("wake", session_id + '/' + stream_id);
        } catch (const StoreUnavailable&) {
            // The events are journaled; the node holding the connection catches up when Redis is back.
        }
    }

private:
    Cluster& cluster_;
};

HttpSession::HttpSession(std::shared_ptr<Session> session, EventJournal& journal, const KeyRing& keys,
                         const HttpOptions& options, StreamWaker* waker)
    : session_(std::move(session)), journal_(journal), keys_(keys), options_(options), waker_(waker), standalone_(make_stream("get")) {
    session_->set_channel(std::make_shared<StandaloneChannel>(standalone_));
}

std::shared_ptr<SseStream> HttpSession::make_stream(std::string stream_id) {
    return std::make_shared<SseStream>(session_->id(), std::move(stream_id), journal_, keys_, options_.sse_retry.count(), waker_);
}

std::shared_ptr<SseStream> HttpSession::open_stream() {
    // Random ids: with a shared journal, other nodes open streams of the same session.
    auto stream = make_stream(random_token(9));
    std::lock_guard lock(mutex_);
    streams_.emplace(next_stream_++, stream);
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

std::shared_ptr<SseStream> HttpSession::local_stream(std::string_view stream_id) {
    if (stream_id == "get") return standalone_;
    std::lock_guard lock(mutex_);
    for (const auto& [n, stream] : streams_) {
        if (stream->id() == stream_id) return stream;
    }
    return nullptr;
}

void HttpSession::catch_up_all() {
    std::vector<std::shared_ptr<SseStream>> streams{standalone_};
    {
        std::lock_guard lock(mutex_);
        for (const auto& [n, stream] : streams_) streams.push_back(stream);
    }
    for (const auto& stream : streams) stream->catch_up();
}

std::shared_ptr<SseStream> HttpSession::find_stream(std::string_view stream_id, std::string_view after_event) {
    if (auto stream = local_stream(stream_id)) return stream;
    if (waker_ == nullptr) return nullptr;
    // Opened on another node: its events are in the shared journal.
    if (!after_event.empty() && !journal_.exists(SseStream::journal_key(session_->id(), stream_id))) return nullptr;
    std::lock_guard lock(mutex_);
    for (const auto& [n, stream] : streams_) {
        if (stream->id() == stream_id) return stream;
    }
    auto stream = make_stream(std::string(stream_id));
    streams_.emplace(next_stream_++, stream);
    return stream;
}

std::size_t HttpSession::attached_streams() {
    std::lock_guard lock(mutex_);
    std::size_t n = standalone_->attached() ? 1 : 0;
    for (const auto& [id, stream] : streams_) n += stream->attached() ? 1 : 0;
    return n;
}

void HttpSession::close(bool discard) {
    session_->close();
    auto end = [discard](SseStream& stream) {
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
}

HttpSessions::HttpSessions(Server& server, const HttpOptions& options, Backend& backend, EventJournal& journal)
    : server_(server), options_(options), journal_(journal), cluster_(backend.cluster()) {
    auto& core = core_of(server);
    // A session another node created, first served here: a local object for it, known to the core.
    store_ = backend.make_session_store(server.options().sessions.max_sessions, server.options().sessions.idle_timeout, [&server, &core](const std::string& id) {
        auto session = server.open_session(nullptr, id);
        core.track_session(session);
        return session;
    });
    if (cluster_ == nullptr) return;
    waker_ = std::make_unique<Waker>(*cluster_);
    // Another node journaled events on a stream whose connection is here.
    subscriptions_.push_back(cluster_->subscribe("wake", [this](std::string_view key) {
        const auto cut = key.find('/');
        if (cut == std::string_view::npos) return;
        std::shared_ptr<HttpSession> session;
        {
            std::lock_guard lock(mutex_);
            auto it = live_.find(key.substr(0, cut));
            if (it == live_.end()) return;
            session = it->second;
        }
        if (auto stream = session->local_stream(key.substr(cut + 1))) stream->catch_up();
    }));
    // DELETE on another node: this node's connections of the session end, its calls stop.
    subscriptions_.push_back(cluster_->subscribe("deleted", [this](std::string_view id) { end_local(id, false); }));
    // Wake-ups sent while Redis was away were lost: every connection here catches up.
    subscriptions_.push_back(cluster_->on_reconnect([this] {
        std::vector<std::shared_ptr<HttpSession>> sessions;
        {
            std::lock_guard lock(mutex_);
            for (const auto& [id, session] : live_) sessions.push_back(session);
        }
        for (const auto& session : sessions) session->catch_up_all();
    }));
    core.set_cluster_sessions(this);
}

HttpSessions::~HttpSessions() {
    if (cluster_ == nullptr) return;
    core_of(server_).set_cluster_sessions(nullptr);
    for (const auto id : subscriptions_) cluster_->unsubscribe(id);
}

std::shared_ptr<Session> HttpSessions::session(std::string_view id) {
    auto found = lookup(id, false);
    return found ? found->session() : nullptr;
}

bool HttpSessions::listening_here(std::string_view id) {
    std::lock_guard lock(mutex_);
    auto it = live_.find(id);
    return it != live_.end() && it->second->standalone().attached();
}

std::shared_ptr<HttpSession> HttpSessions::wrap(std::shared_ptr<Session> session) {
    if (cluster_ != nullptr) {
        // What the core changes (log level, subscriptions) is written through before it is acknowledged.
        session->impl().on_change = [store = store_.get(), weak = std::weak_ptr<Session>(session)](const SessionChange& change) {
            if (auto s = weak.lock()) store->record(*s, change);
        };
    }
    return std::make_shared<HttpSession>(std::move(session), journal_, server_.key_ring(), options_, waker_.get());
}

std::shared_ptr<HttpSession> HttpSessions::create() {
    // 144 random bits, visible ASCII, as the spec requires of session ids.
    return wrap(server_.open_session(nullptr, random_token()));
}

bool HttpSessions::full() const { return store_->size() >= server_.options().sessions.max_sessions; }

bool HttpSessions::admit(const std::shared_ptr<HttpSession>& session) {
    if (!store_->insert(session->session())) return false;
    std::lock_guard lock(mutex_);
    live_[session->id()] = session;
    return true;
}

std::shared_ptr<HttpSession> HttpSessions::lookup(std::string_view id, bool touch) {
    auto session = touch ? store_->find(id) : store_->peek(id);
    if (!session) {
        end_local(id, false);  // expired or deleted by another node
        return nullptr;
    }
    std::lock_guard lock(mutex_);
    auto it = live_.find(id);
    if (it != live_.end()) return it->second;
    if (cluster_ == nullptr) return nullptr;
    return live_.emplace(std::string(id), wrap(std::move(session))).first->second;
}

bool HttpSessions::remove(std::string_view id) {
    if (!store_->remove(id)) return false;
    if (cluster_ != nullptr) {
        try {
            cluster_->publish("deleted", id);
        } catch (const StoreUnavailable&) {
            // The other nodes find the record gone on their next request for it.
        }
    }
    end_local(id, true);
    return true;
}

void HttpSessions::expire() {
    for (const auto& expired : store_->expire()) end_local(expired->id(), true);
}

void HttpSessions::close_standalone_streams() {
    std::map<std::string, std::shared_ptr<HttpSession>, std::less<>> all;
    {
        std::lock_guard lock(mutex_);
        all = live_;
    }
    for (const auto& [id, session] : all) session->close_standalone();
}

void HttpSessions::end_local(std::string_view id, bool discard) {
    std::shared_ptr<HttpSession> session;
    {
        std::lock_guard lock(mutex_);
        auto it = live_.find(id);
        if (it == live_.end()) return;
        session = std::move(it->second);
        live_.erase(it);
    }
    session->close(discard);
    // A session that goes away cancels what it still had running: nobody is left to answer.
    session->session()->cancel_all();
}

}  // namespace mcp::detail
