#include "telemetry/ids.hpp"
#include "telemetry/otlp_encoding.hpp"
#include "telemetry/otlp_environment.hpp"
#include "telemetry/protobuf_writer.hpp"
#include "telemetry/sampler.hpp"
#include "telemetry/span_exporter.hpp"
#include "telemetry/tracer.hpp"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <stdexcept>

using namespace mcp::telemetry;

namespace {

// A protobuf reader for the test, written from the wire format's rules: each field's number,
// wire type and raw value, in order. It shares nothing with the writer.
struct Field {
    std::uint32_t number = 0;
    int wire_type = 0;
    std::uint64_t scalar = 0;  // varint or fixed
    std::string bytes;         // length-delimited
};

std::uint64_t read_varint(std::string_view& in) {
    std::uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
        if (in.empty() || shift > 63) throw std::runtime_error("truncated varint");
        const auto byte = static_cast<unsigned char>(in.front());
        in.remove_prefix(1);
        value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0) return value;
    }
}

std::vector<Field> read_message(std::string_view in) {
    std::vector<Field> fields;
    while (!in.empty()) {
        const auto key = read_varint(in);
        Field f{static_cast<std::uint32_t>(key >> 3), static_cast<int>(key & 7)};
        if (f.wire_type == 0) {
            f.scalar = read_varint(in);
        } else if (f.wire_type == 1 || f.wire_type == 5) {
            const std::size_t n = f.wire_type == 1 ? 8 : 4;
            if (in.size() < n) throw std::runtime_error("truncated fixed field");
            for (std::size_t i = 0; i < n; ++i)
                f.scalar |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[i])) << (8 * i);
            in.remove_prefix(n);
        } else if (f.wire_type == 2) {
            const auto n = read_varint(in);
            if (in.size() < n) throw std::runtime_error("truncated length-delimited field");
            f.bytes = std::string(in.substr(0, n));
            in.remove_prefix(n);
        } else {
            throw std::runtime_error("unexpected wire type");
        }
        fields.push_back(std::move(f));
    }
    return fields;
}

std::vector<Field> all(const std::vector<Field>& fields, std::uint32_t number) {
    std::vector<Field> out;
    for (const auto& f : fields)
        if (f.number == number) out.push_back(f);
    return out;
}

const Field& one(const std::vector<Field>& fields, std::uint32_t number) {
    for (const auto& f : fields)
        if (f.number == number) return f;
    throw std::runtime_error("no field " + std::to_string(number));
}

SpanData sample_span() {
    SpanData span;
    span.trace_id = *trace_id_from_hex("0af7651916cd43dd8448eb211c80319c");
    span.span_id = *span_id_from_hex("b7ad6b7169203331");
    span.parent_span_id = *span_id_from_hex("00f067aa0ba902b7");
    span.parent_remote = true;
    span.trace_state = "vendor=1";
    span.name = "tools/call echo";
    span.kind = SpanKind::server;
    span.start_unix_nano = 1'700'000'000'123'456'789ULL;
    span.end_unix_nano = 1'700'000'000'223'456'789ULL;
    span.set("mcp.method.name", "tools/call");
    span.set("big", std::int64_t{-5});
    span.set("ok", true);
    span.set("ratio", 0.25);
    span.add_event("step", {{"n", 3}});
    span.status = StatusCode::error;
    span.status_message = "boom";
    return span;
}

}  // namespace

