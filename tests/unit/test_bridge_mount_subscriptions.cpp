// mcp::Mount passing resource subscriptions to the inner server, for every pair of revisions (outer
// client x inner client): one inner subscription per URI however many outer clients hear of it,
// updates back under the outer URI, the last unsubscribe or session end releasing it, an inner
// server that cannot subscribe, URIs that are not the mount's (docs/adr/0029-gateway.md, decision 13).
#include "client_test_support.hpp"

#include <mcp/bridge/in_process.hpp>
#include <mcp/bridge/mount.hpp>
#include <mcp/client/client.hpp>
#include <mcp/mcp.hpp>

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

using client_testing::eventually;

namespace {

// An in-process transport whose server does not declare resources.subscribe.
class WithoutSubscribe : public mcp::ClientTransport {
public:
    explicit WithoutSubscribe(std::shared_ptr<mcp::ClientTransport> inner) : inner_(std::move(inner)) {}
    void open(boost::asio::io_context& io, mcp::TransportEvents events) override {
        events.message = [then = std::move(events.message)](std::string_view text) {
            auto message = boost::json::parse(text);
            auto* result = message.as_object().if_contains("result");
            auto* caps =
                result != nullptr && result->is_object() ? result->as_object().if_contains("capabilities") : nullptr;
            if (caps == nullptr || !caps->is_object()) return then(text);
            if (auto* resources = caps->as_object().if_contains("resources"); resources && resources->is_object())
                resources->as_object().erase("subscribe");
            then(boost::json::serialize(message));
        };
        inner_->open(io, std::move(events));
    }
    void send(mcp::OutboundMessage message) override { inner_->send(std::move(message)); }
    bool mirrors_headers() const override { return inner_->mirrors_headers(); }
    bool cancel(const boost::json::value& id) override { return inner_->cancel(id); }
    void answered(const boost::json::value& id) override { inner_->answered(id); }
    void close() override { inner_->close(); }

private:
    std::shared_ptr<mcp::ClientTransport> inner_;
};

}  // namespace

class MountSubscribe : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {
protected:
    MountSubscribe() {
        inner.resource("test://data", {.name = "data"}, [] { return std::string("payload"); });
        // What the inner server's clients hold, seen through the same hook the mount uses.
        inner.watch_resource_subscriptions([this](std::string_view uri) -> std::function<void()> {
            std::lock_guard lock(mutex);
            ++inner_holders[std::string(uri)];
            return [this, key = std::string(uri)] {
                std::lock_guard released(mutex);
                --inner_holders[key];
            };
        });
    }

    void mount(std::shared_ptr<mcp::ClientTransport> transport = nullptr) {
        mcp::ClientOptions options;
        options.protocol_version = std::get<1>(GetParam());
        mounted = mcp::mount(outer, "in", transport ? std::move(transport) : mcp::in_process(inner), options);
    }

    // An outer client recording the resources/updated it hears.
    std::unique_ptr<mcp::Client> connect() {
        mcp::ClientOptions options;
        options.protocol_version = std::get<0>(GetParam());
        options.handlers.resource_updated = [this](const std::string& uri) {
            std::lock_guard lock(mutex);
            updates.push_back(uri);
        };
        auto client = std::make_unique<mcp::Client>(mcp::in_process(outer), std::move(options));
        client->connect();
        return client;
    }

    static mcp::Subscription subscribe(mcp::Client& client, const std::string& uri) {
        return client.listen({.resource_subscriptions = {uri}});
    }

    int held(const std::string& inner_uri) {
        std::lock_guard lock(mutex);
        return inner_holders[inner_uri];
    }

    std::size_t updates_of(const std::string& uri) {
        std::lock_guard lock(mutex);
        return static_cast<std::size_t>(std::count(updates.begin(), updates.end(), uri));
    }

    // The inner server changes the resource until an update reaches the outer client.
    bool update_arrives() {
        const auto before = updates_of("test://in/data");
        return eventually([&] {
            inner.notify_resource_updated("test://data");
            return updates_of("test://in/data") > before;
        });
    }

    void TearDown() override { mounted.reset(); }

    std::mutex mutex;
    std::map<std::string, int> inner_holders;
    std::vector<std::string> updates;
    mcp::Server inner{{.name = "inner", .version = "1"}};
    mcp::Server outer{{.name = "outer", .version = "1"}};
    std::shared_ptr<mcp::Mount> mounted;
};

