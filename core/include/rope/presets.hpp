// Real models' RoPE settings (../shared/ROPE.md's table), each number with where it comes from.
// `--set preset=NAME` applies one: the RoPE keys go back to their defaults, then the preset's values.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "rope/param_ids.hpp"

namespace rope {

struct Preset {
    std::string_view name;
    std::string_view model;
    std::vector<std::pair<ParamId, std::string_view>> values;  // as --set text
    std::string_view source;  // where the numbers come from (config.json keys)
};

const std::vector<Preset>& presets();
const Preset* find_preset(std::string_view name);

// A preset resets the parameters of the model scope (params.hpp's kModelScope) before its values.

}  // namespace rope
