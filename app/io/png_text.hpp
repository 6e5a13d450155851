// Reading the text chunks of a PNG (tEXt, zTXt, iTXt) without decoding the image: what opening an
// exported PNG as a session needs. Written for files from anywhere: every length is checked against
// the bytes that are there, CRCs are verified, compressed text may not inflate past 1 MiB, and no
// more than 4096 text chunks are read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "io/png_writer.hpp"

namespace rope::io {

// The text chunks (keyword, value as UTF-8) of PNG bytes; throws IoError naming `name` and the problem.
TextChunks read_png_text(const std::uint8_t* data, std::size_t size, const std::string& name);
// The same from a file (read whole; PNGs over 256 MiB are refused).
TextChunks read_png_text_file(const std::string& path);

}  // namespace rope::io
