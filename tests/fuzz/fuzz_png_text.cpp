// Fuzz target: reading a PNG's text chunks and turning them into a session (what --session does with
// an exported PNG). A broken file is an IoError or SessionError, never a crash, hang or huge allocation.
#include <cstddef>
#include <cstdint>

#include "io/atomic_file.hpp"
#include "io/png_text.hpp"
#include "session/file_metadata.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const rope::io::TextChunks text = rope::io::read_png_text(data, size, "fuzz.png");
        rope::session::session_from_png_text(text, "fuzz.png");
    } catch (const rope::io::IoError&) {
    } catch (const rope::session::SessionError&) {
    }
    return 0;
}
