// The client's pure pieces: the negotiation's verdicts (one test per verdict), the 2026 envelope
// spliced into a request, multi-round-trip retries, elicitation defaults, the result cache, lazy pages, and the header
// fields of the HTTP transports (the value encoding of Mcp-Name and Mcp-Param-*, what each request carries).
#include "client/elicitation_defaults.hpp"
#include "client/envelope.hpp"
#include "client/http/request_headers.hpp"
#include "client/http/response_body.hpp"
#include "client/mrtr.hpp"
#include "client/negotiation.hpp"
#include "client/result_cache.hpp"
#include "protocol/param_headers.hpp"

#include <mcp/client/pages.hpp>
#include <mcp/protocol/errors.hpp>

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>

#include <stdexcept>

using namespace mcp;
using namespace mcp::detail;

namespace {

const std::vector<std::string> kAll{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

boost::json::object object(std::string_view text) { return boost::json::parse(text).as_object(); }

}  // namespace

// ---- The 2026-07-28 envelope, serialized once and spliced into each request.

TEST(Envelope, ARequestCarriesItFirstInMetaAndStaysValidJson) {
    const auto members = envelope_members("2026-07-28", object(R"({"roots":{"listChanged":true}})"),
                                          object(R"({"name":"c","version":"1"})"), LogLevel::debug);
    const auto text = request_text(7, "tools/call", object(R"({"name":"echo","arguments":{"text":"x"}})"), members);
    const auto request = object(text);
    EXPECT_EQ(request.at("id").as_int64(), 7);
    EXPECT_EQ(request.at("method").as_string(), "tools/call");
    const auto& params = request.at("params").as_object();
    EXPECT_EQ(params.at("name").as_string(), "echo");
    EXPECT_EQ(params.at("arguments").at("text").as_string(), "x");
    const auto& meta = params.at("_meta").as_object();
    EXPECT_EQ(meta.at("io.modelcontextprotocol/protocolVersion").as_string(), "2026-07-28");
    EXPECT_EQ(meta.at("io.modelcontextprotocol/clientCapabilities").at("roots").at("listChanged").as_bool(), true);
    EXPECT_EQ(meta.at("io.modelcontextprotocol/clientInfo").at("name").as_string(), "c");
    EXPECT_EQ(meta.at("io.modelcontextprotocol/logLevel").as_string(), "debug");
}

TEST(Envelope, WhatMetaHeldStaysButTheEnvelopeKeysAreTheClients) {
    const auto members = envelope_members("2026-07-28", {}, object(R"({"name":"c","version":"1"})"), std::nullopt);
    const auto text = request_text(
        1, "m\"ethod",
        object(R"({"_meta":{"progressToken":1,"io.modelcontextprotocol/protocolVersion":"1999-01-01"}})"), members);
    EXPECT_EQ(text.find("1999-01-01"), std::string::npos) << text;  // once, and the client's
    const auto request = object(text);
    EXPECT_EQ(request.at("method").as_string(), "m\"ethod");
    const auto& params = request.at("params").as_object();
    EXPECT_EQ(params.size(), 1u);
    const auto& meta = params.at("_meta").as_object();
    EXPECT_EQ(meta.at("progressToken").as_int64(), 1);
    EXPECT_EQ(meta.at("io.modelcontextprotocol/protocolVersion").as_string(), "2026-07-28");
    EXPECT_FALSE(meta.contains("io.modelcontextprotocol/logLevel"));
}

TEST(Envelope, AMetaThatIsNotAnObjectIsReplacedAndNoEnvelopeMeansThePlainRequest) {
    const auto members = envelope_members("2026-07-28", {}, {}, std::nullopt);
    const auto request = object(request_text(2, "ping", object(R"({"_meta":[1,2]})"), members));
    EXPECT_TRUE(request.at("params").at("_meta").is_object());
    const auto plain = object(request_text(3, "ping", {}, {}));
    EXPECT_TRUE(plain.at("params").as_object().empty());
}

TEST(Envelope, TheTraceFollowsTheEnvelopeAndReplacesTheCallersOwn) {
    const auto members = envelope_members("2026-07-28", {}, {}, std::nullopt);
    const auto trace = trace_members("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", R"(k="v\w)");
    const auto params = object(R"({"name":"echo","_meta":{"traceparent":"old","tracestate":"old","progressToken":4}})");
    for (const std::string_view envelope : {std::string_view(members), std::string_view()}) {
        const auto text = request_text(5, "tools/call", params, envelope, trace);
        EXPECT_EQ(text.find("old"), std::string::npos) << text;  // once, and the client's
        const auto request = object(text);
        const auto& meta = request.at("params").at("_meta").as_object();
        EXPECT_EQ(meta.at("traceparent").as_string(), "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        EXPECT_EQ(meta.at("tracestate").as_string(), R"(k="v\w)");  // escaped in the text, whole again
        EXPECT_EQ(meta.at("progressToken").as_int64(), 4);
        EXPECT_EQ(meta.contains("io.modelcontextprotocol/protocolVersion"), !envelope.empty());
        EXPECT_EQ(request.at("params").at("name").as_string(), "echo");
    }
    // Without a trace the caller's own _meta stays as it is.
    const auto untouched = object(request_text(6, "tools/call", params, members));
    EXPECT_EQ(untouched.at("params").at("_meta").at("traceparent").as_string(), "old");
    EXPECT_FALSE(object(request_text(7, "ping", {}, {}, trace_members("tp", "")))
                     .at("params")
                     .at("_meta")
                     .as_object()
                     .contains("tracestate"));
}

// ---- Negotiation: one test per verdict.

TEST(Negotiation, DiscoverResultNamingTheVersionIsModern) {
    const auto v = classify_discover_result(object(R"({"supportedVersions":["2026-07-28"],"capabilities":{}})"),
                                            "2026-07-28", kAll);
    EXPECT_EQ(v.verdict, Verdict::modern);
    EXPECT_EQ(v.version, "2026-07-28");
    EXPECT_FALSE(v.retry);
}

TEST(Negotiation, AResultWithoutSupportedVersionsIsA2025ServersAnswerToAnUnknownRequest) {
    const auto v = classify_discover_result(object("{}"), "2026-07-28", kAll);
    EXPECT_EQ(v.verdict, Verdict::legacy);
    EXPECT_TRUE(v.version.empty());  // the newest 2025 version first
}

TEST(Negotiation, DiscoverResultWithoutTheVersionRetriesInTheNewestCommonModernOne) {
    const auto v = classify_discover_result(object(R"({"supportedVersions":["2027-01-01","2026-07-28"]})"),
                                            "2027-01-01x", std::vector<std::string>{"2026-07-28", "2025-11-25"});
    EXPECT_EQ(v.verdict, Verdict::modern);
    EXPECT_EQ(v.version, "2026-07-28");
    EXPECT_TRUE(v.retry);
}

TEST(Negotiation, UnsupportedVersionErrorRetriesWithASupportedModernVersion) {
    const auto v = classify_probe_error(error_code::unsupported_protocol_version,
                                        boost::json::parse(R"({"supported":["2026-07-28"],"requested":"2099-01-01"})"),
                                        "2099-01-01", std::vector<std::string>{"2099-01-01", "2026-07-28"});
    EXPECT_EQ(v.verdict, Verdict::modern);
    EXPECT_EQ(v.version, "2026-07-28");
    EXPECT_TRUE(v.retry);
    EXPECT_EQ(v.server_versions, (std::vector<std::string>{"2026-07-28"}));
}

TEST(Negotiation, UnsupportedVersionErrorListingOnlyLegacyVersionsInitializesWithThem) {
    const auto v = classify_probe_error(error_code::unsupported_protocol_version,
                                        boost::json::parse(R"({"supported":["2025-06-18"]})"), "2026-07-28", kAll);
    EXPECT_EQ(v.verdict, Verdict::legacy);
    EXPECT_EQ(v.version, "2025-06-18");
}

TEST(Negotiation, NoVersionInCommonIsIncompatible) {
    const auto v = classify_probe_error(error_code::unsupported_protocol_version,
                                        boost::json::parse(R"({"supported":["1999-01-01"]})"), "2026-07-28", kAll);
    EXPECT_EQ(v.verdict, Verdict::incompatible);
    EXPECT_EQ(v.server_versions, (std::vector<std::string>{"1999-01-01"}));
}

TEST(Negotiation, OtherModernErrorsKeepTheModernEra) {
    for (int code : {error_code::missing_required_client_capability, error_code::header_mismatch}) {
        const auto v = classify_probe_error(code, nullptr, "2026-07-28", kAll);
        EXPECT_EQ(v.verdict, Verdict::modern) << code;
        EXPECT_FALSE(v.retry);
    }
}

TEST(Negotiation, AnyOtherErrorIsLegacyWhateverItsCode) {
    for (int code : {error_code::method_not_found, error_code::invalid_params, error_code::invalid_request, -1, 42}) {
        const auto v = classify_probe_error(code, nullptr, "2026-07-28", kAll);
        EXPECT_EQ(v.verdict, Verdict::legacy) << code;
        EXPECT_TRUE(v.version.empty());
    }
}

TEST(Negotiation, SilenceIsLegacy) { EXPECT_EQ(classify_probe_silence().verdict, Verdict::legacy); }

TEST(Negotiation, HttpBadRequestWithAModernErrorBodyIsModern) {
    const auto v = classify_probe_http(
        400,
        R"({"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported","data":{"supported":["2026-07-28"]}}})",
        HttpStage::probe, "2099-01-01", std::vector<std::string>{"2099-01-01", "2026-07-28"});
    EXPECT_EQ(v.verdict, Verdict::modern);
    EXPECT_TRUE(v.retry);
}

TEST(Negotiation, HttpClientErrorWithoutAModernBodyIsLegacy) {
    for (int status : {400, 404, 405, 406}) {
        for (std::string_view body :
             {"", "Bad Request", R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}})"}) {
            EXPECT_EQ(classify_probe_http(status, body, HttpStage::probe, "2026-07-28", kAll).verdict, Verdict::legacy)
                << status << " " << body;
        }
    }
}

