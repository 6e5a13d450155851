// Real models' RoPE settings (../shared/ROPE.md's table), each number with where it comes from.
// `--set preset=NAME` applies one: the RoPE keys go back to their defaults, then the preset's values.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace rope {

struct Preset {
    std::string_view name;
    std::string_view model;
    std::vector<std::pair<std::string_view, std::string_view>> values;  // --set vocabulary
    std::string_view source;  // where the numbers come from (config.json keys)
};

const std::vector<Preset>& presets();
const Preset* find_preset(std::string_view name);

// The keys a preset resets before applying its values.
const std::vector<std::string_view>& preset_keys();

}  // namespace rope
