#include "telemetry/protobuf_writer.hpp"

#include <bit>

namespace mcp::telemetry {

namespace {
enum WireType : std::uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };
}  // namespace

void ProtobufWriter::tag(std::uint32_t field, std::uint32_t wire_type) { varint(field << 3 | wire_type); }

void ProtobufWriter::varint(std::uint64_t value) {
    while (value >= 0x80) {
        out_.push_back(static_cast<char>((value & 0x7f) | 0x80));
        value >>= 7;
    }
    out_.push_back(static_cast<char>(value));
}

void ProtobufWriter::little_endian(std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i, value >>= 8) out_.push_back(static_cast<char>(value & 0xff));
}

void ProtobufWriter::varint_field(std::uint32_t field, std::uint64_t value) {
    if (value == 0) return;  // proto3's default is not written
    tag(field, kVarint);
    varint(value);
}

void ProtobufWriter::int64_field(std::uint32_t field, std::int64_t value) {
    tag(field, kVarint);
    varint(static_cast<std::uint64_t>(value));
}

void ProtobufWriter::bool_field(std::uint32_t field, bool value) {
    tag(field, kVarint);
    varint(value ? 1 : 0);
}

void ProtobufWriter::fixed64_field(std::uint32_t field, std::uint64_t value) {
    tag(field, kFixed64);
    little_endian(value, 8);
}

void ProtobufWriter::fixed32_field(std::uint32_t field, std::uint32_t value) {
    tag(field, kFixed32);
    little_endian(value, 4);
}

void ProtobufWriter::double_field(std::uint32_t field, double value) {
    tag(field, kFixed64);
    little_endian(std::bit_cast<std::uint64_t>(value), 8);
}

void ProtobufWriter::bytes_field(std::uint32_t field, std::string_view bytes) {
    tag(field, kLengthDelimited);
    varint(bytes.size());
    out_.append(bytes);
}

}  // namespace mcp::telemetry
