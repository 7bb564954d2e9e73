#pragma once
// The client's JSON-RPC peer: ids, requests in flight with their timeouts, progress and
// cancellation, and inbound messages sorted into responses, notifications and the server's own
// requests. It knows of MCP only the method table (which param Mcp-Name mirrors) and progress; the
// connection (connection.hpp) decides what a request carries and what an answer means.
#include <mcp/client/transport.hpp>
#include <mcp/client/types.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mcp::detail {

// What a request needs besides its method and params.
struct RequestSpec {
    // Chosen ahead with Peer::reserve_id (a listen stream's id names its notifications); else a new one.
    std::optional<std::int64_t> id;
    std::string protocol_version;
    std::vector<std::pair<std::string, std::string>> param_headers;
    std::chrono::milliseconds timeout{0};  // 0: none (a listen stream lasts until cancelled)
    // Progress notifications restart the timeout, until this long after the start (at least the
    // timeout).
    std::chrono::milliseconds max_total{0};
    std::stop_token stop;
    // Set: the request asks for progress (_meta.progressToken); called with each notification's
    // params on the thread that received it.
    std::function<void(const boost::json::object& params)> on_progress;
    // Set (2026-07-28): the envelope members (envelope_members) params._meta starts with.
    std::shared_ptr<const std::string> envelope;
    // Set: _meta members of the trace (trace_members), written after the envelope's.
    std::string trace;
    // The completion reads Outcome::reply_text: a plain reply is handed on unparsed.
    bool reply_as_text = false;
};

// A request's end: its result, or why there is none (mcp::Error for the server's JSON-RPC error).
struct Outcome {
    boost::json::value result;
    std::exception_ptr error;
    // For a request with RequestSpec::reply_as_text whose reply matched jsonrpc::match_plain_result:
    // the whole reply, unparsed, in place of `result`, and the result's text within it (still to be
    // checked for being one JSON value). Valid only while the completion runs.
    std::string_view reply_text;
    std::string_view reply_result;
};
using Completion = std::function<void(Outcome)>;

// What a reply settles its request with, read from its text as the peer reads any message: the
// result, the server's error, or mcp::ProtocolViolation for what is not a well-formed response.
Outcome outcome_of_reply(std::string_view text, const jsonrpc::Limits& limits);

// A request from a 2025 server, answered once with Peer::respond.
struct ServerRequest {
    boost::json::value id;
    std::string method;
    boost::json::object params;
};

struct PeerHandlers {
    std::function<void(ServerRequest)> request;
    std::function<void(std::string_view method, const boost::json::object& params)> notification;
    std::function<void(std::string_view line)> diagnostic;
    // Once, after every request in flight has failed.
    std::function<void(const std::string& reason)> closed;
};

struct PeerOptions {
    jsonrpc::Limits limits;
    std::size_t max_server_requests = 64;
};

class Peer : public std::enable_shared_from_this<Peer> {
public:
    Peer(std::shared_ptr<ClientTransport> transport, boost::asio::io_context& io, PeerOptions options,
         PeerHandlers handlers);
    ~Peer();
    Peer(const Peer&) = delete;
    Peer& operator=(const Peer&) = delete;

    // Opens the transport (it may throw).
    void open();

    // An id for a request that must know it before it is sent.
    std::int64_t reserve_id() { return ++next_id_; }
    // Sends a request. `done` is called exactly once, on the thread that settles it: the one that
    // received the response, the canceller's, the timer's, or this one when the peer is closed.
    // `params` are read before it returns: the request's text is written here.
    void request(std::string_view method, const boost::json::object& params, RequestSpec spec, Completion done);
    void notify(std::string_view method, boost::json::object params);
    // Answers a server's request: a result, or an error. Dropped when the server cancelled it.
    void respond(const boost::json::value& id, boost::json::value result);
    void respond_error(const boost::json::value& id, int code, std::string_view message);

    // The version notifications and responses carry for HTTP (MCP-Protocol-Version).
    void set_protocol_version(std::string version);

    // Fails every request in flight with mcp::ConnectionClosed and closes the transport; `closed`
    // follows when it is done.
    void close(const std::string& reason);
    bool closed() const;

    ClientStats stats() const;

private:
    struct Pending;
    using PendingPtr = std::shared_ptr<Pending>;

    void on_message(std::string_view text);
    void on_closed(const std::string& reason);
    void on_response(const jsonrpc::Message& message, boost::json::value& document);
    void on_progress(const boost::json::object& params);
    void on_server_request(const jsonrpc::Message& message);
    void on_server_cancelled(const boost::json::object& params);

    // Takes the request out of the table: nullptr when it was settled already.
    // `text_readers_only`: only a request whose completion reads its reply as text; another stays.
    PendingPtr take(std::int64_t id, bool text_readers_only = false);
    void settle(const PendingPtr& pending, Outcome outcome);
    // Fails a request still in flight and tells the server to drop it.
    void abandon(std::int64_t id, std::exception_ptr error, std::string_view reason);
    void fail_all(const std::string& reason);
    void send(OutboundMessage message);
    std::string version() const;

    void arm_sweeper();
    void wait_for_sweep();
    void sweep();

    std::shared_ptr<ClientTransport> transport_;
    boost::asio::io_context& io_;
    PeerOptions options_;
    PeerHandlers handlers_;

    mutable std::mutex mutex_;
    std::unordered_map<std::int64_t, PendingPtr> pending_;
    std::unordered_map<std::string, bool> server_requests_;  // serialized id → cancelled by the server
    std::string protocol_version_;
    bool closed_ = false;
    std::string closed_reason_;          // what fail_all was told: requests sent later fail with it
    std::atomic<bool> sweeping_{false};  // written under mutex_
    std::atomic<std::int64_t> next_id_{0};

    struct Sweeper;
    std::unique_ptr<Sweeper> sweeper_;

    std::atomic<std::uint64_t> malformed_{0};
    std::atomic<std::uint64_t> unknown_responses_{0};
    std::atomic<std::uint64_t> refused_requests_{0};
};

}  // namespace mcp::detail