TEST(Negotiation, HttpInitializeRefusedWith400Or404Or405IsTheLegacySseTransport) {
    for (int status : {400, 404, 405})
        EXPECT_EQ(classify_probe_http(status, "", HttpStage::initialize, "2025-11-25", kAll).verdict,
                  Verdict::legacy_sse);
}

TEST(Negotiation, HttpServerErrorsSayNothingAboutTheEra) {
    EXPECT_EQ(classify_probe_http(500, "", HttpStage::probe, "2026-07-28", kAll).verdict, Verdict::failed);
    EXPECT_EQ(classify_probe_http(503, "", HttpStage::initialize, "2025-11-25", kAll).verdict, Verdict::failed);
}

TEST(Negotiation, VersionsCompareAsDates) {
    EXPECT_TRUE(is_modern_version("2026-07-28"));
    EXPECT_TRUE(is_modern_version("2027-01-01"));
    EXPECT_FALSE(is_modern_version("2025-11-25"));
    EXPECT_EQ(newest_common({"2025-03-26", "2025-11-25"}, kAll), "2025-11-25");
    EXPECT_EQ(client_versions().size(), 5u);
}

// ---- Multi-round-trip requests.

TEST(Mrtr, AResultWithoutResultTypeIsComplete) {
    EXPECT_FALSE(is_input_required(boost::json::parse(R"({"content":[]})")));
    EXPECT_FALSE(is_input_required(boost::json::parse(R"({"resultType":"complete"})")));
    EXPECT_TRUE(is_input_required(boost::json::parse(R"({"resultType":"input_required","requestState":"s"})")));
}

