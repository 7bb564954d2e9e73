#include <mcp/security/key_ring.hpp>

#include "util/base64.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <limits>
#include <stdexcept>

namespace mcp {

struct KeyRing::Impl {
    struct Key {
        std::string id;
        std::array<unsigned char, 32> bytes{};
    };
    // keys[0] is the active key. A deque never relocates its elements, so no unwiped copy of a
    // key is left behind in freed memory as the ring grows.
    std::deque<Key> keys;

    Impl() = default;
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
    ~Impl() {
        for (auto& k : keys) OPENSSL_cleanse(k.bytes.data(), k.bytes.size());
    }

    const Key* find(std::string_view id) const {
        for (const auto& k : keys)
            if (k.id == id) return &k;
        return nullptr;
    }
};

namespace {

constexpr unsigned char kVersion = 1;
constexpr std::size_t kKeyBytes = 32;
constexpr std::size_t kNonceBytes = 12;
constexpr std::size_t kTagBytes = 16;
constexpr std::size_t kMaxFileBytes = std::size_t{1} << 20;
// EVP lengths are ints.
constexpr std::size_t kMaxPurpose = static_cast<std::size_t>(std::numeric_limits<int>::max());

// Wipes a string that held key material (decoded key bytes, file content).
void wipe(std::string& s) {
    if (!s.empty()) OPENSSL_cleanse(s.data(), s.size());
}

struct Wiped {
    std::string value;
    ~Wiped() { wipe(value); }
};

// std::string::append, except that a full buffer is wiped before it is given back to the heap.
void append_wiping(std::string& s, const char* p, std::size_t n) {
    if (s.size() + n > s.capacity()) {
        Wiped bigger;
        bigger.value.reserve(std::max(s.capacity() * 2, s.size() + n));
        bigger.value.append(s);
        s.swap(bigger.value);  // the old buffer is wiped as `bigger` goes
    }
    s.append(p, n);
}

// Fetched once: EVP_aes_256_gcm() makes every EVP_*Init_ex fetch the implementation again, which
// measured ~0.45 us of a ~2 us seal+open. Never freed; it lives as long as the process.
const EVP_CIPHER* aes_256_gcm() {
    static const EVP_CIPHER* cipher = [] {
        const EVP_CIPHER* c = EVP_CIPHER_fetch(nullptr, "AES-256-GCM", nullptr);
        return c ? c : EVP_aes_256_gcm();
    }();
    return cipher;
}

struct CtxFree {
    void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
// A context per call keeps const members thread-safe, and freeing it wipes the key schedule. It
// measured as fast as a reused thread_local context.
using Ctx = std::unique_ptr<EVP_CIPHER_CTX, CtxFree>;

const unsigned char* u8(const char* p) { return reinterpret_cast<const unsigned char*>(p); }
unsigned char* u8(char* p) { return reinterpret_cast<unsigned char*>(p); }

bool valid_key_id(std::string_view id) {
    if (id.empty() || id.size() > KeyRing::max_key_id_size) return false;
    for (char c : id) {
        const bool ok =
            (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!ok) return false;
    }
    return true;
}

std::string derived_key_id(const std::array<unsigned char, kKeyBytes>& key) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(key.data(), key.size(), digest, &len, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("key ring: SHA-256 failed");
    static constexpr char hex[] = "0123456789abcdef";
    std::string id;
    for (int i = 0; i < 4; ++i) {
        id += hex[digest[i] >> 4];
        id += hex[digest[i] & 15];
    }
    return id;
}

std::string_view trim(std::string_view s) {
    constexpr std::string_view ws = " \t\r\n\v\f";
    const auto b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

[[noreturn]] void fail(std::size_t line, const std::string& what) {
    throw std::invalid_argument("key ring: line " + std::to_string(line) + ": " + what);
}

// Decodes one key into `out`, its final place. Errors describe the problem only: the text is key
// material, even when broken.
void decode_key(std::string_view b64, std::size_t line, std::array<unsigned char, kKeyBytes>& out) {
    auto raw = detail::base64_decode(b64);
    struct Guard {
        std::optional<std::string>& s;
        ~Guard() {
            if (s) wipe(*s);
        }
    } guard{raw};
    if (!raw) fail(line, "the key is not valid base64 (standard alphabet, padded with '=')");
    if (raw->size() != kKeyBytes) fail(line, "the key must be 32 bytes, got " + std::to_string(raw->size()));
    std::memcpy(out.data(), raw->data(), kKeyBytes);
}

}  // namespace

KeyRing::KeyRing(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

KeyRing KeyRing::parse(std::string_view text) {
    // Tolerate the UTF-8 byte order mark some editors write.
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);

    auto impl = std::make_shared<Impl>();
    bool bare = false;  // the content so far is one bare key
    std::size_t bare_line = 0;
    std::size_t line_no = 0;
    while (!text.empty() || line_no == 0) {
        ++line_no;
        const auto nl = text.find('\n');
        const std::string_view line = trim(text.substr(0, nl));
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        if (line.empty() || line.front() == '#') continue;

        if (bare)
            fail(line_no, "a bare key (line " + std::to_string(bare_line) +
                              ") must be the only key; write \"kid:base64-key\" lines for several keys");
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) {
            if (!impl->keys.empty())
                fail(line_no, "expected \"kid:base64-key\" (a bare key is allowed only as the sole content)");
            // Keys are decoded in place; on an error the Impl destructor wipes them.
            Impl::Key& k = impl->keys.emplace_back();
            decode_key(line, line_no, k.bytes);
            k.id = derived_key_id(k.bytes);
            bare = true;
            bare_line = line_no;
            continue;
        }
        const std::string_view id = trim(line.substr(0, colon));
        if (!valid_key_id(id))
            fail(line_no, "the key id must be 1 to 32 characters of A-Z a-z 0-9 _ - (the line is \"kid:base64-key\")");
        if (impl->find(id)) fail(line_no, "duplicate key id \"" + std::string(id) + "\"");
        Impl::Key& k = impl->keys.emplace_back();
        k.id = std::string(id);
        decode_key(trim(line.substr(colon + 1)), line_no, k.bytes);
    }
    if (impl->keys.empty()) throw std::invalid_argument("key ring: no key found (only blank lines or comments)");
    return KeyRing(std::move(impl));
}

KeyRing KeyRing::from_file(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw std::invalid_argument("key ring: cannot open " + path + ": " + std::strerror(errno));
    Wiped content;
    content.value.reserve(4096);
    char buf[4096];
    bool too_big = false;
    for (;;) {
        const std::size_t n = std::fread(buf, 1, sizeof buf, f);
        if (content.value.size() + n > kMaxFileBytes) {
            too_big = true;
            break;
        }
        append_wiping(content.value, buf, n);
        if (n < sizeof buf) break;
    }
    const bool error = std::ferror(f) != 0;
    const int err = errno;
    std::fclose(f);
    OPENSSL_cleanse(buf, sizeof buf);
    if (too_big) throw std::invalid_argument("key ring: " + path + " is larger than 1 MiB");
    if (error) throw std::invalid_argument("key ring: cannot read " + path + ": " + std::strerror(err));
    try {
        return parse(content.value);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(path + ": " + e.what());
    }
}

KeyRing KeyRing::generate() {
    auto impl = std::make_shared<Impl>();
    Impl::Key& k = impl->keys.emplace_back();
    if (RAND_bytes(k.bytes.data(), static_cast<int>(k.bytes.size())) != 1)
        throw std::runtime_error("key ring: RAND_bytes failed");
    k.id = derived_key_id(k.bytes);
    return KeyRing(std::move(impl));
}

std::string KeyRing::seal(std::string_view purpose, std::string_view plaintext) const {
    const Impl::Key& key = impl_->keys.front();
    const std::size_t header = 2 + key.id.size();
    const std::size_t max_raw = max_token_size / 4 * 3;  // unpadded base64url: 4 chars per 3 bytes
    if (plaintext.size() > max_raw - header - kNonceBytes - kTagBytes)
        throw std::length_error("key ring: plaintext too long to seal");
    if (purpose.size() > kMaxPurpose) throw std::length_error("key ring: purpose too long");

    std::string raw(header + kNonceBytes + plaintext.size() + kTagBytes, '\0');
    raw[0] = static_cast<char>(kVersion);
    raw[1] = static_cast<char>(key.id.size());
    std::memcpy(raw.data() + 2, key.id.data(), key.id.size());
    unsigned char* nonce = u8(raw.data() + header);
    unsigned char* out = nonce + kNonceBytes;
    if (RAND_bytes(nonce, static_cast<int>(kNonceBytes)) != 1) throw std::runtime_error("key ring: RAND_bytes failed");

    // The additional data is the header (version, kid) followed by the purpose. The header
    // carries its own length, so the concatenation is unambiguous.
    Ctx ctx(EVP_CIPHER_CTX_new());
    int len = 0, tail = 0;
    const bool ok =
        ctx && EVP_EncryptInit_ex(ctx.get(), aes_256_gcm(), nullptr, key.bytes.data(), nonce) == 1 &&
        EVP_EncryptUpdate(ctx.get(), nullptr, &len, u8(raw.data()), static_cast<int>(header)) == 1 &&
        EVP_EncryptUpdate(ctx.get(), nullptr, &len, u8(purpose.data()), static_cast<int>(purpose.size())) == 1 &&
        EVP_EncryptUpdate(ctx.get(), out, &len, u8(plaintext.data()), static_cast<int>(plaintext.size())) == 1 &&
        EVP_EncryptFinal_ex(ctx.get(), out + len, &tail) == 1 &&
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagBytes), out + plaintext.size()) == 1;
    if (!ok) throw std::runtime_error("key ring: AES-256-GCM encryption failed");
    return detail::base64url_encode(detail::as_bytes(raw));
}

