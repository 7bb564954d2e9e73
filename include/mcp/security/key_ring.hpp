#pragma once
// The key ring that seals every opaque token the server hands out (SSE event ids, requestState,
// cursors). Nodes that share the ring accept each other's tokens; listing old keys after the
// active one lets keys rotate. ADR 0008 explains the token format.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {

class KeyRing {
public:
    // Longest token open() looks at, in characters. seal() refuses a plaintext whose token would
    // be longer (std::length_error), so every sealed token can be opened.
    static constexpr std::size_t max_token_size = std::size_t{1} << 20;
    // Longest key id. Ids are 1 to 32 characters of [A-Za-z0-9_-].
    static constexpr std::size_t max_key_id_size = 32;

    // Parses what --secret-file or MCP_SECRET holds, either:
    //   - one key: standard padded base64 of exactly 32 bytes; its id is the first 8 hex
    //     characters of SHA-256(key);
    //   - or lines "kid:base64(32 bytes)": the first is the active key, the others are only
    //     accepted for opening (rotation).
    // Blank lines and lines starting with '#' are ignored; whitespace around a line, and around
    // the ':', is trimmed. Anything else throws std::invalid_argument naming the line and the
    // problem. Messages never contain key material.
    static KeyRing parse(std::string_view text);
    // parse() of a file's content. Also throws std::invalid_argument when the file cannot be
    // read or is larger than 1 MiB; the message names the path.
    static KeyRing from_file(const std::string& path);
    // One fresh random key (RAND_bytes), id derived as for a bare key. For a single node only:
    // no other node knows the key, and tokens die with the process.
    static KeyRing generate();

    // AES-256-GCM under the active key with a fresh random 96-bit nonce. `purpose` ("sse-event",
    // "request-state", ...) is authenticated, so a token sealed for one purpose never opens as
    // another. Returns unpadded base64url of
    //   version(1) | kid length(1) | kid | nonce(12) | ciphertext | tag(16).
    // Throws std::length_error when the token would exceed max_token_size.
    std::string seal(std::string_view purpose, std::string_view plaintext) const;

    // The plaintext, or nullopt when the token is malformed, truncated, longer than
    // max_token_size (checked before decoding), names a key the ring lacks, was sealed for
    // another purpose, or was altered in any byte. Never throws for hostile input.
    std::optional<std::string> open(std::string_view purpose, std::string_view token) const;

    const std::string& active_key_id() const;
    // Number of keys, active one included.
    std::size_t size() const;

    // Copies share the same immutable keys, so a ring is cheap to copy and every const member
    // may be called from any thread. There is no move constructor on purpose: a "moved" ring is
    // a copy and stays usable. Keys are wiped when the last copy goes.
    KeyRing(const KeyRing&) = default;
    KeyRing& operator=(const KeyRing&) = default;

private:
    struct Impl;  // the keys; defined in key_ring.cpp, where OpenSSL is
    explicit KeyRing(std::shared_ptr<const Impl> impl);
    std::shared_ptr<const Impl> impl_;
};

}  // namespace mcp
