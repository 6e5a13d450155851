// PNG files through libpng, with text chunks (the parameters a figure was made from).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rope::io {

using TextChunks = std::vector<std::pair<std::string, std::string>>;

// rgba: height rows of width * 4 bytes, top row first. Written atomically (see atomic_file.hpp).
// dpi > 0 records the pixel density (pHYs). Throws IoError.
void write_png(const std::string& path, const std::uint8_t* rgba, int width, int height, const TextChunks& text,
               double dpi = 0);

struct PngImage {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;  // 8-bit RGBA, top row first
    TextChunks text;
};
// Reads a PNG (any colour type, converted to RGBA8) and its text chunks. Throws IoError.
PngImage read_png(const std::string& path, bool pixels = true);

}  // namespace rope::io
