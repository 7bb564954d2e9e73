#pragma once
// UTF-8 validation per RFC 3629 (no overlong forms, surrogates, or code points above U+10FFFF),
// for text that did not come through the JSON parser: percent-decoded URIs, header values echoed
// in error messages.
#include <string>
#include <string_view>

namespace mcp::detail {

// Byte at a time, so bytes can be checked as they are decoded.
class Utf8Checker {
public:
    bool feed(unsigned char b) {
        if (pending_ == 0) {
            if (b < 0x80) return true;
            if (b >= 0xC2 && b <= 0xDF) return expect(1, 0x80, 0xBF);
            if (b >= 0xE0 && b <= 0xEF) return expect(2, b == 0xE0 ? 0xA0 : 0x80, b == 0xED ? 0x9F : 0xBF);
            if (b >= 0xF0 && b <= 0xF4) return expect(3, b == 0xF0 ? 0x90 : 0x80, b == 0xF4 ? 0x8F : 0xBF);
            return false;
        }
        if (b < low_ || b > high_) return false;
        --pending_;
        low_ = 0x80;  // only the byte after the lead has a narrower range
        high_ = 0xBF;
        return true;
    }
    bool complete() const { return pending_ == 0; }

private:
    bool expect(int pending, unsigned char low, unsigned char high) {
        pending_ = pending;
        low_ = low;
        high_ = high;
        return true;
    }
    int pending_ = 0;
    unsigned char low_ = 0x80;
    unsigned char high_ = 0xBF;
};

// `text` with each byte that does not start a well-formed sequence replaced by U+FFFD, so every
// JSON text the server writes is valid UTF-8.
std::string valid_utf8(std::string_view text);

}  // namespace mcp::detail
