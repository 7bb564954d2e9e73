#pragma once
// A tiny PNG encoder for solid-colour images (stored deflate blocks, no compression library).
#include <cstdint>
#include <vector>

namespace demo {

std::vector<unsigned char> solid_png(std::uint32_t width, std::uint32_t height, std::uint8_t r, std::uint8_t g,
                                     std::uint8_t b);

}  // namespace demo
