#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "rope/decay.hpp"
#include "rope/frequencies.hpp"
#include "rope/phasor.hpp"

using namespace rope;

namespace {

double direct_bound(const Eigen::VectorXd& theta, double r) {
    std::complex<double> s = 0;
    double acc = 0;
    for (int k = 0; k < theta.size(); ++k) {
        s += std::polar(1.0, r * theta[k]);
        acc += std::abs(s);
    }
    return acc / static_cast<double>(theta.size());
}

}  // namespace

TEST(Decay, BoundAtZeroIsHalfOfPairsPlusOne) {
    for (int d : {2, 4, 64, 128, 256, 4096}) {
        const Eigen::VectorXd theta = base_frequencies(10000.0, d);
        EXPECT_DOUBLE_EQ(decay_bound(theta, 0)[0], (d / 2 + 1) / 2.0) << d;
    }
    EXPECT_EQ(decay_bound(base_frequencies(10000.0, 128), 0)[0], 32.5);
}

TEST(Decay, MatchesTheDirectSumEverywhere) {
    const Eigen::VectorXd theta = base_frequencies(10000.0, 128);
    DecayBound bound(theta);
    for (std::int64_t first : {0LL, 1LL, 63LL, 64LL, 1000LL, 131000LL, 1048000LL}) {
        double out[200];
        bound.compute(first, 200, out);
        for (int i = 0; i < 200; ++i)
            EXPECT_NEAR(out[i], direct_bound(theta, static_cast<double>(first + i)), 2e-12) << first + i;
    }
}

TEST(Decay, FallsSteeplyThenOscillates) {
    const Eigen::VectorXd b = decay_bound(base_frequencies(10000.0, 128), 4096);
    for (int r = 1; r <= 5; ++r) EXPECT_LT(b[r], b[r - 1]);
    EXPECT_LT(b[100], 0.5 * b[0]);
    // far out it is not monotone
    int rises = 0;
    for (int r = 1001; r <= 4096; ++r) rises += b[r] > b[r - 1];
    EXPECT_GT(rises, 100);
}

TEST(Phasor, EqualsCosSinOfTheDoubleAngleAtFarPositions) {
    const Eigen::VectorXd theta = base_frequencies(10000.0, 128);
    PhasorGenerator gen(theta);
    std::vector<double> c(100 * 64), s(100 * 64);
    for (std::int64_t first : {0LL, 5LL, 131000LL, 1000000LL, 123456789012LL}) {
        gen.fill(first, 100, c.data(), s.data(), 64);
        double worst = 0;
        for (int r = 0; r < 100; ++r) {
            for (int k = 0; k < 64; ++k) {
                const double a = static_cast<double>(first + r) * theta[k];
                worst = std::max(worst, std::abs(c[r * 64 + k] - std::cos(a)));
                worst = std::max(worst, std::abs(s[r * 64 + k] - std::sin(a)));
            }
        }
        // Exact to the rounding of the products; larger positions have a larger delta whose
        // third-order term stays below 1e-11.
        EXPECT_LT(worst, first < 2000000 ? 1e-14 : 1e-11) << first;
    }
}

TEST(Phasor, WrapAngleRange) {
    EXPECT_DOUBLE_EQ(wrap_angle(kPi), kPi);
    EXPECT_DOUBLE_EQ(wrap_angle(-kPi), kPi);
    EXPECT_NEAR(wrap_angle(3 * kPi / 2), -kPi / 2, 1e-15);
    EXPECT_NEAR(wrap_angle(1e6), std::atan2(std::sin(1e6), std::cos(1e6)), 1e-9);
    for (double a = -50; a < 50; a += 0.37) {
        const double w = wrap_angle(a);
        EXPECT_GT(w, -kPi);
        EXPECT_LE(w, kPi);
    }
}

TEST(Decay, MeanCosIsADifferentMetric) {
    const Eigen::VectorXd theta = base_frequencies(10000.0, 128);
    EXPECT_DOUBLE_EQ(mean_cos(theta, 0), 1.0);
    bool negative = false;
    for (int r = 1; r < 2000 && !negative; ++r) negative = mean_cos(theta, r) < 0;
    EXPECT_TRUE(negative);  // the bound never is
}
