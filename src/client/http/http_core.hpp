#pragma once
// The engine behind the client's HTTP transports (mcp/client/http.hpp): Streamable HTTP in both
// eras, and the 2024-11-05 HTTP+SSE transport it may switch to. Its state lives on a strand of
// the client's I/O context, where every coroutine of its runs; send and close are posted there,
// and cancel and answered reach the table of requests in flight under a mutex.
//
// By concern: http_core.cpp (its life, messages in and out), post_exchange.cpp (a message's POST
// and its answer, a cut 2025 stream resumed), session.cpp (the 2025 session: its id, GET stream,
// renewal and end), legacy_sse.cpp (HTTP+SSE).
#include "client/auth/authorizer.hpp"
#include "client/http/response_body.hpp"
#include "net/http_client.hpp"

#include <mcp/client/http.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <unordered_map>
#include <vector>

namespace mcp::detail {

// One message on its way: a request until its answer came, it failed or was cancelled; a
// notification or a response until its POST was answered.
struct InFlight {
    OutboundMessage message;  // kept whole: a request refused with 404 goes again in a new session
    bool modern = false;      // 2026-07-28: no session, cancelled by closing its stream
    std::string session_id;   // 2025: the session it went in
    std::stop_source stop;    // cancel() and close(): ends its exchange, its stream and its waits
    std::atomic<bool> answered{false};
    bool resent = false;  // already sent again in a new session

    bool is_request() const { return message.kind == OutboundMessage::Kind::request; }
};

class HttpCore : public std::enable_shared_from_this<HttpCore> {
public:
    enum class Mode { streamable, legacy_sse };

    // Throws std::invalid_argument for a URL that is not http(s) or a header it refuses.
    HttpCore(HttpServerParams params, Mode mode);
    ~HttpCore();
    HttpCore(const HttpCore&) = delete;
    HttpCore& operator=(const HttpCore&) = delete;

    void open(boost::asio::io_context& io, TransportEvents events);
    void send(OutboundMessage message);
    bool cancel(const boost::json::value& id);
    void answered(const boost::json::value& id);
    bool switch_to_legacy_sse();
    void close();
    std::string session_id() const;

private:
    using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
    using Ptr = std::shared_ptr<InFlight>;

    // Runs `work(*this)` on the strand; false once the transport has ended (or before open).
    template <class Work>
    bool on_strand(Work work);

    // ---- http_core.cpp (on the strand, as is everything below)
    void dispatch(const Ptr& f);
    void finish(const Ptr& f);
    void fail(const Ptr& f, const TransportFailure& failure);
    void deliver(std::string_view text);
    void begin_close(std::string reason);
    void maybe_report();
    // Runs a coroutine of this transport on the strand; `closed` waits until every one has ended.
    void spawn(boost::asio::awaitable<void> work);
    // Waits `delay`, or until `stop`.
    boost::asio::awaitable<void> pause(std::chrono::milliseconds delay, std::stop_token stop);
    std::chrono::milliseconds reconnect_delay(const SseCursor& cursor) const;
    // A POST whose answer matters for its status only (notifications, responses, the handshake
    // again): its body kept up to `max_body`, cancelled when the transport closes.
    net::HttpRequest short_post(std::string url, net::HttpHeaders headers, std::string body,
                                std::size_t max_body) const;
    struct Fetched {
        net::HttpResponse response;
        std::string error;  // set when there was no complete response
    };
    boost::asio::awaitable<Fetched> fetch(net::HttpRequest request);
    struct Opened {
        std::shared_ptr<net::HttpStream> stream;
        std::string error;  // set when there is no stream
    };
    // A request whose answer is read as it comes (an SSE stream, or a body read when needed).
    boost::asio::awaitable<Opened> open_stream(net::HttpRequest request);
    // OAuth: adds the token to a request for the endpoint's origin; returns the token sent (empty:
    // none, or no OAuth). A refusal that calls for authorization (401, 403 insufficient_scope),
    // and whether another try is allowed after `tries` authorizations.
    std::string authorize(net::HttpRequest& request) const;
    bool calls_for_authorization(unsigned status, const net::HttpHeaders& headers, const std::string& url,
                                 int tries) const;
    static std::vector<std::string> challenges(const net::HttpHeaders& headers);

