#include "rope/nope_temperature.hpp"

#include <cmath>

namespace rope {

double nope_attention_scale(std::int64_t position, std::int64_t floor_scale, double attn_scale) {
    // floor((p + 1) / floor_scale) in integers: exact for any context, as torch's float floor is
    // for the positions it can hold
    const std::int64_t steps = (position + 1) / floor_scale;
    return 1.0 + attn_scale * std::log1p(static_cast<double>(steps));
}

}  // namespace rope
