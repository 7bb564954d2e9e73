// The client's OAuth pieces that read what a server sends: WWW-Authenticate and the OAuth
// documents, well-formed and hostile (malformed, huge, wrong types); the redirect's query; PKCE;
// JWS signing (jose) checked by the verifier; the token stores; the loopback redirect listener;
// and the authorizer's refusals that need no network.
#include "client/auth/authorizer.hpp"
#include "client/auth/challenge.hpp"
#include "client/auth/documents.hpp"
#include "jose/jws.hpp"

#include "jwt_signer.hpp"

#include <mcp/client/oauth.hpp>

#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/serialize.hpp>

#include <sys/stat.h>
#include <filesystem>
#include <stdexcept>
#include <thread>

namespace {

using namespace mcp::detail;
using testing_support::TestKey;

std::vector<Challenge> parse(std::string_view value) { return parse_www_authenticate({value}); }

TEST(WwwAuthenticate, ReadsABearerChallengeWithQuotedAndBareParameters) {
    const auto c = parse(R"(Bearer error="insufficient_scope", scope="mcp:read mcp:write", )"
                         R"(resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp")");
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].scheme, "bearer");
    EXPECT_EQ(c[0].param("error"), "insufficient_scope");
    EXPECT_EQ(c[0].param("SCOPE"), "mcp:read mcp:write");
    const auto b = bearer_challenge({R"(Bearer realm=mcp, scope=a)"});
    ASSERT_TRUE(b);
    EXPECT_EQ(b->scope, "a");
    EXPECT_EQ(b->resource_metadata, "");
}

TEST(WwwAuthenticate, ReadsSeveralChallengesInOneValueAndAcrossValues) {
    const auto c = parse_www_authenticate(
        {R"(Basic realm="x", Bearer scope="s1", error="invalid_token")", R"(DPoP algs="ES256", Negotiate abc==)"});
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0].scheme, "basic");
    EXPECT_EQ(c[1].scheme, "bearer");
    EXPECT_EQ(c[1].param("error"), "invalid_token");
    EXPECT_EQ(c[2].scheme, "dpop");
    EXPECT_EQ(c[3].scheme, "negotiate");
    EXPECT_EQ(c[3].token68, "abc==");
    // The Bearer one is what the client acts on, whatever comes first.
    const auto b = bearer_challenge({R"(Basic realm="x", Bearer scope="s1")"});
    ASSERT_TRUE(b);
    EXPECT_EQ(b->scope, "s1");
}

TEST(WwwAuthenticate, SaysWhetherTheServerOffersDpop) {
    EXPECT_FALSE(bearer_challenge({R"(Bearer scope="a")"})->dpop);
    const auto both = bearer_challenge({R"(Bearer scope="a")", R"(DPoP algs="ES256")"});
    ASSERT_TRUE(both);
    EXPECT_TRUE(both->dpop);
    EXPECT_EQ(both->scope, "a");
    const auto nonce = bearer_challenge({R"(DPoP error="use_dpop_nonce", resource_metadata="https://m/prm")"});
    ASSERT_TRUE(nonce);
    EXPECT_TRUE(nonce->dpop);
    EXPECT_EQ(nonce->error, "use_dpop_nonce");
}

TEST(WwwAuthenticate, UnescapesQuotedPairs) {
    const auto c = parse(R"(Bearer error_description="a \"quoted\" \\ word")");
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].param("error_description"), R"(a "quoted" \ word)");
}