TEST(AttributeKey, ALiteralIsBorrowedAndOtherTextCopied) {
    static constexpr const char* kLiteral = "gen_ai.tool.name";
    const AttributeKey borrowed = "gen_ai.tool.name";
    EXPECT_EQ(borrowed.view(), kLiteral);

    std::string text = "app.user";
    AttributeKey copied = text;
    text = "changed!";  // the key kept its own copy
    EXPECT_EQ(copied.view(), "app.user");
    EXPECT_NE(copied.view().data(), text.data());

    AttributeKey copy = copied;  // a copy owns its own text too
    AttributeKey moved = std::move(copied);
    EXPECT_EQ(copy, moved);
    EXPECT_TRUE(copied.view().empty());  // NOLINT(bugprone-use-after-move): a moved-from key is empty
    copy = borrowed;
    EXPECT_EQ(copy, "gen_ai.tool.name");
    copy = std::string_view("x");
    EXPECT_EQ(copy.view(), "x");

    SpanData span;
    span.set("k", 1);
    span.set(std::string("k"), 2);  // the same name, borrowed or copied: one attribute
    ASSERT_EQ(span.attributes.size(), 1U);
    EXPECT_EQ(std::get<std::int64_t>(span.attributes[0].value), 2);
}

TEST(ProtobufWriter, WritesVarintsFixedAndLengthDelimitedFields) {
    ProtobufWriter out;
    out.varint_field(1, 150);
    out.varint_field(2, 0);  // proto3 default: not written
    out.fixed32_field(3, 0x01020304);
    out.bytes_field(4, "hi");
    out.int64_field(5, -1);
    EXPECT_EQ(out.bytes(), std::string("\x08\x96\x01"
                                       "\x1d\x04\x03\x02\x01"
                                       "\x22\x02hi"
                                       "\x28\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
                                       3 + 5 + 4 + 11));
}

TEST(ProtobufWriter, NestedMessagesGetTheirLengthWhateverItsWidth) {
    // Lengths of one, two and three varint bytes, nested two deep, with a field after each.
    for (const std::size_t size : {0UL, 5UL, 127UL, 128UL, 300UL, 16383UL, 16384UL, 70000UL}) {
        ProtobufWriter out;
        const auto outer = out.open(1);
        const auto inner = out.open(2);
        out.bytes_field(3, std::string(size, 'x'));
        out.close(inner);
        out.varint_field(4, 7);
        out.close(outer);
        out.varint_field(5, 9);

        const auto top = read_message(out.bytes());
        ASSERT_EQ(top.size(), 2U) << size;
        EXPECT_EQ(one(top, 5).scalar, 9U);
        const auto outer_fields = read_message(one(top, 1).bytes);
        EXPECT_EQ(one(outer_fields, 4).scalar, 7U) << size;
        const auto inner_fields = read_message(one(outer_fields, 2).bytes);
        EXPECT_EQ(one(inner_fields, 3).bytes, std::string(size, 'x')) << size;
    }
}

