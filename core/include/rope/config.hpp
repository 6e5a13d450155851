// The RoPE configuration the math core works from: head dimension, base, pairing layout and the
// context-extension (scaling) variant with its parameters. Plain data; validated by params.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "rope/enum_names.hpp"

namespace rope {

// How the rotated dimensions are grouped into 2D pairs.
//  interleaved: pair i = dims (2i, 2i+1)      (RoFormer, GPT-J, Meta Llama, llama.cpp NORM)
//  half:        pair i = dims (i, i + r/2)    (GPT-NeoX, HF rotate_half, llama.cpp NEOX)
enum class Pairing { interleaved, half };
template <>
struct EnumNames<Pairing> {
    static constexpr std::array<std::string_view, 2> names = {"interleaved", "half"};
};

// Context-extension variants, as in Hugging Face transformers' rope-init functions, and Gemma 4's
// proportional RoPE (transformers' rope_type "proportional"): the frequency vector keeps d/2 entries,
// base^(-2i/d) for the first int(d * rotary_fraction) // 2 pairs and 0 for the rest, so the pairs
// span the whole head (i, i + d/2) and the zero-frequency pairs pass through.
enum class Scaling { none, linear, ntk, dynamic, yarn, llama3, longrope, proportional };
template <>
struct EnumNames<Scaling> {
    static constexpr std::array<std::string_view, 8> names = {"none", "linear", "ntk",     "dynamic",
                                                               "yarn", "llama3", "longrope", "proportional"};
};

constexpr std::string_view to_string(Pairing p) { return enum_name(p); }
constexpr std::string_view to_string(Scaling s) { return enum_name(s); }

struct RopeConfig {
    int dim = 128;                  // head dimension d (even)
    double base = 10000.0;          // theta base, > 1
    double rotary_fraction = 1.0;   // share of dims that are rotated (partial rotary)
    Pairing pairing = Pairing::interleaved;

    Scaling scaling = Scaling::none;
    double factor = 1.0;                       // scaling factor (>= 1)
    std::int64_t original_max_position = 4096; // L0: the pre-training context
    std::int64_t sequence_length = 4096;       // dynamic NTK's s; longrope picks long/short by it
    double low_freq_factor = 1.0;              // llama3
    double high_freq_factor = 4.0;             // llama3
    double beta_fast = 32.0;                   // yarn
    double beta_slow = 1.0;                    // yarn
    std::optional<double> mscale;              // yarn (DeepSeek style)
    std::optional<double> mscale_all_dim;      // yarn (DeepSeek style)
    bool truncate = true;                      // yarn: floor/ceil the ramp bounds
    std::vector<double> long_factors;          // longrope, one per rotated pair (empty = all 1)
    std::vector<double> short_factors;         // longrope, one per rotated pair (empty = all 1)
    std::optional<double> attention_factor;    // explicit override
    bool nope = false;                         // NoPE layer: no rotation at all (every frequency 0)

    // The dims the pairing spans: the largest even number <= int(dim * rotary_fraction), as
    // transformers' int(head_dim * factor); the whole head for proportional RoPE.
    int rotated_dims() const;
    int rotated_pairs() const { return rotated_dims() / 2; }
    // Pairs whose frequency is not 0: rotated_pairs(), except proportional RoPE's
    // int(dim * rotary_fraction) // 2 and none on a NoPE layer.
    int rotating_pairs() const;
    bool is_proportional() const { return scaling == Scaling::proportional; }
};

}  // namespace rope
