// The token verifier against a small authorization server on loopback that answers what each test
// needs, or nothing at all: introspection answers the verifier must refuse rather than throw on,
// accepted tokens remembered, and a bound on the introspection requests in flight at once.
#include "auth/token_verifier.hpp"

#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/write.hpp>

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace mcp::detail;

constexpr std::string_view kResource = "https://mcp.example.com/mcp";

// Answers each request with the body `answer` gives (status 200, JSON), or holds the connection
// open without a word when it gives nothing. Counts the requests it read.
class FakeIntrospection {
public:
    using Answer = std::function<std::optional<std::string>()>;

    explicit FakeIntrospection(Answer answer) : answer_(std::move(answer)) {
        acceptor_.open(tcp::v4());
        acceptor_.bind({asio::ip::make_address("127.0.0.1"), 0});
        acceptor_.listen();
        thread_ = std::thread([this] { serve(); });
    }
    ~FakeIntrospection() {
        stopping_ = true;
        boost::system::error_code ignored;
        tcp::socket wake(io_);
        wake.connect(acceptor_.local_endpoint(), ignored);  // out of accept()
        thread_.join();
    }

    std::string url() const { return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + "/i"; }
    int requests() const { return requests_.load(); }

private:
    void serve() {
        while (!stopping_) {
            tcp::socket socket(io_);
            boost::system::error_code ec;
            acceptor_.accept(socket, ec);
            if (ec || stopping_) break;
            asio::streambuf head;
            asio::read_until(socket, head, "\r\n\r\n", ec);  // the form body is small: it came along
            if (ec) continue;
            ++requests_;
            const auto body = answer_();
            if (!body) {
                held_.push_back(std::move(socket));  // never answered; closed when the server goes
                continue;
            }
            const auto response =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body->size()) +
                "\r\nConnection: close\r\n\r\n" + *body;
            asio::write(socket, asio::buffer(response), ec);
        }
    }

    Answer answer_;
    asio::io_context io_;
    tcp::acceptor acceptor_{io_};
    std::vector<tcp::socket> held_;
    std::atomic<bool> stopping_{false};
    std::atomic<int> requests_{0};
    std::thread thread_;
};

VerifierSettings introspecting(const std::string& url) {
    VerifierSettings s;
    s.introspection_url = url;
    s.client_id = "mcp-server";
    s.client_secret = "secret";
    s.audiences = {std::string(kResource)};
    s.fetch_timeout = std::chrono::milliseconds(3000);
    return s;
}

BearerVerdict verify(TokenVerifier& verifier, std::string token, std::shared_ptr<FetchRecords> fetches = nullptr) {
    asio::io_context io;
    auto verdict = asio::co_spawn(io, verifier.verify(std::move(token), std::move(fetches)), asio::use_future);
    io.run();
    return verdict.get();
}

std::string describe(const BearerVerdict& verdict) {
    if (const auto* r = std::get_if<TokenRefusal>(&verdict)) return "refused: " + r->description;
    if (const auto* u = std::get_if<VerifierUnavailable>(&verdict)) return "unavailable: " + u->reason;
    return "accepted " + std::get<AcceptedToken>(verdict).principal->subject;
}

std::string active(std::string_view extra) {
    return R"({"active":true,"sub":"alice","aud":")" + std::string(kResource) + "\"" + std::string(extra) + "}";
}

TEST(TokenVerifier, KeepsKeysAsLongAsTheirCacheControlSaysWithinBounds) {
    using std::chrono::seconds;
    EXPECT_EQ(keys_max_age("max-age=300"), seconds(300));
    EXPECT_EQ(keys_max_age("public, max-age=7200, must-revalidate"), seconds(7200));
    EXPECT_EQ(keys_max_age(""), seconds(3600));
    EXPECT_EQ(keys_max_age("public"), seconds(3600));
    EXPECT_EQ(keys_max_age("no-store"), seconds(60));
    EXPECT_EQ(keys_max_age("no-cache, max-age=600"), seconds(60));
    EXPECT_EQ(keys_max_age("max-age=5"), seconds(60));
    EXPECT_EQ(keys_max_age("max-age=31536000"), seconds(24 * 3600));
    EXPECT_EQ(keys_max_age("max-age=99999999999999999999999"), seconds(60));
    EXPECT_EQ(keys_max_age("max-age=-5"), seconds(60));
    EXPECT_EQ(keys_max_age("max-age="), seconds(60));
}