TEST(OtlpProtobuf, EncodesTheRequestWithTraceProtoFieldNumbers) {
    const Attributes resource{{"service.name", "svc"}};
    const std::vector<SpanData> spans{sample_span()};
    const auto request = read_message(encode_protobuf(resource, spans));
    const auto resource_spans = read_message(one(request, 1).bytes);
    const auto resource_message = read_message(one(resource_spans, 1).bytes);
    const auto service = read_message(one(resource_message, 1).bytes);
    EXPECT_EQ(one(service, 1).bytes, "service.name");
    EXPECT_EQ(one(read_message(one(service, 2).bytes), 1).bytes, "svc");

    const auto scope_spans = read_message(one(resource_spans, 2).bytes);
    EXPECT_EQ(one(read_message(one(scope_spans, 1).bytes), 1).bytes, "mcp-cpp");
    ASSERT_EQ(all(scope_spans, 2).size(), 1U);
    const auto span = read_message(one(scope_spans, 2).bytes);
    EXPECT_EQ(one(span, 1).bytes.size(), 16U);
    EXPECT_EQ(static_cast<unsigned char>(one(span, 1).bytes[0]), 0x0a);
    EXPECT_EQ(static_cast<unsigned char>(one(span, 2).bytes[7]), 0x31);
    EXPECT_EQ(one(span, 3).bytes, "vendor=1");
    EXPECT_EQ(static_cast<unsigned char>(one(span, 4).bytes[0]), 0x00);
    EXPECT_EQ(static_cast<unsigned char>(one(span, 4).bytes[1]), 0xf0);
    EXPECT_EQ(one(span, 5).bytes, "tools/call echo");
    EXPECT_EQ(one(span, 6).scalar, 2U);  // SPAN_KIND_SERVER
    EXPECT_EQ(one(span, 7).wire_type, 1);
    EXPECT_EQ(one(span, 7).scalar, 1'700'000'000'123'456'789ULL);
    EXPECT_EQ(one(span, 8).scalar, 1'700'000'000'223'456'789ULL);
    EXPECT_EQ(one(span, 16).wire_type, 5);
    EXPECT_EQ(one(span, 16).scalar, 0x301U);  // sampled, has-is-remote, is-remote

    std::map<std::string, Field> values;
    for (const auto& kv : all(span, 9)) {
        const auto fields = read_message(kv.bytes);
        const auto value = read_message(one(fields, 2).bytes);
        ASSERT_EQ(value.size(), 1U);
        values[one(fields, 1).bytes] = value[0];
    }
    EXPECT_EQ(values.at("mcp.method.name").number, 1U);
    EXPECT_EQ(values.at("mcp.method.name").bytes, "tools/call");
    EXPECT_EQ(values.at("big").number, 3U);
    EXPECT_EQ(static_cast<std::int64_t>(values.at("big").scalar), -5);
    EXPECT_EQ(values.at("ok").number, 2U);
    EXPECT_EQ(values.at("ok").scalar, 1U);
    EXPECT_EQ(values.at("ratio").number, 4U);
    double ratio = 0;
    std::memcpy(&ratio, &values.at("ratio").scalar, sizeof ratio);
    EXPECT_EQ(ratio, 0.25);

    const auto event = read_message(one(span, 11).bytes);
    EXPECT_EQ(one(event, 2).bytes, "step");
    EXPECT_GT(one(event, 1).scalar, 0U);
    const auto status = read_message(one(span, 15).bytes);
    EXPECT_EQ(one(status, 2).bytes, "boom");
    EXPECT_EQ(one(status, 3).scalar, 2U);  // STATUS_CODE_ERROR
}

TEST(OtlpJson, UsesHexIdsIntegerEnumsAndStringsFor64BitIntegers) {
    auto root = sample_span();
    root.parent_span_id = {};
    root.parent_remote = false;
    const std::vector<SpanData> spans{sample_span(), root};
    const auto doc = boost::json::parse(encode_json({{"service.name", "svc"}}, spans));
    const auto& rs = doc.at("resourceSpans").at(0);
    EXPECT_EQ(rs.at("resource").at("attributes").at(0).at("value").at("stringValue"), "svc");
    const auto& ss = rs.at("scopeSpans").at(0);
    EXPECT_EQ(ss.at("scope").at("name"), "mcp-cpp");
    const auto& span = ss.at("spans").at(0).as_object();
    EXPECT_EQ(span.at("traceId"), "0af7651916cd43dd8448eb211c80319c");
    EXPECT_EQ(span.at("spanId"), "b7ad6b7169203331");
    EXPECT_EQ(span.at("parentSpanId"), "00f067aa0ba902b7");
    EXPECT_EQ(span.at("traceState"), "vendor=1");
    EXPECT_EQ(span.at("kind"), 2);
    EXPECT_EQ(span.at("startTimeUnixNano"), "1700000000123456789");
    EXPECT_EQ(span.at("endTimeUnixNano"), "1700000000223456789");
    EXPECT_EQ(span.at("flags"), 0x301);
    EXPECT_EQ(span.at("status").at("code"), 2);
    EXPECT_EQ(span.at("status").at("message"), "boom");
    const auto& attributes = span.at("attributes").as_array();
    EXPECT_EQ(attributes.at(1).at("key"), "big");
    EXPECT_EQ(attributes.at(1).at("value").at("intValue"), "-5");
    EXPECT_EQ(attributes.at(2).at("value").at("boolValue"), true);
    EXPECT_EQ(attributes.at(3).at("value").at("doubleValue"), 0.25);
    EXPECT_EQ(span.at("events").at(0).at("attributes").at(0).at("value").at("intValue"), "3");
    EXPECT_TRUE(span.at("events").at(0).at("timeUnixNano").is_string());
    const auto& root_span = ss.at("spans").at(1).as_object();
    EXPECT_FALSE(root_span.contains("parentSpanId"));
    EXPECT_EQ(root_span.at("flags"), 0x101);
}

