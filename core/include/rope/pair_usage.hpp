// How much of an attention head's query-key product each rotated pair can carry, from the weights
// alone. RoPE turns dims a and b of a head together, so the score's part from pair i is
// q_ab . R(m-n) k_ab, bounded for unit inputs by ||G_q W_q[a,b]|| x ||G_k W_k[a,b]|| (G the per-head
// q_norm / k_norm scales the model applies before the rotation; RMSNorm's division by the input's
// own norm depends on the input and is left out). The rows' squared norms come in; the pairs'
// Frobenius norms, their product (usage) and its share of the head go out.
#pragma once

#include <vector>

#include "rope/config.hpp"
#include "rope/frequencies.hpp"
#include "rope/params.hpp"
#include "rope/rotation.hpp"  // pair_dims: the two dims of a head that pair i turns

namespace rope {

struct PairUsage {
    int heads = 0, kv_heads = 0, pairs = 0;
    // each [head * pairs + pair]; k_norm is the key head's that query head reads (h / (heads / kv_heads))
    std::vector<double> q_norm, k_norm, usage, share;
    int kv_head(int head) const { return head / (heads / kv_heads); }
    double at(const std::vector<double>& v, int head, int pair) const { return v[static_cast<std::size_t>(head * pairs + pair)]; }
};

// q_square[h * rotated_dims + j] = ||row j of query head h||^2 for the head's first rotated_dims
// dims (k_square likewise per key head); q_scale / k_scale: the scale of dim j (empty: 1). heads must
// be a multiple of kv_heads (grouped-query attention). Throws std::invalid_argument otherwise.
PairUsage pair_usage(const std::vector<double>& q_square, const std::vector<double>& k_square, int heads, int kv_heads,
                     int rotated_dims, Pairing pairing, const std::vector<double>& q_scale = {},
                     const std::vector<double>& k_scale = {});

// One layer of a trained model: its rotated dims and the pairs' usage.
struct LayerPairUsage {
    int layer = 0;
    int rotated_dims = 0;
    PairUsage pairs;
};

// How concentrated a layer's usage is: the mean over its query heads of each head's largest share
// (1 / pairs when every pair carries as much, 1 when each head uses one pair).
double concentration(const PairUsage& u);
// The index in `layers` of the one whose usage is most concentrated (the first of equals); 0 when empty.
std::size_t most_concentrated(const std::vector<LayerPairUsage>& layers);

// The RoPE keys of layer `layer` of the loaded model: the current ones for the selected layer (or a
// model without a layer list), with the keys set after it; that layer's kind's for the others.
ParamSet layer_params(const ParamSet& params, int layer);
// Each layer's rotated dims (one entry for a model without a layer list): what the weights are read for.
std::vector<int> rotated_dims_by_layer(const ParamSet& params);
// The unscaled wavelength 2 pi / theta_i (tokens) of the first `pairs` pairs; NaN where a pair does not turn.
std::vector<double> pair_wavelengths(const FrequencyTable& f, int pairs);

}  // namespace rope
