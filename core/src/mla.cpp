#include "rope/mla.hpp"

#include <cmath>

#include "rope/frequencies.hpp"

namespace rope {

MlaScales mla_scales(const MlaHead& head, const RopeConfig& config) {
    MlaScales s;
    s.rotary = compute_frequencies(config).attention_factor;
    s.plain_softmax = 1.0 / std::sqrt(static_cast<double>(head.nope_dims + head.rope_dims));
    s.softmax = s.plain_softmax;
    if (config.scaling != Scaling::none && config.mscale_all_dim && *config.mscale_all_dim != 0.0) {
        const double m = yarn_mscale(config.factor, *config.mscale_all_dim);
        s.softmax *= m * m;
    }
    return s;
}

MlaPlacements mla_placements(const MlaHead& head, int kv_lora_rank, const RopeConfig& config) {
    const MlaScales s = mla_scales(head, config);
    MlaPlacements p;
    p.right_nope = s.softmax / s.plain_softmax;
    p.right_rope = p.right_nope * s.rotary * s.rotary;
    p.on_cos_sin_nope = 1;
    p.from_latent = p.right_nope * std::sqrt(static_cast<double>(head.nope_dims + head.rope_dims) / (kv_lora_rank + head.rope_dims));
    return p;
}

}  // namespace rope
