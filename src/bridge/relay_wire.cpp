#include "bridge/relay_wire.hpp"

#include <mcp/protocol/client_features.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdint>
#include <exception>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <utility>

namespace mcp::detail {

namespace {

constexpr int kVersion = 1;

[[noreturn]] void malformed(const char* what) { throw std::invalid_argument(what); }

// A field that is missing, or not what it must be.
[[noreturn]] void malformed(std::string_view key, std::string_view must) {
    std::string message = "\"";
    message.append(key).append("\" ").append(must);
    throw std::invalid_argument(message);
}

const boost::json::object& object_at(const boost::json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    if (v == nullptr || !v->is_object()) malformed(key, "must be an object");
    return v->as_object();
}

std::string string_at(const boost::json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    if (v == nullptr || !v->is_string()) malformed(key, "must be a string");
    return std::string(v->as_string());
}

// A non-empty string: ids and keys.
std::string id_at(const boost::json::object& o, std::string_view key) {
    auto s = string_at(o, key);
    if (s.empty()) malformed(key, "is empty");
    return s;
}

int int_at(const boost::json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    if (v == nullptr || !v->is_int64() || v->as_int64() < std::numeric_limits<int>::min() ||
        v->as_int64() > std::numeric_limits<int>::max()) {
        malformed(key, "must be a 32-bit integer");
    }
    return static_cast<int>(v->as_int64());
}

// Exactly one of `keys` is present: its index.
std::size_t one_of(const boost::json::object& o, std::initializer_list<std::string_view> keys) {
    std::size_t found = keys.size();
    std::size_t i = 0;
    for (auto key : keys) {
        if (o.contains(key)) {
            if (found != keys.size()) malformed("two alternatives in one message");
            found = i;
        }
        ++i;
    }
    if (found == keys.size()) malformed("none of the expected alternatives");
    return found;
}

boost::json::object elicitation_wire(const Elicitation& e) {
    boost::json::object o{{"message", e.message}};
    if (e.mode == ElicitMode::url) {
        o["mode"] = "url";
        o["url"] = e.url;
        o["elicitationId"] = e.elicitation_id;
    } else {
        o["requestedSchema"] = e.requested_schema;
    }
    return o;
}

// A sampling request as the inner server sent it when the inner client kept it (`raw`).
boost::json::object sampling_wire(const SamplingRequest& r) { return r.raw.empty() ? to_wire(r) : r.raw; }

boost::json::object question_wire(const MountedCall::Question& q) {
    boost::json::object o{{"key", q.key}, {"inRound", q.in_round}};
    if (const auto* e = std::get_if<Elicitation>(&q.request)) {
        o["elicitation"] = elicitation_wire(*e);
    } else if (std::holds_alternative<RootsRequest>(q.request)) {
        o["roots"] = boost::json::object();
    } else {
        o["sampling"] = sampling_wire(std::get<SamplingRequest>(q.request));
    }
    return o;
}

MountedCall::Question question_from(const boost::json::object& o) {
    MountedCall::Question q;
    q.key = id_at(o, "key");
    const auto* in_round = o.if_contains("inRound");
    if (in_round == nullptr || !in_round->is_bool()) malformed("inRound", "must be a boolean");
    q.in_round = in_round->as_bool();
    switch (one_of(o, {"elicitation", "sampling", "roots"})) {
        case 0: q.request = from_wire<Elicitation>(object_at(o, "elicitation")); break;
        case 1: q.request = from_wire<SamplingRequest>(object_at(o, "sampling")); break;
        default: q.request = RootsRequest{}; break;
    }
    return q;
}

boost::json::object ticket_wire(const RoundTicket& t) {
    return {{"v", kVersion}, {"node", t.node}, {"call", t.call}, {"question", question_wire(t.question)}};
}

RoundTicket ticket_from(const boost::json::object& o) {
    if (int_at(o, "v") != kVersion) malformed("another version");
    return {id_at(o, "node"), id_at(o, "call"), question_from(object_at(o, "question"))};
}

boost::json::object settlement_wire(const Settlement& s) {
    if (const auto* refusal = std::get_if<Refusal>(&s)) {
        return {{"refusal", {{"code", refusal->code}, {"message", refusal->message}}}};
    }
    const auto& answer = std::get<OuterAnswer>(s);
    if (const auto* elicited = std::get_if<ElicitResult>(&answer)) return {{"elicitation", to_wire(*elicited)}};
    if (const auto* roots = std::get_if<std::vector<Root>>(&answer)) return {{"roots", to_wire(*roots)}};
    return {{"sampling", to_wire(std::get<SamplingResult>(answer))}};
}

Settlement settlement_from(const boost::json::object& o) {
    switch (one_of(o, {"elicitation", "sampling", "roots", "refusal"})) {
        case 0: return OuterAnswer{from_wire<ElicitResult>(object_at(o, "elicitation"))};
        case 1: return OuterAnswer{from_wire<SamplingResult>(object_at(o, "sampling"))};
        case 2: return OuterAnswer{from_wire<std::vector<Root>>(object_at(o, "roots"))};
        default: {
            const auto& r = object_at(o, "refusal");
            return Refusal{int_at(r, "code"), string_at(r, "message")};
        }
    }
}

ResumeMessage resume_from(const boost::json::object& o) {
    return {id_at(o, "to"), id_at(o, "from"), id_at(o, "exchange"), id_at(o, "call"),
            settlement_from(object_at(o, "settlement"))};
}

ReplyMessage reply_from(const boost::json::object& o) {
    ReplyMessage m{id_at(o, "to"), id_at(o, "exchange"), ReplyMessage::Working{}};
    switch (one_of(o, {"working", "gone", "result", "error", "round"})) {
        case 0: break;
        case 1: m.body = ReplyMessage::Gone{}; break;
        case 2: m.body = from_wire<CallToolResult>(object_at(o, "result")); break;
        case 3: {
            const auto& e = object_at(o, "error");
            const auto* data = e.if_contains("data");
            m.body = ReplyMessage::Failed{int_at(e, "code"), string_at(e, "message"),
                                          data != nullptr ? *data : boost::json::value()};
            break;
        }
        default: m.body = ticket_from(object_at(o, "round")); break;
    }
    return m;
}

std::optional<boost::json::object> parsed_object(std::string_view text) {
    if (text.size() > kMaxRelayPayload) return std::nullopt;
    boost::system::error_code ec;
    auto value = boost::json::parse(text, ec);
    if (ec || !value.is_object()) return std::nullopt;
    return std::move(value.as_object());
}

}  // namespace

std::string encode(const RoundTicket& ticket) { return boost::json::serialize(ticket_wire(ticket)); }

std::optional<RoundTicket> decode_ticket(std::string_view text) {
    auto o = parsed_object(text);
    if (!o) return std::nullopt;
    try {
        return ticket_from(*o);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::string encode(const ResumeMessage& m) {
    return boost::json::serialize(boost::json::object{{"v", kVersion},
                                                      {"type", "resume"},
                                                      {"to", m.to},
                                                      {"from", m.from},
                                                      {"exchange", m.exchange},
                                                      {"call", m.call},
                                                      {"settlement", settlement_wire(m.settlement)}});
}

std::string encode(const ReplyMessage& m) {
    boost::json::object o{{"v", kVersion}, {"type", "reply"}, {"to", m.to}, {"exchange", m.exchange}};
    struct Body {
        boost::json::object& o;
        void operator()(const ReplyMessage::Working&) const { o["working"] = true; }
        void operator()(const ReplyMessage::Gone&) const { o["gone"] = true; }
        void operator()(const CallToolResult& r) const { o["result"] = to_wire(r); }
        void operator()(const ReplyMessage::Failed& f) const {
            boost::json::object e{{"code", f.code}, {"message", f.message}};
            if (!f.data.is_null()) e["data"] = f.data;
            o["error"] = std::move(e);
        }
        void operator()(const RoundTicket& t) const { o["round"] = ticket_wire(t); }
    };
    std::visit(Body{o}, m.body);
    return boost::json::serialize(o);
}

std::string encode(const CancelMessage& m) {
    return boost::json::serialize(
        boost::json::object{{"v", kVersion}, {"type", "cancel"}, {"to", m.to}, {"exchange", m.exchange}});
}

std::optional<RelayMessage> decode_relay_message(std::string_view text) {
    auto o = parsed_object(text);
    if (!o) return std::nullopt;
    try {
        if (int_at(*o, "v") != kVersion) return std::nullopt;
        const auto type = string_at(*o, "type");
        if (type == "resume") return resume_from(*o);
        if (type == "reply") return reply_from(*o);
        if (type == "cancel") return CancelMessage{id_at(*o, "to"), id_at(*o, "exchange")};
        return std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;  // a wrong type, a missing field, a content block from_wire refused
    }
}

}  // namespace mcp::detail
