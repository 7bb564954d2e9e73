#include <mcp/security/key_ring.hpp>

#include "util/base64.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using mcp::KeyRing;

// `n` bytes that differ per seed, so each test key is distinct.
std::string key_bytes(unsigned seed, std::size_t n = 32) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += static_cast<char>((i * 37 + seed * 101 + 11) & 0xFF);
    return out;
}

std::string b64(const std::string& bytes) { return mcp::detail::base64_encode(mcp::detail::as_bytes(bytes)); }

const std::string kKeyA = b64(key_bytes(1));
const std::string kKeyB = b64(key_bytes(2));
const std::string kKeyC = b64(key_bytes(3));

std::string decode(const std::string& token) {
    auto raw = mcp::detail::base64url_decode(token);
    if (!raw) throw std::runtime_error("test: token is not base64url");
    return *raw;
}

std::string encode(const std::string& raw) { return mcp::detail::base64url_encode(mcp::detail::as_bytes(raw)); }

std::string key_id_of(const std::string& token) {
    const std::string raw = decode(token);
    return raw.substr(2, static_cast<unsigned char>(raw[1]));
}

std::string parse_error(std::string_view text) {
    try {
        KeyRing::parse(text);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "no error";
}

// ---- Seal and open ---------------------------------------------------------------------------

TEST(KeyRingSeal, RoundTripsEmptyOneByteAndLargePlaintexts) {
    const KeyRing ring = KeyRing::generate();
    std::string large;
    for (std::size_t i = 0; i < 100 * 1024; ++i) large += static_cast<char>((i * 131) & 0xFF);  // NULs included
    for (const std::string& plain : {std::string(), std::string("x"), std::string(1, '\0'), large}) {
        const std::string token = ring.seal("sse-event", plain);
        const auto opened = ring.open("sse-event", token);
        ASSERT_TRUE(opened.has_value()) << "plaintext of " << plain.size() << " bytes";
        EXPECT_EQ(*opened, plain);
    }
}

TEST(KeyRingSeal, TokenLayoutIsVersionKidNonceCiphertextTag) {
    const KeyRing ring = KeyRing::parse("node-1_a:" + kKeyA);
    const std::string token = ring.seal("sse-event", "hello");
    EXPECT_EQ(token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
              std::string::npos);
    const std::string raw = decode(token);
    ASSERT_EQ(raw.size(), 1u + 1 + 8 + 12 + 5 + 16);
    EXPECT_EQ(raw[0], '\x01');
    EXPECT_EQ(raw[1], '\x08');
    EXPECT_EQ(raw.substr(2, 8), "node-1_a");
    EXPECT_EQ(raw.find("hello"), std::string::npos) << "the plaintext must not appear in clear";
}

TEST(KeyRingSeal, NoncesDifferAcrossTenThousandSeals) {
    const KeyRing ring = KeyRing::generate();
    std::set<std::string> nonces;
    std::set<std::string> tokens;
    for (int i = 0; i < 10000; ++i) {
        const std::string token = ring.seal("sse-event", "same plaintext");
        const std::string raw = decode(token);
        nonces.insert(raw.substr(2 + static_cast<unsigned char>(raw[1]), 12));
        tokens.insert(token);
    }
    EXPECT_EQ(nonces.size(), 10000u);
    EXPECT_EQ(tokens.size(), 10000u);
}

TEST(KeyRingSeal, PlaintextsUpToTheTokenCapSealAndLargerOnesThrow) {
    const KeyRing ring = KeyRing::parse("k:" + kKeyA);
    // Raw token: 2 + 1 (kid) + 12 + n + 16 bytes; unpadded base64url of 3 bytes is 4 characters.
    const std::size_t largest = KeyRing::max_token_size / 4 * 3 - (2 + 1 + 12 + 16);
    const std::string plain(largest, 'p');
    const std::string token = ring.seal("p", plain);
    EXPECT_EQ(token.size(), KeyRing::max_token_size);
    EXPECT_EQ(ring.open("p", token), plain);
    EXPECT_THROW(ring.seal("p", plain + "p"), std::length_error);
}

TEST(KeyRingOpen, EveryByteChangeIsRefused) {
    const KeyRing ring = KeyRing::parse("k1:" + kKeyA);
    const std::string raw = decode(ring.seal("sse-event", "session-42/event-7"));
    for (std::size_t i = 0; i < raw.size(); ++i) {
        for (int delta = 1; delta < 256; ++delta) {
            std::string changed = raw;
            changed[i] = static_cast<char>(static_cast<unsigned char>(changed[i]) ^ delta);
            ASSERT_FALSE(ring.open("sse-event", encode(changed)).has_value()) << "byte " << i << " xor " << delta;
        }
    }
}

TEST(KeyRingOpen, EveryCharacterChangeIsRefused) {
    const KeyRing ring = KeyRing::generate();
    const std::string token = ring.seal("sse-event", "payload");
    const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=. \n";
    for (std::size_t i = 0; i < token.size(); ++i) {
        for (char c : alphabet) {
            if (c == token[i]) continue;
            std::string changed = token;
            changed[i] = c;
            ASSERT_FALSE(ring.open("sse-event", changed).has_value()) << "char " << i << " -> " << c;
        }
    }
}

TEST(KeyRingOpen, TruncationAtEveryLengthAndExtensionAreRefused) {
    const KeyRing ring = KeyRing::generate();
    const std::string token = ring.seal("request-state", "some state");
    ASSERT_TRUE(ring.open("request-state", token).has_value());
    for (std::size_t n = 0; n < token.size(); ++n)
        EXPECT_FALSE(ring.open("request-state", token.substr(0, n)).has_value()) << "text length " << n;
    const std::string raw = decode(token);
    for (std::size_t n = 0; n < raw.size(); ++n)
        EXPECT_FALSE(ring.open("request-state", encode(raw.substr(0, n))).has_value()) << "raw length " << n;
    EXPECT_FALSE(ring.open("request-state", encode(raw + '\0')).has_value());
    EXPECT_FALSE(ring.open("request-state", token + "AAAA").has_value());
}

TEST(KeyRingOpen, WrongPurposeIsRefused) {
    const KeyRing ring = KeyRing::generate();
    const std::string token = ring.seal("sse-event", "x");
    EXPECT_TRUE(ring.open("sse-event", token).has_value());
    EXPECT_FALSE(ring.open("request-state", token).has_value());
    EXPECT_FALSE(ring.open("sse-even", token).has_value());
    EXPECT_FALSE(ring.open("sse-event ", token).has_value());
    EXPECT_FALSE(ring.open("", token).has_value());
    EXPECT_FALSE(ring.open(std::string_view("sse-event\0", 10), token).has_value());
    const std::string unbound = ring.seal("", "x");
    EXPECT_TRUE(ring.open("", unbound).has_value());
    EXPECT_FALSE(ring.open("sse-event", unbound).has_value());
}

TEST(KeyRingOpen, AnUnrelatedRingRefuses) {
    const KeyRing a = KeyRing::generate();
    const KeyRing b = KeyRing::generate();
    EXPECT_NE(a.active_key_id(), b.active_key_id());
    EXPECT_FALSE(b.open("sse-event", a.seal("sse-event", "x")).has_value());
    // Same key id, different key: the id alone opens nothing.
    const KeyRing same_id_1 = KeyRing::parse("k:" + kKeyA);
    const KeyRing same_id_2 = KeyRing::parse("k:" + kKeyB);
    EXPECT_FALSE(same_id_2.open("sse-event", same_id_1.seal("sse-event", "x")).has_value());
}

TEST(KeyRingOpen, UnknownKeyIdOrVersionIsRefused) {
    const KeyRing ring = KeyRing::parse("aa:" + kKeyA + "\nab:" + kKeyB);
    std::string raw = decode(ring.seal("p", "x"));
    ASSERT_EQ(raw.substr(2, 2), "aa");
    std::string other_kid = raw;
    other_kid[3] = 'b';  // names the ring's other key: authentication must still fail
    EXPECT_FALSE(ring.open("p", encode(other_kid)).has_value());
    std::string unknown_kid = raw;
    unknown_kid[3] = 'z';
    EXPECT_FALSE(ring.open("p", encode(unknown_kid)).has_value());
    std::string version2 = raw;
    version2[0] = '\x02';
    EXPECT_FALSE(ring.open("p", encode(version2)).has_value());
}

TEST(KeyRingOpen, TheKeyIdIsAuthenticated) {
    // The same key under two ids: rewriting the id must still break the token.
    const KeyRing ring = KeyRing::parse("aa:" + kKeyA + "\nab:" + kKeyA);
    std::string raw = decode(ring.seal("p", "x"));
    ASSERT_EQ(raw.substr(2, 2), "aa");
    raw[3] = 'b';
    EXPECT_FALSE(ring.open("p", encode(raw)).has_value());
}

TEST(KeyRingOpen, GarbageIsRefusedWithoutThrowing) {
    const KeyRing ring = KeyRing::generate();
    for (const std::string& token : {std::string(), std::string("="), std::string("A"), std::string(42, 'A'),
                                     std::string(200, '_'), std::string("not a token at all"), std::string(64, '\0'),
                                     encode(std::string(40, '\xff')), encode(std::string(40, '\0'))}) {
        EXPECT_NO_THROW(EXPECT_FALSE(ring.open("p", token).has_value()));
    }
}

TEST(KeyRingOpen, TenMegabyteTokenIsRefusedWithoutDecodingIt) {
    const KeyRing ring = KeyRing::generate();
    // A real token followed by 10 MB of valid base64url: decoding it all would succeed and be slow.
    const std::string huge = ring.seal("p", "x") + std::string(10 * 1024 * 1024, 'A');
    using clock = std::chrono::steady_clock;
    auto best_open = clock::duration::max();
    for (int i = 0; i < 5; ++i) {
        const auto t0 = clock::now();
        EXPECT_FALSE(ring.open("p", huge).has_value());
        best_open = std::min(best_open, clock::now() - t0);
    }
    const auto t0 = clock::now();
    const auto decoded = mcp::detail::base64url_decode(huge);
    const auto decode_time = clock::now() - t0;
    ASSERT_TRUE(decoded.has_value());
    EXPECT_LT(best_open * 100, decode_time)
        << "open took " << std::chrono::duration<double, std::micro>(best_open).count() << " us; decoding takes "
        << std::chrono::duration<double, std::micro>(decode_time).count() << " us";
    EXPECT_FALSE(ring.open("p", std::string(KeyRing::max_token_size + 1, 'A')).has_value());
}

// ---- Rotation --------------------------------------------------------------------------------

TEST(KeyRingRotation, OldTokensOpenAndNewTokensCarryTheNewKey) {
    const KeyRing before = KeyRing::parse("old:" + kKeyA);
    const KeyRing after = KeyRing::parse("new:" + kKeyB + "\nold:" + kKeyA);
    EXPECT_EQ(after.active_key_id(), "new");
    EXPECT_EQ(after.size(), 2u);
    const std::string old_token = before.seal("sse-event", "from the old key");
    EXPECT_EQ(key_id_of(old_token), "old");
    EXPECT_EQ(after.open("sse-event", old_token), "from the old key");
    const std::string new_token = after.seal("sse-event", "from the new key");
    EXPECT_EQ(key_id_of(new_token), "new");
    EXPECT_EQ(after.open("sse-event", new_token), "from the new key");
    // A node still on the old ring does not know "new".
    EXPECT_FALSE(before.open("sse-event", new_token).has_value());
}

TEST(KeyRingRotation, ARingWithoutTheOldKeyRefusesItsTokens) {
    const KeyRing before = KeyRing::parse("old:" + kKeyA);
    const KeyRing retired = KeyRing::parse("new:" + kKeyB);
    EXPECT_FALSE(retired.open("sse-event", before.seal("sse-event", "x")).has_value());
}

// ---- Parsing ---------------------------------------------------------------------------------

TEST(KeyRingParse, BareKeyGetsItsIdFromSha256) {
    // SHA-256 of 32 zero bytes is 66687aad...
    const KeyRing ring = KeyRing::parse(b64(std::string(32, '\0')));
    EXPECT_EQ(ring.active_key_id(), "66687aad");
    EXPECT_EQ(ring.size(), 1u);
    // The same key as a kid line opens the bare ring's tokens when its id matches.
    const KeyRing named = KeyRing::parse("66687aad:" + b64(std::string(32, '\0')));
    EXPECT_EQ(named.open("p", ring.seal("p", "x")), "x");
}

TEST(KeyRingParse, CommentsBlankLinesAndWhitespaceAreIgnored) {
    const std::string text = "\xEF\xBB\xBF# key ring of the cluster\n\n   \t\n  new : " + kKeyB +
                             "  \r\n# retired soon\n\told:" + kKeyA + "\r\n\n";
    const KeyRing ring = KeyRing::parse(text);
    EXPECT_EQ(ring.size(), 2u);
    EXPECT_EQ(ring.active_key_id(), "new");
    const KeyRing old_only = KeyRing::parse("old:" + kKeyA);
    EXPECT_EQ(ring.open("p", old_only.seal("p", "x")), "x");

    const KeyRing bare = KeyRing::parse("# one key\n\n  " + kKeyC + "  \n# end\n");
    EXPECT_EQ(bare.size(), 1u);
    EXPECT_EQ(bare.active_key_id().size(), 8u);
}

TEST(KeyRingParse, LongestKeyIdIsAccepted) {
    const std::string id(32, 'Z');
    const KeyRing ring = KeyRing::parse(id + ":" + kKeyA);
    EXPECT_EQ(ring.active_key_id(), id);
    EXPECT_EQ(ring.open("p", ring.seal("p", "x")), "x");
}

TEST(KeyRingParse, ErrorsNameTheLineAndNeverTheKey) {
    const std::string k31 = b64(key_bytes(4, 31));
    const std::string k33 = b64(key_bytes(5, 33));
    std::string broken = kKeyA;
    broken[10] = '!';
    struct Case {
        std::string text;
        std::string expected;              // substring of the message
        std::vector<std::string> secrets;  // must not appear in the message
    };
    const std::vector<Case> cases = {
        {"k:" + broken, "line 1: the key is not valid base64", {broken, kKeyA}},
        {broken, "line 1: the key is not valid base64", {broken, kKeyA}},
        {"k:" + kKeyA.substr(0, 43), "line 1: the key is not valid base64", {kKeyA.substr(0, 43)}},  // unpadded
        {"k:" + kKeyA + "\nj:" + kKeyB + " " + kKeyC, "line 2: the key is not valid base64", {kKeyA, kKeyB, kKeyC}},
        {"k:" + k31, "line 1: the key must be 32 bytes, got 31", {k31}},
        {"k:" + k33, "line 1: the key must be 32 bytes, got 33", {k33}},
        {k31, "line 1: the key must be 32 bytes, got 31", {k31}},
        {"# c\nk:", "line 2: the key must be 32 bytes, got 0", {}},
        {"bad kid!:" + kKeyA, "line 1: the key id must be", {kKeyA}},
        {":" + kKeyA, "line 1: the key id must be", {kKeyA}},
        {std::string(33, 'k') + ":" + kKeyA, "line 1: the key id must be", {kKeyA}},
        {"k\xc3\xa9:" + kKeyA, "line 1: the key id must be", {kKeyA}},
        {"a:" + kKeyA + "\n\nb:" + kKeyB + "\na:" + kKeyC, "line 4: duplicate key id \"a\"", {kKeyA, kKeyB, kKeyC}},
        {"", "no key found", {}},
        {"\n  \n# only a comment\n", "no key found", {}},
        {"a:" + kKeyA + "\njustaword", "line 2: expected \"kid:base64-key\"", {kKeyA}},
        {"a:" + kKeyA + "\n" + kKeyB, "line 2: expected \"kid:base64-key\"", {kKeyA, kKeyB}},
        {"# bare first\n" + kKeyA + "\na:" + kKeyB, "line 3: a bare key (line 2) must be the only key", {kKeyA, kKeyB}},
        {kKeyA + "\n" + kKeyB, "line 2: a bare key (line 1) must be the only key", {kKeyA, kKeyB}},
    };
    for (const Case& c : cases) {
        const std::string message = parse_error(c.text);
        EXPECT_NE(message.find(c.expected), std::string::npos) << "input: " << c.text << "\nmessage: " << message;
        for (const std::string& secret : c.secrets) {
            EXPECT_EQ(message.find(secret), std::string::npos) << "message leaks key material: " << message;
            EXPECT_EQ(message.find(secret.substr(0, 12)), std::string::npos)
                << "message leaks a key prefix: " << message;
        }
    }
}

// ---- Files -----------------------------------------------------------------------------------

class TempFile {
public:
    // Named after the test, so that ctest -j running tests as separate processes never collides.
    explicit TempFile(const std::string& content) {
        static int counter = 0;
        path_ = ::testing::TempDir() + "test_key_ring_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + std::to_string(++counter);
        std::ofstream(path_, std::ios::binary) << content;
    }
    ~TempFile() { std::remove(path_.c_str()); }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

TEST(KeyRingFile, ReadsAKeyRingFile) {
    const TempFile file("# rotated 2026-11-30\nnew:" + kKeyB + "\nold:" + kKeyA + "\n");
    const KeyRing ring = KeyRing::from_file(file.path());
    EXPECT_EQ(ring.active_key_id(), "new");
    EXPECT_EQ(ring.size(), 2u);
}

TEST(KeyRingFile, ReadsLongFilesUpToOneMebibyte) {
    std::string comments;
    while (comments.size() < 100 * 1024) comments += "# padding padding padding padding padding\n";
    const TempFile long_file(comments + "k:" + kKeyA + "\n" + comments);
    EXPECT_EQ(KeyRing::from_file(long_file.path()).active_key_id(), "k");

    const TempFile too_big("k:" + kKeyA + "\n" + std::string(1024 * 1024, '\n'));
    try {
        KeyRing::from_file(too_big.path());
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("larger than 1 MiB"), std::string::npos) << e.what();
    }
}

TEST(KeyRingFile, MissingFileThrowsInvalidArgumentNamingIt) {
    const std::string path = ::testing::TempDir() + "no_such_key_ring_file.txt";
    try {
        KeyRing::from_file(path);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
    EXPECT_THROW(KeyRing::from_file(::testing::TempDir()), std::invalid_argument);  // a directory
}

TEST(KeyRingFile, ParseErrorsNameThePathAndLineButNotTheKey) {
    const TempFile file("new:" + kKeyB + "\nold:" + kKeyA.substr(1) + "\n");
    try {
        KeyRing::from_file(file.path());
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(file.path()), std::string::npos) << message;
        EXPECT_NE(message.find("line 2"), std::string::npos) << message;
        EXPECT_EQ(message.find(kKeyA.substr(1, 12)), std::string::npos) << message;
        EXPECT_EQ(message.find(kKeyB.substr(0, 12)), std::string::npos) << message;
    }
}

// ---- Sharing and threads ---------------------------------------------------------------------

TEST(KeyRing, CopiesShareTheKeys) {
    const KeyRing ring = KeyRing::generate();
    KeyRing copy = ring;
    EXPECT_EQ(copy.active_key_id(), ring.active_key_id());
    EXPECT_EQ(copy.open("p", ring.seal("p", "x")), "x");
    copy = KeyRing::generate();
    EXPECT_FALSE(copy.open("p", ring.seal("p", "x")).has_value());
    KeyRing moved = std::move(copy);
    EXPECT_EQ(moved.open("p", moved.seal("p", "y")), "y");
}

TEST(KeyRing, ConcurrentSealAndOpenFromEightThreads) {
    const KeyRing ring = KeyRing::parse("b:" + kKeyB + "\na:" + kKeyA);
    const KeyRing old_ring = KeyRing::parse("a:" + kKeyA);
    std::vector<std::string> shared;
    shared.reserve(64);
    for (int i = 0; i < 64; ++i)
        shared.push_back((i % 2 ? ring : old_ring).seal("sse-event", "shared " + std::to_string(i)));

    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    threads.reserve(8);
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            const KeyRing local = ring;  // copies made concurrently share the keys
            for (int i = 0; i < 2000; ++i) {
                const std::string plain = "thread " + std::to_string(t) + " message " + std::to_string(i);
                const KeyRing& r = i % 2 ? local : ring;
                const std::string token = r.seal("sse-event", plain);
                if (r.open("sse-event", token) != plain) ++failures;
                if (r.open("request-state", token).has_value()) ++failures;
                const std::size_t j = static_cast<std::size_t>(i * 7 + t) % shared.size();
                if (r.open("sse-event", shared[j]) != "shared " + std::to_string(j)) ++failures;
            }
        });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
}

}  // namespace
