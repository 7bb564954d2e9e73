// The model types read back from the wire (from_wire), against what to_wire writes and against
// what other implementations send.
#include <mcp/protocol/client_features.hpp>
#include <mcp/protocol/content.hpp>

#include "protocol/param_headers.hpp"
#include "protocol/tool_result_text.hpp"

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <stdexcept>
#include <string>
#include <string_view>

using namespace mcp;

TEST(ProtocolWire, EveryContentBlockRoundTrips) {
    ResourceLink link = resource_link("file:///a.txt", "a");
    link.title = "A";
    link.size = 12;
    link.icons = {Icon{"https://x/icon.png", "image/png", {"48x48"}, "dark"}};
    link.annotations.audience = {Role::user};
    link.annotations.priority = 0.5;
    TextContent annotated = text("hi");
    annotated.meta["k"] = "v";
    annotated.annotations.last_modified = "2026-01-01T00:00:00Z";
    const std::vector<Content> blocks{
        annotated,
        image_base64("AAAA", "image/png"),
        audio_base64("BBBB", "audio/wav"),
        embedded_text("file:///n.md", "# N", "text/markdown"),
        EmbeddedResource{BlobResourceContents{"file:///b", "application/x", "CCCC", {}}, {}, {}},
        link};
    for (const auto& block : blocks) {
        const auto wire = to_wire(block);
        EXPECT_EQ(to_wire(from_wire<Content>(wire)), wire) << boost::json::serialize(wire);
    }
}

TEST(ProtocolWire, ToolResultsPromptsAndResourcesRoundTrip) {
    CallToolResult call{{text("a"), text("b")}, boost::json::object{{"n", 1}}, true, {{"m", true}}};
    EXPECT_EQ(to_wire(from_wire<CallToolResult>(to_wire(call))), to_wire(call));
    GetPromptResult prompt{"d", {user_message(text("q")), assistant_message(text("a"))}, {}};
    EXPECT_EQ(to_wire(from_wire<GetPromptResult>(to_wire(prompt))), to_wire(prompt));
    ReadResourceResult read{{TextResourceContents{"u", "text/plain", "t", {}}}, {}};
    EXPECT_EQ(to_wire(from_wire<ReadResourceResult>(to_wire(read))), to_wire(read));
}