TEST(Mrtr, TheRetryCarriesEveryAnswerAndTheStateVerbatim) {
    const auto input = read_input_required(object(R"({"resultType":"input_required",
        "inputRequests":{"name":{"method":"elicitation/create","params":{"message":"Name?"}},
                         "body":{"method":"sampling/createMessage","params":{"maxTokens":5,"messages":[]}}},
        "requestState":"opaque \u00e9 +/= state"})"));
    ASSERT_EQ(input.requests.size(), 2u);
    const auto original =
        object(R"({"name":"t","arguments":{"a":1},"inputResponses":{"old":{}},"requestState":"old"})");
    const auto params = retry_params(original, input, [](const InputRequest& r) {
        return boost::json::object{{"answered", r.method}};
    });
    EXPECT_EQ(params.at("name"), "t");
    EXPECT_EQ(params.at("arguments"), original.at("arguments"));
    EXPECT_EQ(params.at("requestState"), "opaque \u00e9 +/= state");
    EXPECT_EQ(params.at("inputResponses"), boost::json::parse(R"({"name":{"answered":"elicitation/create"},
                                                                   "body":{"answered":"sampling/createMessage"}})"));
}

TEST(Mrtr, NoStateInTheResultMeansNoStateInTheRetry) {
    const auto input =
        read_input_required(object(R"({"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}})"));
    const auto params =
        retry_params(object(R"({"uri":"x","requestState":"from an earlier round"})"), input, [](const InputRequest&) {
            return boost::json::object{{"roots", boost::json::array()}};
        });
    EXPECT_FALSE(params.contains("requestState"));
    EXPECT_TRUE(params.at("inputResponses").as_object().contains("r"));
}

