// The published results: Liu et al.'s critical dimension and Men et al.'s lower bound of the base.
#include <gtest/gtest.h>

#include <cmath>

#include "rope/bounds.hpp"
#include "rope/frequencies.hpp"

using namespace rope;

TEST(Bounds, CriticalDimensionOfLlama2) {
    // d = 128, base 10000, trained on 4096 tokens: 92 dims see a full period (Liu et al. 2023)
    EXPECT_EQ(critical_dimension(128, 10000.0, 4096.0), 92);
    EXPECT_NEAR(extrapolation_bound(128, 10000.0, 4096.0), kTwoPi * std::pow(10000.0, 92.0 / 128.0), 1e-6);
    // a context shorter than 2 pi fits no dims; a huge one fits all
    EXPECT_EQ(critical_dimension(128, 10000.0, 4.0), 0);
    EXPECT_EQ(critical_dimension(128, 10000.0, 1e12), 128);
}

TEST(Bounds, FirstNegativePositionIsReallyNegative) {
    const Eigen::VectorXd theta = base_frequencies(1000.0, 128);
    const std::int64_t m = first_negative_position(theta, 100000);
    ASSERT_GT(m, 0);
    double sum = 0, before = 0;
    for (int i = 0; i < 64; ++i) sum += std::cos(static_cast<double>(m) * theta[i]);
    EXPECT_LT(sum, 0);
    for (std::int64_t r = 0; r < m; ++r) {
        before = 0;
        for (int i = 0; i < 64; ++i) before += std::cos(static_cast<double>(r) * theta[i]);
        ASSERT_GE(before, 0) << r;
    }
}

TEST(Bounds, BaseLowerBoundReproducesMenEtAlTable2) {
    // Table 2 of "Base of RoPE Bounds Context Length" (d = 128 reproduces it within 0.15 decades)
    const std::pair<std::int64_t, double> table[] = {{1024, 4.3e3}, {2048, 1.6e4}, {4096, 2.7e4},
                                                     {8192, 8.4e4}, {16384, 3.1e5}, {32768, 6.4e5}};
    for (const auto& [context, published] : table) {
        const double b = base_lower_bound(128, context);
        EXPECT_LT(std::abs(std::log10(b) - std::log10(published)), 0.15) << context << ": " << b;
        // it is feasible, and a base a little below it is not
        EXPECT_EQ(first_negative_position(base_frequencies(b, 128), context), -1);
        EXPECT_GE(first_negative_position(base_frequencies(b * 0.999, 128), context), 0);
    }
}
