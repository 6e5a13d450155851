// The header of a .safetensors file, read and checked from the format's specification
// (huggingface/safetensors): 8 bytes little-endian N (at most 100,000,000), then N bytes of JSON
// that begin with '{' (possibly padded with spaces at the end): tensor name -> {dtype, shape,
// data_offsets [begin, end)} counted from the start of the data after the header, and an optional
// "__metadata__" of strings. The offsets must tile the data with no hole and no overlap, and each
// tensor's byte count must be its element count times its dtype's size. Nothing of the data is read
// here: the table is what a reader maps and streams from.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace rope::io {

enum class SafetensorsDtype { bool_, u8, i8, f8_e4m3, f8_e5m2, i16, u16, f16, bf16, i32, u32, f32, i64, u64, f64 };

struct SafetensorsTensor {
    std::string name;
    SafetensorsDtype dtype = SafetensorsDtype::f32;
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0, end = 0;  // byte offsets from the start of the data
    std::uint64_t elements() const;
};

struct SafetensorsHeader {
    std::uint64_t header_bytes = 0;  // N
    std::uint64_t data_start = 0;    // 8 + N: where the data begins in the file
    std::vector<SafetensorsTensor> tensors;  // in data order
    std::map<std::string, std::string> metadata;
    const SafetensorsTensor* find(const std::string& name) const;
};

// One line naming the file (and the tensor where there is one) and what is wrong.
struct SafetensorsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline constexpr std::uint64_t kMaxSafetensorsHeader = 100000000;

// Throws the one line: "'file', tensor 'name': what" (no tensor part when `tensor` is empty).
[[noreturn]] void throw_safetensors_error(const std::string& file, const std::string& tensor, const std::string& what);
// The 8-byte little-endian header size at p.
std::uint64_t read_u64_le(const std::uint8_t* p);

// The size in bytes of one element; the dtype's name as the format writes it ("BF16").
std::size_t dtype_size(SafetensorsDtype dtype);
const char* dtype_name(SafetensorsDtype dtype);

// Checks and reads the header: `prefix` holds at least the file's first 8 + N bytes (or all of a
// smaller file), `file_size` the whole file's size, `name` the file for messages. Throws
// SafetensorsError.
SafetensorsHeader parse_safetensors_header(const std::uint8_t* prefix, std::size_t prefix_size, std::uint64_t file_size,
                                           const std::string& name);

}  // namespace rope::io
