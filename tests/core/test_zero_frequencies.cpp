// Zero frequencies (proportional RoPE's tail, NoPE layers) through every part of the core that sums
// over pairs, divides by theta or takes a wavelength: a zero pair adds cos 0 = 1 to sums (correct),
// wavelength-based numbers use the pairs that turn, and nothing gives NaN or crashes.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "rope/bounds.hpp"
#include "rope/cell_means.hpp"
#include "rope/cosine_sums.hpp"
#include "rope/decay.hpp"
#include "rope/encodings.hpp"
#include "rope/frequencies.hpp"
#include "rope/precision.hpp"
#include "rope/rotation.hpp"
#include "support/random_vector.hpp"

using namespace rope;

namespace {

RopeConfig proportional(int dim, double fraction, double base) {
    RopeConfig c;
    c.dim = dim;
    c.base = base;
    c.rotary_fraction = fraction;
    c.scaling = Scaling::proportional;
    c.pairing = Pairing::half;
    return c;
}

RopeConfig nope_layer() {
    RopeConfig c;
    c.dim = 64;
    c.nope = true;
    return c;
}

double brute_decay(const Eigen::VectorXd& theta, double r) {
    std::complex<double> s = 0;
    double total = 0;
    for (Eigen::Index j = 0; j < theta.size(); ++j) {
        s += std::polar(1.0, r * theta[j]);
        total += std::abs(s);
    }
    return total / static_cast<double>(theta.size());
}

double brute_cosine_sum(const Eigen::VectorXd& theta, double m) { return (m * theta.array()).cos().sum(); }

}  // namespace

TEST(ZeroFrequencies, SumsCountAZeroPairAsOne) {
    for (const RopeConfig& c : {proportional(64, 0.25, 1e4), proportional(512, 0.25, 1e6), nope_layer()}) {
        const FrequencyTable f = compute_frequencies(c);
        const Eigen::VectorXd bound = decay_bound(f.theta, 3000);
        for (std::int64_t r : {0, 1, 17, 999, 3000}) {
            EXPECT_TRUE(std::isfinite(bound[r]));
            EXPECT_NEAR(bound[r], brute_decay(f.theta, static_cast<double>(r)), 1e-9 * f.pairs()) << r;
        }
        std::vector<double> sums(500);
        cosine_sum(f.theta, 0, 500, sums.data());
        FastCosineSum fast(f.theta);
        std::vector<double> fast_sums(500);
        fast.compute(0, 500, fast_sums.data());
        for (int m = 0; m < 500; ++m) {
            EXPECT_NEAR(sums[static_cast<std::size_t>(m)], brute_cosine_sum(f.theta, m), 1e-10) << m;
            EXPECT_NEAR(fast_sums[static_cast<std::size_t>(m)], sums[static_cast<std::size_t>(m)], fast.error_bound(500)) << m;
        }
        EXPECT_TRUE(std::isfinite(fast.error_bound(1 << 20)));
        EXPECT_NEAR(mean_cos(f.theta, 100.0), brute_cosine_sum(f.theta, 100.0) / f.pairs(), 1e-12);
        const CosineEnvelope env = cosine_sum_envelope(f.theta, {0, 1000, 100000});
        for (double v : env.low) EXPECT_TRUE(std::isfinite(v));
        // Gemma 4's 192 zero pairs outweigh its 64 turning ones: B(m) >= 192 - 64 never goes negative
        if (c.rotating_pairs() * 2 <= c.dim / 2) {
            EXPECT_EQ(env.first_negative, -1);
        }
        EXPECT_EQ(first_negative_position(f.theta, 100000), env.first_negative);
    }
    // NoPE: every pair is zero, so B(m) = d/2 and the decay bound is (1/(d/2)) sum j = (d/2 + 1)/2
    const FrequencyTable nope = compute_frequencies(nope_layer());
    EXPECT_DOUBLE_EQ(decay_bound(nope.theta, 10)[10], (32 + 1) / 2.0);
}

TEST(ZeroFrequencies, CellMeansOfAPairThatDoesNotTurn) {
    EXPECT_EQ(dirichlet_ratio(1000, 0.0), 1.0);
    const PhasorMean still = mean_phasor(5, 5000, 0.0);
    EXPECT_EQ(still.cos, 1.0);
    EXPECT_EQ(still.sin, 0.0);
    const FrequencyTable f = compute_frequencies(proportional(64, 0.25, 1e4));
    const CellGrid grid = cell_means(f.theta, 0, 4096, 64, f.pairs());
    for (int row = 0; row < grid.rows; ++row) {
        for (int col = 0; col < grid.cols; ++col) {
            const PhasorMean m = grid.at(col, row);
            ASSERT_TRUE(std::isfinite(m.cos) && std::isfinite(m.sin)) << row << " " << col;
            if (grid.pair_edges[static_cast<std::size_t>(row)] >= f.rotating_pairs) {
                EXPECT_EQ(m.magnitude(), 1.0);
            }
        }
    }
    std::vector<double> angle, magnitude;
    cell_angles(f.theta, cell_edges(0, 4096, 64), angle, magnitude);
    for (int k = f.rotating_pairs; k < f.pairs(); ++k) {
        for (int c = 0; c < 64; ++c) {
            EXPECT_EQ(angle[static_cast<std::size_t>(k * 64 + c)], 0.0);
            EXPECT_EQ(magnitude[static_cast<std::size_t>(k * 64 + c)], 1.0);
        }
    }
}

