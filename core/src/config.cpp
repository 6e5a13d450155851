#include "rope/config.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace rope {

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
