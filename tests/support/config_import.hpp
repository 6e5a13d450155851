// What the config.json tests share: the published configs in tests/reference/hf_configs (for test
// programs built with ROPE_HF_CONFIGS defined), an import's parameters with its warnings, and the
// questions they ask of it.
#pragma once

#include <string>
#include <vector>

#include "rope/params.hpp"

#ifndef ROPE_HF_CONFIGS
#error "support/config_import.hpp needs ROPE_HF_CONFIGS"
#endif

namespace rope::test {

// The path of a published config.json kept with the tests.
inline std::string published_config(const std::string& file) { return std::string(ROPE_HF_CONFIGS) + "/" + file; }

// A config.json applied to the defaults, and what its import warned of.
struct Imported {
    ParamSet params;
    std::vector<std::string> warnings;
};

inline bool has_warning(const Imported& imported, const std::string& text) {
    for (const std::string& w : imported.warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

// The layers without RoPE (NoPE) of the model `p` holds.
inline std::vector<int> nope_layers(const ParamSet& p) {
    const ModelLayers m = p.model_layers();
    std::vector<int> out;
    for (int i = 0; i < m.layers(); ++i)
        if (p.with_kind(m.kind(i)).config().nope) out.push_back(i);
    return out;
}

}  // namespace rope::test
