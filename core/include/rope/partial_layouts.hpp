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
// Rotating with the angle table and the partner map of the SAME layout is a rotation (it equals
// rope::rotate of compute_frequencies) and keeps <R(m)q, R(n)k> a function of n - m. Taking the angle
// table of one layout and the partner swap of the other is the porting bug: cos/sin laid out for one
// layout, applied by code that pairs dims the other way. Dims then get a partner whose angle is 0 or
// turn alone, the map is no longer a rotation, and scores depend on m, not only on n - m.
//  - angles of proportional, partners of partial: the proportional cos/sin (live lanes [0, k) and
//    [d/2, d/2 + k)) applied by a prefix rotate_half that pairs lanes (i, i + r/2) — the pairing
//    mix-up of NVIDIA-NeMo/Megatron-Bridge #4195 / PR #4916 (Gemma 4: "the shape (64 vs 256) is
//    wrong, so once a forward pass hits rotate_half the head-dim lanes are paired incorrectly").
//  - angles of partial, partners of proportional: prefix cos/sin (pairs contiguous in the first r
//    dims) applied by a whole-head rotate_half that pairs (i, i + d/2) — the mistake of treating
//    proportional RoPE as ordinary partial rotary reported in apple/coreai-models #66.
// (Both reports also describe the "consistent but wrong" variant: a port that rotates with its own
// layout consistently keeps the relative property, but its keys differ from the checkpoint's.)
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

// The RopeConfig whose compute_frequencies + rotate give the same rotation as `layout`'s own tables.
RopeConfig layout_config(RotaryLayout layout, int dim, double fraction, double base, Pairing pairing = Pairing::half);

}  // namespace rope
