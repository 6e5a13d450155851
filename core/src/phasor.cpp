#include "rope/phasor.hpp"

#include <algorithm>
#include <cmath>

#include "rope/frequencies.hpp"
#include "simd.hpp"

namespace rope {

void PhasorGenerator::reset(const Eigen::VectorXd& theta) {
    pairs_ = static_cast<int>(theta.size());
    auto t = std::make_shared<Tables>();
    t->theta.assign(theta.data(), theta.data() + pairs_);
    max_theta_ = 0.0;
    for (double v : t->theta) max_theta_ = std::max(max_theta_, std::abs(v));
    const std::size_t n = static_cast<std::size_t>(kBlock) * pairs_;
    t->step_angle.resize(n);
    t->step_cos.resize(n);
    t->step_sin.resize(n);
    for (int j = 0; j < kBlock; ++j) {
        for (int k = 0; k < pairs_; ++k) {
            const double a = static_cast<double>(j) * t->theta[k];
            t->step_angle[j * pairs_ + k] = a;
            t->step_cos[j * pairs_ + k] = std::cos(a);
            t->step_sin[j * pairs_ + k] = std::sin(a);
        }
    }
    // Second level: e^{i fl(64 b theta)} for b = 0 .. kBlock-1, so a block's base needs no sin/cos
    // either, except once per kBlock^2 positions.
    t->coarse_angle.resize(n);
    t->coarse_cos.resize(n);
    t->coarse_sin.resize(n);
    for (int b = 0; b < kBlock; ++b) {
        for (int k = 0; k < pairs_; ++k) {
            const double a = static_cast<double>(b * kBlock) * t->theta[k];
            t->coarse_angle[b * pairs_ + k] = a;
            t->coarse_cos[b * pairs_ + k] = std::cos(a);
            t->coarse_sin[b * pairs_ + k] = std::sin(a);
        }
    }
    tables_ = std::move(t);
    block_angle_.resize(pairs_);
    block_cos_.resize(pairs_);
    block_sin_.resize(pairs_);
    super_angle_.resize(pairs_);
    super_cos_.resize(pairs_);
    super_sin_.resize(pairs_);
    block_start_ = -1;
    super_start_ = -1;
}

void PhasorGenerator::load_block(std::int64_t block_start) {
    if (block_start == block_start_) return;
    block_start_ = block_start;
    const Tables& t = *tables_;
    constexpr std::int64_t kSuper = std::int64_t(kBlock) * kBlock;
    const std::int64_t super_start = block_start - block_start % kSuper;
    if (super_start != super_start_) {
        super_start_ = super_start;
        const double s0 = static_cast<double>(super_start);
        for (int k = 0; k < pairs_; ++k) {
            const double a = s0 * t.theta[k];
            super_angle_[k] = a;
            super_cos_[k] = std::cos(a);
            super_sin_[k] = std::sin(a);
        }
    }
    // Same scheme one level up: B = S + 64 b, S >= 64 b, so fl(B theta) - fl(S theta) is exact.
    const std::size_t row = static_cast<std::size_t>((block_start - super_start) / kBlock) * pairs_;
    const double b = static_cast<double>(block_start);
    for (int k = 0; k < pairs_; ++k) {
        const double a = b * t.theta[k];
        detail::corrected_product(a, super_angle_[k], super_cos_[k], super_sin_[k], t.coarse_angle[row + k],
                                  t.coarse_cos[row + k], t.coarse_sin[row + k], block_cos_[k], block_sin_[k]);
        block_angle_[k] = a;
    }
}

namespace detail {

// One row of phasors for position m (j = m mod kBlock), into two small buffers.
ROPE_HOT_KERNEL
void phasor_row(int pairs, double md, const double* __restrict theta, const double* __restrict ba,
                const double* __restrict bc, const double* __restrict bs, const double* __restrict sa,
                const double* __restrict sc, const double* __restrict ss, double* __restrict co,
                double* __restrict so, bool second_order) {
    if (second_order) {
        for (int k = 0; k < pairs; ++k) {
            // delta = fl(m theta) - (fl(B theta) + fl(j theta)); the first difference is exact.
            const double delta = (md * theta[k] - ba[k]) - sa[k];
            const double c = bc[k] * sc[k] - bs[k] * ss[k];
            const double s = bs[k] * sc[k] + bc[k] * ss[k];
            const double h = 1.0 - 0.5 * delta * delta;
            co[k] = c * h - s * delta;
            so[k] = s * h + c * delta;
        }
    } else {
        for (int k = 0; k < pairs; ++k) {
            const double delta = (md * theta[k] - ba[k]) - sa[k];
            const double c = bc[k] * sc[k] - bs[k] * ss[k];
            const double s = bs[k] * sc[k] + bc[k] * ss[k];
            co[k] = c - s * delta;
            so[k] = s + c * delta;
        }
    }
}

}  // namespace detail

void PhasorGenerator::fill(std::int64_t first, std::int64_t count, double* cos_out, double* sin_out,
                           std::ptrdiff_t row_stride) {
    const int pairs = pairs_;
    if (count <= 0 || pairs == 0) return;
    row_cos_.resize(pairs);
    row_sin_.resize(pairs);
    const bool stream = static_cast<std::size_t>(count) * pairs >= detail::kStreamThresholdDoubles;
    // delta is at most ~1.5 ulp of m*theta; below 2^20 rad its square is under 1e-19 and the
    // second-order term can go.
    const bool second_order = needs_second_order(first + count);
    for (std::int64_t r = 0; r < count; ++r) {
        const std::int64_t m = first + r;
        const std::int64_t j = m % kBlock;
        load_block(m - j);
        double* co = cos_out ? cos_out + r * row_stride : nullptr;
        double* so = sin_out ? sin_out + r * row_stride : nullptr;
        const bool direct = co && so && !stream;
        const Tables& t = *tables_;
        detail::phasor_row(pairs, static_cast<double>(m), t.theta.data(), block_angle_.data(), block_cos_.data(),
                           block_sin_.data(), t.step_angle.data() + j * pairs, t.step_cos.data() + j * pairs,
                           t.step_sin.data() + j * pairs, direct ? co : row_cos_.data(), direct ? so : row_sin_.data(),
                           second_order);
        if (!direct) {
            if (co) detail::copy_row(co, row_cos_.data(), pairs, stream);
            if (so) detail::copy_row(so, row_sin_.data(), pairs, stream);
        }
    }
    if (stream) detail::stream_fence();
}

PhasorGenerator::RowInputs PhasorGenerator::row_inputs(std::int64_t m) {
    const std::int64_t j = m % kBlock;
    load_block(m - j);
    const std::size_t at = static_cast<std::size_t>(j) * pairs_;
    const Tables& t = *tables_;
    return {t.theta.data(),          block_angle_.data(),       block_cos_.data(),        block_sin_.data(),
            t.step_angle.data() + at, t.step_cos.data() + at, t.step_sin.data() + at};
}

namespace {

// Cody-Waite reduction by 2 pi (see two_pi_split below): the high part has 33 significant bits, so
// n * high is exact for |n| < 2^20 and x - n * high is exact too; the low part carries the rest.
constexpr double kFastLimit = 6.5e6;  // |x| below this: |n| < 2^20

inline double wrap_fast(double x, double high, double low) {
    const double n = std::nearbyint(x * (1.0 / kTwoPi));
    double w = (x - n * high) - n * low;
    // fold the ends onto (-pi, pi]
    w = w <= -kPi ? w + kTwoPi : w;
    w = w > kPi ? w - kTwoPi : w;
    return w;
}

double wrap_exact(double radians) {
    // remainder() is exact but reduces by the double nearest 2 pi, which is 2.4e-16 short of the
    // true 2 pi; at m*theta ~ 1e5 that slip reaches 1e-11. Subtract the missing tail k * low part
    // so the result agrees with atan2(sin x, cos x) to the last digits.
    constexpr double kTwoPiTail = 2.4492935982947064e-16;  // 2 pi - double(2 pi)
    double w = std::remainder(radians, kTwoPi);
    const double turns = std::nearbyint((radians - w) / kTwoPi);
    w -= turns * kTwoPiTail;
    if (w <= -kPi) w += kTwoPi;
    if (w > kPi) w -= kTwoPi;
    return w;
}

}  // namespace

namespace detail {

ROPE_HOT_KERNEL
void wrap_block(const double* __restrict in, double* __restrict out, std::size_t count, double high, double low) {
    for (std::size_t i = 0; i < count; ++i) out[i] = wrap_fast(in[i], high, low);
}

}  // namespace detail

namespace {
// 2 pi split: the high part rounded to 33 bits, the low part the double nearest the rest.
struct TwoPiSplit {
    double high, low;
};
TwoPiSplit two_pi_split() {
    const double high = std::ldexp(std::nearbyint(std::ldexp(kTwoPi, 30)), -30);  // 33 significant bits
    // 2 pi = 6.283185307179586476925286766559...; kTwoPi carries it to 53 bits and the tail below
    const double low = (kTwoPi - high) + 2.4492935982947064e-16;
    return {high, low};
}
const TwoPiSplit kSplit = two_pi_split();
}  // namespace

double wrap_angle(double radians) {
    if (std::abs(radians) < kFastLimit) return wrap_fast(radians, kSplit.high, kSplit.low);
    return wrap_exact(radians);
}

void wrap_angles(const double* in, double* out, std::size_t count) {
    std::size_t start = 0;
    while (start < count) {
        // runs inside the fast range go through the vector kernel; the rest one by one
        std::size_t end = start;
        while (end < count && std::abs(in[end]) < kFastLimit) ++end;
        if (end > start) detail::wrap_block(in + start, out + start, end - start, kSplit.high, kSplit.low);
        if (end < count) out[end] = wrap_exact(in[end]);
        start = end + 1;
    }
}

}  // namespace rope