TEST_P(MountSubscribe, AnUpdateOfTheInnerResourceReachesTheSubscriberUnderTheOuterUri) {
    mount();
    auto client = connect();
    auto subscription = subscribe(*client, "test://in/data");
    EXPECT_TRUE(eventually([&] { return held("test://data") == 1; }));
    EXPECT_TRUE(update_arrives());
    EXPECT_EQ(updates_of("test://data"), 0U);  // never the inner URI
    subscription.cancel();
    EXPECT_TRUE(eventually([&] { return held("test://data") == 0; }));
    client->close();
}

TEST_P(MountSubscribe, OuterSubscribersShareOneInnerSubscriptionUntilTheLastGoes) {
    mount();
    auto first = connect();
    auto second = connect();
    auto one = subscribe(*first, "test://in/data");
    auto two = subscribe(*second, "test://in/data");
    EXPECT_TRUE(update_arrives());
    EXPECT_EQ(held("test://data"), 1);
    one.cancel();
    EXPECT_TRUE(update_arrives());  // the second still hears of it
    EXPECT_EQ(held("test://data"), 1);
    // The second client goes without unsubscribing: its session's (or stream's) end releases it.
    second->close();
    second.reset();  // the in-process connection, and with it the session (or stream), goes
    EXPECT_TRUE(eventually([&] { return held("test://data") == 0; }));
    first->close();
}

TEST_P(MountSubscribe, AnInnerServerThatCannotSubscribeRefusesClearly) {
    mount(std::make_shared<WithoutSubscribe>(mcp::in_process(inner)));
    auto client = connect();
    try {
        subscribe(*client, "test://in/data");
        ADD_FAILURE() << "the subscription was accepted";
    } catch (const mcp::Error& e) {
        EXPECT_EQ(e.code(), mcp::error_code::invalid_params);
        EXPECT_NE(std::string(e.what()).find("does not support resource subscriptions"), std::string::npos) << e.what();
    }
    EXPECT_EQ(held("test://data"), 0);
    client->close();
}

TEST_P(MountSubscribe, UrisThatAreNotTheMountsStayTheOuterServers) {
    mount();
    auto client = connect();
    // Another prefix, no prefix at all, the prefix without a path, a URI without a scheme: the
    // outer core takes them as it takes any URI, and the inner server hears of none.
    auto others = client->listen(
        {.resource_subscriptions = {"test://other/data", "test://in", "in/data", "test:in", std::string(4000, 'x')}});
    auto real = subscribe(*client, "test://in/data");
    EXPECT_TRUE(update_arrives());
    {
        std::lock_guard lock(mutex);
        for (const auto& [uri, count] : inner_holders) EXPECT_EQ(count, uri == "test://data" ? 1 : 0) << uri;
    }
    others.cancel();
    real.cancel();
    EXPECT_TRUE(eventually([&] { return held("test://data") == 0; }));
    client->close();
}

TEST_P(MountSubscribe, AnUnsubscribeOfWhatWasNeverSubscribedIsHarmless) {
    mount();
    auto client = connect();
    if (std::get<0>(GetParam()) == "2025-11-25") {
        EXPECT_NO_THROW(client->unsubscribe("test://in/data"));
        EXPECT_NO_THROW(client->unsubscribe("test://in/never"));
        EXPECT_NO_THROW(client->unsubscribe("test://other/x"));
    }
    auto subscription = subscribe(*client, "test://in/data");
    subscription.cancel();
    subscription.cancel();
    EXPECT_TRUE(eventually([&] { return held("test://data") == 0; }));
    // Subscribed again after all that: one inner subscription, updates flowing.
    auto again = subscribe(*client, "test://in/data");
    EXPECT_TRUE(update_arrives());
    EXPECT_EQ(held("test://data"), 1);
    again.cancel();
    client->close();
}

TEST_P(MountSubscribe, TheMountGoingReleasesItsInnerSubscriptions) {
    mount();
    auto client = connect();
    auto subscription = subscribe(*client, "test://in/data");
    EXPECT_TRUE(eventually([&] { return held("test://data") == 1; }));
    mounted.reset();
    EXPECT_TRUE(eventually([&] { return held("test://data") == 0; }));
    subscription.cancel();  // its release finds the mount gone
    client->close();
}

// test_bridge_mount_requests.cpp's.
std::string revisions_name(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& param_info);

INSTANTIATE_TEST_SUITE_P(Revisions, MountSubscribe,
                         ::testing::Combine(::testing::Values("2025-11-25", "2026-07-28"),
                                            ::testing::Values("2025-11-25", "2026-07-28")),
                         revisions_name);
