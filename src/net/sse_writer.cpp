#include "net/sse_writer.hpp"

namespace mcp::net {

std::string sse_event(std::string_view data, std::string_view id) {
    std::string out;
    out.reserve(data.size() + id.size() + 32);
    if (!id.empty()) {
        out += "id: ";
        out += id;
        out += '\n';
    }
    out += "event: message\ndata: ";
    out += data;
    out += "\n\n";
    return out;
}

std::string sse_priming(std::string_view id, long retry_ms) {
    return "retry: " + std::to_string(retry_ms) + "\nid: " + std::string(id) + "\ndata: \n\n";
}

std::string sse_comment() { return ":\n\n"; }

}  // namespace mcp::net