TEST(OtlpLinks, EncodesEachLinkWithItsIdsAttributesAndFlagsInBothEncodings) {
    auto span = sample_span();
    span.add_link({*trace_id_from_hex("11111111111111111111111111111111"),
                   *span_id_from_hex("2222222222222222"),
                   1,
                   false,
                   {{"mcp.stream.part", std::int64_t{3}}}});
    span.add_link(
        {*trace_id_from_hex("33333333333333333333333333333333"), *span_id_from_hex("4444444444444444"), 0, true, {}});
    const std::vector<SpanData> spans{span};

    const auto request = read_message(encode_protobuf({}, spans));
    const auto scope_spans = read_message(one(read_message(one(request, 1).bytes), 2).bytes);
    const auto encoded = read_message(one(scope_spans, 2).bytes);
    const auto links = all(encoded, 13);
    ASSERT_EQ(links.size(), 2U);
    const auto first = read_message(links[0].bytes);
    EXPECT_EQ(one(first, 1).bytes, std::string(16, '\x11'));
    EXPECT_EQ(one(first, 2).bytes, std::string(8, '\x22'));
    EXPECT_EQ(one(first, 6).wire_type, 5);
    EXPECT_EQ(one(first, 6).scalar, 0x101U);  // sampled, has-is-remote
    const auto attribute = read_message(one(first, 4).bytes);
    EXPECT_EQ(one(attribute, 1).bytes, "mcp.stream.part");
    EXPECT_EQ(one(read_message(one(attribute, 2).bytes), 3).scalar, 3U);
    const auto second = read_message(links[1].bytes);
    EXPECT_EQ(one(second, 1).bytes, std::string(16, '\x33'));
    EXPECT_TRUE(all(second, 4).empty());
    EXPECT_EQ(one(second, 6).scalar, 0x300U);  // not sampled, remote
    EXPECT_TRUE(all(encoded, 14).empty());     // no link dropped: proto3's default is not written

    const auto doc = boost::json::parse(encode_json({}, spans));
    const auto& json_links = doc.at("resourceSpans").at(0).at("scopeSpans").at(0).at("spans").at(0).at("links");
    ASSERT_EQ(json_links.as_array().size(), 2U);
    EXPECT_EQ(json_links.at(0).at("traceId"), "11111111111111111111111111111111");
    EXPECT_EQ(json_links.at(0).at("spanId"), "2222222222222222");
    EXPECT_EQ(json_links.at(0).at("flags"), 0x101);
    EXPECT_EQ(json_links.at(0).at("attributes").at(0).at("value").at("intValue"), "3");
    EXPECT_EQ(json_links.at(1).at("flags"), 0x300);
    EXPECT_FALSE(doc.at("resourceSpans")
                     .at(0)
                     .at("scopeSpans")
                     .at(0)
                     .at("spans")
                     .at(0)
                     .as_object()
                     .contains("droppedLinksCount"));
}

TEST(SpanData, BoundsItsLinks) {
    SpanData span;
    Link link{*trace_id_from_hex("11111111111111111111111111111111"), *span_id_from_hex("2222222222222222")};
    for (int i = 0; i < 200; ++i) link.attributes.push_back({std::to_string(i), i});
    for (std::size_t i = 0; i < SpanData::kMaxLinks + 3; ++i) span.add_link(link);
    EXPECT_EQ(span.links.size(), SpanData::kMaxLinks);
    EXPECT_EQ(span.dropped_links, 3U);
    EXPECT_EQ(span.links[0].attributes.size(), SpanData::kMaxAttributes);
    const std::vector<SpanData> spans{span};
    const auto request = read_message(encode_protobuf({}, spans));
    const auto scope_spans = read_message(one(read_message(one(request, 1).bytes), 2).bytes);
    EXPECT_EQ(one(read_message(one(scope_spans, 2).bytes), 14).scalar, 3U);
}

