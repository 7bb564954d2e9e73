#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include "protocol/plain_result.hpp"

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <optional>
#include <string>
#include <utility>

using namespace mcp;
using namespace mcp::jsonrpc;

namespace {

Failure failure_of(std::string_view text, Limits limits = {}) {
    auto parsed = parse(text, limits);
    if (auto* f = std::get_if<Failure>(&parsed)) return *f;
    auto classified = classify(std::get<boost::json::value>(parsed));
    if (auto* f = std::get_if<Failure>(&classified)) return *f;
    return Failure{0, "valid", nullptr};
}

Message message_of(const boost::json::value& doc) {
    auto classified = classify(doc);
    EXPECT_TRUE(std::holds_alternative<Message>(classified));
    return std::get<Message>(classified);
}

}  // namespace

TEST(JsonRpc, MalformedJsonIsAParseErrorWithNullId) {
    for (const char* text : {"{", "{\"jsonrpc\":\"2.0\",", "nul", "{} trailing", "\xff\xfe", "{\"a\":\"\xc3\x28\"}"}) {
        auto f = failure_of(text);
        EXPECT_EQ(f.code, error_code::parse_error) << text;
        EXPECT_TRUE(f.id.is_null());
    }
}

TEST(JsonRpc, DeepNestingIsRefusedWithoutRecursion) {
    const std::string deep(100000, '[');
    auto f = failure_of(deep);
    EXPECT_EQ(f.code, error_code::parse_error);
    EXPECT_NE(f.message.find("nesting deeper than 64"), std::string::npos);
    // Within the limit it parses.
    EXPECT_EQ(failure_of(std::string(10, '[') + std::string(10, ']')).code, error_code::invalid_request);
}

TEST(JsonRpc, OversizedMessageIsAnInvalidRequest) {
    Limits limits;
    limits.max_message_bytes = 16;
    auto f = failure_of(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", limits);
    EXPECT_EQ(f.code, error_code::invalid_request);
    EXPECT_NE(f.message.find("too large"), std::string::npos);
}

// Each size class of the message's arena (one block inside it up to 384 and 1024 bytes of text,
// blocks from the heap beyond), each at its edges and with a document far larger than its text
// (one-byte members overflow the inline block): what comes out is what went in.
TEST(JsonRpc, MessagesOfEverySizeParseWhole) {
    for (const std::size_t size : {100, 383, 384, 385, 700, 1023, 1024, 1025, 5000, 200000}) {
        for (const bool dense : {false, true}) {
            std::string text = R"({"jsonrpc":"2.0","id":1,"method":"m","params":{)";
            int n = 0;
            while (text.size() + 40 < size) {
                if (n > 0) text += ',';
                text += dense ? "\"" : "\"k";
                text += std::to_string(n);
                text += dense ? "\":[]" : "\":\"vvvvvvvvvvvvvvvvvvvvvvvv\"";
                ++n;
            }
            text += "}}";
            auto parsed = parse(text, {.max_message_bytes = 1 << 20});
            auto* value = std::get_if<boost::json::value>(&parsed);
            ASSERT_NE(value, nullptr) << size;
            EXPECT_EQ(*value, boost::json::parse(text)) << size << (dense ? " dense" : "");
            EXPECT_EQ(value->at("params").as_object().size(), static_cast<std::size_t>(n));
        }
    }
}

TEST(JsonRpc, BatchesAreRefused) {
    auto f = failure_of(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
    EXPECT_EQ(f.code, error_code::invalid_request);
    EXPECT_TRUE(f.id.is_null());
}

TEST(JsonRpc, ShapeErrors) {
    EXPECT_EQ(failure_of(R"("text")").code, error_code::invalid_request);
    EXPECT_EQ(failure_of(R"({"id":1,"method":"ping"})").code, error_code::invalid_request);
    EXPECT_EQ(failure_of(R"({"jsonrpc":"1.0","id":1,"method":"ping"})").code, error_code::invalid_request);
    EXPECT_EQ(failure_of(R"({"jsonrpc":"2.0","id":1,"method":7})").code, error_code::invalid_request);
    EXPECT_EQ(failure_of(R"({"jsonrpc":"2.0","id":1})").code, error_code::invalid_request);
    EXPECT_EQ(failure_of(R"({"jsonrpc":"2.0","id":1,"result":{},"error":{}})").code, error_code::invalid_request);
    // Invalid ids are never echoed.
    for (const char* id : {"{}", "[1]", "1.5", "true", "null"}) {
        auto f = failure_of(std::string(R"({"jsonrpc":"2.0","method":"ping","id":)") + id + "}");
        EXPECT_EQ(f.code, error_code::invalid_request) << id;
        EXPECT_TRUE(f.id.is_null()) << id;
    }
    // A valid id is echoed on a shape error.
    auto f = failure_of(R"({"jsonrpc":"2.0","id":"k","method":"x","params":[1]})");
    EXPECT_EQ(f.code, error_code::invalid_params);
    EXPECT_EQ(f.id, boost::json::value("k"));
}

TEST(JsonRpc, ClassifiesRequestsNotificationsResponses) {
    auto doc = boost::json::parse(R"({"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"cursor":"x"}})");
    auto m = message_of(doc);
    EXPECT_EQ(m.kind, Kind::request);
    EXPECT_EQ(m.method, "tools/list");
    ASSERT_NE(m.params, nullptr);
    EXPECT_EQ(m.id, boost::json::value("a"));

    doc = boost::json::parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    EXPECT_EQ(message_of(doc).kind, Kind::notification);

    doc = boost::json::parse(R"({"jsonrpc":"2.0","id":3,"result":{}})");
    m = message_of(doc);
    EXPECT_EQ(m.kind, Kind::response);
    EXPECT_NE(m.result, nullptr);

    doc = boost::json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"x"}})");
    EXPECT_EQ(message_of(doc).kind, Kind::response);
}

