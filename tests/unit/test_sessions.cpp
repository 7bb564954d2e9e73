// The session service on one node (memory backend): admission at capacity, idle expiry, owners,
// the sessions told of changes, cancellation; and resumable streams replaying what a connection
// missed.
#include "sessions/session_service.hpp"
#include "sessions/session_state.hpp"

#include <mcp/security/key_ring.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace mcp;
using namespace mcp::detail;
using namespace std::chrono_literals;

namespace {

const KeyRing& test_keys() {
    static const KeyRing keys = KeyRing::generate();
    return keys;
}

SessionService make_service(std::size_t max_sessions, std::chrono::milliseconds idle) {
    return SessionService(make_backend("memory"),
                          {.max_sessions = max_sessions, .idle_timeout = idle, .keys = test_keys});
}

// A session as initialize makes it, by `owner` from `client`; nullptr when refused.
std::shared_ptr<ResumableSession> admit(SessionService& service, const std::string& owner, const std::string& client,
                                        SessionService::Admission expected = SessionService::Admission::admitted) {
    auto session = service.create();
    service.initialized(session->session(), std::make_shared<ClientState>(ClientState{"2025-11-25", {}, {}}), owner);
    EXPECT_EQ(service.admit(session, client), expected) << client;
    return expected == SessionService::Admission::admitted ? session : nullptr;
}

std::shared_ptr<ResumableSession> admitted(SessionService& service, const std::string& owner) {
    return admit(service, owner, "p:" + owner);
}

// The events a stream's connection received, as "id-or-empty|data".
class Recorder final : public StreamConnection {
public:
    bool event(std::string_view data, std::string_view id) override {
        std::lock_guard lock(mutex_);
        if (gone_) return false;
        events_.emplace_back(std::string(data), std::string(id));
        return true;
    }
    void prime(std::string_view id) override {
        std::lock_guard lock(mutex_);
        primed_ = id;
    }
    void finish() override {
        std::lock_guard lock(mutex_);
        finished_ = true;
    }
    bool detached() override {
        std::lock_guard lock(mutex_);
        return gone_;
    }
    void go_away() {
        std::lock_guard lock(mutex_);
        gone_ = true;
    }
    std::vector<std::pair<std::string, std::string>> events() {
        std::lock_guard lock(mutex_);
        return events_;
    }
    std::string primed() {
        std::lock_guard lock(mutex_);
        return primed_;
    }
    bool finished() {
        std::lock_guard lock(mutex_);
        return finished_;
    }

private:
    std::mutex mutex_;
    std::vector<std::pair<std::string, std::string>> events_;
    std::string primed_;
    bool finished_ = false;
    bool gone_ = false;
};

}  // namespace

TEST(SessionService, RefusesBeyondCapacityAndExpiresIdleSessions) {
    auto service = make_service(2, 50ms);
    auto a = admitted(service, "alice");
    auto b = admitted(service, "bob");
    // Full, and each client holds its share (one of two): refused, nothing evicted.
    admit(service, "carol", "p:carol", SessionService::Admission::full);
    EXPECT_FALSE(a->session()->closed());
    EXPECT_FALSE(b->session()->closed());
    EXPECT_EQ(service.find(a->id(), "alice"), a);
    EXPECT_EQ(service.find(a->id(), "bob"), nullptr);  // another principal's session does not exist for it
    EXPECT_FALSE(service.remove(a->id(), "bob"));
    EXPECT_TRUE(service.remove(a->id(), "alice"));
    EXPECT_TRUE(a->session()->closed());
    EXPECT_EQ(service.find(a->id(), "alice"), nullptr);
    EXPECT_FALSE(service.remove(a->id(), "alice"));

    std::this_thread::sleep_for(120ms);
    EXPECT_EQ(service.find(b->id(), "bob"), nullptr);  // idle past its time to live: ended
    EXPECT_TRUE(b->session()->closed());
    EXPECT_EQ(service.size(), 0u);
    admitted(service, "carol");
    EXPECT_EQ(service.size(), 1u);
}

TEST(ResumableSession, LeasesAtMostTheLimitOfGetConnectionsAndFreesOneWhenItsLeaseIsDropped) {
    auto service = make_service(4, 1min);
    auto session = admitted(service, "alice");
    auto first = session->lease_get_connection(2);
    auto second = session->lease_get_connection(2);
    ASSERT_TRUE(first && second);
    EXPECT_FALSE(session->lease_get_connection(2));
    auto moved = std::move(*first);  // a moved-from lease frees nothing
    first.reset();
    EXPECT_FALSE(session->lease_get_connection(2));
    { auto gone = std::move(moved); }
    EXPECT_TRUE(session->lease_get_connection(2));
    // A lease outlives its session object: the connection ends after the session was removed.
    auto late = session->lease_get_connection(2);
    ASSERT_TRUE(late);
    EXPECT_TRUE(service.remove(session->id(), "alice"));
    session.reset();
    late.reset();
}

