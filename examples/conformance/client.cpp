// mcp-cpp-conformance-client: the client the official MCP conformance suite drives
// (@modelcontextprotocol/conformance, `conformance client --command ...`). The suite appends the
// server's URL to the command line and names the scenario in MCP_CONFORMANCE_SCENARIO, the
// revision in MCP_CONFORMANCE_PROTOCOL_VERSION (0.2.0 on; 0.1.16 sets none: a 2025-11-25 client)
// and what a scenario hands the client in MCP_CONFORMANCE_CONTEXT (JSON). This program only picks
// the calls to make and the answers to give; every protocol rule is the library's. The auth/
// scenarios get OAuth options: the suite's authorization server grants at once, so the "browser"
// is fetch_authorization_redirect; the context's credentials are pre-registered ones.
#include <mcp/client/client.hpp>
#include <mcp/client/http.hpp>
#include <mcp/client/oauth.hpp>
#include <mcp/ext/skills_client.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <string_view>

namespace {

std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
}

// A value for each required property of a tool's input schema, by its type.
boost::json::object arguments_for(const boost::json::object& schema) {
    boost::json::object out;
    const auto* properties = schema.if_contains("properties");
    const auto* required = schema.if_contains("required");
    if (properties == nullptr || !properties->is_object() || required == nullptr || !required->is_array()) return out;
    for (const auto& name : required->get_array()) {
        if (!name.is_string()) continue;
        const auto* property = properties->get_object().if_contains(name.get_string());
        const auto* type =
            property != nullptr && property->is_object() ? property->get_object().if_contains("type") : nullptr;
        const std::string_view t = type != nullptr && type->is_string() ? std::string_view(type->get_string()) : "";
        if (t == "number" || t == "integer") {
            out[name.get_string()] = 1;
        } else if (t == "boolean") {
            out[name.get_string()] = true;
        } else if (t == "object") {
            out[name.get_string()] = boost::json::object();
        } else if (t == "array") {
            out[name.get_string()] = boost::json::array();
        } else {
            out[name.get_string()] = "test";
        }
    }
    return out;
}

// The tools the scenario names in its context ({"toolCalls": [{name, arguments}]}), else every
// listed tool with arguments made up from its schema; json-schema-2020-12-preservation's echo
// tool gets the other tool's inputSchema back, verbatim.
void call_tools(mcp::Client& client, const boost::json::object& context) {
    if (const auto* calls = context.if_contains("toolCalls"); calls != nullptr && calls->is_array()) {
        client.all_tools();  // the x-mcp-header annotations come from the listing
        for (const auto& call : calls->get_array()) {
            const auto& c = call.as_object();
            const auto* arguments = c.if_contains("arguments");
            client.call_tool(c.at("name").as_string(), arguments != nullptr && arguments->is_object()
                                                           ? arguments->get_object()
                                                           : boost::json::object());
        }
        return;
    }
    const auto tools = client.all_tools();
    for (const auto& tool : tools) {
        auto arguments = arguments_for(tool.input_schema);
        if (tool.name == "json_schema_echo") {
            for (const auto& other : tools) {
                if (other.name != tool.name) arguments["schema"] = other.input_schema;
            }
        }
        const auto result = client.call_tool(tool.name, std::move(arguments));
        std::cout << tool.name << ": " << (result.is_error ? "error" : "ok") << "\n";
    }
}

// One request of each kind that carries Mcp-Method, and of those that carry Mcp-Name.
void exercise_every_method(mcp::Client& client) {
    const auto tools = client.all_tools();
    if (!tools.empty()) client.call_tool(tools.front().name, arguments_for(tools.front().input_schema));
    const auto resources = client.all_resources();
    if (!resources.empty()) client.read_resource(resources.front().uri);
    const auto prompts = client.all_prompts();
    if (!prompts.empty()) {
        std::map<std::string, std::string> arguments;
        for (const auto& a : prompts.front().arguments) {
            if (a.required) arguments[a.name] = "test";
        }
        client.get_prompt(prompts.front().name, arguments);
    }
}

// The Skills extension's host scenarios (sep-2640-client-*): list the skills, and unless the
// scenario is about prefetching, load each one and then the files it names, as a host does when the
// user picks it. A file that fails verification ends that skill, and the client says so.
void use_skills(mcp::Client& client, std::string_view scenario) {
    mcp::SkillsClient skills(client);
    const auto listed = skills.list();
    if (scenario == "sep-2640-client-no-prefetch") return;
    for (const auto& skill : listed) {
        try {
            skills.load(skill);
            for (const auto& file : skill.resources) {
                if (file.uri != skill.uri) skills.read(skill, file.uri);
            }
        } catch (const mcp::SkillVerificationError& e) {
            std::cout << "refused " << e.uri() << ": " << e.what() << "\n";
        }
    }
}

