#pragma once
// RESP2, the Redis wire protocol: commands out as arrays of bulk strings, replies in through an
// incremental parser with bounds on sizes and nesting (a misbehaving peer cannot make it allocate
// without limit or recurse deeply).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

struct RespValue {
    enum class Type { simple, error, integer, bulk, array, nil } type = Type::nil;
    std::string text;                 // simple, error, bulk
    std::int64_t integer = 0;         // integer
    std::vector<RespValue> elements;  // array

    bool is_error() const { return type == Type::error; }
    bool is_nil() const { return type == Type::nil; }
};

// *N\r\n then $len\r\narg\r\n for each argument.
std::string resp_command(const std::vector<std::string>& args);

class RespParser {
public:
    struct Limits {
        std::size_t max_bulk = 64 * 1024 * 1024;
        std::size_t max_elements = 1 << 20;
        std::size_t max_depth = 8;
    };
    RespParser() = default;
    explicit RespParser(Limits limits) : limits_(limits) {}

    void feed(std::string_view bytes) { buffer_.append(bytes); }
    // The next complete reply, or nothing until more bytes arrive. Throws std::runtime_error on a
    // protocol violation (the connection must then be dropped).
    std::optional<RespValue> next();

private:
    // Whether a whole value starts at `pos` (and where it ends): checked before one is built, so a
    // large reply arriving in many reads is not built again after each.
    bool complete(std::size_t& pos, std::size_t depth);
    // Parses one complete value at `pos`.
    RespValue parse(std::size_t& pos);
    std::optional<std::string_view> line(std::size_t& pos);

    Limits limits_;
    std::string buffer_;
    std::size_t consumed_ = 0;
};

}  // namespace mcp::detail
