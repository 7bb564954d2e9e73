// The RESP2 reply parser of the Redis client: a Redis server (or whatever answers on its port)
// sends these bytes. The input is parsed fed whole and fed in pieces of a size the input chooses,
// under the real limits and under small ones; both feedings must give the same replies and fail
// alike. A command built by resp_command must parse back to its arguments.
#include "fuzz_check.hpp"
#include "store/redis/resp.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using mcp::detail::RespParser;
using mcp::detail::RespValue;

struct Outcome {
    std::vector<RespValue> replies;
    bool failed = false;
};

bool same(const RespValue& a, const RespValue& b) {
    if (a.type != b.type || a.text != b.text || a.integer != b.integer) return false;
    if (a.elements.size() != b.elements.size()) return false;
    for (std::size_t i = 0; i < a.elements.size(); ++i) {
        if (!same(a.elements[i], b.elements[i])) return false;
    }
    return true;
}

bool same(const Outcome& a, const Outcome& b) {
    if (a.failed != b.failed || a.replies.size() != b.replies.size()) return false;
    for (std::size_t i = 0; i < a.replies.size(); ++i) {
        if (!same(a.replies[i], b.replies[i])) return false;
    }
    return true;
}

Outcome parse(std::string_view input, std::size_t piece, RespParser::Limits limits) {
    RespParser parser(limits);
    Outcome out;
    try {
        for (std::size_t at = 0; at < input.size(); at += piece) {
            parser.feed(input.substr(at, piece));
            while (auto reply = parser.next()) out.replies.push_back(std::move(*reply));
        }
    } catch (const std::runtime_error&) {
        out.failed = true;  // a protocol violation: the client drops the connection
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    // The first byte: how many bytes each read delivers (1 to 32).
    const std::size_t piece = data[0] % 32 + 1;
    const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
    for (const auto limits :
         {RespParser::Limits{}, RespParser::Limits{.max_bulk = 64, .max_elements = 16, .max_depth = 3}}) {
        const Outcome whole = parse(input, std::max<std::size_t>(input.size(), 1), limits);
        FUZZ_CHECK(same(whole, parse(input, piece, limits)));
    }

    // The command the client writes, split where the input says, reads back as its arguments.
    const std::vector<std::string> args{std::string(input.substr(0, input.size() / 2)),
                                        std::string(input.substr(input.size() / 2))};
    RespParser parser;
    parser.feed(mcp::detail::resp_command(args));
    const auto reply = parser.next();
    FUZZ_CHECK(reply && reply->type == RespValue::Type::array && reply->elements.size() == 2);
    FUZZ_CHECK(reply->elements[0].text == args[0] && reply->elements[1].text == args[1]);
    return 0;
}