TEST(ProtocolWire, MalformedResultsNameWhatIsWrong) {
    const auto error_of = [](std::string_view text) {
        try {
            from_wire<CallToolResult>(boost::json::parse(text));
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(error_of(R"({"content":[{"type":"text"}]})"), "missing \"text\"");
    EXPECT_EQ(error_of(R"({"content":[{"type":"hologram"}]})"), "unknown content type \"hologram\"");
    EXPECT_EQ(error_of(R"({"content":{}})"), "\"content\" must be an array");
    EXPECT_EQ(error_of(R"({"content":[],"isError":"yes"})"), "\"isError\" must be a boolean");
    EXPECT_EQ(error_of("[]"), "a tool result must be an object");
}

TEST(ProtocolWire, ImplementationKeepsOptionalFields) {
    const auto impl = from_wire<Implementation>(boost::json::parse(
        R"({"name":"s","version":"1","title":"S","websiteUrl":"https://s","icons":[{"src":"data:x"}],"extra":1})"));
    EXPECT_EQ(impl.name, "s");
    EXPECT_EQ(impl.title, "S");
    EXPECT_EQ(impl.website_url, "https://s");
    ASSERT_EQ(impl.icons.size(), 1u);
    EXPECT_EQ(to_wire(impl).as_object().size(), 5u);
}

TEST(ProtocolWire, ElicitationRequestsOfBothModes) {
    const auto form = from_wire<Elicitation>(boost::json::parse(
        R"({"message":"Name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}}})"));
    EXPECT_EQ(form.mode, ElicitMode::form);
    EXPECT_EQ(form.requested_schema.at("type"), "object");
    const auto url = from_wire<Elicitation>(
        boost::json::parse(R"({"mode":"url","message":"Sign in","url":"https://x","elicitationId":"e1"})"));
    EXPECT_EQ(url.mode, ElicitMode::url);
    EXPECT_EQ(url.url, "https://x");
    EXPECT_EQ(url.elicitation_id, "e1");
    EXPECT_THROW(from_wire<Elicitation>(boost::json::parse(R"({"mode":"telepathy","message":"?"})")),
                 std::invalid_argument);
}

TEST(ProtocolWire, SamplingRequestsAndResultsRoundTrip) {
    SamplingRequest request;
    request.messages = {{Role::user, text("Capital of France?")}};
    request.system_prompt = "Be brief";
    request.model_preferences = ModelPreferences{{"claude"}, 0.1, std::nullopt, 0.9};
    request.max_tokens = 100;
    request.temperature = 0.5;
    request.stop_sequences = {"\n"};
    const auto params = to_wire(request);
    EXPECT_EQ(to_wire(from_wire<SamplingRequest>(params)), params);
    EXPECT_EQ(from_wire<SamplingRequest>(params).raw, params);

    SamplingResult result;
    result.content = {text("Paris")};
    result.model = "m";
    result.stop_reason = "endTurn";
    const auto back = from_wire<SamplingResult>(to_wire(result));
    EXPECT_EQ(back.text(), "Paris");
    EXPECT_EQ(back.model, "m");
    // Blocks not modelled (tool use) stay in raw and go out again from it.
    const auto with_tools = from_wire<SamplingResult>(boost::json::parse(
        R"({"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{}},{"type":"text","text":"x"}],"model":"m"})"));
    EXPECT_EQ(with_tools.text(), "x");
    EXPECT_EQ(with_tools.raw.at("content").as_array().size(), 2u);
}

TEST(ProtocolWire, ElicitResultsAndRoots) {
    ElicitResult accepted{ElicitAction::accept, {{"name", "Ada"}}};
    EXPECT_EQ(to_wire(accepted), boost::json::parse(R"({"action":"accept","content":{"name":"Ada"}})"));
    EXPECT_EQ(to_wire(ElicitResult{ElicitAction::decline, {{"x", 1}}}), boost::json::parse(R"({"action":"decline"})"));
    EXPECT_EQ(from_wire<ElicitResult>(to_wire(accepted)).content, accepted.content);
    const std::vector<Root> roots{{"file:///a", "A"}, {"file:///b", ""}};
    const auto wire = to_wire(roots);
    EXPECT_EQ(wire, boost::json::parse(R"({"roots":[{"uri":"file:///a","name":"A"},{"uri":"file:///b"}]})"));
    EXPECT_EQ(from_wire<std::vector<Root>>(wire).size(), 2u);
}

TEST(ProtocolWire, ParamHeaderValuesFollowTheAnnotations) {
    const auto schema = boost::json::parse(R"({"type":"object","properties":{
        "region":{"type":"string","x-mcp-header":"Region"},
        "n":{"type":"integer","x-mcp-header":"Count"},
        "opts":{"type":"object","properties":{"dry":{"type":"boolean","x-mcp-header":"Dry"}}},
        "plain":{"type":"string"}}})")
                            .as_object();
    const auto params = detail::header_params_of(schema);
    const auto values = detail::param_header_values(
        params, boost::json::parse(R"({"region":"eu","n":42,"opts":{"dry":true},"plain":"x"})").as_object());
    using Pairs = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(values, (Pairs{{"Region", "eu"}, {"Count", "42"}, {"Dry", "true"}}));
    // Absent and null arguments carry no header.
    EXPECT_TRUE(detail::param_header_values(params, boost::json::parse(R"({"region":null})").as_object()).empty());
}

// ---- A tool result read straight from its text (the client's hot path): what the document path
// reads, or nothing.

namespace {

// The result from the SAX reader, and the same text through a document and tool_result_from_wire.
void expect_same_as_document(std::string_view text) {
    const auto direct = detail::plain_tool_result(text, 64);
    ASSERT_TRUE(direct.has_value()) << text;
    const auto via_document = tool_result_from_wire(boost::json::parse(text));
    EXPECT_EQ(boost::json::serialize(to_wire(*direct)), boost::json::serialize(to_wire(via_document))) << text;
}

}  // namespace

TEST(PlainToolResult, ReadsTextBlocksAndIsErrorAsTheDocumentPathDoes) {
    expect_same_as_document(R"({"content":[{"type":"text","text":"hello"}]})");
    expect_same_as_document(R"({"content":[]})");
    expect_same_as_document(R"({})");
    expect_same_as_document(R"({"isError":true,"content":[{"text":"first the text","type":"text"}]})");
    expect_same_as_document(R"({"content":[{"type":"text","text":"a"},{"type":"text","text":""}],"isError":false})");
    // Escapes, a surrogate pair, raw UTF-8 and a long string (read in parts by the parser).
    expect_same_as_document(R"({"content":[{"type":"text","text":"q\"b\\s\/n\n\u00e9\ud83d\ude00 é )" +
                            std::string(70000, 'x') + R"("}]})");
    expect_same_as_document(R"( {"content" : [ {"type" : "text" , "text" : "spaced"} ] } )");
}

TEST(PlainToolResult, LeavesEveryOtherShapeToTheDocumentPath) {
    for (const std::string_view text : {
             R"({"content":[{"type":"text","text":"a"}],"structuredContent":{"n":1}})",
             R"({"content":[{"type":"text","text":"a"}],"_meta":{"k":"v"}})",
             R"({"content":[{"type":"text","text":"a","annotations":{"priority":1}}]})",
             R"({"content":[{"type":"image","data":"AAAA","mimeType":"image/png"}]})",
             R"({"content":[{"type":"text"}]})",                        // no text
             R"({"content":[{"text":"a"}]})",                           // no type
             R"({"content":[{"type":"text","text":1}]})",               // text of another type
             R"({"content":[{"type":"text","text":"a","text":"b"}]})",  // a member twice
             R"({"content":[],"content":[]})",
             R"({"content":{}})",
             R"({"content":["a"]})",
             R"({"content":[[]]})",
             R"({"isError":"yes"})",
             R"({"isError":null})",
             R"({"unknown":1})",
             R"({"resultType":"task","task":{}})",
             R"([])",
             R"("text")",
             R"({"content":[]},"error":{})",  // more than one value
             R"({"content":[})",              // malformed
             R"({"content":[{"type":"text","text":"\x"}]})",
             "{\"content\":[{\"type\":\"text\",\"text\":\"\xff\"}]}",  // not UTF-8
             "",
         }) {
        EXPECT_EQ(detail::plain_tool_result(text, 64), std::nullopt) << text;
    }
}

TEST(PlainToolResult, NestingPastTheLimitIsLeftToTheDocumentPath) {
    const std::string deep = R"({"content":[)" + std::string(100, '[') + std::string(100, ']') + "]}";
    EXPECT_EQ(detail::plain_tool_result(deep, 64), std::nullopt);
    EXPECT_EQ(detail::plain_tool_result(R"({"content":[]})", 1), std::nullopt);  // the array is level 2
}
