// One message's text through what every transport does with it first: jsonrpc::parse under the
// default limits, jsonrpc::classify, then the era classifier and, for a stateless request, the
// 2026-07-28 envelope in params._meta. And the client's reading of a plain reply from its text,
// against the document's: when the text reader answers, the document path must read the same
// message as a response with that id and the same tool result.
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include "fuzz_check.hpp"
#include "protocol/era.hpp"
#include "protocol/plain_result.hpp"
#include "protocol/tool_result_text.hpp"

#include <mcp/protocol/content.hpp>

#include <boost/json/serialize.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

namespace {

void check_plain_reply(std::string_view text, const boost::json::value* document) {
    const auto plain = mcp::jsonrpc::match_plain_result(text);
    if (!plain) return;
    const auto direct = mcp::detail::plain_tool_result(plain->result, mcp::jsonrpc::Limits{}.max_depth);
    if (!direct) return;
    FUZZ_CHECK(document != nullptr);
    const auto classified = mcp::jsonrpc::classify(*document);
    const auto* message = std::get_if<mcp::jsonrpc::Message>(&classified);
    FUZZ_CHECK(message != nullptr && message->kind == mcp::jsonrpc::Kind::response && message->error == nullptr);
    FUZZ_CHECK(message->id.is_int64() && message->id.get_int64() == plain->id);
    const auto via_document = mcp::tool_result_from_wire(boost::json::value(document->at("result")));
    FUZZ_CHECK(boost::json::serialize(mcp::to_wire(*direct)) == boost::json::serialize(mcp::to_wire(via_document)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = mcp::jsonrpc::parse(text, mcp::jsonrpc::Limits{});
    check_plain_reply(text, std::get_if<boost::json::value>(&parsed));
    if (std::holds_alternative<mcp::jsonrpc::Failure>(parsed)) return 0;
    auto classified = mcp::jsonrpc::classify(std::get<boost::json::value>(parsed));
    const auto* message = std::get_if<mcp::jsonrpc::Message>(&classified);
    if (message == nullptr) return 0;
    // The header names either era, or is absent: each takes a different path through the rules.
    for (std::string_view header : {"", "2025-11-25", "2026-07-28"}) {
        if (mcp::detail::classify_era(*message, header) != mcp::Era::stateless) continue;
        if (message->kind != mcp::jsonrpc::Kind::request) continue;
        try {
            (void)mcp::detail::read_envelope(*message);
        } catch (const mcp::Error&) {
            // A malformed envelope is refused with -32602: what the fuzzer must not find is anything else.
        }
        (void)mcp::detail::progress_token_of(*message);
    }
    return 0;
}
