#include "telemetry/protobuf_writer.hpp"

#include <algorithm>

namespace mcp::telemetry {

void ProtobufWriter::grow(std::size_t bytes) {
    const std::size_t capacity = std::max(capacity_ * 2, size_ + bytes);
    auto larger = std::make_unique_for_overwrite<char[]>(capacity);
    if (size_ > 0) std::memcpy(larger.get(), buffer_.get(), size_);
    buffer_ = std::move(larger);
    capacity_ = capacity;
}

void ProtobufWriter::close(Message message) {
    const std::size_t body_at = message.length_at + 1;
    const std::size_t length = size_ - body_at;
    char bytes[kMaxVarint];
    const std::size_t n = encode_varint(length, bytes);
    if (n > 1) {
        room(n - 1);
        std::memmove(buffer_.get() + body_at + n - 1, buffer_.get() + body_at, length);
        size_ += n - 1;
    }
    std::memcpy(buffer_.get() + message.length_at, bytes, n);
}

}  // namespace mcp::telemetry
