// Fuzz target: the safetensors header (app/io/safetensors_header.*). Any bytes are a file: either a
// table whose tensors tile the data exactly, or one SafetensorsError; never a crash, a hang or a
// read past the bytes given.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "io/safetensors_header.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 1 << 20) return 0;
    try {
        const rope::io::SafetensorsHeader h = rope::io::parse_safetensors_header(data, size, size, "fuzz.safetensors");
        std::uint64_t at = 0;
        for (const rope::io::SafetensorsTensor& t : h.tensors) {
            if (t.begin != at || t.end - t.begin != t.elements() * rope::io::dtype_size(t.dtype)) std::abort();
            at = t.end;
        }
        if (h.data_start + at != size) std::abort();
    } catch (const rope::io::SafetensorsError&) {
    }
    return 0;
}
