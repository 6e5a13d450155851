// The published results: Liu et al.'s critical dimension and Men et al.'s lower bound of the base.
#include <gtest/gtest.h>

#include <atomic>
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

// The feasible bases are not an interval: narrow islands of them lie below the first feasible base of
// any grid. These answers were checked against brute force in numpy (every m, bases 1e-5 decades apart,
// then bisection): a 1/200-decade grid answers 28629, 104834, 44425 and 8.90e6 instead.
TEST(Bounds, BaseLowerBoundFindsTheIslandsBelowAnyGrid) {
    const struct { int d; std::int64_t context; double bound; } cases[] = {
        {128, 4096, 26952.339}, {64, 4096, 100070.29}, {256, 8192, 41307.383}, {128, 131072, 4869104.37}};
    for (const auto& c : cases) {
        const double b = base_lower_bound(c.d, c.context);
        EXPECT_NEAR(b / c.bound, 1.0, 1e-6) << "d = " << c.d << ", L = " << c.context << ": " << b;
        EXPECT_EQ(first_negative_position(base_frequencies(b, c.d), c.context), -1);
        EXPECT_GE(first_negative_position(base_frequencies(b * (1 - 1e-7), c.d), c.context), 0);
    }
}

TEST(Bounds, BaseLowerBoundAtTheEdges) {
    // below base 2: d = 128, L = 2 needs theta_63 small enough that B(2) >= 0
    const double b = base_lower_bound(128, 2);
    EXPECT_GT(b, 1.6);
    EXPECT_LT(b, 1.7);
    EXPECT_EQ(first_negative_position(base_frequencies(b, 128), 2), -1);
    EXPECT_GE(first_negative_position(base_frequencies(b * 0.999, 128), 2), 0);
    EXPECT_EQ(base_lower_bound(128, 1), 1.0);  // every base above 1
    EXPECT_TRUE(std::isinf(base_lower_bound(2, 4096)));  // one pair: theta_0 = 1, cos 2 < 0
    // a curve cancelled before it starts holds nothing
    const std::atomic<bool> cancel{true};
    EXPECT_TRUE(base_lower_bound_curve(128, {1024, 2048}, &cancel).empty());
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
