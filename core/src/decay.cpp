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
    // The 64 steps of each pair from 16 sin/cos pairs: j = 8a + b, e^{i j theta} = e^{i 8a theta} e^{i b theta}
    // (the sin/cos calls were most of the cost of a short curve, as the base sweep draws five per frame).
    for (int k = 0; k < pairs_; ++k) {
        double fine_a[8], fine_c[8], fine_s[8], coarse_a[8], coarse_c[8], coarse_s[8];
        for (int b = 0; b < 8; ++b) {
            fine_a[b] = static_cast<double>(b) * theta_[k];
            fine_c[b] = std::cos(fine_a[b]);
            fine_s[b] = std::sin(fine_a[b]);
            coarse_a[b] = static_cast<double>(8 * b) * theta_[k];
            coarse_c[b] = std::cos(coarse_a[b]);
            coarse_s[b] = std::sin(coarse_a[b]);
        }
        for (int j = 0; j < kBlock; ++j) {
            const int a = j / 8, b = j % 8;
            const double angle = static_cast<double>(j) * theta_[k];
            double c, sn;
            detail::corrected_product(angle, coarse_a[a], coarse_c[a], coarse_s[a], fine_a[b], fine_c[b], fine_s[b], c, sn);
            step_angle_[k * kBlock + j] = angle;
            step_cos_[k * kBlock + j] = c;
            step_sin_[k * kBlock + j] = sn;
        }
    }
    base_angle_.resize(pairs_);
    base_cos_.resize(pairs_);
    base_sin_.resize(pairs_);
    block_out_.resize(kBlock);
}

void DecayBound::load_bases(std::int64_t block_start) {
    // Consecutive blocks chain: e^{i fl(B theta)} = e^{i fl((B-64) theta)} e^{i fl(64 theta)}, corrected
    // exactly (fl(B theta) - fl((B-64) theta) is exact for B >= 128); an exact sin/cos re-seeds every
    // 16 blocks so the few-ulp rounding of the products cannot build up.
    const bool chain = block_start == loaded_block_ + kBlock && block_start >= 2 * kBlock &&
                       (block_start / kBlock) % 16 != 0;
    const double b = static_cast<double>(block_start);
    for (int k = 0; k < pairs_; ++k) {
        const double angle = b * theta_[k];
        if (chain) {
            const std::size_t last = static_cast<std::size_t>(k) * kBlock + (kBlock - 1);
            // e^{i 64 theta} = e^{i 63 theta} e^{i theta}: both in the step table
            double c64, s64;
            const double a64 = static_cast<double>(kBlock) * theta_[k];
            detail::corrected_product(a64, step_angle_[last], step_cos_[last], step_sin_[last], step_angle_[k * kBlock + 1],
                              step_cos_[k * kBlock + 1], step_sin_[k * kBlock + 1], c64, s64);
            double c, s;
            detail::corrected_product(angle, base_angle_[k], base_cos_[k], base_sin_[k], a64, c64, s64, c, s);
            base_cos_[k] = c;
            base_sin_[k] = s;
        } else {
            base_cos_[k] = std::cos(angle);
            base_sin_[k] = std::sin(angle);
        }
        base_angle_[k] = angle;
    }
    loaded_block_ = block_start;
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
    load_bases(block_start);
    const double b = static_cast<double>(block_start);
    for (int k = 0; k < pairs_; ++k) {
        const double th = theta_[k];
        const std::size_t at = static_cast<std::size_t>(k) * kBlock;
        // delta is ~1.5 ulp of r*theta at most: below 2^20 rad its square is under 1e-19.
        const bool second_order = !((b + kBlock) * std::abs(th) < 1048576.0);
        detail::decay_block_pair(r, th, base_angle_[k], base_cos_[k], base_sin_[k], step_angle_.data() + at,
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