// The suite's CIMD client id (examples/clients/typescript/helpers/ConformanceOAuthProvider.ts).
constexpr const char* kClientMetadataUrl = "https://conformance-test.local/client-metadata.json";
constexpr const char* kRedirectUri = "http://localhost:3000/callback";

std::string context_string(const boost::json::object& context, std::string_view name) {
    const auto* v = context.if_contains(name);
    return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

mcp::OAuthOptions oauth_options(std::string_view scenario, const boost::json::object& context) {
    mcp::OAuthOptions oauth;
    oauth.client_name = "mcp-cpp-conformance-client";
    oauth.client_metadata_url = kClientMetadataUrl;
    oauth.redirect_uri = kRedirectUri;
    oauth.open_url = [](const mcp::AuthorizationPrompt&) {};
    oauth.wait_for_redirect = [](const mcp::AuthorizationPrompt& prompt) {
        return mcp::fetch_authorization_redirect(prompt.url, prompt.redirect_uri);
    };
    oauth.client_id = context_string(context, "client_id");
    oauth.client_secret = context_string(context, "client_secret");
    oauth.private_key_pem = context_string(context, "private_key_pem");
    if (const auto alg = context_string(context, "signing_algorithm"); !alg.empty()) oauth.signing_algorithm = alg;
    if (scenario.starts_with("auth/client-credentials-")) oauth.grant = mcp::OAuthOptions::Grant::client_credentials;
    if (const auto jwt = context_string(context, "valid_jwt"); !jwt.empty()) {
        oauth.grant = mcp::OAuthOptions::Grant::jwt_bearer;
        oauth.assertion = [jwt] { return jwt; };
    }
    if (const auto endpoint = context_string(context, "idp_token_endpoint"); !endpoint.empty()) {
        oauth.grant = mcp::OAuthOptions::Grant::identity_assertion;
        oauth.identity_provider = mcp::OAuthOptions::IdentityProvider{
            .token_endpoint = endpoint,
            .client_id = context_string(context, "idp_client_id"),
            .client_secret = {},
            .id_token = [token = context_string(context, "idp_id_token")] { return token; }};
    }
    return oauth;
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 2) {
        std::cerr
            << "usage: mcp-cpp-conformance-client [...] SERVER_URL (MCP_CONFORMANCE_SCENARIO names the scenario)\n";
        return 2;
    }
    const std::string url = argv[argc - 1];
    const auto scenario = env("MCP_CONFORMANCE_SCENARIO");
    const auto version = env("MCP_CONFORMANCE_PROTOCOL_VERSION");
    boost::json::object context;
    if (const auto raw = env("MCP_CONFORMANCE_CONTEXT"); !raw.empty()) context = boost::json::parse(raw).as_object();

    mcp::ClientOptions options;
    options.info = {.name = "mcp-cpp-conformance-client", .version = "1.0.0"};
    options.protocol_version = version.empty() ? "auto" : version;
    // Accept every form with nothing filled in: the library fills the schema's defaults.
    options.handlers.elicitation = [](const mcp::Elicitation&) {
        return mcp::ElicitResult{mcp::ElicitAction::accept, {}};
    };
    options.handlers.sampling = [](const mcp::SamplingRequest&) {
        mcp::SamplingResult result;
        result.content.push_back(mcp::TextContent{"A sample from the conformance client"});
        result.model = "conformance-model";
        result.stop_reason = "endTurn";
        return result;
    };
    options.roots = std::vector<mcp::Root>{{"file:///tmp", "tmp"}};
    const bool skills = scenario.starts_with("sep-2640-client-");
    if (skills) mcp::SkillsClient::declare(options);

    mcp::HttpServerParams params{.url = url};
    if (scenario.starts_with("auth/")) params.oauth = oauth_options(scenario, context);
    mcp::Client client(std::make_shared<mcp::HttpTransport>(std::move(params)), options);
    client.connect();
    std::cout << "connected: " << client.protocol_version() << " (" << scenario << ")\n";
    if (skills) {
        use_skills(client, scenario);
    } else if (scenario == "initialize" || scenario == "json-schema-ref-no-deref") {
        client.all_tools();  // json-schema-ref-no-deref's server answers tools/list only
    } else if (scenario == "http-standard-headers") {
        exercise_every_method(client);
    } else {
        call_tools(client, context);
    }
    client.close();
    return 0;
} catch (const std::exception& e) {
    std::cerr << "mcp-cpp-conformance-client: " << e.what() << "\n";
    return 1;
}
