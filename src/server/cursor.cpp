#include "server/cursor.hpp"

#include "util/base64.hpp"

#include <mcp/protocol/errors.hpp>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <stdexcept>

namespace mcp::detail {

namespace {

constexpr std::size_t kTagBytes = 16;

std::array<unsigned char, kTagBytes> tag(const std::array<unsigned char, 32>& key, std::string_view list,
                                         std::string_view payload) {
    std::string message(list);
    message += '\0';
    message += payload;
    unsigned char full[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
         message.size(), full, &len);
    std::array<unsigned char, kTagBytes> out{};
    std::copy_n(full, kTagBytes, out.begin());
    return out;
}

}  // namespace

CursorCodec::CursorCodec() {
    if (RAND_bytes(key_.data(), static_cast<int>(key_.size())) != 1) throw std::runtime_error("RAND_bytes failed");
}

std::string CursorCodec::encode(std::string_view list, std::string_view last_key) const {
    std::string raw(last_key);
    auto t = tag(key_, list, last_key);
    raw.append(reinterpret_cast<const char*>(t.data()), t.size());
    return base64url_encode(as_bytes(raw));
}

std::string CursorCodec::decode(std::string_view list, std::string_view cursor) const {
    auto raw = base64url_decode(cursor);
    if (!raw || raw->size() < kTagBytes) throw InvalidParams("Invalid cursor");
    const std::string_view payload(raw->data(), raw->size() - kTagBytes);
    auto expected = tag(key_, list, payload);
    if (CRYPTO_memcmp(expected.data(), raw->data() + payload.size(), kTagBytes) != 0) throw InvalidParams("Invalid cursor");
    return std::string(payload);
}

}  // namespace mcp::detail