TEST(SpanData, BoundsItsAttributesAndEvents) {
    SpanData span;
    for (int i = 0; i < 130; ++i) span.set(std::to_string(i), i);
    span.set("0", "replaced");  // an existing key is replaced, not added
    EXPECT_EQ(span.attributes.size(), SpanData::kMaxAttributes);
    EXPECT_EQ(span.dropped_attributes, 2U);
    EXPECT_EQ(std::get<std::string>(span.attributes[0].value), "replaced");
    for (int i = 0; i < 129; ++i) span.add_event("e", {});
    EXPECT_EQ(span.events.size(), SpanData::kMaxEvents);
    EXPECT_EQ(span.dropped_events, 1U);
}

// The nodes of one service tell their spans apart by a random instance id, unless one is given.
TEST(Resource, NamesEachInstanceUnlessTheOperatorDid) {
    const auto value_of = [](const Attributes& resource, std::string_view key) {
        std::vector<std::string> out;
        for (const auto& a : resource)
            if (a.key == key) out.push_back(std::get<std::string>(a.value));
        return out;
    };
    TracingOptions options;
    const auto first = value_of(resource_of(options, "svc"), "service.instance.id");
    const auto second = value_of(resource_of(options, "svc"), "service.instance.id");
    ASSERT_EQ(first.size(), 1U);
    ASSERT_EQ(second.size(), 1U);
    EXPECT_NE(first[0], second[0]);
    ASSERT_EQ(first[0].size(), 36U);
    for (std::size_t i = 0; i < first[0].size(); ++i) {
        const char c = first[0][i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            EXPECT_EQ(c, '-') << first[0];
        } else {
            EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << first[0];
        }
    }
    EXPECT_EQ(first[0][14], '4') << "version 4";
    EXPECT_NE(std::string_view("89ab").find(first[0][19]), std::string_view::npos) << "the RFC 4122 variant";

    options.resource_attributes = {{"service.instance.id", "node-a"}};
    EXPECT_EQ(value_of(resource_of(options, "svc"), "service.instance.id"), std::vector<std::string>{"node-a"});
}

TEST(Ids, RejectsWhatIsNotLowerCaseHexOfTheRightLength) {
    EXPECT_TRUE(trace_id_from_hex("0af7651916cd43dd8448eb211c80319c"));
    EXPECT_FALSE(trace_id_from_hex("0AF7651916CD43DD8448EB211C80319C"));
    EXPECT_FALSE(trace_id_from_hex("0af7651916cd43dd8448eb211c80319"));
    EXPECT_FALSE(span_id_from_hex("b7ad6b716920333g"));
    EXPECT_EQ(to_hex(*span_id_from_hex("b7ad6b7169203331")), "b7ad6b7169203331");
    EXPECT_NE(random_trace_id(), TraceId{});
    EXPECT_NE(random_span_id(), random_span_id());
}

TEST(Sampler, FollowsTheParentAndSamplesRootsByTraceIdRatio) {
    TraceId id{};
    const SamplerSettings none{true, 0.0};
    const SamplerSettings every{true, 1.0};
    EXPECT_TRUE(should_sample(none, true, id));     // the caller sampled it
    EXPECT_FALSE(should_sample(every, false, id));  // the caller did not
    EXPECT_FALSE(should_sample(none, std::nullopt, id));
    EXPECT_TRUE(should_sample(every, std::nullopt, id));
    EXPECT_FALSE(should_sample({false, 0.0}, true, id));  // not parent-based: the ratio decides

    // Trace ids spread evenly over the last 8 bytes: the ratio picks that share of them.
    const SamplerSettings quarter{true, 0.25};
    int sampled = 0;
    for (std::uint64_t i = 0; i < 1000; ++i) {
        constexpr std::uint64_t step = UINT64_MAX / 1000;
        const std::uint64_t low = i * step + step / 2;  // the middle of each thousandth
        for (int b = 0; b < 8; ++b) id[15 - b] = static_cast<std::uint8_t>(low >> (8 * b));
        sampled += should_sample(quarter, std::nullopt, id) ? 1 : 0;
    }
    EXPECT_EQ(sampled, 250);
}