    // ---- post_exchange.cpp
    boost::asio::awaitable<void> post(Ptr f);
    boost::asio::awaitable<void> post_request(Ptr f);
    boost::asio::awaitable<void> follow(Ptr f, std::shared_ptr<net::HttpStream> stream);
    // Cancels `stream` a moment after its answer came, unless it ends first (`ended`).
    boost::asio::awaitable<void> linger(std::shared_ptr<net::HttpStream> stream, std::stop_token ended);
    struct EventStream {
        std::shared_ptr<net::HttpStream> stream;  // set when the server opened one
        unsigned status = 0;                      // else its answer (0: none)
        std::string body;
        std::string error;
    };
    // A GET of the endpoint's SSE stream: a 2025 session's own, or a cut one resumed.
    boost::asio::awaitable<EventStream> open_event_stream(std::string session, std::string version,
                                                          std::string last_event_id, std::stop_token stop);

    // ---- session.cpp
    // The answer to initialize: its Mcp-Session-Id, if any. An error when it cannot be sent back.
    std::optional<std::string> take_session(const net::HttpHeaders& headers);
    void remember_handshake(const Ptr& f);
    void session_lost(const std::string& lost, const Ptr& refused);
    void start_server_stream();
    void stream_answered();
    boost::asio::awaitable<void> stop_waiting_for_stream();
    boost::asio::awaitable<void> listen_to_server(std::string session, std::string version, std::stop_token stop);
    boost::asio::awaitable<void> renew_session();
    boost::asio::awaitable<std::optional<std::string>> handshake_again();
    boost::asio::awaitable<void> end_session(std::string session, std::string version);
    void set_session_id(std::string id);

    // ---- legacy_sse.cpp
    void start_legacy();
    boost::asio::awaitable<void> run_legacy_stream();
    boost::asio::awaitable<void> await_endpoint(std::shared_ptr<net::HttpStream> stream);
    void take_endpoint(std::string_view data, net::HttpStream& stream);
    boost::asio::awaitable<void> post_legacy(Ptr f);
    void legacy_failed(const TransportFailure& failure);

    const HttpServerParams params_;
    Mode mode_;
    TransportEvents events_;
    std::unique_ptr<net::HttpClient> http_;
    std::shared_ptr<Authorizer> auth_;  // OAuth, when the application asked for it

    // Reached from any thread.
    mutable std::mutex mutex_;
    // Set by open(), reset once `closed` is reported; used without the mutex on the strand itself.
    std::optional<Strand> strand_;
    bool reported_ = false;
    std::unordered_map<std::string, Ptr> requests_;  // requests in flight, by serialized id
    bool closing_ = false;
    bool switched_;  // legacy SSE from the start, or switch_to_legacy_sse() said yes
    std::string session_id_;
    std::atomic<bool> modern_{false};  // the last message sent was of 2026-07-28

    // The strand's.
    std::stop_source closing_stop_;  // what has no request of its own to be cancelled with
    struct Session {
        std::string id;
        std::string version;
        std::optional<OutboundMessage> initialize;  // the handshake, to start a new session with
        std::optional<OutboundMessage> initialized;
        bool renewing = false;
        // Between notifications/initialized and the answer to the GET stream (or kServerStreamWait):
        // a server may send its requests (elicitation, sampling) on the GET stream alone, and drops
        // what it has no stream for, so requests wait until the stream is there.
        bool opening_stream = false;
        std::vector<Ptr> held;         // waiting for the new session, or for the GET stream
        std::stop_source stream_stop;  // the GET stream's
    } session_;
    struct Legacy {
        std::string endpoint;  // where messages go, once the stream named it
        std::vector<Ptr> waiting;
        std::stop_source named;  // the endpoint came (or the transport closes)
    } legacy_;
    int running_ = 0;
    bool ending_ = false;
    std::string reason_;
};

}  // namespace mcp::detail
