// Two ways to rotate only part of a head, and what goes wrong when a port mixes them.
//
//  proportional (transformers' rope_type "proportional", Gemma 4's full-attention layers): the
//    frequency vector keeps d/2 entries, base^(-2i/d) for i < int(d*fraction)//2 and 0 for the rest,
//    and rotate_half pairs dims (i, i + d/2) across the WHOLE head; with interleaved pairing (2i, 2i+1).
//  partial (GPT-NeoX rotary_pct, Phi, GLM; transformers' partial_rotary_factor for every other
//    rope type): only the first r = int(d*fraction) (even) dims rotate, at base^(-2i/r), paired inside
//    that prefix, (i, i + r/2) with rotate_half; the other d - r dims pass through.
//
// Each layout is described per dim, the way reference code applies RoPE (x*cos + swap(x)*sin):
//  angle[j]   the frequency of the pair dim j belongs to (rad/token); 0 = dim j does not turn
//  partner[j] the dim j swaps with, -1 = none (pass-through), and sign[j] = -1 for the first dim of a
//             pair and +1 for the second, so swap(x)[j] = sign[j] * x[partner[j]].
// Three ways to combine them:
//  1. Angle table and partner map of the SAME layout: a rotation, equal to rope::rotate of
//     compute_frequencies; <R(m)q, R(n)k> depends on n - m only.
//  2. Angle table of one layout, partner swap of the other (rotate_with_tables(a, b, ...)): cos/sin
//     laid out for one layout applied by a swap written for the other, the analogue of the pairing
//     panel's interleaved-vs-half bug. Dims meet a partner whose angle is 0, or turn with no partner:
//     no longer a rotation, and scores at the same n - m change with m.
//  3. The frequency VALUES of one layout on the PAIRS of the other (transplanted_table): what the
//     reported ports did. It is still a rotation (relative property kept), but another one than the
//     checkpoint was trained with, so its scores differ from the model's at every distance:
//     - proportional values on partial pairs: Gemma 4's 64 frequencies on a 128-dim prefix paired
//       (i, i + 64) instead of (i, i + 256): NVIDIA-NeMo/Megatron-Bridge #4195 ("the 64 frequency
//       values match HF bit-for-bit ... the head-dim lanes are paired incorrectly"), fixed by PR #4916;
//       apple/coreai-models #66 ("The frequencies are identical; only the dim pairing differs").
//     - partial values on proportional pairs: the right pairs with the exponent over the rotated
//       width, base^(-2i/r), instead of the head, base^(-2i/d): pegainfer-project/pegainfer #820
//       ("Getting the denominator wrong is not loud").
#pragma once

#include <Eigen/Core>
#include <vector>

#include "rope/config.hpp"

namespace rope {

enum class RotaryLayout { proportional, partial };

struct LayoutTable {
    Eigen::VectorXd angle;      // per dim: frequency of its pair (rad/token), 0 = does not turn
    std::vector<int> partner;   // per dim: the dim it swaps with, -1 = passes through
    std::vector<double> sign;   // per dim: -1 (first of a pair), +1 (second), 0 (no partner)
};

// The per-dim tables of one layout. dim even >= 2, 0 < fraction <= 1, base > 1 (std::invalid_argument
// otherwise). A layout with no rotating pair (fraction too small) has every angle 0 and no partners.
LayoutTable layout_table(RotaryLayout layout, int dim, double fraction, double base,
                         Pairing pairing = Pairing::half);

// x*cos(m*angle) + swap(x)*sin(m*angle) with `angles.angle` and `partners`' partner map and signs.
// Same table for both = that layout's RoPE; different tables = the porting bug.
Eigen::VectorXd rotate_with_tables(const LayoutTable& angles, const LayoutTable& partners, const Eigen::VectorXd& x,
                                   double m);

// <rotate_with_tables(q, m), rotate_with_tables(k, n)>.
double score_with_tables(const LayoutTable& angles, const LayoutTable& partners, const Eigen::VectorXd& q, double m,
                         const Eigen::VectorXd& k, double n);

// The pairs (partner map and signs) of `pairs_of` with the frequency values of `values_of`: its
// turning frequencies on the pairs 0, 1, ... of `pairs_of` in order, 0 for the rest. Both layouts have
// the same number of turning pairs, int(dim * fraction) // 2, so every value finds a pair.
LayoutTable transplanted_table(RotaryLayout pairs_of, RotaryLayout values_of, int dim, double fraction, double base,
                               Pairing pairing = Pairing::half);

// The RopeConfig whose compute_frequencies + rotate give the same rotation as `layout`'s own tables.
RopeConfig layout_config(RotaryLayout layout, int dim, double fraction, double base, Pairing pairing = Pairing::half);

}  // namespace rope
