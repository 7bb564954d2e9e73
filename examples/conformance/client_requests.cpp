// Fixtures that ask the client: elicitation, sampling and roots. The same handler code serves both
// eras — a server-to-client request and a wait on the 2025 wire, an InputRequiredResult and a retry
// on the 2026 wire.
#include "fixtures.hpp"

#include <boost/json/serialize.hpp>

namespace conformance {

namespace {

std::string describe(const mcp::ElicitResult& r) {
    static constexpr const char* actions[] = {"accept", "decline", "cancel"};
    return std::string("action=") + actions[static_cast<int>(r.action)] +
           " content=" + boost::json::serialize(r.content);
}

mcp::FormSchema name_form() {
    mcp::FormSchema form;
    form.text("name").description("Your name");
    return form;
}

struct Prompt {
    std::string prompt;
};
BOOST_DESCRIBE_STRUCT(Prompt, (), (prompt))

struct Message {
    std::string message;
};
BOOST_DESCRIBE_STRUCT(Message, (), (message))

}  // namespace

void add_client_request_fixtures(mcp::Server& server) {
    // ---- 2025-11-25 scenarios: server-to-client requests.
    server.tool(
        "test_sampling", "Asks the client's model to complete the prompt it is given",
        [](const Prompt& in, mcp::ToolContext& ctx) { return "LLM response: " + ctx.sample_text(in.prompt, 100); });

    server.tool("test_elicitation", "Asks the user for a username and an email address",
                [](const Message& in, mcp::ToolContext& ctx) {
                    mcp::FormSchema form;
                    form.text("username").description("Your username");
                    form.text("email").description("Your email address").format("email");
                    return "User response: " + describe(ctx.elicit(in.message, form));
                });

    server.tool(
        "test_elicitation_sep1034_defaults", "Asks for fields that all have default values (SEP-1034)",
        [](mcp::ToolContext& ctx) {
            mcp::FormSchema form;
            form.text("name").default_value("John Doe");
            form.integer("age").default_value(30);
            form.number("score").default_value(95.5);
            form.choice("status", std::vector<std::string>{"active", "inactive", "pending"}).default_value("active");
            form.boolean("verified").default_value(true);
            return "Elicitation completed: " + describe(ctx.elicit("Please review the defaults", form));
        });

    server.tool("test_elicitation_sep1330_enums", "Asks with every enum shape of SEP-1330", [](mcp::ToolContext& ctx) {
        mcp::FormSchema form;
        form.choice("untitledSingle", std::vector<std::string>{"option1", "option2", "option3"});
        form.choice("titledSingle", std::vector<mcp::Option>{{"value1", "First Option"}, {"value2", "Second Option"}});
        form.legacy_choice("legacyEnum", {{"opt1", "Option One"}, {"opt2", "Option Two"}});
        form.choices("untitledMulti", std::vector<std::string>{"option1", "option2", "option3"});
        form.choices("titledMulti", std::vector<mcp::Option>{{"value1", "First Choice"}, {"value2", "Second Choice"}});
        return "Elicitation completed: " + describe(ctx.elicit("Pick your options", form));
    });

    // ---- 2026-07-28 scenarios: multi-round-trip requests. The keys are the ones the suite expects.
    server.tool("test_input_required_result_elicitation", "Asks the user's name (input key user_name)",
                [](mcp::ToolContext& ctx) {
                    auto answer = ctx.elicit("What is your name?", name_form(), "user_name");
                    return "Hello, " +
                           std::string(answer.accepted() && answer.content.contains("name")
                                           ? answer.content.at("name").as_string()
                                           : boost::json::string("stranger")) +
                           "!";
                });

    server.tool("test_input_required_result_sampling", "Asks the client's model a question (input key sample_request)",
                [](mcp::ToolContext& ctx) {
                    return "The model said: " +
                           ctx.sample_text("What is the capital of France?", 100, "sample_request");
                });

    server.tool("test_input_required_result_list_roots", "Lists the client's roots (input key roots_request)",
                [](mcp::ToolContext& ctx) {
                    std::string out = "Roots:";
                    for (const auto& root : ctx.roots("roots_request")) out += " " + root.uri;
                    return out;
                });

    auto confirm = [](mcp::ToolContext& ctx) {
        mcp::FormSchema form;
        form.boolean("ok").description("Proceed?");
        auto answer = ctx.elicit("Please confirm", form, "confirm");
        return std::string(answer.accepted() ? "state-ok: confirmed" : "state-ok: not confirmed");
    };
    server.tool("test_input_required_result_request_state", "Asks for a confirmation; the retry carries requestState",
                confirm);
    server.tool("test_input_required_result_tampered_state",
                "Asks for a confirmation; a tampered requestState is refused", confirm);

    server.tool("test_input_required_result_multiple_inputs",
                "Asks for a form, a completion and the roots in one round", [](mcp::ToolContext& ctx) {
                    mcp::SamplingRequest greeting;
                    greeting.messages.push_back({mcp::Role::user, mcp::text("Write a one-line greeting")});
                    greeting.max_tokens = 50;
                    greeting.key = "greeting";
                    auto answers = ctx.ask({mcp::ElicitRequest{"What is your name?", name_form(), "user_name"},
                                            std::move(greeting), mcp::RootsRequest{"client_roots"}});
                    const auto& form = std::get<mcp::ElicitResult>(answers[0]);
                    const auto& reply = std::get<mcp::SamplingResult>(answers[1]);
                    const auto& roots = std::get<std::vector<mcp::Root>>(answers[2]);
                    return "Got " + describe(form) + ", greeting '" + reply.text() + "', " +
                           std::to_string(roots.size()) + " roots";
                });

    server.tool("test_input_required_result_multi_round", "Asks twice, one question per round (step1, then step2)",
                [](mcp::ToolContext& ctx) {
                    auto first = ctx.elicit("Step 1: your name?", name_form(), "step1");
                    mcp::FormSchema colour;
                    colour.text("color").description("Your favourite colour");
                    auto second = ctx.elicit("Step 2: your favourite colour?", colour, "step2");
                    return "Done: " + describe(first) + "; " + describe(second);
                });

    server.tool("test_input_required_result_capabilities", "Asks only for what the client declared it supports",
                [](mcp::ToolContext& ctx) {
                    std::vector<mcp::InputRequest> requests;
                    if (ctx.client_supports("elicitation")) {
                        requests.push_back(mcp::ElicitRequest{"What is your name?", name_form(), "elicit_input"});
                    }
                    if (ctx.client_supports("sampling")) {
                        mcp::SamplingRequest sample;
                        sample.messages.push_back({mcp::Role::user, mcp::text("Say hello")});
                        sample.max_tokens = 20;
                        sample.key = "sample_input";
                        requests.push_back(std::move(sample));
                    }
                    if (requests.empty()) return std::string("The client supports neither elicitation nor sampling");
                    return "Answered " + std::to_string(ctx.ask(std::move(requests)).size()) + " requests";
                });

    server.prompt("test_input_required_result_prompt", "A prompt that first asks the user for context (user_context)",
                  [](mcp::PromptContext& ctx) {
                      mcp::FormSchema form;
                      form.text("context").description("Context for the prompt");
                      auto answer = ctx.elicit("What context should the prompt use?", form, "user_context");
                      const auto context = answer.accepted() && answer.content.contains("context")
                                               ? std::string(answer.content.at("context").as_string())
                                               : std::string("none");
                      return "Use this context: " + context;
                  });
}

}  // namespace conformance