TEST(WwwAuthenticate, HostileValuesYieldNothingOrLessNeverAnError) {
    EXPECT_TRUE(parse("").empty());
    EXPECT_TRUE(parse(" , ,, ").empty());
    EXPECT_TRUE(parse("=").empty());
    EXPECT_TRUE(parse("\"Bearer\"").empty());
    // An unterminated quote drops the challenge it is in.
    EXPECT_FALSE(bearer_challenge({R"(Bearer scope="never ends)"}).has_value());
    EXPECT_FALSE(bearer_challenge({R"(Bearer scope="ends with a backslash\)"}).has_value());
    // Binary, NUL and control bytes: no crash, no challenge made of them.
    const std::string binary("Bearer \x01\x02\0\xff scope=\"x\"", 24);
    (void)parse(binary);
    // Huge: a value over 4 KiB is dropped, the parameters around it kept.
    std::string huge = "Bearer scope=\"";
    huge.append(100'000, 'a');
    huge += "\", error=\"x\"";
    const auto h = parse(huge);
    ASSERT_LE(h.size(), 1u);
    if (!h.empty()) {
        EXPECT_FALSE(h[0].param("scope").has_value());
    }
    // Many challenges and many parameters are capped.
    std::string many;
    for (int i = 0; i < 1000; ++i) many += "Bearer a=b, ";
    EXPECT_LE(parse(many).size(), 16u);
    std::string params = "Bearer ";
    for (int i = 0; i < 1000; ++i) {
        params += 'p';
        params += std::to_string(i);
        params += "=v, ";
    }
    const auto p = parse(params);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_LE(p[0].params.size(), 32u);
}

TEST(OAuthDocuments, ReadsResourceAndServerMetadata) {
    const auto prm = parse_resource_metadata(
        R"({"resource":"https://mcp.example.com/mcp","authorization_servers":["https://as.example.com"],)"
        R"("scopes_supported":["a","b"],"bearer_methods_supported":["header"],"extra":{"x":1}})");
    EXPECT_EQ(prm.resource, "https://mcp.example.com/mcp");
    EXPECT_EQ(prm.authorization_servers, std::vector<std::string>{"https://as.example.com"});
    EXPECT_EQ(prm.scopes_supported.size(), 2u);
    const auto as = parse_server_metadata(
        R"({"issuer":"https://as.example.com","authorization_endpoint":"https://as.example.com/a",)"
        R"("token_endpoint":"https://as.example.com/t","code_challenge_methods_supported":["S256"],)"
        R"("client_id_metadata_document_supported":true,"authorization_response_iss_parameter_supported":true})");
    EXPECT_EQ(as.issuer, "https://as.example.com");
    EXPECT_TRUE(as.code_challenge_methods_present);
    EXPECT_FALSE(as.token_endpoint_auth_methods_present);
    EXPECT_TRUE(as.client_id_metadata_document_supported);
    EXPECT_TRUE(as.authorization_response_iss_parameter_supported);
}

TEST(OAuthDocuments, RefusesWrongTypesMissingMembersAndNonJson) {
    for (const auto* body :
         {"", "null", "[]", "\"x\"", "{", "{\"resource\":1}", "{\"authorization_servers\":[]}",
          R"({"resource":"r","authorization_servers":"https://as"})", R"({"resource":"r","authorization_servers":[1]})",
          R"({"resource":"r","scopes_supported":[null]})"}) {
        EXPECT_THROW(parse_resource_metadata(body), std::invalid_argument) << body;
    }
    for (const auto* body : {"{}", R"({"issuer":5})", R"({"issuer":"i","token_endpoint":{}})",
                             R"({"issuer":"i","code_challenge_methods_supported":"S256"})",
                             R"({"issuer":"i","client_id_metadata_document_supported":"true"})"}) {
        EXPECT_THROW(parse_server_metadata(body), std::invalid_argument) << body;
    }
    for (const auto* body : {"{}", R"({"access_token":"","token_type":"Bearer"})", R"({"access_token":"t"})",
                             R"({"access_token":1,"token_type":"Bearer"})",
                             R"({"access_token":"t","token_type":"Bearer","expires_in":-1})",
                             R"({"access_token":"t","token_type":"Bearer","expires_in":"12x"})",
                             R"({"access_token":"t","token_type":"Bearer","expires_in":[]})",
                             R"({"access_token":"t","token_type":"Bearer","refresh_token":7})"}) {
        EXPECT_THROW(parse_token_response(body), std::invalid_argument) << body;
    }
    for (const auto* body :
         {"{}", R"({"client_id":""})", R"({"client_id":["x"]})", R"({"client_id":"c","client_secret":false})"}) {
        EXPECT_THROW(parse_registration(body), std::invalid_argument) << body;
    }
}

TEST(OAuthDocuments, BoundsDepthLengthAndLists) {
    std::string deep = R"({"resource":"r","x":)";
    deep.append(1000, '[');
    deep.append(1000, ']');
    deep += '}';
    EXPECT_THROW(parse_resource_metadata(deep), std::invalid_argument);
    std::string long_string = R"({"issuer":")";
    long_string.append(100'000, 'a');
    long_string += "\"}";
    EXPECT_THROW(parse_server_metadata(long_string), std::invalid_argument);
    std::string list = R"({"resource":"r","scopes_supported":[)";
    for (int i = 0; i < 1000; ++i) list += (i ? ",\"s\"" : "\"s\"");
    list += "]}";
    EXPECT_THROW(parse_resource_metadata(list), std::invalid_argument);
}

TEST(OAuthDocuments, ReadsTokenResponsesAsServersWriteThem) {
    const auto t = parse_token_response(
        R"({"access_token":"at","token_type":"bearer","expires_in":3600,"refresh_token":"rt","scope":"a b"})");
    EXPECT_EQ(t.access_token, "at");
    EXPECT_EQ(t.expires_in, 3600);
    EXPECT_EQ(t.refresh_token, "rt");
    EXPECT_EQ(parse_token_response(R"({"access_token":"a","token_type":"Bearer","expires_in":"60"})").expires_in, 60);
    EXPECT_EQ(parse_token_response(R"({"access_token":"a","token_type":"Bearer","expires_in":1.5})").expires_in, 1);
    // Absurd lifetimes are capped, not overflowed.
    EXPECT_LE(*parse_token_response(R"({"access_token":"a","token_type":"Bearer","expires_in":1e300})").expires_in,
              10LL * 365 * 24 * 3600);
    const auto e = parse_oauth_error(R"({"error":"invalid_grant","error_description":"expired"})");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->error, "invalid_grant");
    EXPECT_FALSE(parse_oauth_error("<html>").has_value());
    EXPECT_FALSE(parse_oauth_error(R"({"error":42})").has_value());
}

TEST(OAuthRedirect, QueryParametersAreDecodedAndTheFirstOfANameWins) {
    const auto q = query_parameters("http://127.0.0.1:5/cb?code=a%2Bb&state=s+1&iss=https%3A%2F%2Fas&code=second#frag");
    EXPECT_EQ(q.at("code"), "a+b");
    EXPECT_EQ(q.at("state"), "s 1");
    EXPECT_EQ(q.at("iss"), "https://as");
    EXPECT_TRUE(query_parameters("http://x/cb").empty());
    EXPECT_FALSE(query_parameters("http://x/cb?bad=%zz&ok=1").contains("bad"));
    EXPECT_EQ(form_encode({{"a b", "c&d=e"}, {"x", ""}}), "a%20b=c%26d%3De&x=");
}

TEST(OAuthPkce, S256IsTheRfc7636AppendixBValue) {
    EXPECT_EQ(pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
              "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

TEST(JoseSigning, WhatIsSignedVerifiesForEachAlgorithm) {
    for (const auto* alg : {"ES256", "ES384", "RS256", "PS256", "EdDSA"}) {
        const auto key = TestKey::generate(std::string_view(alg) == "PS256" ? "RS256" : alg);
        const auto token = sign_compact_jws(alg, key.pkey(), {{"typ", "JWT"}}, {{"iss", "client"}, {"n", 1}});
        const auto parsed = parse_compact_jws(token);
        ASSERT_TRUE(parsed) << alg;
        EXPECT_EQ(parsed->header.at("alg").as_string(), alg);
        EXPECT_EQ(parsed->payload.at("iss").as_string(), "client");
        EXPECT_TRUE(verify_signature(alg, key.pkey(), parsed->signing_input, parsed->signature)) << alg;
        EXPECT_FALSE(verify_signature(alg, key.pkey(), "x.y", parsed->signature)) << alg;
    }
}

TEST(JoseSigning, APublicJwkVerifiesWhatItsKeySignedAndHoldsNoPrivatePart) {
    const auto key = generate_ec_p256_key();
    const auto jwk = public_jwk(key.get());
    EXPECT_FALSE(jwk.contains("d"));
    const auto keys = parse_jwks(boost::json::object{{"keys", boost::json::array{jwk}}});
    ASSERT_EQ(keys.size(), 1u);
    const auto proof = sign_compact_jws("ES256", key.get(), {{"typ", "dpop+jwt"}, {"jwk", jwk}}, {{"htm", "POST"}});
    const auto parsed = parse_compact_jws(proof);
    ASSERT_TRUE(parsed);
    EXPECT_TRUE(verify_signature("ES256", keys[0].key.get(), parsed->signing_input, parsed->signature));
    for (const auto* alg : {"RS256", "EdDSA", "ES384"}) {
        const auto other = TestKey::generate(alg);
        const auto other_keys = parse_jwks(boost::json::object{{"keys", boost::json::array{public_jwk(other.pkey())}}});
        EXPECT_EQ(other_keys.size(), 1u) << alg;
    }
}

TEST(JoseSigning, RefusesAKeyOfAnotherTypeAndAlgorithmsNotAccepted) {
    const auto ec = TestKey::generate("ES256");
    EXPECT_THROW(sign_compact_jws("RS256", ec.pkey(), {}, {}), std::invalid_argument);
    EXPECT_THROW(sign_compact_jws("ES384", ec.pkey(), {}, {}), std::invalid_argument);
    EXPECT_THROW(sign_compact_jws("HS256", ec.pkey(), {}, {}), std::invalid_argument);
    EXPECT_THROW(sign_compact_jws("none", ec.pkey(), {}, {}), std::invalid_argument);
    EXPECT_FALSE(load_private_key_pem("not a key"));
    EXPECT_FALSE(load_private_key_pem(""));
    EXPECT_FALSE(load_private_key_pem("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"));
}

TEST(TokenStores, MemoryAndFileKeepEachResourceApart) {
    const auto dir = std::filesystem::temp_directory_path() / ("mcp-oauth-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto path = (dir / "tokens.json").string();
    mcp::MemoryTokenStore memory;
    mcp::FileTokenStore file(path);
    for (mcp::TokenStore* store : {static_cast<mcp::TokenStore*>(&memory), static_cast<mcp::TokenStore*>(&file)}) {
        EXPECT_FALSE(store->load("https://a/mcp"));
        mcp::StoredAuthorization a;
        a.issuer = "https://as";
        a.client_id = "c";
        a.access_token = "t1";
        a.refresh_token = "r1";
        a.expires_at = 1234;
        store->save("https://a/mcp", a);
        a.access_token = "t2";
        store->save("https://b/mcp", a);
        ASSERT_TRUE(store->load("https://a/mcp"));
        EXPECT_EQ(store->load("https://a/mcp")->access_token, "t1");
        EXPECT_EQ(store->load("https://a/mcp")->expires_at, 1234);
        EXPECT_EQ(store->load("https://b/mcp")->access_token, "t2");
        store->erase("https://a/mcp");
        EXPECT_FALSE(store->load("https://a/mcp"));
        EXPECT_TRUE(store->load("https://b/mcp"));
    }
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600);
    // A file that is not JSON reads as empty, and is replaced on the next save.
    std::filesystem::resize_file(path, 3);
    EXPECT_FALSE(file.load("https://b/mcp"));
    std::filesystem::remove_all(dir);
}

// A browser's GET of `target` on the listener's port; the status line it got back.
std::string browser_get(unsigned short port, const std::string& target) {
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
    std::string request = "GET ";
    request += target;
    request += " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    boost::asio::write(socket, boost::asio::buffer(request));
    std::string answer;
    boost::system::error_code ec;
    boost::asio::read(socket, boost::asio::dynamic_buffer(answer), ec);
    return answer.substr(0, answer.find("\r\n"));
}

TEST(LoopbackRedirect, TakesTheRedirectWithTheRightStateOnly) {
    boost::asio::io_context io;
    LoopbackRedirect listener(io);
    const auto uri = listener.redirect_uri();
    ASSERT_TRUE(uri.starts_with("http://127.0.0.1:"));
    const auto port = static_cast<unsigned short>(std::stoi(uri.substr(17)));
    std::vector<std::string> answers;
    std::thread browser([&] {
        answers.push_back(browser_get(port, "/favicon.ico"));
        answers.push_back(browser_get(port, "/callback?code=c&state=wrong"));
        answers.push_back(browser_get(port, "/callback?code=c&state=right&iss=x"));
    });
    const auto got = listener.wait("right", std::chrono::seconds(10), {});
    browser.join();
    EXPECT_EQ(got, "http://127.0.0.1/callback?code=c&state=right&iss=x");
    ASSERT_EQ(answers.size(), 3u);
    EXPECT_EQ(answers[0], "HTTP/1.1 400 Bad Request");
    EXPECT_EQ(answers[1], "HTTP/1.1 400 Bad Request");
    EXPECT_EQ(answers[2], "HTTP/1.1 200 OK");
}

TEST(LoopbackRedirect, GivesUpAtItsTimeoutAndOnStop) {
    boost::asio::io_context io;
    LoopbackRedirect listener(io);
    EXPECT_THROW(listener.wait("s", std::chrono::milliseconds(50), {}), std::runtime_error);
    std::stop_source stop;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        stop.request_stop();
    });
    EXPECT_THROW(listener.wait("s", std::chrono::seconds(30), stop.get_token()), std::runtime_error);
    stopper.join();
}

TEST(Authorizer, RefusesMetadataThatIsNotHttpsAndTokensForOtherOrigins) {
    mcp::OAuthOptions options;
    auto auth = std::make_shared<Authorizer>(options, "https://mcp.example.com/mcp", mcp::net::HttpClientOptions{});
    EXPECT_TRUE(auth->covers("https://mcp.example.com/other"));
    EXPECT_TRUE(auth->covers("https://mcp.example.com:443/mcp"));
    EXPECT_FALSE(auth->covers("http://mcp.example.com/mcp"));
    EXPECT_FALSE(auth->covers("https://mcp.example.com.evil.com/mcp"));
    EXPECT_FALSE(auth->covers("https://evil.example.com/mcp"));
    EXPECT_FALSE(auth->covers("not a url"));
    // A challenge pointing the client at plain HTTP elsewhere is refused before any request.
    const auto outcome =
        auth->renew_now(401, {R"(Bearer resource_metadata="http://evil.example.com/prm")"}, std::string());
    EXPECT_FALSE(outcome.ok);
    EXPECT_NE(outcome.error.find("not HTTPS"), std::string::npos) << outcome.error;
    EXPECT_TRUE(auth->token().empty());
}

TEST(Authorizer, RefusesOptionsItCannotUse) {
    mcp::OAuthOptions cc;
    cc.grant = mcp::OAuthOptions::Grant::client_credentials;
    EXPECT_THROW(Authorizer(cc, "https://m/mcp", {}), std::invalid_argument);
    mcp::OAuthOptions bad_key;
    bad_key.private_key_pem = "nope";
    EXPECT_THROW(Authorizer(bad_key, "https://m/mcp", {}), std::invalid_argument);
    mcp::OAuthOptions redirect;
    redirect.redirect_uri = "http://localhost/cb";  // without wait_for_redirect
    EXPECT_THROW(Authorizer(redirect, "https://m/mcp", {}), std::invalid_argument);
}

}  // namespace
