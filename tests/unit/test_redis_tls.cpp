// The store over TLS (rediss://, docs/adr/0025-redis-tls.md) against a real redis-server listening
// for TLS only, with throwaway certificates made by the openssl command: commands and signals
// through the backend, a client certificate, and the servers it must refuse (another CA, another
// name, an expired certificate, a port without TLS), each a clear error at startup within seconds.
#include "redis_fixture.hpp"
#include "store/redis/redis_url.hpp"

#include <gtest/gtest.h>
#include <boost/json/value.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

using namespace mcp::detail;
using namespace std::chrono_literals;
using namespace testing_support;

namespace {

// A CA, and certificates it signs; made once per test binary in a scratch directory.
class Certificates {
public:
    Certificates() {
        char pattern[] = "/tmp/mcp-redis-tls-XXXXXX";
        if (::mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
        dir_ = pattern;
        make_ca("ca");
        make_ca("other-ca");
        sign("server", "ca", "IP:127.0.0.1", "2");
        sign("client", "ca", "DNS:client.test", "2");
        sign("expired", "ca", "IP:127.0.0.1", "-1");  // its notAfter before its notBefore: expired
    }
    ~Certificates() {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    std::string pem(const std::string& name) const { return dir_ + "/" + name + ".pem"; }
    std::string key(const std::string& name) const { return dir_ + "/" + name + ".key"; }

    RedisTlsFiles server(const std::string& name = "server", bool require_client_cert = false) const {
        return {pem(name), key(name), pem("ca"), pem("client"), key("client"), require_client_cert};
    }

private:
    void openssl(const std::string& args) const {
        const auto command = "openssl " + args + " >/dev/null 2>&1";
        if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
    }
    void make_ca(const std::string& name) const {
        openssl("req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=" + name + " -keyout " +
                key(name) + " -out " + pem(name));
    }
    void sign(const std::string& name, const std::string& ca, const std::string& san, const std::string& days) const {
        const auto csr = dir_ + "/" + name + ".csr";
        const auto ext = dir_ + "/" + name + ".ext";
        std::FILE* f = std::fopen(ext.c_str(), "w");
        std::fprintf(f, "subjectAltName=%s\n", san.c_str());
        std::fclose(f);
        openssl("req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=" + name + " -keyout " + key(name) +
                " -out " + csr);
        openssl("x509 -req -in " + csr + " -CA " + pem(ca) + " -CAkey " + key(ca) + " -CAcreateserial -days " + days +
                " -extfile " + ext + " -out " + pem(name));
    }

    std::string dir_;
};

const Certificates& certificates() {
    static const Certificates made;
    return made;
}

std::string with(const std::string& url, const std::string& query) { return url + "?" + query; }

// make_backend's error, and how long it took to come.
std::pair<std::string, std::chrono::milliseconds> startup_error(const std::string& url) {
    const auto started = std::chrono::steady_clock::now();
    std::string what;
    try {
        make_backend(url);
    } catch (const std::exception& e) {
        what = e.what();
    }
    return {what, std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started)};
}

}  // namespace

TEST(RedisTlsUrl, ReadsTheTlsForms) {
    auto single = RedisUrl::parse(
        "rediss://:pw@db.example:6380/2?tls-ca-file=/etc/ca.pem&tls-cert-file=%2Fc.pem&tls-key-file=/c.key"
        "&tls-server-name=redis.internal");
    ASSERT_TRUE(single.tls.has_value());
    EXPECT_EQ(single.host, "db.example");
    EXPECT_EQ(single.port, 6380);
    EXPECT_EQ(single.db, 2);
    EXPECT_EQ(single.password, "pw");
    EXPECT_EQ(single.tls->ca_file, "/etc/ca.pem");
    EXPECT_EQ(single.tls->cert_file, "/c.pem");
    EXPECT_EQ(single.tls->key_file, "/c.key");
    EXPECT_EQ(single.tls->server_name, "redis.internal");

    auto bare = RedisUrl::parse("rediss://h");
    ASSERT_TRUE(bare.tls.has_value());
    EXPECT_TRUE(bare.tls->ca_file.empty());  // the system's roots
    EXPECT_FALSE(RedisUrl::parse("redis://h").tls.has_value());

    auto sentinel = RedisUrl::parse("rediss-sentinel://s1,s2:26380/mymaster/1?sentinel-password=x&tls-ca-file=/ca.pem");
    ASSERT_TRUE(sentinel.tls.has_value());
    ASSERT_TRUE(sentinel.sentinels.has_value());
    EXPECT_EQ(sentinel.sentinels->nodes.size(), 2u);
    EXPECT_EQ(sentinel.sentinels->master_name, "mymaster");
    EXPECT_EQ(sentinel.sentinels->password, "x");
    EXPECT_EQ(sentinel.tls->ca_file, "/ca.pem");
    EXPECT_FALSE(RedisUrl::parse("redis-sentinel://s/m").tls.has_value());

    for (const char* url : {"rediss://h", "rediss://h:6380/0?tls-ca-file=/x", "rediss-sentinel://h/m"})
        EXPECT_NO_THROW(check_store_url(url)) << url;
}

TEST(RedisTlsUrl, RefusesParametersOutOfPlace) {
    for (const char* bad : {"redis://h/0?tls-ca-file=/ca.pem",      // TLS files without TLS
                            "redis-sentinel://h/m?tls-ca-file=/x",  //
                            "rediss://h/0?sentinel-password=x",     // sentinels without Sentinel
                            "rediss://h/0?tls-ca=/x",               // unknown
                            "rediss://h/0?tls-ca-file=",            // empty
                            "rediss://h/0?tls-ca-file=%zz",         // bad encoding
                            "rediss://h:0/0", "rediss-sentinel://h", "rediss+sentinel://h/m", "redis+tls://h"}) {
        EXPECT_THROW(RedisUrl::parse(bad), std::invalid_argument) << bad;
        EXPECT_THROW(check_store_url(bad), std::invalid_argument) << bad;
    }
    try {
        check_store_url("rediss://:hunter2@h/0?bogus=1");
        ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).find("hunter2"), std::string::npos) << e.what();
    }
}

