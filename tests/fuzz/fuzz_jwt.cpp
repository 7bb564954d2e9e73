// What an authorization server and a client send the OAuth resource server (src/auth). The first
// byte picks what the rest is:
//   0: a JWKS document, as fetched from the issuer's jwks_uri;
//   1: a bearer token, split, decoded and validated against a fixed key set;
//   2: a JWT header and claims (one JSON object per line) signed with one of those keys, so that
//      the claim checks behind the signature check are reached too.
#include "auth/jwt_validator.hpp"
#include "jose/jwk.hpp"
#include "jose/jws.hpp"
#include "jwt_signer.hpp"

#include <boost/json/parse.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using testing_support::TestKey;

struct Issuer {
    // EdDSA and ES256 sign fast enough to sign an input each; RSA only verifies.
    std::vector<TestKey> signers{TestKey::generate("EdDSA"), TestKey::generate("ES256")};
    TestKey rsa = TestKey::generate("RS256");
    std::vector<mcp::detail::VerificationKey> keys;
    mcp::detail::TokenRules rules{.issuer = "https://issuer.example", .audiences = {"https://mcp.example/mcp"}};

    Issuer() {
        boost::json::array jwks{signers[0].jwk("ed"), signers[1].jwk("ec", true), rsa.jwk("rsa")};
        keys = mcp::detail::parse_jwks(boost::json::object{{"keys", std::move(jwks)}});
    }
};

const Issuer& issuer() {
    static const Issuer instance;
    return instance;
}

std::optional<boost::json::object> object_of(std::string_view text) {
    boost::system::error_code ec;
    auto value = boost::json::parse(text, ec);
    if (ec || !value.is_object()) return std::nullopt;
    return std::move(value.get_object());
}

void validate(std::string_view token) {
    const auto jws = mcp::detail::parse_compact_jws(token);
    if (!jws) return;
    (void)mcp::detail::validate_jwt(*jws, issuer().keys, issuer().rules, std::chrono::system_clock::now());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 3) {
        case 0: {
            boost::system::error_code ec;
            const auto document = boost::json::parse(rest, ec);
            if (ec) return 0;
            try {
                (void)mcp::detail::parse_jwks(document);
            } catch (const std::invalid_argument&) {
                // Not a key set at all: the fetch fails and the server answers 503 meanwhile.
            }
            break;
        }
        case 1: validate(rest); break;
        default: {
            const auto nl = rest.find('\n');
            if (nl == std::string_view::npos) return 0;
            const auto header = object_of(rest.substr(0, nl));
            const auto claims = object_of(rest.substr(nl + 1));
            if (!header || !claims) return 0;
            const auto& signer = issuer().signers[data[0] / 3 % issuer().signers.size()];
            validate(signer.sign(signer.alg(), *header, *claims));
        }
    }
    return 0;
}