TEST(ZeroFrequencies, ScoresAndPrecisionWithZeroPairs) {
    const RopeConfig c = proportional(64, 0.25, 1e4);
    const FrequencyTable f = compute_frequencies(c);
    const Eigen::VectorXd q = rope::test::random_normal_vector(64, 1), k = rope::test::random_normal_vector(64, 2);
    // the zero pairs' dims pass through: rotate leaves them alone
    const Eigen::VectorXd y = rotate(f, c.pairing, q, 1234.0);
    for (int i = f.rotating_pairs; i < f.pairs(); ++i) {
        const PairDims p = pair_dims(c.pairing, f.rotated_dims, i);
        EXPECT_EQ(y[p.first], q[p.first]);
        EXPECT_EQ(y[p.second], q[p.second]);
    }
    const std::vector<double> shifted = shifted_scores(f, c.pairing, c.pairing, q, k, 7, 0, 200);
    EXPECT_LE(largest_drift(shifted), 1e-10);
    for (double s : rope_score_curve(f, c.pairing, q, 3.0, k, 0, 100)) EXPECT_TRUE(std::isfinite(s));
    const Eigen::VectorXd low = rotate_with_angle_precision(f, c.pairing, q, 5000.0, NumberFormat::bfloat16, NumberFormat::float32);
    for (int i = f.rotating_pairs; i < f.pairs(); ++i) {
        const PairDims p = pair_dims(c.pairing, f.rotated_dims, i);
        EXPECT_EQ(low[p.first], q[p.first]);
    }
    // NoPE: the score does not depend on positions at all
    const FrequencyTable nope = compute_frequencies(nope_layer());
    const Eigen::VectorXd q2 = rope::test::random_normal_vector(64, 3), k2 = rope::test::random_normal_vector(64, 4);
    EXPECT_NEAR(attention_score(nope, Pairing::interleaved, q2, 0.0, k2, 9000.0), q2.dot(k2), 1e-12);
}

TEST(ZeroFrequencies, WavelengthsUseTheTurningPairs) {
    const FrequencyTable f = compute_frequencies(proportional(512, 0.25, 1e6));
    EXPECT_TRUE(std::isinf(f.wavelength(64)));
    EXPECT_NEAR(longest_rotating_wavelength(f), kTwoPi * std::pow(1e6, 126.0 / 512.0), 1e-9);
    EXPECT_TRUE(std::isnan(longest_rotating_wavelength(compute_frequencies(nope_layer()))));
    RopeConfig plain;
    EXPECT_DOUBLE_EQ(longest_rotating_wavelength(compute_frequencies(plain)), longest_wavelength(plain.base, 128));
}

TEST(ZeroFrequencies, CriticalDimensionCountsTurningDims) {
    // Gemma 4 global (d 512, base 1e6) at 131072 tokens: (d/2) log_base(L / 2 pi) = 184.3 pairs would
    // fit, but only 64 turn: every turning dim (128) completes a period in training.
    const RopeConfig g = proportional(512, 0.25, 1e6);
    EXPECT_EQ(critical_dimension(g, 131072.0), 128);
    EXPECT_TRUE(std::isinf(extrapolation_bound(g, 131072.0)));
    // with a short training length the paper's formula over the whole head's exponent applies:
    // (512/2) ln(64 / 2 pi) / ln(1e6) = 43.0 -> 88 dims
    EXPECT_EQ(critical_dimension(g, 64.0), 88);
    EXPECT_EQ(critical_dimension(g, 64.0), critical_dimension(512, 1e6, 64.0));
    EXPECT_NEAR(extrapolation_bound(g, 64.0), kTwoPi * std::pow(1e6, 88.0 / 512.0), 1e-9);
    // ordinary RoPE: unchanged
    RopeConfig plain;
    EXPECT_EQ(critical_dimension(plain, 4096.0), critical_dimension(128, 1e4, 4096.0));
    EXPECT_EQ(extrapolation_bound(plain, 4096.0), extrapolation_bound(128, 1e4, 4096.0));
    // NoPE: no dim turns
    EXPECT_EQ(critical_dimension(nope_layer(), 4096.0), 0);
    EXPECT_TRUE(std::isnan(extrapolation_bound(nope_layer(), 4096.0)));
}

TEST(ZeroFrequencies, BaseLowerBoundWithZeroPairs) {
    // 192 zero pairs against 64 turning ones: B(m) >= 128 for any base, so every base above 1 works
    EXPECT_EQ(zero_pair_base_lower_bound(proportional(512, 0.25, 1e6)), 1.0);
    EXPECT_EQ(zero_pair_base_lower_bound(nope_layer()), 1.0);
    // more turning pairs than zero ones: the search (over base^(-2i/d) for every pair) does not apply
    EXPECT_TRUE(std::isnan(zero_pair_base_lower_bound(proportional(64, 0.75, 1e4))));
    // no zero pairs: not this function's case either
    EXPECT_TRUE(std::isnan(zero_pair_base_lower_bound(RopeConfig{})));
}
