#include "rope/config.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace rope {

namespace {
constexpr std::array<std::pair<Pairing, std::string_view>, 2> kPairingNames{{
    {Pairing::interleaved, "interleaved"},
    {Pairing::half, "half"},
}};
constexpr std::array<std::pair<Scaling, std::string_view>, 8> kScalingNames{{
    {Scaling::none, "none"},
    {Scaling::linear, "linear"},
    {Scaling::ntk, "ntk"},
    {Scaling::dynamic, "dynamic"},
    {Scaling::yarn, "yarn"},
    {Scaling::llama3, "llama3"},
    {Scaling::longrope, "longrope"},
    {Scaling::proportional, "proportional"},
}};
}  // namespace

std::string_view to_string(Pairing p) {
    for (const auto& [value, name] : kPairingNames)
        if (value == p) return name;
    return "?";
}

std::string_view to_string(Scaling s) {
    for (const auto& [value, name] : kScalingNames)
        if (value == s) return name;
    return "?";
}

std::optional<Pairing> pairing_from_string(std::string_view s) {
    for (const auto& [value, name] : kPairingNames)
        if (name == s) return value;
    return std::nullopt;
}

std::optional<Scaling> scaling_from_string(std::string_view s) {
    for (const auto& [value, name] : kScalingNames)
        if (name == s) return value;
    return std::nullopt;
}

int RopeConfig::rotated_dims() const {
    if (scaling == Scaling::proportional) return dim;  // rotate_half spans the head: pairs (i, i + d/2)
    // transformers: int(head_dim * partial_rotary_factor); pairs need an even count.
    const auto rotated = static_cast<long long>(static_cast<double>(dim) * rotary_fraction);
    return static_cast<int>(rotated - rotated % 2);
}

int RopeConfig::rotating_pairs() const {
    if (nope) return 0;
    if (scaling != Scaling::proportional) return rotated_pairs();
    // transformers: int(rope_proportion * head_dim // 2), a float floor division; halving is exact
    const double live = std::floor(static_cast<double>(dim) * rotary_fraction / 2.0);
    return static_cast<int>(std::min(live, static_cast<double>(dim / 2)));
}

}  // namespace rope
