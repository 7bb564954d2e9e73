// Percent-decoding, base64 and base64url, and UTF-8 checking: each on the input as it is, and each
// round trip checked (decode(encode(x)) == x; what valid_utf8 returns is valid UTF-8, and is the
// input itself when the input was valid).
#include "fuzz_check.hpp"
#include "util/base64.hpp"
#include "util/percent_encoding.hpp"
#include "util/utf8.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

bool is_utf8(std::string_view text) {
    mcp::detail::Utf8Checker checker;
    for (unsigned char c : text) {
        if (!checker.feed(c)) return false;
    }
    return checker.complete();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace mcp::detail;
    const std::string_view input(reinterpret_cast<const char*>(data), size);

    (void)percent_decoded(input);
    FUZZ_CHECK(percent_decoded(percent_encoded(input)) == std::string(input));

    (void)base64_decode(input);
    (void)base64url_decode(input);
    FUZZ_CHECK(base64_decode(base64_encode(as_bytes(input))) == std::string(input));
    FUZZ_CHECK(base64url_decode(base64url_encode(as_bytes(input))) == std::string(input));

    const std::string cleaned = valid_utf8(input);
    FUZZ_CHECK(is_utf8(cleaned));
    if (is_utf8(input)) FUZZ_CHECK(cleaned == input);
    return 0;
}
