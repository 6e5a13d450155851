// Importing a Hugging Face config.json: the head dimension, base, partial rotary and the
// context-extension dict (legacy `rope_scaling` or newer `rope_parameters`, also per layer type),
// turned into the parameter table's --set vocabulary. The rules follow transformers 4.5x's
// modeling_rope_utils.py (see the README).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rope/params.hpp"

namespace rope::session {

struct ConfigImport {
    std::vector<std::pair<std::string, std::string>> sets;  // key=value, in order
    std::vector<std::string> warnings;                      // one line each: keys we do not support
};

// Throws SessionError ("config 'PATH': ...", one line) for a missing or malformed file.
ConfigImport import_hf_config(const std::string& path, const std::string& layer_type = "full_attention");
ConfigImport import_hf_config_text(const std::string& json_text, const std::string& name,
                                   const std::string& layer_type = "full_attention");

// The parameters with an imported config applied: the model's keys are reset first, as loading a
// preset resets them, so nothing of the previous model survives (preset becomes none); then the
// config's values, checked together. Throws SessionError naming the file if the table refuses one.
ParamSet with_config(const ParamSet& params, const ConfigImport& imported, const std::string& name);

}  // namespace rope::session
