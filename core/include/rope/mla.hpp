// Multi-head latent attention's decoupled RoPE (DeepSeek-V2, DeepSeek-V3, Kimi K2). Each head's query
// and key have a part that is not rotated (qk_nope_head_dim dims, from the compressed latent) and a
// rotated part (qk_rope_head_dim dims; the key's is one per token, shared by all heads), and the score
// is the sum of the two parts' dot products. YaRN's magnitude correction is applied in two places, as
// DeepSeek's code and transformers' port do: on cos and sin, mscale(s, mscale) / mscale(s, mscale_all_dim)
// (the config's attention factor, 1 when the two are equal), and on the softmax scale, which becomes
// (qk_nope_head_dim + qk_rope_head_dim)^(-1/2) x mscale(s, mscale_all_dim)^2, with
// mscale(s, m) = 0.1 m ln s + 1 for s > 1 (1 otherwise).
#pragma once

#include "rope/config.hpp"

namespace rope {

struct MlaHead {
    int nope_dims = 128;  // qk_nope_head_dim
    int rope_dims = 64;   // qk_rope_head_dim (the config's dim)
};

struct MlaScales {
    double rotary = 1;         // what multiplies cos and sin (the attention factor)
    double plain_softmax = 1;  // (nope + rope)^(-1/2), the softmax scale before YaRN's correction
    double softmax = 1;        // the number that multiplies q.k: plain_softmax x mscale(s, mscale_all_dim)^2
};

// The two scales of a head for a config: the softmax one is corrected when the config scales its
// frequencies (any scaling but none) and sets a non-zero mscale_all_dim, as DeepSeek's attention does.
MlaScales mla_scales(const MlaHead& head, const RopeConfig& config);

}  // namespace rope