TEST(SessionService, ExpiredSessionsMakeRoomAndEndTheirCalls) {
    auto service = make_service(1, 50ms);
    auto a = admitted(service, "");
    auto call = std::make_shared<InFlightCall>();
    call->key = request_key(boost::json::value(7));
    ASSERT_TRUE(SessionState::of(*a->session()).track(call));
    std::this_thread::sleep_for(120ms);
    admitted(service, "");  // a's place, once it expired
    EXPECT_TRUE(call->stop.stop_requested());
    EXPECT_TRUE(call->cancelled_by_client.load());
    service.expire();
    EXPECT_EQ(service.size(), 1u);
}

TEST(SessionService, SubscribersListenersAndCancellation) {
    auto service = make_service(10, 60s);
    auto a = admitted(service, "");
    auto b = admitted(service, "");
    auto stdio = service.open(nullptr, "");
    service.initialized(stdio, std::make_shared<ClientState>(), "");
    auto never_initialized = service.open(nullptr, "");

    service.record(*a->session(), {SessionChange::Kind::subscribe, {}, "file:///x"});
    service.record(*stdio, {SessionChange::Kind::subscribe, {}, "file:///x"});
    service.record(*b->session(), {SessionChange::Kind::log_level, LogLevel::error, {}});
    EXPECT_EQ(b->session()->log_level(), LogLevel::error);
    auto subscribers = service.subscribers("file:///x");
    EXPECT_EQ(subscribers.size(), 2u);
    EXPECT_TRUE(service.subscribers("file:///y").empty());
    service.record(*a->session(), {SessionChange::Kind::unsubscribe, {}, "file:///x"});
    EXPECT_EQ(service.subscribers("file:///x"), std::vector<std::shared_ptr<Session>>{stdio});

    EXPECT_EQ(service.listeners().size(), 3u);  // a, b and stdio; not the one never initialized
    b->session()->close();
    EXPECT_EQ(service.listeners().size(), 2u);
    EXPECT_EQ(service.local(stdio->id()), stdio);
    EXPECT_EQ(service.local(never_initialized->id()), nullptr);

    auto call = std::make_shared<InFlightCall>();
    call->key = request_key(boost::json::value("r1"));
    ASSERT_TRUE(SessionState::of(*stdio).track(call));
    EXPECT_FALSE(SessionState::of(*stdio).track(call));  // the same id twice
    service.cancel(*stdio, boost::json::value(1));       // another id
    EXPECT_FALSE(call->stop.stop_requested());
    service.cancel(*stdio, boost::json::value("r1"));
    EXPECT_TRUE(call->stop.stop_requested());
    EXPECT_TRUE(call->cancelled_by_client.load());
}

// A closing stdio session waits for the answers of its calls, not only for their ids to be free:
// the id is released before the answer is written, so that a client may reuse it at once.
TEST(SessionState, WaitIdleWaitsUntilAnUntrackedCallHasAnswered) {
    auto service = make_service(10, 60s);
    auto stdio = service.open(nullptr, "");
    auto& state = SessionState::of(*stdio);
    auto call = std::make_shared<InFlightCall>();
    call->key = request_key(boost::json::value(2));
    ASSERT_TRUE(state.track(call));

    std::atomic<bool> idle{false};
    std::optional<SessionState::Answering> answering;
    answering.emplace(state.untrack(*call));
    EXPECT_TRUE(state.track(call));  // the id is free again while the answer is written
    auto second = state.untrack(*call);
    std::thread waiter([&] {
        state.wait_idle();
        idle = true;
    });
    std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(idle.load());
    answering.reset();
    std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(idle.load());  // the second answer is still being written
    { auto done = std::move(second); }
    waiter.join();
    EXPECT_TRUE(idle.load());
}

TEST(ResumableStream, AReconnectedClientGetsWhatItMissedThenTheRestLive) {
    auto journal = make_memory_event_journal(100, 1 << 20, 10);
    const auto& keys = test_keys();
    ResumableStream stream("s", "post-1", *journal, keys, nullptr);

    auto first = std::make_shared<Recorder>();
    stream.attach(first, {});
    stream.prime();
    ASSERT_FALSE(first->primed().empty());
    stream.publish(boost::json::value("one"));
    stream.publish(boost::json::value("two"));
    ASSERT_EQ(first->events().size(), 2u);
    const auto resume_from = first->events()[0].second;

    first->go_away();
    stream.publish(boost::json::value("three"));  // journaled for a resume
    EXPECT_FALSE(stream.attached());

    auto position = open_event_id(keys, resume_from);
    ASSERT_TRUE(position);
    EXPECT_EQ(position->session_id, "s");
    EXPECT_EQ(position->stream_id, "post-1");
    auto second = std::make_shared<Recorder>();
    stream.attach(second, position->event_id);
    ASSERT_EQ(second->events().size(), 2u);
    EXPECT_EQ(second->events()[0].first, "\"two\"");
    EXPECT_EQ(second->events()[1].first, "\"three\"");
    stream.publish(boost::json::value("four"));
    EXPECT_EQ(second->events().back().first, "\"four\"");

    stream.finish();
    EXPECT_TRUE(second->finished());
    EXPECT_TRUE(stream.finished());
    auto late = std::make_shared<Recorder>();
    stream.attach(late, position->event_id);  // a finished stream replays, then ends
    EXPECT_EQ(late->events().size(), 3u);
    EXPECT_TRUE(late->finished());
}

