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

// What multiplies each part of the score q.k, divided by the plain softmax scale (nope + rope)^(-1/2),
// where YaRN's correction goes right and where ports have put it (transformers #47435, vLLM #41569,
// onnxruntime mobius #548): right, the nope part x mscale(s, mscale_all_dim)^2 and the rope part that
// x the rotary factor^2 (cos and sin carry it on q and on k); on cos and sin instead of the softmax,
// the rope part as right but the nope part x 1; the softmax scale from the key-value latent's width
// (kv_lora_rank + rope: 576 for DeepSeek-V3) instead of the head's, both parts x
// sqrt((nope + rope) / (kv_lora_rank + rope)) mscale^2.
struct MlaPlacements {
    double right_nope = 1, right_rope = 1;
    double on_cos_sin_nope = 1;
    double from_latent = 1;
};
MlaPlacements mla_placements(const MlaHead& head, int kv_lora_rank, const RopeConfig& config);

// The two scales of a head for a config: the softmax one is corrected when the config scales its
// frequencies (any scaling but none) and sets a non-zero mscale_all_dim, as DeepSeek's attention does.
MlaScales mla_scales(const MlaHead& head, const RopeConfig& config);

}  // namespace rope
