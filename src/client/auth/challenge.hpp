#pragma once
// WWW-Authenticate (RFC 9110 §11.6.1): the challenges of a 401 or 403, and what an OAuth client
// reads from a Bearer (or DPoP) one: resource_metadata (RFC 9728 §5.1), scope and error (RFC 6750
// §3). Pure, and bounded: hostile input yields fewer challenges, never an error.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail {

struct Challenge {
    std::string scheme;                                       // lowercase
    std::vector<std::pair<std::string, std::string>> params;  // names lowercase, values unquoted
    std::string token68;                                      // when the challenge carries one instead

    std::optional<std::string> param(std::string_view name) const;
};

// Every challenge of the field values (a field may hold several, and may come several times). At
// most 16 challenges of 32 parameters each, each value at most 4 KiB; what is over is dropped.
std::vector<Challenge> parse_www_authenticate(const std::vector<std::string_view>& values);

// What the client acts on: the first Bearer or DPoP challenge's parameters, and whether the
// server offered DPoP (RFC 9449 §7.1) among its challenges.
struct BearerChallenge {
    std::string resource_metadata;
    std::string scope;
    std::string error;
    bool dpop = false;
};
std::optional<BearerChallenge> bearer_challenge(const std::vector<std::string_view>& values);

}  // namespace mcp::detail
