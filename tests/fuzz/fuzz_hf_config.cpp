// Fuzz target: Hugging Face config.json import. A malformed config is one SessionError; what imports
// is a list of --set assignments that the parameter table either takes or refuses (a SessionError too).
#include <cstddef>
#include <cstdint>
#include <string>

#include "rope/params.hpp"
#include "session/hf_config.hpp"
#include "session/session.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 65536) return 0;
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (const char* layer : {"full_attention", "sliding_attention"}) {
        try {
            const rope::session::ConfigImport imported = rope::session::import_hf_config_text(text, "config.json", layer);
            (void)rope::session::with_config(rope::ParamSet(), imported, "config.json");  // as the app applies it
        } catch (const rope::session::SessionError&) {
        }
    }
    return 0;
}
