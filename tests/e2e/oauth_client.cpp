// mcp-cpp-oauth-e2e: mcp::Client authorizing itself against mcp-cpp-demo (a resource server) and
// the e2e authorization server (authorization_server.mjs, whose interactions are granted at once,
// so fetch_authorization_redirect plays the browser). cpp_oauth.test.mjs runs one mode per
// invocation and reads the one JSON line it prints: what it saw, and how many tokens of each grant
// the authorization server issued (OAuthOptions::on_token).
//
//   mcp-cpp-oauth-e2e code URL                       authorization code + PKCE, one call
//   mcp-cpp-oauth-e2e step-up URL                    a notes:read token, then a notes:write tool
//   mcp-cpp-oauth-e2e client-credentials URL ID SECRET
//   mcp-cpp-oauth-e2e expiry URL SECONDS             a call after the token expired, then 64 threads
//                                                    calling at once after it expired again
//   mcp-cpp-oauth-e2e group URL OTHER_URL            a ClientGroup of both, with one token store
#include <mcp/client/client.hpp>
#include <mcp/client/group.hpp>
#include <mcp/client/http.hpp>
#include <mcp/client/oauth.hpp>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <atomic>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr const char* kRedirectUri = "http://127.0.0.1:9/callback";

struct Issued {
    std::mutex mutex;
    std::map<std::string, int> by_grant;
    std::vector<std::string> scopes;
};

mcp::OAuthOptions options(Issued& issued) {
    mcp::OAuthOptions oauth;
    oauth.client_name = "mcp-cpp e2e";
    oauth.redirect_uri = kRedirectUri;
    oauth.open_url = [](const mcp::AuthorizationPrompt&) {};
    oauth.wait_for_redirect = [](const mcp::AuthorizationPrompt& prompt) {
        return mcp::fetch_authorization_redirect(prompt.url, prompt.redirect_uri);
    };
    oauth.on_token = [&issued](const mcp::TokenEvent& event) {
        std::lock_guard lock(issued.mutex);
        ++issued.by_grant[event.grant_type];
        issued.scopes.push_back(event.scope);
    };
    return oauth;
}

std::shared_ptr<mcp::HttpTransport> transport(const std::string& url, mcp::OAuthOptions oauth) {
    mcp::HttpServerParams params{.url = url};
    params.oauth = std::move(oauth);
    return std::make_shared<mcp::HttpTransport>(std::move(params));
}

std::string text_of(const mcp::CallToolResult& result) {
    for (const auto& block : result.content) {
        if (const auto* text = std::get_if<mcp::TextContent>(&block)) return text->text;
    }
    return {};
}

boost::json::object report(Issued& issued) {
    std::lock_guard lock(issued.mutex);
    boost::json::object grants;
    for (const auto& [grant, n] : issued.by_grant) grants[grant] = n;
    boost::json::array scopes;
    for (const auto& s : issued.scopes) scopes.emplace_back(s);
    return {{"issued", grants}, {"scopes", scopes}};
}

// "t<i>", built without operator+ (GCC 12's -Wrestrict misfires on "t" + std::to_string(i)).
std::string label(int i) {
    std::string s("t");
    s.append(std::to_string(i));
    return s;
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 3) {
        std::cerr << "usage: mcp-cpp-oauth-e2e MODE URL [...]\n";
        return 2;
    }
    const std::string mode = argv[1];
    const std::string url = argv[2];
    Issued issued;
    auto oauth = options(issued);
    boost::json::object out;

    if (mode == "code" || mode == "step-up" || mode == "client-credentials") {
        if (mode == "client-credentials") {
            if (argc < 5) throw std::invalid_argument("client-credentials needs ID and SECRET");
            oauth.grant = mcp::OAuthOptions::Grant::client_credentials;
            oauth.client_id = argv[3];
            oauth.client_secret = argv[4];
        }
        mcp::Client client(transport(url, oauth));
        client.connect();
        out["echo"] = text_of(client.call_tool("echo", {{"text", "hello"}}));
        if (mode == "step-up") {
            const auto added = client.call_tool("add_note", {{"slug", "e2e"}, {"body", "written after a step-up"}});
            out["add_note_error"] = added.is_error;
        }
        client.close();
    } else if (mode == "expiry") {
        if (argc < 4) throw std::invalid_argument("expiry needs SECONDS");
        const auto wait = std::chrono::milliseconds(static_cast<long>(std::stod(argv[3]) * 1000));
        mcp::Client client(transport(url, oauth));
        client.connect();
        out["first"] = text_of(client.call_tool("echo", {{"text", "first"}}));
        std::this_thread::sleep_for(wait);
        out["after_expiry"] = text_of(client.call_tool("echo", {{"text", "after expiry"}}));
        std::this_thread::sleep_for(wait);
        std::atomic<int> ok{0};
        std::atomic<int> failed{0};
        std::vector<std::thread> threads;
        for (int i = 0; i < 64; ++i) {
            threads.emplace_back([&, i] {
                try {
                    const auto r = client.call_tool("echo", {{"text", label(i)}});
                    (text_of(r) == label(i) ? ok : failed)++;
                } catch (const std::exception& e) {
                    std::cerr << "thread " << i << ": " << e.what() << "\n";
                    ++failed;
                }
            });
        }
        for (auto& t : threads) t.join();
        out["concurrent_ok"] = ok.load();
        out["concurrent_failed"] = failed.load();
        client.close();
    } else if (mode == "group") {
        if (argc < 4) throw std::invalid_argument("group needs OTHER_URL");
        // Both servers with the same OAuth options and one token store: each has its own
        // authorizer, and a token is kept (and sent) for its own resource only.
        oauth.store = std::make_shared<mcp::MemoryTokenStore>();
        mcp::ClientGroupOptions group_options;
        group_options.make_transport = [oauth](const mcp::ServerConfig& config) {
            return transport(config.url, oauth);
        };
        mcp::ClientGroup group(group_options);
        mcp::ServerConfig notes;
        notes.name = "notes";
        notes.transport = mcp::ServerTransportKind::http;
        notes.url = url;
        mcp::ServerConfig other;
        other.name = "other";
        other.transport = mcp::ServerTransportKind::http;
        other.url = argv[3];
        group.add(notes);
        group.add(other);
        if (!group.wait_connected(std::chrono::seconds(30))) throw std::runtime_error("the group did not connect");
        out["echo"] = text_of(group.call_tool("echo", {{"text", "through the group"}}));
        boost::json::array tools;
        for (const auto& t : group.tools()) tools.emplace_back(t.name);
        out["tools"] = tools;
        group.close();
    } else {
        throw std::invalid_argument(std::string("unknown mode ").append(mode));
    }
    const auto r = report(issued);
    out["issued"] = r.at("issued");
    out["scopes"] = r.at("scopes");
    std::cout << boost::json::serialize(out) << std::endl;
    return 0;
} catch (const std::exception& e) {
    std::cerr << "mcp-cpp-oauth-e2e: " << e.what() << "\n";
    return 1;
}