// A call still running when its session ends (a cancelled count between two steps, an
// elicitation released by DELETE) publishes or finishes after its stream was dropped from the
// journal: that must not write the stream back, where nothing would ever drop it again.
TEST(ResumableStream, WritesNothingToTheJournalOnceDiscarded) {
    auto journal = make_memory_event_journal(100, 1 << 20, 1000);
    ResumableStream stream("s", "post-1", *journal, test_keys(), nullptr);
    const auto key = ResumableStream::journal_key("s", "post-1");
    stream.publish(boost::json::value("one"));
    ASSERT_TRUE(journal->exists(key));
    stream.discard();
    EXPECT_FALSE(journal->exists(key));
    stream.publish(boost::json::value("late progress"));
    EXPECT_FALSE(journal->exists(key));
    stream.finish();
    EXPECT_FALSE(journal->exists(key));
    EXPECT_TRUE(stream.finished());
}

TEST(ResumableSession, StreamsOfAClosedSessionLeaveNothingInTheJournal) {
    auto journal = make_memory_event_journal(100, 1 << 20, 1000);
    std::vector<std::string> keys;
    for (int i = 0; i < 50; ++i) {
        auto session = std::make_shared<ResumableSession>(
            SessionState::make("session-" + std::to_string(i), nullptr, LogLevel::info), *journal, test_keys(),
            nullptr);
        auto stream = session->open_stream();
        keys.push_back(ResumableStream::journal_key("session-" + std::to_string(i), stream->id()));
        stream->publish(boost::json::value("progress"));
        session->close(true);                             // DELETE, or the session expired
        stream->publish(boost::json::value("progress"));  // the call's next step, before it stops
        session->finish(*stream);                         // and its end
    }
    for (const auto& key : keys) EXPECT_FALSE(journal->exists(key)) << key;
}

TEST(SessionService, AClientAtItsQuotaIsRefusedAndOthersAreNot) {
    auto service =
        SessionService(make_backend("memory"),
                       {.max_sessions = 10, .max_sessions_per_client = 2, .idle_timeout = 60s, .keys = test_keys});
    auto first = admit(service, "", "a:192.0.2.7");
    admit(service, "", "a:192.0.2.7");
    admit(service, "", "a:192.0.2.7", SessionService::Admission::client_limit);
    admit(service, "", "a:192.0.2.8");
    EXPECT_TRUE(service.remove(first->id(), ""));
    admit(service, "", "a:192.0.2.7");
}

TEST(SessionService, AtTheBoundTheLeastRecentlyUsedSessionOfAClientAboveItsShareMakesRoom) {
    auto service = SessionService(make_backend("memory"), {.max_sessions = 4, .idle_timeout = 60s, .keys = test_keys});
    auto a1 = admit(service, "", "a:192.0.2.7");
    auto a2 = admit(service, "", "a:192.0.2.7");
    auto a3 = admit(service, "", "a:192.0.2.7");
    auto b1 = admit(service, "", "a:192.0.2.8");
    ASSERT_EQ(service.find(a1->id(), ""), a1);  // a1 is used: a2 is now a's least recently used
    auto c1 = admit(service, "", "a:192.0.2.9");
    EXPECT_TRUE(a2->session()->closed());
    EXPECT_EQ(service.find(a2->id(), ""), nullptr);
    EXPECT_FALSE(a1->session()->closed());
    EXPECT_FALSE(a3->session()->closed());
    auto d1 = admit(service, "", "a:192.0.2.10");  // four clients, a share of one; a holds two
    EXPECT_TRUE(a3->session()->closed());
    admit(service, "", "a:192.0.2.11", SessionService::Admission::full);
    admit(service, "", "a:192.0.2.8", SessionService::Admission::full);
    EXPECT_EQ(service.size(), 4u);
}

TEST(SessionService, ASessionNoRequestTouchedAfterInitializeEndsAfterTheHalfOpenTime) {
    auto service =
        SessionService(make_backend("memory"),
                       {.max_sessions = 10, .idle_timeout = 60s, .half_open_timeout = 50ms, .keys = test_keys});
    auto confirmed = admit(service, "", "a:192.0.2.7");
    auto half_open = admit(service, "", "a:192.0.2.7");
    ASSERT_EQ(service.find(confirmed->id(), ""), confirmed);  // notifications/initialized, say
    EXPECT_EQ(service.expiry_period(), 100ms);                // never below 100 ms
    std::this_thread::sleep_for(120ms);
    service.expire();
    EXPECT_TRUE(half_open->session()->closed());
    EXPECT_EQ(service.find(half_open->id(), ""), nullptr);
    EXPECT_EQ(service.find(confirmed->id(), ""), confirmed);
    EXPECT_EQ(service.size(), 1u);
}
