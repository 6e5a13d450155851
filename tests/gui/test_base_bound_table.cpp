// assets/base_bounds.csv, which the base sweep panel reads instead of searching while the dim slider
// moves: complete, feasible to the last bit, and what the search finds today.
#include <gtest/gtest.h>

#include <cmath>

#include "figures/figure_cache.hpp"
#include "rope/bounds.hpp"
#include "rope/frequencies.hpp"

namespace rope::figures {
namespace {

constexpr std::int64_t kTop = std::int64_t(1) << 20;

TEST(BaseBoundTable, CoversEveryEvenDimsTo1024AsFarAsTheSearchIsTractable) {
    for (int d = 2; d <= 1024; d += 2) {
        std::int64_t top = 64;
        while (top * 2 <= kTop && base_lower_bound_tractable(d, top * 2)) top *= 2;
        const auto curve = known_base_bound_curve(d, top);
        ASSERT_NE(curve, nullptr) << "d=" << d;
        ASSERT_EQ(curve->context.front(), 64) << "d=" << d;
        ASSERT_EQ(curve->context.back(), static_cast<double>(top)) << "d=" << d;
        for (std::size_t i = 1; i < curve->context.size(); ++i) {
            EXPECT_EQ(curve->context[i], 2 * curve->context[i - 1]) << "d=" << d;
            EXPECT_GE(curve->base[i], curve->base[i - 1]) << "d=" << d << ": a longer context never needs a smaller base";
        }
    }
    EXPECT_EQ(known_base_bound_curve(1026, 1024), nullptr) << "beyond the table: searched in the background";
}

TEST(BaseBoundTable, EachBaseKeepsTheSumNonNegativeAndIsWhatTheSearchFinds) {
    for (const int d : {2, 4, 16, 64, 128, 130, 256, 1024}) {
        const auto curve = known_base_bound_curve(d, 16384);
        ASSERT_NE(curve, nullptr);
        for (std::size_t i = 0; i < curve->context.size(); ++i) {
            const auto L = static_cast<std::int64_t>(curve->context[i]);
            const double base = curve->base[i];
            if (std::isinf(base)) {
                EXPECT_TRUE(std::isinf(base_lower_bound(d, L))) << "d=" << d << " L=" << L;
                continue;
            }
            EXPECT_LT(first_negative_position(base_frequencies(base, d), L), 0) << "d=" << d << " L=" << L << " base=" << base;
            EXPECT_NEAR(base_lower_bound(d, L) / base, 1.0, 1e-6) << "d=" << d << " L=" << L;
        }
    }
}

}  // namespace
}  // namespace rope::figures