TEST(JsonRpc, RepliesEchoTheIdWithItsJsonType) {
    EXPECT_EQ(boost::json::serialize(make_result(boost::json::value("7"), boost::json::object())),
              R"({"jsonrpc":"2.0","id":"7","result":{}})");
    EXPECT_EQ(boost::json::serialize(make_result(boost::json::value(7), boost::json::object())),
              R"({"jsonrpc":"2.0","id":7,"result":{}})");
    EXPECT_EQ(boost::json::serialize(make_error(nullptr, -32700, "bad", boost::json::object{{"k", 1}})),
              R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad","data":{"k":1}}})");
}

TEST(JsonRpc, ErrorMessagesAreAlwaysValidUtf8) {
    // Messages may quote header bytes that never went through the JSON parser.
    const auto message_of = [](std::string_view text) {
        return std::string(make_error(1, -32020, text).at("error").at("message").as_string());
    };
    EXPECT_EQ(message_of("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
              "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");  // kept
    const std::string replacement = "\xEF\xBF\xBD";
    EXPECT_EQ(message_of("a\x80"
                         "b"),
              "a" + replacement + "b");                                              // a lone continuation byte
    EXPECT_EQ(message_of("\xFF\xFE"), replacement + replacement);                    // never valid
    EXPECT_EQ(message_of("\xC0\xAF"), replacement + replacement);                    // an overlong '/'
    EXPECT_EQ(message_of("\xED\xA0\x80"), replacement + replacement + replacement);  // a surrogate
    EXPECT_EQ(message_of("\xF4\x90\x80\x80"), replacement + replacement + replacement + replacement);  // above U+10FFFF
    EXPECT_EQ(message_of("end\xE2\x82"), "end" + replacement + replacement);                           // cut short
}

// ---- A plain reply found by its text (the client's hot path): both orders the SDKs write, and
// nothing else.

namespace {

std::optional<std::pair<std::int64_t, std::string>> plain(std::string_view text) {
    const auto match = mcp::jsonrpc::match_plain_result(text);
    if (!match) return std::nullopt;
    return std::pair{match->id, std::string(match->result)};
}

}  // namespace

TEST(PlainResult, MatchesBothOrdersAndHandsTheResultOnUnparsed) {
    using Match = std::pair<std::int64_t, std::string>;
    EXPECT_EQ(plain(R"({"jsonrpc":"2.0","id":7,"result":{"content":[]}})"), Match(7, R"({"content":[]})"));
    EXPECT_EQ(plain(R"({"result":{"content":[]},"jsonrpc":"2.0","id":7})"), Match(7, R"({"content":[]})"));
    EXPECT_EQ(plain("{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":[1]}\r\n"), Match(0, "[1]"));
    EXPECT_EQ(plain(R"({"jsonrpc":"2.0","id":123456789012345678,"result":1})"), Match(123456789012345678, "1"));
    // The slice is the caller's to check: here it is not one value, and the reader will say so.
    EXPECT_EQ(plain(R"({"jsonrpc":"2.0","id":1,"result":{},"error":{}})"), Match(1, R"({},"error":{})"));
    EXPECT_EQ(plain(R"({"result":{"a":1,"jsonrpc":"2.0","id":5},"jsonrpc":"2.0","id":6})"),
              Match(6, R"({"a":1,"jsonrpc":"2.0","id":5})"));
}

TEST(PlainResult, AnythingElseTakesTheGeneralPath) {
    for (const std::string_view text : {
             "",
             "{}",
             "[]",
             R"({"jsonrpc":"2.0","id":1,"result":})",                         // no result
             R"({"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}})",  // an error
             R"({"jsonrpc":"2.0","id":"1","result":{}})",                     // a string id
             R"({"jsonrpc":"2.0","id":-1,"result":{}})",                      // a negative id
             R"({"jsonrpc":"2.0","id":01,"result":{}})",                      // a leading zero
             R"({"jsonrpc":"2.0","id":1.5,"result":{}})",                     // not an integer
             R"({"jsonrpc":"2.0","id":1234567890123456789,"result":{}})",     // more digits than ids have
             R"({"jsonrpc":"1.0","id":1,"result":{}})",                       // another version
             R"({"jsonrpc": "2.0", "id": 1, "result": {}})",                  // spaces: not written so by SDKs
             R"({"id":1,"jsonrpc":"2.0","result":{}})",                       // another order
             R"({"result":{},"jsonrpc":"2.0","id":})",
             R"({"result":{},"jsonrpc":"2.0","id":1)",  // unterminated
             R"({"result":{},"id":1})",
             R"({"result":{}"jsonrpc":"2.0","id":1})",  // no comma before the envelope
             R"({"result":{},"jsonrpc":"2.0","id":01})",
             R"({"result":{},"jsonrpc":"2.0","id":1234567890123456789})",
             R"({"jsonrpc":"2.0","method":"tools/call","id":1,"params":{}})",
             R"({"jsonrpc":"2.0","id":1,"result":{}}x)",  // trailing bytes
         }) {
        EXPECT_EQ(plain(text), std::nullopt) << text;
    }
}
