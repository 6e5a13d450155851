// Fuzz target: session JSON. Anything is either refused with a SessionError or loads; what loads
// saves and loads back to the same session.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "session/session.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 65536) return 0;
    const std::string text(reinterpret_cast<const char*>(data), size);
    rope::session::Session s;
    try {
        s = rope::session::parse_session_json(text, "fuzz.json");
    } catch (const rope::session::SessionError&) {
        return 0;
    }
    const std::string saved = rope::session::session_json(s);
    const rope::session::Session back = rope::session::parse_session_json(saved, "saved.json");
    if (!(back.params == s.params) || back.view.maximized != s.view.maximized || back.view.page != s.view.page ||
        back.view.theme != s.view.theme || back.view.lesson_step != s.view.lesson_step)
        std::abort();
    return 0;
}
