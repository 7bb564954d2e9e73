#pragma once
// The few protobuf wire types OTLP's trace messages use: varints, 64- and 32-bit fixed fields,
// and length-delimited fields (strings, bytes, nested messages), all into one buffer. A nested
// message is written in place: its length byte is reserved when it opens and, when the message
// is 128 bytes or more, widened when it closes (its body moved once). The field writers are
// inline: an export writes a few hundred fields per span.
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace mcp::telemetry {

class ProtobufWriter {
public:
    // Where an open nested message's length goes.
    struct Message {
        std::size_t length_at;
    };

    // uint32/uint64/enum/bool; skipped when 0
    void varint_field(std::uint32_t field, std::uint64_t value) {
        if (value == 0) return;  // proto3's default is not written
        tag(field, kVarint);
        varint(value);
    }
    // two's complement, as proto3 int64
    void int64_field(std::uint32_t field, std::int64_t value) {
        tag(field, kVarint);
        varint(static_cast<std::uint64_t>(value));
    }
    void fixed64_field(std::uint32_t field, std::uint64_t value) {
        tag(field, kFixed64);
        little_endian(value, 8);
    }
    void fixed32_field(std::uint32_t field, std::uint32_t value) {
        tag(field, kFixed32);
        little_endian(value, 4);
    }
    void double_field(std::uint32_t field, double value) {
        tag(field, kFixed64);
        little_endian(std::bit_cast<std::uint64_t>(value), 8);
    }
    // strings, bytes
    void bytes_field(std::uint32_t field, std::string_view bytes) {
        tag(field, kLengthDelimited);
        varint(bytes.size());
        std::memcpy(room(bytes.size()), bytes.data(), bytes.size());
        size_ += bytes.size();
    }
    // written even when false
    void bool_field(std::uint32_t field, bool value) {
        tag(field, kVarint);
        varint(value ? 1 : 0);
    }
    // A nested message, until close.
    Message open(std::uint32_t field) {
        tag(field, kLengthDelimited);
        *room(1) = '\0';  // the length, when under 128
        return {size_++};
    }
    void close(Message message);

    void reserve(std::size_t bytes) { room(bytes); }
    void clear() { size_ = 0; }  // keeps the room
    std::string_view bytes() const { return {buffer_.get(), size_}; }

private:
    enum WireType : std::uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };
    static constexpr std::size_t kMaxVarint = 10;

    // The varint's bytes into `to`; returns how many.
    static std::size_t encode_varint(std::uint64_t value, char* to) {
        std::size_t n = 0;
        while (value >= 0x80) {
            to[n++] = static_cast<char>((value & 0x7f) | 0x80);
            value >>= 7;
        }
        to[n++] = static_cast<char>(value);
        return n;
    }
    void tag(std::uint32_t field, std::uint32_t wire_type) { varint(field << 3 | wire_type); }
    void varint(std::uint64_t value) { size_ += encode_varint(value, room(kMaxVarint)); }
    void little_endian(std::uint64_t value, int bytes) {
        char* to = room(8);
        for (int i = 0; i < bytes; ++i, value >>= 8) to[i] = static_cast<char>(value & 0xff);
        size_ += static_cast<std::size_t>(bytes);
    }
    // Where the next `bytes` bytes go; size_ not yet moved.
    char* room(std::size_t bytes) {
        if (capacity_ - size_ < bytes) grow(bytes);
        return buffer_.get() + size_;
    }
    void grow(std::size_t bytes);

    // Written bytes are buffer_[0, size_); the rest is room, not zeroed (a batch's is ~100 KiB).
    std::unique_ptr<char[]> buffer_;
    std::size_t capacity_ = 0;
    std::size_t size_ = 0;
};

}  // namespace mcp::telemetry
