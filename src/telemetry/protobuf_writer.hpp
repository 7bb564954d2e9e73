#pragma once
// The few protobuf wire types OTLP's trace messages use: varints, 64- and 32-bit fixed fields,
// and length-delimited fields (strings, bytes, nested messages). A nested message is written to
// a writer of its own and added whole, since its length comes first.
#include <cstdint>
#include <string>
#include <string_view>

namespace mcp::telemetry {

class ProtobufWriter {
public:
    void varint_field(std::uint32_t field, std::uint64_t value);  // uint32/uint64/enum/bool; skipped when 0
    void int64_field(std::uint32_t field, std::int64_t value);    // two's complement, as proto3 int64
    void fixed64_field(std::uint32_t field, std::uint64_t value);
    void fixed32_field(std::uint32_t field, std::uint32_t value);
    void double_field(std::uint32_t field, double value);
    void bytes_field(std::uint32_t field, std::string_view bytes);  // strings, bytes, messages
    void bool_field(std::uint32_t field, bool value);               // written even when false

    const std::string& bytes() const { return out_; }
    std::string take() { return std::move(out_); }

private:
    void tag(std::uint32_t field, std::uint32_t wire_type);
    void varint(std::uint64_t value);
    void little_endian(std::uint64_t value, int bytes);
    std::string out_;
};

}  // namespace mcp::telemetry
