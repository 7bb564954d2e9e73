// mcp-cpp-client: one MCP server's tools, resources and prompts from the command line, through
// mcp::Client. It picks the calls and prints the answers; every protocol rule is the library's.
#include "arguments.hpp"
#include "command_line.hpp"
#include "output.hpp"
#include "server_entry.hpp"
#include "terminal.hpp"

#include <mcp/client/client.hpp>
#include <mcp/client/http.hpp>
#include <mcp/client/oauth.hpp>
#include <mcp/protocol/errors.hpp>

#include <deque>
#include <iostream>
#include <mutex>
#include <set>

namespace mcp_client_tool {

namespace {

constexpr std::size_t kMaxPages = 1000;
constexpr std::size_t kKeptStderrLines = 20;

// The server's stderr: shown as it comes with --verbose; otherwise its last lines are kept, and
// shown when the command fails.
class ServerStderr {
public:
    explicit ServerStderr(bool verbose) : verbose_(verbose) {}
    void line(std::string_view text) {
        std::lock_guard lock(mutex_);
        if (verbose_) {
            std::cerr << "server: " << text << '\n';
            return;
        }
        kept_.emplace_back(text);
        if (kept_.size() > kKeptStderrLines) kept_.pop_front();
    }
    void show() {
        std::lock_guard lock(mutex_);
        if (kept_.empty()) return;
        std::cerr << "the server's last lines on stderr:\n";
        for (const auto& l : kept_) std::cerr << "  " << l << '\n';
    }

private:
    std::mutex mutex_;
    bool verbose_;
    std::deque<std::string> kept_;
};

// tools/list as the server sent it, every page.
boost::json::array listed_tools(mcp::Client& client, const mcp::CallOptions& options) {
    boost::json::array tools;
    std::set<std::string> cursors;
    boost::json::object params;
    for (std::size_t page = 0; page < kMaxPages; ++page) {
        auto result = client.request("tools/list", params, options);
        const auto* o = result.if_object();
        const auto* items = o != nullptr ? o->if_contains("tools") : nullptr;
        if (items == nullptr || !items->is_array()) throw mcp::ProtocolViolation("malformed tools/list result");
        for (const auto& t : items->get_array()) tools.push_back(t);
        const auto* next = o->if_contains("nextCursor");
        if (next == nullptr || !next->is_string()) return tools;
        if (!cursors.emplace(next->get_string()).second)
            throw mcp::ProtocolViolation("the server's cursors go round in a circle");
        params["cursor"] = next->get_string();
    }
    throw mcp::ProtocolViolation("the listing has more pages than mcp-cpp-client reads");
}

int call_tool(mcp::Client& client, const CommandLine& cl, mcp::CallOptions options) {
    // The listing gives the tool's input schema, and teaches the client its output schema.
    boost::json::object schema;
    bool known = false;
    for (const auto& tool : client.tools(options)) {
        if (tool.name != cl.target) continue;
        schema = tool.input_schema;
        known = true;
    }
    const auto arguments = tool_arguments(cl.pairs, known ? &schema : nullptr);
    ProgressBar bar;
    set_active_progress(&bar);
    options.on_progress = [&bar](const mcp::Progress& p) { bar.update(p); };
    mcp::CallToolResult result;
    try {
        result = client.call_tool(cl.target, arguments, options);
    } catch (...) {
        set_active_progress(nullptr);
        bar.clear();
        throw;
    }
    set_active_progress(nullptr);
    bar.clear();
    print_tool_result(result, cl.json, std::cout);
    if (!result.is_error) return 0;
    std::cerr << "mcp-cpp-client: the tool " << cl.target << " reported an error (isError)\n";
    return 1;
}

int run(mcp::Client& client, const CommandLine& cl) {
    const mcp::CallOptions options{.timeout = cl.timeout};
    if (cl.command == "tools/list") {
        print_tools(listed_tools(client, options), cl.json, std::cout);
        return 0;
    }
    if (cl.command == "tools/call") return call_tool(client, cl, options);
    if (cl.command == "resources/read") {
        print_resource(client.read_resource(cl.target, options), cl.json, std::cout);
        return 0;
    }
    print_prompt(client.get_prompt(cl.target, prompt_arguments(cl.pairs), options), cl.json, std::cout);
    return 0;
}

// The entry's transport; with --oauth, an HTTP transport that authorizes itself.
std::shared_ptr<mcp::ClientTransport> transport_for(const mcp::ServerConfig& entry, const CommandLine& cl) {
    if (!cl.oauth) return mcp::make_transport(entry);
    if (entry.transport != mcp::ServerTransportKind::http)
        throw UsageError("--oauth is for a server over Streamable HTTP");
    mcp::HttpServerParams params{.url = entry.url, .headers = entry.headers};
    mcp::OAuthOptions oauth;
    oauth.client_name = "mcp-cpp-client";
    oauth.client_id = cl.oauth_client_id;
    oauth.client_secret = cl.oauth_client_secret;
    if (oauth.client_secret.starts_with("${env:") && oauth.client_secret.ends_with("}")) {
        const auto name = oauth.client_secret.substr(6, oauth.client_secret.size() - 7);
        const char* value = std::getenv(name.c_str());
        if (value == nullptr) throw UsageError("--oauth-client-secret: the environment has no " + name);
        oauth.client_secret = value;
    }
    if (cl.oauth_client_credentials) oauth.grant = mcp::OAuthOptions::Grant::client_credentials;
    if (!cl.oauth_token_file.empty()) oauth.store = std::make_shared<mcp::FileTokenStore>(cl.oauth_token_file);
    oauth.redirect_timeout = cl.timeout;
    params.oauth = std::move(oauth);
    return std::make_shared<mcp::HttpTransport>(std::move(params));
}

}  // namespace

int main(int argc, char** argv) {
    auto parsed = parse_command_line(argc, argv);
    if (const auto* status = std::get_if<int>(&parsed)) return *status;
    const auto& cl = std::get<CommandLine>(parsed);

    ServerStderr server_stderr(cl.verbose);
    try {
        const auto entry = server_entry(cl);
        mcp::ClientOptions options;
        options.info = {.name = "mcp-cpp-client", .version = MCP_CPP_VERSION};
        options.protocol_version = cl.protocol_version;
        options.request_timeout = cl.timeout;
        options.tracing.endpoint = cl.otlp_endpoint;
        options.handlers.elicitation = ask_on_terminal;
        options.handlers.server_stderr = [&server_stderr](std::string_view line) { server_stderr.line(line); };
        mcp::Client client(transport_for(entry, cl), std::move(options));
        client.connect({.timeout = cl.timeout});
        const int status = run(client, cl);
        client.close();
        return status;
    } catch (const UsageError& e) {
        std::cerr << "mcp-cpp-client: " << e.what() << '\n';
        return 2;
    } catch (const mcp::ConfigError& e) {
        std::cerr << "mcp-cpp-client: " << e.what() << '\n';
        return 2;
    } catch (const mcp::Error& e) {
        std::cerr << "mcp-cpp-client: the server answered error " << e.code() << ": " << e.what() << '\n';
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "mcp-cpp-client: " << e.what() << '\n';
    }
    server_stderr.show();
    return 1;
}

}  // namespace mcp_client_tool

int main(int argc, char** argv) { return mcp_client_tool::main(argc, argv); }
