#include "rope/nope_temperature.hpp"

#include <cmath>

namespace rope {

double nope_attention_scale(std::int64_t position, std::int64_t floor_scale, double attn_scale) {
    // floor((p + 1) / floor_scale) in integers: exact for any context, as torch's float floor is
    // for the positions it can hold
    const std::int64_t steps = (position + 1) / floor_scale;
    return 1.0 + attn_scale * std::log1p(static_cast<double>(steps));
}

std::vector<std::pair<std::int64_t, double>> nope_scale_corners(std::int64_t end, std::int64_t floor_scale, double attn_scale) {
    std::vector<std::pair<std::int64_t, double>> corners;
    auto add = [&](std::int64_t p) {
        if (p < end && (corners.empty() || p > corners.back().first))
            corners.emplace_back(p, nope_attention_scale(p, floor_scale, attn_scale));
    };
    add(0);
    // the scale first takes a new value at p = k * floor_scale - 1
    for (std::int64_t step = floor_scale - 1; step < end; step += floor_scale) {
        add(step - 1);
        add(step);
    }
    add(end - 1);
    return corners;
}

}  // namespace rope
