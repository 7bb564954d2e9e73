#include "server/client_requests/request_state.hpp"

#include <mcp/protocol/errors.hpp>

#include <openssl/evp.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <vector>

namespace mcp::detail {

namespace {

constexpr std::string_view kPurpose = "request-state";

// JSON with object keys in sorted order, so the same params serialize alike whatever order the
// client sent them in.
void canonical(const boost::json::value& v, std::string& out) {
    if (const auto* o = v.if_object()) {
        std::vector<const boost::json::key_value_pair*> members;
        for (const auto& kv : *o) members.push_back(&kv);
        std::sort(members.begin(), members.end(), [](auto* a, auto* b) { return a->key() < b->key(); });
        out += '{';
        for (std::size_t i = 0; i < members.size(); ++i) {
            if (i) out += ',';
            out += boost::json::serialize(boost::json::value(members[i]->key()));
            out += ':';
            canonical(members[i]->value(), out);
        }
        out += '}';
    } else if (const auto* a = v.if_array()) {
        out += '[';
        for (std::size_t i = 0; i < a->size(); ++i) {
            if (i) out += ',';
            canonical((*a)[i], out);
        }
        out += ']';
    } else {
        out += boost::json::serialize(v);
    }
}

std::string sha256_hex(std::string_view data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr);
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < len; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 15];
    }
    return out;
}

[[noreturn]] void invalid(const char* why) { throw InvalidParams(std::string("Invalid requestState: ") + why); }

}  // namespace

std::string params_digest(const boost::json::object& params) {
    boost::json::object copy = params;
    copy.erase("_meta");
    copy.erase("inputResponses");
    copy.erase("requestState");
    std::string text;
    canonical(copy, text);
    return sha256_hex(text);
}

std::string seal_request_state(const KeyRing& keys, const RequestState& s) {
    boost::json::object payload{
        {"m", s.method}, {"d", s.params_digest}, {"p", s.principal}, {"a", s.answers}, {"t", s.issued_ms}};
    if (!s.handler_state.empty()) payload["h"] = s.handler_state;
    return keys.seal(kPurpose, boost::json::serialize(payload));
}

RequestState open_request_state(const KeyRing& keys, std::string_view token, std::chrono::milliseconds ttl) {
    auto plain = keys.open(kPurpose, token);
    if (!plain) invalid("integrity check failed");
    boost::system::error_code ec;
    auto payload = boost::json::parse(*plain, ec);
    const auto* o = ec ? nullptr : payload.if_object();
    if (o == nullptr) invalid("malformed");
    RequestState s;
    const auto* m = o->if_contains("m");
    const auto* d = o->if_contains("d");
    const auto* p = o->if_contains("p");
    const auto* a = o->if_contains("a");
    const auto* t = o->if_contains("t");
    if (!m || !m->is_string() || !d || !d->is_string() || !p || !p->is_string() || !a || !a->is_object() || !t ||
        !t->is_int64()) {
        invalid("malformed");
    }
    s.method = m->get_string();
    s.params_digest = d->get_string();
    s.principal = p->get_string();
    s.answers = a->get_object();
    s.issued_ms = t->get_int64();
    if (const auto* h = o->if_contains("h")) {
        if (!h->is_string()) invalid("malformed");
        s.handler_state = h->get_string();
    }
    const auto now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    if (now - s.issued_ms > ttl.count() || s.issued_ms > now + 60'000) invalid("expired");
    return s;
}

}  // namespace mcp::detail