std::optional<std::string> KeyRing::open(std::string_view purpose, std::string_view token) const {
    // Size checks come before decoding, so a huge token costs nothing.
    constexpr std::size_t min_raw = 2 + 1 + kNonceBytes + kTagBytes;
    if (token.size() > max_token_size || token.size() < (min_raw * 4 + 2) / 3) return std::nullopt;
    if (purpose.size() > kMaxPurpose) return std::nullopt;
    const auto raw = detail::base64url_decode(token);
    if (!raw || raw->size() < min_raw) return std::nullopt;

    const auto version = static_cast<unsigned char>((*raw)[0]);
    const auto id_size = static_cast<unsigned char>((*raw)[1]);
    if (version != kVersion || id_size == 0 || id_size > max_key_id_size) return std::nullopt;
    const std::size_t header = 2 + std::size_t{id_size};
    if (raw->size() < header + kNonceBytes + kTagBytes) return std::nullopt;
    const Impl::Key* key = impl_->find(std::string_view(raw->data() + 2, id_size));
    if (!key) return std::nullopt;

    const unsigned char* nonce = u8(raw->data() + header);
    const unsigned char* in = nonce + kNonceBytes;
    const std::size_t size = raw->size() - header - kNonceBytes - kTagBytes;
    // EVP_CTRL_GCM_SET_TAG takes a non-const pointer but only reads from it.
    unsigned char tag[kTagBytes];
    std::memcpy(tag, in + size, kTagBytes);

    std::string plain(size, '\0');
    Ctx ctx(EVP_CIPHER_CTX_new());
    int len = 0, tail = 0;
    // EVP_DecryptFinal_ex checks the tag, in constant time.
    const bool ok =
        ctx && EVP_DecryptInit_ex(ctx.get(), aes_256_gcm(), nullptr, key->bytes.data(), nonce) == 1 &&
        EVP_DecryptUpdate(ctx.get(), nullptr, &len, u8(raw->data()), static_cast<int>(header)) == 1 &&
        EVP_DecryptUpdate(ctx.get(), nullptr, &len, u8(purpose.data()), static_cast<int>(purpose.size())) == 1 &&
        EVP_DecryptUpdate(ctx.get(), u8(plain.data()), &len, in, static_cast<int>(size)) == 1 &&
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagBytes), tag) == 1 &&
        EVP_DecryptFinal_ex(ctx.get(), u8(plain.data()) + len, &tail) == 1;
    if (!ok) {
        wipe(plain);  // unauthenticated plaintext goes nowhere
        return std::nullopt;
    }
    return plain;
}

const std::string& KeyRing::active_key_id() const { return impl_->keys.front().id; }

std::size_t KeyRing::size() const { return impl_->keys.size(); }

}  // namespace mcp