namespace {

Environment environment(std::map<std::string, std::string> variables) {
    return [variables = std::move(variables)](std::string_view name) -> std::optional<std::string> {
        auto it = variables.find(std::string(name));
        if (it == variables.end()) return std::nullopt;
        return it->second;
    };
}

std::string resolve_error(const TracingFlags& flags, std::map<std::string, std::string> variables) {
    try {
        resolve_tracing(flags, environment(std::move(variables)));
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(OtelEnvironment, EndpointRules) {
    EXPECT_EQ(resolve_tracing({}, environment({})).endpoint, "");
    EXPECT_EQ(resolve_tracing({}, environment({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"}})).endpoint,
              "http://c:4318/v1/traces");
    EXPECT_EQ(resolve_tracing({}, environment({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318/base/"}})).endpoint,
              "http://c:4318/base/v1/traces");
    EXPECT_EQ(resolve_tracing({}, environment({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"},
                                               {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://t:1/custom"}}))
                  .endpoint,
              "http://t:1/custom");
    TracingFlags flags;
    flags.endpoint = "http://f:4318";
    EXPECT_EQ(
        resolve_tracing(flags, environment({{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://t:1/custom"}})).endpoint,
        "http://f:4318/v1/traces");
    flags.endpoint = "https://f:4318/collect";
    EXPECT_EQ(resolve_tracing(flags, environment({})).endpoint, "https://f:4318/collect");
    EXPECT_EQ(resolve_error({}, {{"OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"}})
                  .rfind("OTEL_EXPORTER_OTLP_ENDPOINT: ", 0),
              0U);
    EXPECT_EQ(resolve_error({}, {{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "ftp://c/x"}})
                  .rfind("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: ", 0),
              0U);
}

TEST(OtelEnvironment, ProtocolHeadersAndResource) {
    const auto options =
        resolve_tracing({}, environment({{"OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"},
                                         {"OTEL_EXPORTER_OTLP_HEADERS", "api-key=a%20b, x-tenant = t1"},
                                         {"OTEL_RESOURCE_ATTRIBUTES", "service.name=from-attrs,env=prod"},
                                         {"OTEL_SERVICE_NAME", "from-name"}}));
    EXPECT_EQ(options.protocol, OtlpProtocol::http_json);
    ASSERT_EQ(options.headers.size(), 2U);
    EXPECT_EQ(options.headers[0], (std::pair<std::string, std::string>{"api-key", "a b"}));
    EXPECT_EQ(options.headers[1], (std::pair<std::string, std::string>{"x-tenant", "t1"}));
    EXPECT_EQ(options.service_name, "from-name");
    ASSERT_EQ(options.resource_attributes.size(), 2U);

    TracingFlags flags;
    flags.protocol = "http/protobuf";
    EXPECT_EQ(resolve_tracing(flags, environment({{"OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"}})).protocol,
              OtlpProtocol::http_protobuf);
    EXPECT_EQ(resolve_tracing({}, environment({{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/json"},
                                               {"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"}}))
                  .protocol,
              OtlpProtocol::http_json);
}

TEST(OtelEnvironment, RefusesWhatItCannotUse) {
    EXPECT_EQ(resolve_error({}, {{"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"}}).rfind("OTEL_EXPORTER_OTLP_PROTOCOL: ", 0),
              0U);
    for (const char* bad : {"novalue", "=v", "k=%zz", "k=a%0Ab"}) {
        EXPECT_EQ(resolve_error({}, {{"OTEL_EXPORTER_OTLP_HEADERS", bad}}).rfind("OTEL_EXPORTER_OTLP_HEADERS: ", 0), 0U)
            << bad;
    }
    EXPECT_EQ(resolve_error({}, {{"OTEL_RESOURCE_ATTRIBUTES", "a"}}).rfind("OTEL_RESOURCE_ATTRIBUTES: ", 0), 0U);
    EXPECT_EQ(resolve_error({}, {{"OTEL_TRACES_SAMPLER", "sometimes"}}).rfind("OTEL_TRACES_SAMPLER: ", 0), 0U);
    for (const char* bad : {"1.5", "-0.1", "half", "0.5x", "nan"}) {
        EXPECT_EQ(resolve_error({}, {{"OTEL_TRACES_SAMPLER", "traceidratio"}, {"OTEL_TRACES_SAMPLER_ARG", bad}})
                      .rfind("OTEL_TRACES_SAMPLER_ARG: ", 0),
                  0U)
            << bad;
    }
    EXPECT_THROW(parse_protocol("http/protobuf "), std::invalid_argument);
    EXPECT_THROW(check_endpoint("http://"), std::invalid_argument);
}

TEST(OtelEnvironment, SamplerVariablesAndTheFlagOverThem) {
    auto sampler = [](std::map<std::string, std::string> variables) {
        const auto o = resolve_tracing({}, environment(std::move(variables)));
        return std::pair{o.parent_based, o.sampling_ratio};
    };
    EXPECT_EQ(sampler({}), (std::pair{true, 1.0}));  // parentbased_always_on, OpenTelemetry's default
    EXPECT_EQ(sampler({{"OTEL_TRACES_SAMPLER", "always_off"}}), (std::pair{false, 0.0}));
    EXPECT_EQ(sampler({{"OTEL_TRACES_SAMPLER", "parentbased_always_off"}}), (std::pair{true, 0.0}));
    EXPECT_EQ(sampler({{"OTEL_TRACES_SAMPLER", "traceidratio"}, {"OTEL_TRACES_SAMPLER_ARG", "0.1"}}),
              (std::pair{false, 0.1}));
    EXPECT_EQ(sampler({{"OTEL_TRACES_SAMPLER", "parentbased_traceidratio"}, {"OTEL_TRACES_SAMPLER_ARG", "0.01"}}),
              (std::pair{true, 0.01}));
    TracingFlags flags;
    flags.sampling_ratio = 0.5;
    const auto o = resolve_tracing(flags, environment({{"OTEL_TRACES_SAMPLER", "always_off"}}));
    EXPECT_TRUE(o.parent_based);
    EXPECT_EQ(o.sampling_ratio, 0.5);
}

TEST(SpanExporter, DropsWhatTheQueueCannotHoldAndWhatTheCollectorNeverTakes) {
    ExporterSettings settings;
    settings.url = "http://127.0.0.1:1/v1/traces";  // nothing listens on port 1
    settings.max_queue = 2;
    settings.export_interval = std::chrono::hours(1);  // nothing leaves before the flush
    settings.export_timeout = std::chrono::milliseconds(2000);
    settings.retry_delays = {std::chrono::milliseconds(1)};
    SpanExporter exporter(settings);
    for (int i = 0; i < 5; ++i) exporter.push(sample_span());
    auto stats = exporter.stats();
    EXPECT_EQ(stats.queued, 2U);
    EXPECT_EQ(stats.dropped, 3U);
    EXPECT_TRUE(exporter.flush(std::chrono::seconds(30)));  // both attempts fail: the batch is given up
    stats = exporter.stats();
    EXPECT_EQ(stats.queued, 0U);
    EXPECT_EQ(stats.dropped, 5U);
    EXPECT_EQ(stats.exported, 0U);
}