TEST(Mrtr, AStateAloneIsRetriedAtOnceWithoutResponses) {
    const auto input = read_input_required(object(R"({"resultType":"input_required","requestState":{"any":"json"}})"));
    EXPECT_TRUE(input.requests.empty());
    const auto params = retry_params(object(R"({"name":"t"})"), input, [](const InputRequest&) -> boost::json::object {
        throw std::logic_error("nothing to answer");
    });
    EXPECT_FALSE(params.contains("inputResponses"));
    EXPECT_EQ(params.at("requestState"), boost::json::parse(R"({"any":"json"})"));
}

TEST(Mrtr, MalformedInputRequiredResultsAreRefused) {
    EXPECT_THROW(read_input_required(object(R"({"resultType":"input_required"})")), std::invalid_argument);
    EXPECT_THROW(read_input_required(object(R"({"resultType":"input_required","inputRequests":{"k":{"params":{}}}})")),
                 std::invalid_argument);
    EXPECT_THROW(read_input_required(object(R"({"resultType":"input_required","inputRequests":[]})")),
                 std::invalid_argument);
}

// ---- Elicitation defaults (SEP-1034).

TEST(ElicitationDefaults, PrimitivesTheUserLeftOutTakeTheirDefaults) {
    const auto schema = object(R"({"type":"object","properties":{
        "name":{"type":"string","default":"Ada"},
        "age":{"type":"integer","default":36},
        "score":{"type":"number","default":9.5},
        "size":{"type":"string","enum":["S","M"],"default":"M"},
        "ok":{"type":"boolean","default":true},
        "tags":{"type":"array","items":{"type":"string","enum":["a"]},"default":["a"]},
        "nodefault":{"type":"string"}}})");
    boost::json::object content{{"name", "Grace"}};
    fill_defaults(schema, content);
    EXPECT_EQ(content, object(R"({"name":"Grace","age":36,"score":9.5,"size":"M","ok":true})"));
}

// ---- The result cache (2026 caching hints).

TEST(ResultCache, KeepsResultsForTheirTtlOnly) {
    ResultCache cache(8);
    const auto t0 = ResultCache::Clock::now();
    cache.put("tools/list", {}, object(R"({"tools":[],"ttlMs":1000,"cacheScope":"private"})"), t0);
    EXPECT_TRUE(cache.get("tools/list", {}, t0 + std::chrono::milliseconds(999)));
    EXPECT_FALSE(cache.get("tools/list", {}, t0 + std::chrono::milliseconds(1000)));
    // No ttlMs, zero or negative: immediately stale, never kept.
    for (auto result : {R"({"tools":[]})", R"({"tools":[],"ttlMs":0})", R"({"tools":[],"ttlMs":-5})"}) {
        cache.put("tools/list", {}, object(result), t0);
        EXPECT_FALSE(cache.get("tools/list", {}, t0)) << result;
    }
}

TEST(ResultCache, TheKeyIsTheMethodAndItsParamsWithoutMeta) {
    ResultCache cache(8);
    cache.put("resources/read", object(R"({"uri":"a","_meta":{"x":1}})"), object(R"({"contents":[],"ttlMs":60000})"));
    EXPECT_TRUE(cache.get("resources/read", object(R"({"uri":"a","_meta":{"y":2}})")));
    EXPECT_FALSE(cache.get("resources/read", object(R"({"uri":"b"})")));
    EXPECT_FALSE(cache.get("prompts/list", object(R"({"uri":"a"})")));
}

TEST(ResultCache, RetriesAreNeverKept) {
    ResultCache cache(8);
    cache.put("tools/list", object(R"({"requestState":"s"})"), object(R"({"ttlMs":60000})"));
    cache.put("tools/list", object(R"({"inputResponses":{}})"), object(R"({"ttlMs":60000})"));
    EXPECT_FALSE(cache.get("tools/list", object(R"({"requestState":"s"})")));
    EXPECT_FALSE(cache.get("tools/list", object(R"({"inputResponses":{}})")));
}