TEST(RedisTls, ServesTheStoreOverTls) {
    RedisServer redis(certificates().server());
    const auto url = with(redis.url(), "tls-ca-file=" + certificates().pem("ca"));
    Inbox inbox;  // the handler's state outlives the nodes: more than one signal may be on its way
    auto a = make_backend(url);
    auto b = make_backend(url);
    ASSERT_NE(a->bus(), nullptr);
    ASSERT_TRUE(a->reachable());
    b->bus()->subscribe("hello", inbox.handler());
    // Signals travel on the subscription connection, which may still be subscribing.
    EXPECT_TRUE(eventually([&] {
        a->bus()->publish("hello", "over tls");
        return inbox.size() > 0;
    }));
    EXPECT_EQ(inbox.got().front(), "over tls");
    EXPECT_TRUE(a->mailbox().deliver("nobody-waits", boost::json::value(1)) == false);  // a script ran
    EXPECT_EQ(redis.cli("PING"), "PONG");
}

TEST(RedisTls, PresentsItsClientCertificateWhenTheServerAsks) {
    RedisServer redis(certificates().server("server", true));
    const auto& c = certificates();
    auto backend = make_backend(with(redis.url(), "tls-ca-file=" + c.pem("ca") + "&tls-cert-file=" + c.pem("client") +
                                                      "&tls-key-file=" + c.key("client")));
    EXPECT_NO_THROW(backend->bus()->publish("t", "x"));
    // A certificate without its key, or a key of another certificate, stops the server at once.
    EXPECT_THROW(make_backend(with(redis.url(), "tls-cert-file=" + c.pem("client"))), std::invalid_argument);
    EXPECT_THROW(make_backend(with(redis.url(), "tls-cert-file=" + c.pem("client") + "&tls-key-file=" + c.key("ca"))),
                 std::invalid_argument);
    EXPECT_THROW(make_backend(with(redis.url(), "tls-ca-file=/nonexistent/ca.pem")), std::invalid_argument);
}

TEST(RedisTls, RefusesAServerOfAnotherCa) {
    RedisServer redis(certificates().server());
    const auto [what, took] = startup_error(with(redis.url(), "tls-ca-file=" + certificates().pem("other-ca")));
    EXPECT_NE(what.find("certificate refused"), std::string::npos) << what;
    EXPECT_NE(what.find("127.0.0.1:" + std::to_string(redis.port())), std::string::npos) << what;
    EXPECT_LT(took, 5s);
}

TEST(RedisTls, RefusesAServerOfAnotherName) {
    RedisServer redis(certificates().server());
    const auto [what, took] =
        startup_error(with(redis.url(), "tls-ca-file=" + certificates().pem("ca") + "&tls-server-name=redis.example"));
    EXPECT_NE(what.find("hostname mismatch"), std::string::npos) << what;
    EXPECT_LT(took, 5s);
}

TEST(RedisTls, RefusesAnExpiredCertificate) {
    RedisServer redis(certificates().server("expired"));
    const auto [what, took] = startup_error(with(redis.url(), "tls-ca-file=" + certificates().pem("ca")));
    EXPECT_NE(what.find("expired"), std::string::npos) << what;
    EXPECT_LT(took, 5s);
}

TEST(RedisTls, APortWithoutTlsIsAClearErrorNotAHang) {
    RedisServer plain;
    const auto url =
        "rediss://127.0.0.1:" + std::to_string(plain.port()) + "/0?tls-ca-file=" + certificates().pem("ca");
    const auto [what, took] = startup_error(url);
    EXPECT_NE(what.find("TLS"), std::string::npos) << what;
    EXPECT_LT(took, 5s);
    EXPECT_EQ(plain.cli("PING"), "PONG");  // and the server is none the worse
}
