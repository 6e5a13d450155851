#include "rope/config.hpp"

#include <array>
#include <utility>

namespace rope {

namespace {
constexpr std::array<std::pair<Pairing, std::string_view>, 2> kPairingNames{{
    {Pairing::interleaved, "interleaved"},
    {Pairing::half, "half"},
}};
constexpr std::array<std::pair<Scaling, std::string_view>, 7> kScalingNames{{
    {Scaling::none, "none"},
    {Scaling::linear, "linear"},
    {Scaling::ntk, "ntk"},
    {Scaling::dynamic, "dynamic"},
    {Scaling::yarn, "yarn"},
    {Scaling::llama3, "llama3"},
    {Scaling::longrope, "longrope"},
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
    // transformers: int(head_dim * partial_rotary_factor); pairs need an even count.
    const auto rotated = static_cast<long long>(static_cast<double>(dim) * rotary_fraction);
    return static_cast<int>(rotated - rotated % 2);
}

}  // namespace rope
