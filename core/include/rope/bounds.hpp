// Published results the app reproduces: the critical dimension of Liu et al. 2023 ("Scaling Laws of
// RoPE-based Extrapolation") and the lower bound of the base for a context length of Men et al. 2024
// ("Base of RoPE Bounds Context Length").
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <vector>

#include "rope/config.hpp"

namespace rope {

// 2 * ceil((d/2) * log_base(L / (2 pi))), clamped to [0, d]: the rotated dims whose wavelength fits
// in the training length L.
int critical_dimension(int rotated_dims, double base, double train_length);
// 2 pi base^(d_extra / d): the extrapolation bound of the same paper.
double extrapolation_bound(int rotated_dims, double base, double train_length);

// The same for a configuration whose pairs may not all turn (proportional RoPE, NoPE): the exponent's
// denominator is config.rotated_dims() (the whole head for proportional RoPE), and the count is
// clamped to the dims that turn, 2 * rotating_pairs(): a zero-frequency pair carries no position, so
// it never leaves the range training saw. 0 when nothing turns.
int critical_dimension(const RopeConfig& config, double train_length);
// 2 pi base^(critical / rotated_dims); +inf when every turning dim completes a period within
// train_length (nothing left for the bound to stop at); NaN when no pair turns (NoPE).
double extrapolation_bound(const RopeConfig& config, double train_length);

// Men et al.'s bound when some pairs have frequency 0: each adds cos 0 = 1 to B(m), so with at least
// as many zero pairs as turning ones B(m) >= 0 for every base and context and the bound is 1 (every
// base above 1 works; always so for NoPE). NaN otherwise: no zero pairs (use base_lower_bound), or
// fewer zero pairs than turning ones (the search covers base^(-2i/d) over every pair only).
double zero_pair_base_lower_bound(const RopeConfig& config);

// B(m) = sum_i cos(m theta_i) at positions m = 0..context; the first m where it is negative, or -1.
std::int64_t first_negative_position(const Eigen::VectorXd& theta, std::int64_t context);

// B(m) = sum_i cos(m theta_i) for m = first .. first+count-1 (out[0 .. count-1]).
void cosine_sum(const Eigen::VectorXd& theta, std::int64_t first, std::int64_t count, double* out);

// The smallest base with B(m) >= 0 for every m in [0, context] (Men et al. 2024). The feasible bases
// do not form an interval, so this is a certified upward sweep, not a grid: every base below the
// answer is shown infeasible by a witness position (see bounds.cpp). +inf if no base up to 1e15
// works (one rotated pair: theta_0 = 1 whatever the base); 1 for contexts 0 and 1 (every base above 1 works).
// Its work grows with pairs x context; callers offering it interactively keep to
// base_lower_bound_tractable (d = 128 up to 2^20 positions: ~10 s to a minute).
double base_lower_bound(int rotated_dims, std::int64_t context);
inline constexpr double kBaseBoundWork = 64.0 * 1048576.0;  // pairs x context
bool base_lower_bound_tractable(int rotated_dims, std::int64_t context);

// base_lower_bound for several contexts (ascending), each search starting from the previous bound. A
// set `cancel` stops it early: the result then holds only the contexts finished.
std::vector<double> base_lower_bound_curve(int rotated_dims, const std::vector<std::int64_t>& contexts,
                                           const std::atomic<bool>* cancel = nullptr);

}  // namespace rope
