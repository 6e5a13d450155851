// Position encodings beside RoPE that bias the score by the distance instead of rotating q and k:
// ALiBi (Press et al. 2022, "Train Short, Test Long"; the slopes as BLOOM's build_alibi_tensor in
// transformers computes them) and T5's relative-position buckets (transformers'
// T5Attention._relative_position_bucket). Pure functions of their settings.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "rope/enum_names.hpp"

namespace rope {

// How a model puts positions into its attention (position_encoding): it rotates q and k (RoPE), or
// it adds a bias that depends on the distance, ALiBi's linear one or T5's learned one per bucket.
// A model without RoPE sets nope too, so the rotation panels show that nothing turns.
enum class PositionEncoding { rope, alibi, t5 };
template <>
struct EnumNames<PositionEncoding> {
    static constexpr std::array<std::string_view, 3> names = {"rope", "alibi", "t5"};
};

// Whose ALiBi slopes (alibi_layout): BLOOM's (transformers' build_alibi_tensor, also Falcon's) or
// MPT's (build_mpt_alibi_tensor: alibi_bias_max spread over the next power of two, the odd heads
// first). The two agree for every head count when alibi_bias_max is 8.
enum class AlibiLayout { bloom, mpt };
template <>
struct EnumNames<AlibiLayout> {
    static constexpr std::array<std::string_view, 2> names = {"bloom", "mpt"};
};

// ALiBi: head h (0-based) adds -slope_h x (query position - key position) to its scores. For n heads
// and p the largest power of two <= n, slope_h = 2^(-8(h+1)/p) for h < p; the n - p heads left
// (at most p) take the odd steps of 2p heads' slopes, 2^(-4(2j+1)/p) for j < n - p. Computed in
// double (BLOOM computes the same powers in float32).
std::vector<double> alibi_slopes(int heads);

// MPT's slopes (transformers' build_mpt_alibi_tensor): for P the smallest power of two >= heads,
// s_j = 2^(-(j+1) x bias_max / P), j < P; when P != heads, the odd j first, then the even ones, the
// first `heads` of them.
std::vector<double> mpt_alibi_slopes(int heads, double bias_max);

// What ALiBi adds to a score for a key `distance` tokens before the query (distance >= 0).
inline double alibi_bias(double slope, double distance) { return -slope * distance; }

// Either layout's slopes.
std::vector<double> alibi_slopes(int heads, AlibiLayout layout, double bias_max);

struct T5BucketSettings {
    int num_buckets = 32;             // relative_attention_num_buckets
    std::int64_t max_distance = 128;  // relative_attention_max_distance: from here on, the last bucket
    bool bidirectional = true;        // the encoder (true) or the decoder's causal self-attention (false)
};

// The bucket of a relative position (key position - query position) as T5Attention computes it: half
// the buckets per direction when bidirectional (positive distances in the upper half); in each, the
// first half of its buckets hold distances 0, 1, ... one each and the rest grow logarithmically up
// to max_distance, in float32 as torch computes it, truncated. Causal: positive distances (keys after
// the query) all fall in bucket 0.
int t5_bucket(std::int64_t relative_position, const T5BucketSettings& settings);

// The distances that get a bucket of their own, each direction: num_buckets / 4 when bidirectional,
// num_buckets / 2 when causal (T5's max_exact; 0 means the settings are not usable).
int t5_exact_buckets(const T5BucketSettings& settings);

}  // namespace rope
