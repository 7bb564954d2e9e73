#pragma once
// One HTTP/1.1 request on a connection of its own to 127.0.0.1, for a test that must speak to a
// server behind its client's back (end its session, look at what it answers).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace testing_support {

struct RawResponse {
    int status = 0;  // 0: no answer
    std::string head;
    std::string body;  // as it came (chunked coding left in place)
};

// With "Connection: close"; the answer up to the connection's end, at most 1 MiB, within 5 s.
RawResponse raw_http(std::uint16_t port, const std::string& method, const std::string& target,
                     const std::vector<std::pair<std::string, std::string>>& headers, const std::string& body = {});

}  // namespace testing_support
