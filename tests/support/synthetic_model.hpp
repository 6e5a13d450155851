// A synthetic trained-model folder for tests that build the Trained model figure or load a model:
// written once per process by tests/weights/synthetic_model.py (Debian's numpy) in the exact shape a
// published checkpoint has, and the parameters that load it (as --set model=DIR does). For targets
// that define ROPE_SYNTHETIC_MODEL_SCRIPT and link rope_weights.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

#include "rope/params.hpp"
#include "support/process.hpp"
#include "weights/trained_weights.hpp"

#ifndef ROPE_SYNTHETIC_MODEL_SCRIPT
#error "support/synthetic_model.hpp needs ROPE_SYNTHETIC_MODEL_SCRIPT (target_compile_definitions in tests/CMakeLists.txt)"
#endif

namespace rope::test {

// The folder of `layout` (llama_gqa, qwen3, gemma3, phi3, gpt_neox, meta, llama_sharded), made once.
inline std::string synthetic_model_folder(const std::string& layout = "llama_gqa") {
    static std::map<std::string, std::string> made;
    auto& dir = made[layout];
    if (dir.empty()) {
        const std::filesystem::path at =
            std::filesystem::temp_directory_path() / ("rope_synthetic_" + std::to_string(getpid()) + "_" + layout);
        const ProcessResult r = run_process({"/usr/bin/python3", ROPE_SYNTHETIC_MODEL_SCRIPT, "--layout", layout, "--out", at.string()});
        if (r.exit_code != 0) throw std::runtime_error("synthetic_model.py: " + r.err);
        dir = at.string();
    }
    return dir;
}

// `params` with the synthetic model loaded (a figure cache reads it with weights::folder_reader()).
inline ParamSet with_synthetic_model(const ParamSet& params = {}, const std::string& layout = "llama_gqa") {
    return weights::with_model_folder(params, synthetic_model_folder(layout));
}

}  // namespace rope::test