TEST(ResultCache, NotificationsInvalidateAndTheOldestGoesFirst) {
    ResultCache cache(2);
    cache.put("tools/list", {}, object(R"({"ttlMs":60000})"));
    cache.put("resources/read", object(R"({"uri":"a"})"), object(R"({"ttlMs":60000})"));
    cache.forget_read("a");
    EXPECT_FALSE(cache.get("resources/read", object(R"({"uri":"a"})")));
    cache.forget_method("tools/list");
    EXPECT_FALSE(cache.get("tools/list", {}));
    cache.put("tools/list", object(R"({"cursor":"1"})"), object(R"({"ttlMs":60000})"));
    cache.put("tools/list", object(R"({"cursor":"2"})"), object(R"({"ttlMs":60000})"));
    cache.put("tools/list", object(R"({"cursor":"3"})"), object(R"({"ttlMs":60000})"));
    EXPECT_FALSE(cache.get("tools/list", object(R"({"cursor":"1"})")));
    EXPECT_TRUE(cache.get("tools/list", object(R"({"cursor":"3"})")));
}

// ---- Lazy pages.

TEST(Pages, FetchesEachPageWhenTheWalkReachesIt) {
    std::vector<std::optional<std::string>> asked;
    Pages<int> pages(
        [&](const std::optional<std::string>& cursor) {
            asked.push_back(cursor);
            if (!cursor) return Page<int>{{1, 2}, "a"};
            if (*cursor == "a") return Page<int>{{}, "b"};  // an empty page is skipped
            return Page<int>{{3}, std::nullopt};
        },
        10);
    auto it = pages.begin();
    EXPECT_EQ(asked.size(), 1u);
    std::vector<int> seen;
    for (; it != pages.end(); ++it) seen.push_back(*it);
    EXPECT_EQ(seen, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(asked.size(), 3u);
    static_assert(std::ranges::input_range<Pages<int>>);
}

TEST(Pages, CursorsThatGoRoundOrNeverEndAreRefused) {
    Pages<int> circle([](const std::optional<std::string>&) { return Page<int>{{1}, "same"}; }, 100);
    std::size_t n = 0;
    EXPECT_THROW(for (auto it = circle.begin(); it != circle.end(); ++it)++ n, ProtocolViolation);
    EXPECT_EQ(n, 2u);
    int next = 0;
    Pages<int> endless([&](const std::optional<std::string>&) { return Page<int>{{1}, std::to_string(++next)}; }, 5);
    EXPECT_THROW(for (auto it = endless.begin(); it != endless.end(); ++it){}, ProtocolViolation);
}

// ---- HTTP request headers.

TEST(HeaderValueEncoding, PlainWhenSafeElseBase64AsTheSpecsTableSays) {
    // basic/transports/streamable-http.mdx, "Value Encoding", its examples.
    EXPECT_EQ(encode_header_value("us-west1"), "us-west1");
    EXPECT_EQ(encode_header_value("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
    EXPECT_EQ(encode_header_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
    EXPECT_EQ(encode_header_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
    EXPECT_EQ(encode_header_value("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
    // Internal spaces are safe; a tab, CR or any control character is not, nor a space at one end.
    EXPECT_EQ(encode_header_value("us west 1"), "us west 1");
    EXPECT_EQ(encode_header_value(""), "");
    EXPECT_EQ(encode_header_value("42"), "42");
    EXPECT_EQ(encode_header_value("file:///path/to/file%20name.txt"), "file:///path/to/file%20name.txt");
    const std::vector<std::string> unsafe{"\tindented",
                                          "a\tb",
                                          "line1\r\nline2",
                                          " lead",
                                          "trail ",
                                          std::string("nul\0", 4),
                                          "del\x7f",
                                          "=?base64?"
                                          "?="};
    for (const auto& value : unsafe) {
        const auto encoded = encode_header_value(value);
        EXPECT_TRUE(encoded.starts_with("=?base64?")) << value;
        EXPECT_EQ(decode_header_value(encoded), value);
    }
}

TEST(HttpRequestHeaders, A2026MessageMirrorsItsMetadataAndNoSession) {
    OutboundMessage m;
    m.method = "tools/call";
    m.name = "Grüße";
    m.params = {{"Region", "us-west1"}, {"Note", " x "}};
    m.protocol_version = "2026-07-28";
    const auto h = post_headers(m, "ignored-session", {{"Authorization", "Bearer t"}});
    EXPECT_EQ(h.get("Accept"), "application/json, text/event-stream");
    EXPECT_EQ(h.get("Content-Type"), "application/json");
    EXPECT_EQ(h.get("MCP-Protocol-Version"), "2026-07-28");
    EXPECT_EQ(h.get("Mcp-Method"), "tools/call");
    EXPECT_EQ(h.get("Mcp-Name"), "=?base64?R3LDvMOfZQ==?=");
    EXPECT_EQ(h.get("Mcp-Param-Region"), "us-west1");
    EXPECT_EQ(h.get("Mcp-Param-Note"), "=?base64?IHgg?=");
    EXPECT_FALSE(h.contains("Mcp-Session-Id"));
    EXPECT_EQ(h.get("Authorization"), "Bearer t");
}

TEST(HttpRequestHeaders, A2025MessageCarriesItsSessionAndTheVersionFrom2025_06_18On) {
    OutboundMessage m;
    m.method = "tools/call";
    m.name = "echo";
    m.protocol_version = "2025-11-25";
    auto h = post_headers(m, "s-1", {});
    EXPECT_EQ(h.get("Mcp-Session-Id"), "s-1");
    EXPECT_EQ(h.get("MCP-Protocol-Version"), "2025-11-25");
    EXPECT_FALSE(h.contains("Mcp-Method"));  // 2026-07-28 request metadata only
    EXPECT_FALSE(h.contains("Mcp-Name"));
    m.protocol_version = "2025-03-26";  // before the header existed
    h = post_headers(m, "s-1", {});
    EXPECT_FALSE(h.contains("MCP-Protocol-Version"));
    m.protocol_version.clear();  // initialize: no version chosen yet, no session
    m.method = "initialize";
    h = post_headers(m, {}, {});
    EXPECT_FALSE(h.contains("MCP-Protocol-Version"));
    EXPECT_FALSE(h.contains("Mcp-Session-Id"));

    const auto get = stream_headers("s-1", "2025-06-18", "ev-7", {{"X-Tenant", "a"}});
    EXPECT_EQ(get.get("Accept"), "text/event-stream");
    EXPECT_EQ(get.get("Last-Event-ID"), "ev-7");
    EXPECT_EQ(get.get("MCP-Protocol-Version"), "2025-06-18");
    EXPECT_EQ(get.get("X-Tenant"), "a");
    EXPECT_FALSE(stream_headers("s-1", "2025-06-18", "", {}).contains("Last-Event-ID"));
    EXPECT_EQ(end_session_headers("s-1", "2025-11-25", {}).get("Mcp-Session-Id"), "s-1");
}

TEST(HttpRequestHeaders, CustomHeadersMayNotTakeTheTransportsOwnOrSplitARequest) {
    EXPECT_NO_THROW(check_custom_headers({{"Authorization", "Bearer x"}, {"X-Tenant", "a b"}}));
    for (const char* name : {"accept", "MCP-PROTOCOL-VERSION", "mcp-session-id", "Mcp-Method", "mcp-name",
                             "Mcp-Param-Region", "last-event-id", "Host", "Content-Length", "Content-Type"}) {
        EXPECT_THROW(check_custom_headers({{name, "x"}}), std::invalid_argument) << name;
    }
    EXPECT_THROW(check_custom_headers({{"Bad Name", "x"}}), std::invalid_argument);
    EXPECT_THROW(check_custom_headers({{"X-Ok", "a\r\nInjected: 1"}}), std::invalid_argument);
}

TEST(HttpRequestHeaders, MediaTypesCompareWithoutParametersOrCase) {
    EXPECT_TRUE(has_media_type({{"Content-Type", "text/event-stream"}}, "text/event-stream"));
    EXPECT_TRUE(has_media_type({{"content-type", "Application/JSON; charset=utf-8"}}, "application/json"));
    EXPECT_FALSE(has_media_type({{"Content-Type", "application/jsonx"}}, "application/json"));
    EXPECT_FALSE(has_media_type({}, "application/json"));
}
