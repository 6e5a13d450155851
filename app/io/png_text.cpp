#include "io/png_text.hpp"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <vector>

#include "io/atomic_file.hpp"

namespace rope::io {

namespace {

constexpr std::size_t kMaxInflated = 1u << 20;
constexpr std::size_t kMaxChunks = 4096;

std::uint32_t be32(const std::uint8_t* p) {
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | std::uint32_t(p[3]);
}

// Latin-1 (tEXt, zTXt) to UTF-8.
std::string latin1_to_utf8(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    return out;
}

// zlib stream -> bytes, at most kMaxInflated; false if it is broken or too big.
bool inflate_limited(const std::uint8_t* in, std::size_t size, std::string& out) {
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return false;
    z.next_in = const_cast<Bytef*>(in);
    z.avail_in = static_cast<uInt>(size);
    std::vector<unsigned char> buf(16384);
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = buf.data();
        z.avail_out = static_cast<uInt>(buf.size());
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) break;
        out.append(reinterpret_cast<const char*>(buf.data()), buf.size() - z.avail_out);
        if (out.size() > kMaxInflated) {
            rc = Z_MEM_ERROR;
            break;
        }
        if (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0) {
            rc = Z_DATA_ERROR;  // ran out of input before the end of the stream
            break;
        }
    }
    inflateEnd(&z);
    return rc == Z_STREAM_END;
}

}  // namespace

TextChunks read_png_text(const std::uint8_t* data, std::size_t size, const std::string& name) {
    auto fail = [&](const std::string& why) -> void { throw IoError("cannot read '" + name + "': " + why); };
    static const std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (size < 8 || std::memcmp(data, kSignature, 8) != 0) fail("not a PNG file");
    TextChunks text;
    std::size_t at = 8, chunks = 0;
    bool first = true;
    while (true) {
        if (size - at < 12) fail("truncated (no IEND chunk)");
        const std::uint32_t length = be32(data + at);
        const std::uint8_t* type = data + at + 4;
        if (length > size - at - 12) fail("truncated (a chunk is longer than the file)");
        const std::uint8_t* body = data + at + 8;
        const std::uint32_t crc = be32(body + length);
        if (static_cast<std::uint32_t>(crc32(crc32(0, nullptr, 0), type, length + 4)) != crc) fail("damaged (a chunk's CRC does not match)");
        for (int k = 0; k < 4; ++k)
            if (!((type[k] >= 'A' && type[k] <= 'Z') || (type[k] >= 'a' && type[k] <= 'z'))) fail("damaged (a chunk type is not letters)");
        const std::string kind(reinterpret_cast<const char*>(type), 4);
        if (first && kind != "IHDR") fail("damaged (IHDR is not the first chunk)");
        first = false;
        if (++chunks > 1000000) fail("too many chunks");
        if (kind == "IEND") break;
        if (kind == "tEXt" || kind == "zTXt" || kind == "iTXt") {
            if (text.size() >= kMaxChunks) fail("more than 4096 text chunks");
            const char* b = reinterpret_cast<const char*>(body);
            const std::size_t key_end = std::string(b, length).find('\0');
            if (key_end == std::string::npos || key_end == 0 || key_end > 79) fail("damaged (a text chunk's keyword)");
            const std::string key = latin1_to_utf8(std::string(b, key_end));
            std::size_t p = key_end + 1;
            std::string value;
            if (kind == "tEXt") {
                value = latin1_to_utf8(std::string(b + p, length - p));
            } else if (kind == "zTXt") {
                if (p + 1 > length || body[p] != 0) fail("damaged (zTXt compression method)");
                std::string raw;
                if (!inflate_limited(body + p + 1, length - p - 1, raw)) fail("damaged or oversized compressed text");
                value = latin1_to_utf8(raw);
            } else {  // iTXt: flag, method, language\0, translated keyword\0, text
                if (p + 2 > length) fail("damaged (iTXt header)");
                const bool compressed = body[p] != 0;
                if (compressed && body[p + 1] != 0) fail("damaged (iTXt compression method)");
                p += 2;
                for (int field = 0; field < 2; ++field) {
                    const std::size_t end = std::string(b + p, length - p).find('\0');
                    if (end == std::string::npos) fail("damaged (iTXt language or translated keyword)");
                    p += end + 1;
                }
                if (compressed) {
                    if (!inflate_limited(body + p, length - p, value)) fail("damaged or oversized compressed text");
                } else {
                    value.assign(b + p, length - p);
                }
            }
            text.emplace_back(key, value);
        }
        at += 12 + static_cast<std::size_t>(length);
    }
    return text;
}

TextChunks read_png_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError("cannot read '" + path + "': " + std::strerror(errno));
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0) throw IoError("cannot read '" + path + "'");
    if (size > (std::streamoff(1) << 28)) throw IoError("cannot read '" + path + "': larger than 256 MiB");
    in.seekg(0);
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
    if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), size)) throw IoError("cannot read '" + path + "'");
    return read_png_text(bytes.data(), bytes.size(), path);
}

}  // namespace rope::io
