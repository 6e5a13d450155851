// Llama 4's attention temperature tuning on its NoPE layers (transformers' Llama4TextAttention,
// attn_temperature_tuning, after arXiv 2501.19399): the queries of a layer without RoPE are scaled by
//   s(p) = 1 + attn_scale * ln(1 + floor((p + 1) / floor_scale))
// at 0-based position p, so attention sharpens in steps as the context grows.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace rope {

double nope_attention_scale(std::int64_t position, std::int64_t floor_scale, double attn_scale);

// The corners of s(p) over positions 0 .. end-1, in order: position 0, the positions either side of
// each step (p = k floor_scale - 2 and - 1) and end - 1; a line through them is the exact staircase
// (the table `compute temperature` and the model anatomy's curve).
std::vector<std::pair<std::int64_t, double>> nope_scale_corners(std::int64_t end, std::int64_t floor_scale, double attn_scale);

}  // namespace rope
