// Published results the app reproduces: the critical dimension of Liu et al. 2023 ("Scaling Laws of
// RoPE-based Extrapolation") and the lower bound of the base for a context length of Men et al. 2024
// ("Base of RoPE Bounds Context Length").
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace rope {

// 2 * ceil((d/2) * log_base(L / (2 pi))), clamped to [0, d]: the rotated dims whose wavelength fits
// in the training length L.
int critical_dimension(int rotated_dims, double base, double train_length);
// 2 pi base^(d_extra / d): the extrapolation bound of the same paper.
double extrapolation_bound(int rotated_dims, double base, double train_length);

// B(m) = sum_i cos(m theta_i) at positions m = 0..context; the first m where it is negative, or -1.
std::int64_t first_negative_position(const Eigen::VectorXd& theta, std::int64_t context);

// B(m) = sum_i cos(m theta_i) for m = first .. first+count-1 (out[0 .. count-1]).
void cosine_sum(const Eigen::VectorXd& theta, std::int64_t first, std::int64_t count, double* out);

// The smallest base with B(m) >= 0 for every m in [0, context]. The feasible bases do not form an
// interval, so this scans upward on a fine log grid (200 steps a decade) for the first feasible
// base and then narrows the step below it by bisection; returns +inf if none up to 1e15.
double base_lower_bound(int rotated_dims, std::int64_t context);

// base_lower_bound for several contexts (ascending) at plotting precision: each search starts from
// the previous context's bound (a base feasible for L is feasible for every shorter context), scans
// up in steps of `step_decades` and narrows the last step to ~1e-5 decades.
std::vector<double> base_lower_bound_curve(int rotated_dims, const std::vector<std::int64_t>& contexts,
                                           double step_decades = 1.0 / 200);

}  // namespace rope
