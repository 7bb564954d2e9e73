// One message's text through what every transport does with it first: jsonrpc::parse under the
// default limits, jsonrpc::classify, then the era classifier and, for a stateless request, the
// 2026-07-28 envelope in params._meta.
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include "protocol/era.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto parsed = mcp::jsonrpc::parse(text, mcp::jsonrpc::Limits{});
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
