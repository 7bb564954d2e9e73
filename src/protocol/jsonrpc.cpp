#include <mcp/protocol/jsonrpc.hpp>

#include <mcp/protocol/errors.hpp>

#include "util/json_members.hpp"
#include "util/utf8.hpp"

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parser.hpp>

#include <algorithm>
#include <cmath>

namespace mcp::jsonrpc {

namespace {

bool is_valid_id(const boost::json::value& id) { return id.is_string() || id.is_int64() || id.is_uint64(); }

Failure invalid(std::string message, const boost::json::value& id = nullptr) {
    return Failure{error_code::invalid_request, std::move(message), id};
}

// A message's arena with its first block inside it: the document of a message up to kMaxText
// bytes (about twice its text, usually) costs one allocation. The small one is of a size glibc's
// per-thread cache serves (up to 1032 bytes) without taking a lock; the medium one holds a
// 2026-07-28 tools/call, whose _meta envelope alone is about 200 bytes.
template <std::size_t Block, std::size_t MaxText>
class InlineArena final : public boost::json::memory_resource {
public:
    static constexpr std::size_t kBlock = Block;
    static constexpr std::size_t kMaxText = MaxText;

private:
    void* do_allocate(std::size_t bytes, std::size_t alignment) override { return arena_.allocate(bytes, alignment); }
    void do_deallocate(void* /*p*/, std::size_t /*bytes*/, std::size_t /*alignment*/) override {}
    bool do_is_equal(const boost::json::memory_resource& other) const noexcept override { return this == &other; }

    alignas(std::max_align_t) unsigned char block_[kBlock];
    boost::json::monotonic_resource arena_{block_, kBlock};
};
using SmallMessageArena = InlineArena<864, 384>;
using MediumMessageArena = InlineArena<2400, 1024>;
// With what boost::json::make_shared_resource adds (a reference count).
static_assert(sizeof(SmallMessageArena) + 32 <= 1032);

}  // namespace
}  // namespace mcp::jsonrpc

// Its deallocate does nothing, as the monotonic resource's: a document in it is let go whole,
// without visiting what it holds.
template <std::size_t Block, std::size_t MaxText>
struct boost::json::is_deallocate_trivial<mcp::jsonrpc::InlineArena<Block, MaxText>> : std::true_type {};

namespace mcp::jsonrpc {

std::variant<boost::json::value, Failure> parse(std::string_view text, const Limits& limits) {
    if (text.size() > limits.max_message_bytes) {
        return invalid("Message too large: " + std::to_string(text.size()) + " bytes exceeds the limit of " +
                       std::to_string(limits.max_message_bytes));
    }
    boost::json::parse_options options;
    options.max_depth = limits.max_depth;
    // The parser's working stack starts in this buffer: no allocation for a typical message.
    unsigned char scratch[4096];
    boost::json::parser parser({}, options, scratch, sizeof scratch);
    // The message lives in an arena of its own: parsing it takes a block or two instead of an
    // allocation per key, object and string, and freeing it is one release. A value *constructed*
    // from a part of it shares (and keeps) the arena; assigning into an existing value copies out.
    if (text.size() <= SmallMessageArena::kMaxText) {
        parser.reset(boost::json::make_shared_resource<SmallMessageArena>());
    } else if (text.size() <= MediumMessageArena::kMaxText) {
        parser.reset(boost::json::make_shared_resource<MediumMessageArena>());
    } else {
        const std::size_t first_block = std::clamp<std::size_t>(text.size() * 2, 1024, 64 * 1024);
        parser.reset(boost::json::make_shared_resource<boost::json::monotonic_resource>(first_block));
    }
    boost::system::error_code ec;
    parser.write(text.data(), text.size(), ec);  // the whole text, trailing garbage is an error
    if (ec) {
        std::string why = ec == boost::json::error::too_deep ? "nesting deeper than " + std::to_string(limits.max_depth)
                                                             : ec.message();
        return Failure{error_code::parse_error, "Parse error: " + why, nullptr};
    }
    return parser.release();
}

std::variant<Message, Failure> classify(const boost::json::value& document) {
    if (document.is_array()) return invalid("Invalid Request: JSON-RPC batches are not supported");
    if (!document.is_object()) return invalid("Invalid Request: a message must be a JSON object");
    const auto [id, version, method, params, result, error] = detail::members_named(
        document.get_object(), std::array<std::string_view, 6>{"id", "jsonrpc", "method", "params", "result", "error"});

    // The id is echoed on errors only when it is itself valid.
    const boost::json::value echo_id = id != nullptr && is_valid_id(*id) ? *id : boost::json::value(nullptr);

    if (version == nullptr || !version->is_string() || version->get_string() != "2.0") {
        return invalid("Invalid Request: \"jsonrpc\" must be \"2.0\"", echo_id);
    }

    Message m;
    if (method != nullptr) {
        if (!method->is_string()) return invalid("Invalid Request: \"method\" must be a string", echo_id);
        m.method = method->get_string();
        if (params != nullptr) {
            if (!params->is_object()) {
                return Failure{error_code::invalid_params, "Invalid params: \"params\" must be an object", echo_id};
            }
            m.params = &params->get_object();
        }
        if (id == nullptr) {
            m.kind = Kind::notification;
            return m;
        }
        if (!is_valid_id(*id)) return invalid("Invalid Request: \"id\" must be a string or an integer");
        m.kind = Kind::request;
        m.id = *id;
        return m;
    }

    // A response to a request this server sent.
    if ((result == nullptr) == (error == nullptr)) {
        return invalid("Invalid Request: a message needs \"method\", or exactly one of \"result\" and \"error\"",
                       echo_id);
    }
    if (id == nullptr || !(is_valid_id(*id) || id->is_null())) {
        return invalid("Invalid Request: a response needs a string or integer \"id\"");
    }
    if (error != nullptr && !error->is_object())
        return invalid("Invalid Request: \"error\" must be an object", echo_id);
    m.kind = Kind::response;
    m.id = *id;
    m.result = result;
    m.error = error != nullptr ? &error->get_object() : nullptr;
    return m;
}

boost::json::value make_result(const boost::json::value& id, boost::json::value result,
                               boost::json::storage_ptr storage) {
    boost::json::object msg(std::move(storage));  // the result's own storage: it moves in, uncopied
    msg.reserve(3);
    msg.emplace("jsonrpc", "2.0");
    msg.emplace("id", id);
    msg.emplace("result", std::move(result));
    return msg;
}

boost::json::value make_error(const boost::json::value& id, int code, std::string_view message,
                              const boost::json::value& data) {
    boost::json::object error;
    error.emplace("code", code);
    error.emplace("message", detail::valid_utf8(message));  // it may quote header bytes
    if (!data.is_null()) error.emplace("data", data);
    boost::json::object msg;
    msg.emplace("jsonrpc", "2.0");
    msg.emplace("id", id);
    msg.emplace("error", std::move(error));
    return msg;
}

boost::json::value make_notification(std::string_view method, boost::json::object params) {
    boost::json::object msg;
    msg.emplace("jsonrpc", "2.0");
    msg.emplace("method", method);
    msg.emplace("params", std::move(params));
    return msg;
}

boost::json::value make_request(const boost::json::value& id, std::string_view method, boost::json::object params) {
    boost::json::object msg;
    msg.emplace("jsonrpc", "2.0");
    msg.emplace("id", id);
    msg.emplace("method", method);
    msg.emplace("params", std::move(params));
    return msg;
}

}  // namespace mcp::jsonrpc
