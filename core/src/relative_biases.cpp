#include "rope/relative_biases.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace rope {

std::vector<double> alibi_slopes(int heads) {
    std::vector<double> slopes;
    if (heads <= 0) return slopes;
    int power = 1;
    while (power * 2 <= heads) power *= 2;
    slopes.reserve(static_cast<std::size_t>(heads));
    for (int h = 1; h <= power; ++h) slopes.push_back(std::exp2(-8.0 * h / power));
    const int left = std::min(power, heads - power);
    for (int j = 0; j < left; ++j) slopes.push_back(std::exp2(-4.0 * (2 * j + 1) / power));
    return slopes;
}

std::vector<double> mpt_alibi_slopes(int heads, double bias_max) {
    std::vector<double> slopes;
    if (heads <= 0) return slopes;
    int power = 1;
    while (power < heads) power *= 2;
    std::vector<double> all;
    for (int j = 1; j <= power; ++j) all.push_back(std::exp2(-static_cast<double>(j) * (bias_max / power)));
    if (power == heads) return all;
    for (int start : {1, 0})
        for (int j = start; j < power; j += 2) slopes.push_back(all[static_cast<std::size_t>(j)]);
    slopes.resize(static_cast<std::size_t>(heads));
    return slopes;
}

std::vector<double> alibi_slopes(int heads, AlibiLayout layout, double bias_max) {
    return layout == AlibiLayout::mpt ? mpt_alibi_slopes(heads, bias_max) : alibi_slopes(heads);
}

int t5_exact_buckets(const T5BucketSettings& s) { return (s.bidirectional ? s.num_buckets / 2 : s.num_buckets) / 2; }

int t5_bucket(std::int64_t relative_position, const T5BucketSettings& s) {
    int buckets = s.num_buckets, bucket = 0;
    std::int64_t distance = 0;
    if (s.bidirectional) {
        buckets /= 2;
        if (relative_position > 0) bucket += buckets;
        distance = relative_position < 0 ? -relative_position : relative_position;
    } else {
        distance = relative_position < 0 ? -relative_position : 0;  // -min(relative_position, 0)
    }
    const int exact = buckets / 2;
    if (distance < exact) return bucket + static_cast<int>(distance);
    // torch: (log(distance.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)).to(long),
    // float32 tensors with the Python scalars taken as float32, truncated towards 0
    const float ratio = static_cast<float>(distance) / static_cast<float>(exact);
    const float span = static_cast<float>(std::log(static_cast<double>(s.max_distance) / exact));
    const float scaled = std::log(ratio) / span * static_cast<float>(buckets - exact);
    const std::int64_t large = std::min<std::int64_t>(exact + static_cast<std::int64_t>(scaled), buckets - 1);
    return bucket + static_cast<int>(large);
}

}  // namespace rope
