// Importing a Hugging Face config.json: the head dimension, base, partial rotary and the
// context-extension dict (legacy `rope_scaling` or newer `rope_parameters`, also per layer type),
// turned into the parameter table's --set vocabulary. A config that says how its layers differ
// (layer_types, no_rope_layers, Gemma 3's sliding-window pattern, Llama 4's and Qwen3-Next's
// intervals) becomes the whole model: layer_kinds, model_layers and the selected layer. The rules
// follow transformers' modeling_rope_utils.py and the models' configuration files (see docs/models-and-config.md).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rope/params.hpp"
#include "rope/presets.hpp"

namespace rope::session {

struct ConfigImport {
    std::vector<std::pair<ParamId, std::string>> sets;  // key=value, in order
    std::vector<std::string> warnings;                      // one line each: keys we do not support
};

// `layer_type` picks the layer shown: the first layer of that type (any name of the config's
// layer_types, or a kind name such as "full_attention/nope"); "" = the first full-attention layer
// with RoPE, else layer 0. A config without layers takes it as the entry of a per-layer-type
// rope_parameters dict to read ("" = full_attention).
// Throws SessionError ("config 'PATH': ...", one line) for a missing, malformed or inconsistent file.
ConfigImport import_hf_config(const std::string& path, const std::string& layer_type = "");
ConfigImport import_hf_config_text(const std::string& json_text, const std::string& name,
                                   const std::string& layer_type = "");

// The parameters with an imported config applied: the model's keys are reset first, as loading a
// preset resets them, so nothing of the previous model survives (preset becomes none); then the
// config's values, checked together. Throws SessionError naming the file if the table refuses one.
ParamSet with_config(const ParamSet& params, const ConfigImport& imported, const std::string& name);

// Lets `compare_to` (and everything that sets it: --set, sessions, lessons, the window) name a
// config.json as model B: the core asks this importer for any value that is not a preset (each path
// is read once per run). Part of the services each program passes on (services/services.hpp).
ModelImporter config_importer();

}  // namespace rope::session