TEST(TokenVerifier, RecordsTheRequestsACheckMakesForItsTrace) {
    std::atomic<bool> garbage = false;
    FakeIntrospection as([&]() -> std::optional<std::string> {
        return garbage ? std::string("[1]") : std::string(R"({"active":false})");
    });
    TokenVerifier verifier(introspecting(as.url()));
    verifier.start();

    auto fetches = std::make_shared<FetchRecords>();
    EXPECT_EQ(describe(verify(verifier, "opaque-inactive", fetches)), "refused: The token is not active");
    ASSERT_EQ(fetches->size(), 1U);
    const auto& taken = fetches->front();
    EXPECT_EQ(taken.what, "introspection");
    EXPECT_EQ(taken.method, "POST");
    EXPECT_EQ(taken.url, as.url());
    EXPECT_EQ(taken.status, 200U);
    EXPECT_EQ(taken.failure, "");
    EXPECT_LE(taken.start, taken.end);

    garbage = true;
    fetches = std::make_shared<FetchRecords>();
    EXPECT_EQ(describe(verify(verifier, "opaque-garbage", fetches)),
              "unavailable: the authorization server cannot be reached");
    ASSERT_EQ(fetches->size(), 1U);
    EXPECT_EQ(fetches->front().status, 200U);
    EXPECT_NE(fetches->front().failure, "") << "a document that is not an object is a failed fetch";

    EXPECT_EQ(describe(verify(verifier, "opaque-untraced")), "unavailable: the authorization server cannot be reached");
    EXPECT_EQ(as.requests(), 3);

    TokenVerifier down(introspecting("http://127.0.0.1:1/i"));
    down.start();
    fetches = std::make_shared<FetchRecords>();
    EXPECT_EQ(describe(verify(down, "opaque-down", fetches)),
              "unavailable: the authorization server cannot be reached");
    ASSERT_EQ(fetches->size(), 1U);
    EXPECT_EQ(fetches->front().status, 0U) << "no answer";
    EXPECT_NE(fetches->front().failure, "");
}

TEST(TokenVerifier, AnOddIntrospectionAnswerIsARefusalNotAnError) {
    const std::vector<std::pair<std::string, std::string>> cases{
        {active(R"(,"exp":1.5)"), "refused: The token expired"},
        {active(R"(,"exp":1e300)"), "refused: The token has no valid expiry"},
        {active(R"(,"exp":"tomorrow")"), "refused: The token has no valid expiry"},
        {R"({"active":"yes","sub":"alice"})", "refused: The token is not active"},
        {R"({"active":true,"sub":"alice","aud":"https://other.example.com"})",
         "refused: The token was issued for another resource"},
        {R"([1,2,3])", "unavailable: the authorization server cannot be reached"},
        {"<html>", "unavailable: the authorization server cannot be reached"},
    };
    std::atomic<std::size_t> next = 0;
    FakeIntrospection as([&]() -> std::optional<std::string> { return cases[next].first; });
    TokenVerifier verifier(introspecting(as.url()));
    verifier.start();
    for (; next < cases.size(); ++next) {
        EXPECT_EQ(describe(verify(verifier, "opaque-" + std::to_string(next))), cases[next].second)
            << cases[next].first;
    }
}

TEST(TokenVerifier, RemembersAnAcceptedTokenUntilItsExpiry) {
    const auto exp = std::chrono::duration_cast<std::chrono::seconds>(
                         (std::chrono::system_clock::now() + std::chrono::hours(1)).time_since_epoch())
                         .count();
    FakeIntrospection as([&]() -> std::optional<std::string> { return active(",\"exp\":" + std::to_string(exp)); });
    TokenVerifier verifier(introspecting(as.url()));
    verifier.start();
    EXPECT_EQ(describe(verify(verifier, "opaque-a")), "accepted alice");
    EXPECT_EQ(describe(verify(verifier, "opaque-a")), "accepted alice");
    EXPECT_EQ(as.requests(), 1) << "the second check is answered from the cache";
    EXPECT_EQ(describe(verify(verifier, "opaque-b")), "accepted alice");
    EXPECT_EQ(as.requests(), 2);
}

TEST(TokenVerifier, BoundsTheIntrospectionsInFlight) {
    FakeIntrospection as([]() -> std::optional<std::string> { return std::nullopt; });  // never answers
    auto settings = introspecting(as.url());
    settings.max_introspections = 2;
    settings.fetch_timeout = std::chrono::milliseconds(1500);
    TokenVerifier verifier(settings);
    verifier.start();

    // The completions run on this thread, in io.run_one().
    asio::io_context io;
    std::vector<std::optional<BearerVerdict>> verdicts(3);
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
        asio::co_spawn(io, verifier.verify("opaque-" + std::to_string(i)),
                       [&verdicts, i](const std::exception_ptr&, BearerVerdict verdict) { verdicts[i] = verdict; });
    }
    // The third is refused at once, while the first two still wait for the silent server.
    while (!verdicts[2] && io.run_one() > 0) {}
    ASSERT_TRUE(verdicts[2].has_value());
    EXPECT_EQ(describe(*verdicts[2]), "unavailable: too many token introspections in flight");
    EXPECT_FALSE(verdicts[0].has_value());
    EXPECT_FALSE(verdicts[1].has_value());
    io.run();  // the two end with the fetch timeout
    ASSERT_TRUE(verdicts[0].has_value() && verdicts[1].has_value());
    EXPECT_EQ(describe(*verdicts[0]), "unavailable: the authorization server cannot be reached");
    EXPECT_EQ(describe(*verdicts[1]), "unavailable: the authorization server cannot be reached");
    EXPECT_EQ(as.requests(), 2);
    // With the slots free again, the next token is asked about.
    EXPECT_EQ(describe(verify(verifier, "opaque-3")), "unavailable: the authorization server cannot be reached");
}

}  // namespace
