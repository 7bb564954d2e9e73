#pragma once
// A 2025-era call of a replayable handler waits for the client's answers as a record, not a
// thread (docs/adr/0015-parked-calls.md). The handler asked for something the call does not have
// yet: its requests go to the client, each answer is expected in the mailbox, each request has a
// deadline in the core's deadline queue, and the thread goes back to the pool. When every answer
// is in, or one request times out, the handler runs again from the top with what came back. When
// the client cancels the call or goes away, the call ends with no response and runs no more.
#include "telemetry/span.hpp"
#include "util/deadline_queue.hpp"
#include "util/fair_share.hpp"
#include "util/metrics.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace mcp::detail {

struct CallState;

// What a parked call waits for. Settled once: by the last answer, the first timeout, or a drop.
struct ParkedRound : std::enable_shared_from_this<ParkedRound> {
    struct Sent {
        std::string key;  // the handler's name for the request
        std::string id;   // the JSON-RPC id it went out with, and its mailbox key
        DeadlineQueue::Ticket deadline = 0;
        bool answered = false;
        std::optional<metrics::GaugeScope> parked;  // counted until answered or given up
        std::unique_ptr<telemetry::SpanData> span;  // the request's, when the call is traced
    };
    // Asks the core to drop the call, from a stop callback (cancellation, or the session closing).
    struct Drop {
        std::weak_ptr<CallState> call;
        ParkedRound* round;  // owns this callback
        const char* why;     // for the log
        void operator()() const;
    };

    std::mutex mutex;
    bool settled = false;
    FairShare::Hold place;  // its client's place among the node's parked calls, until settled
    std::vector<Sent> sent;
    std::size_t unanswered = 0;
    std::optional<std::stop_callback<Drop>> on_cancel;
    std::optional<std::stop_callback<Drop>> on_close;
};

// The node has as many parked calls as --max-parked-calls allows, and no client holds more than its
// share (docs/adr/0024-fair-limits.md).
struct ParkingFull {};

// Sends the requests the handler left pending and parks the call. Throws ParkingFull, a Refusal
// when the call's client has all its parked calls (ClientQuotas::parked_calls), or
// StoreUnavailable when a shared mailbox cannot be reached (nothing is left expected then).
void park(const std::shared_ptr<CallState>& call);

}  // namespace mcp::detail
