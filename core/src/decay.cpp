#include "rope/decay.hpp"

#include "simd.hpp"

#include <algorithm>
#include <cmath>

namespace rope {

DecayBound::DecayBound(const Eigen::VectorXd& theta)
    : pairs_(static_cast<int>(theta.size())), theta_(theta.data(), theta.data() + theta.size()) {
    const std::size_t n = static_cast<std::size_t>(pairs_) * kBlock;
    step_angle_.resize(n);
    step_cos_.resize(n);
    step_sin_.resize(n);
    for (int k = 0; k < pairs_; ++k) {
        for (int j = 0; j < kBlock; ++j) {
            const double a = static_cast<double>(j) * theta_[k];
            step_angle_[k * kBlock + j] = a;
            step_cos_[k * kBlock + j] = std::cos(a);
            step_sin_[k * kBlock + j] = std::sin(a);
        }
    }
    block_out_.resize(kBlock);
}

namespace detail {

// Adds pair k's term e^{i fl(r theta)} for the 64 distances r = B + j of a block to the running
// sums S, and |S| to the accumulators (lanes run over j, so this vectorises).
ROPE_HOT_KERNEL
void decay_block_pair(const double* __restrict r, double th, double base_angle, double bc, double bs,
                      const double* __restrict sa, const double* __restrict sc, const double* __restrict ss,
                      double* __restrict sum_re, double* __restrict sum_im, double* __restrict acc,
                      bool second_order) {
    constexpr int n = DecayBound::kBlock;
    if (second_order) {
        for (int j = 0; j < n; ++j) {
            const double delta = (r[j] * th - base_angle) - sa[j];
            const double c0 = bc * sc[j] - bs * ss[j];
            const double s0 = bs * sc[j] + bc * ss[j];
            const double h = 1.0 - 0.5 * delta * delta;
            sum_re[j] += c0 * h - s0 * delta;
            sum_im[j] += s0 * h + c0 * delta;
            acc[j] += std::sqrt(sum_re[j] * sum_re[j] + sum_im[j] * sum_im[j]);
        }
    } else {
        for (int j = 0; j < n; ++j) {
            // e^{i fl(r theta)} = e^{i fl(B theta)} e^{i fl(j theta)} corrected by the exact
            // residual delta (see phasor.hpp); delta^2 is negligible here.
            const double delta = (r[j] * th - base_angle) - sa[j];
            const double c0 = bc * sc[j] - bs * ss[j];
            const double s0 = bs * sc[j] + bc * ss[j];
            sum_re[j] += c0 - s0 * delta;
            sum_im[j] += s0 + c0 * delta;
            acc[j] += std::sqrt(sum_re[j] * sum_re[j] + sum_im[j] * sum_im[j]);
        }
    }
}

}  // namespace detail

void DecayBound::compute_block(std::int64_t block_start, double* out) {
    alignas(64) double r[kBlock];
    alignas(64) double sum_re[kBlock];
    alignas(64) double sum_im[kBlock];
    alignas(64) double acc[kBlock];
    for (int j = 0; j < kBlock; ++j) {
        r[j] = static_cast<double>(block_start + j);
        sum_re[j] = 0.0;
        sum_im[j] = 0.0;
        acc[j] = 0.0;
    }
    const double b = static_cast<double>(block_start);
    for (int k = 0; k < pairs_; ++k) {
        const double th = theta_[k];
        const double base_angle = b * th;
        const std::size_t at = static_cast<std::size_t>(k) * kBlock;
        // delta is ~1.5 ulp of r*theta at most: below 2^20 rad its square is under 1e-19.
        const bool second_order = !((b + kBlock) * std::abs(th) < 1048576.0);
        detail::decay_block_pair(r, th, base_angle, std::cos(base_angle), std::sin(base_angle), step_angle_.data() + at,
                                 step_cos_.data() + at, step_sin_.data() + at, sum_re, sum_im, acc, second_order);
    }
    const double inv_pairs = 1.0 / pairs_;
    for (int j = 0; j < kBlock; ++j) out[j] = acc[j] * inv_pairs;
}

void DecayBound::compute(std::int64_t first, std::int64_t count, double* out) {
    std::int64_t r = first;
    const std::int64_t end = first + count;
    while (r < end) {
        const std::int64_t block = r - r % kBlock;
        if (r == block && end - r >= kBlock) {
            compute_block(block, out + (r - first));
            r += kBlock;
        } else {
            compute_block(block, block_out_.data());
            const std::int64_t stop = std::min(end, block + kBlock);
            for (; r < stop; ++r) out[r - first] = block_out_[r - block];
        }
    }
}

Eigen::VectorXd decay_bound(const Eigen::VectorXd& theta, std::int64_t max_distance) {
    Eigen::VectorXd out(max_distance + 1);
    DecayBound(theta).compute(0, max_distance + 1, out.data());
    return out;
}

double mean_cos(const Eigen::VectorXd& theta, double r) {
    double sum = 0.0;
    for (Eigen::Index k = 0; k < theta.size(); ++k) sum += std::cos(r * theta[k]);
    return sum / static_cast<double>(theta.size());
}

}  // namespace rope
