// The fast cosine sums (a matrix product without the exact-angle correction) against the exact
// phasor scheme: within their stated error bound, and every sign decision the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "rope/bounds.hpp"
#include "rope/cosine_sums.hpp"
#include "rope/frequencies.hpp"

namespace rope {
namespace {

std::vector<double> exact_sums(const Eigen::VectorXd& theta, std::int64_t first, std::int64_t count) {
    std::vector<double> out(static_cast<std::size_t>(count));
    cosine_sum(theta, first, count, out.data());
    return out;
}

struct Case {
    int dims;
    double base;
    std::int64_t first, count;
};

TEST(FastCosineSum, WithinItsBoundOfTheExactSchemeAtAnyStart) {
    for (const Case c : {Case{128, 10000, 0, 70000}, Case{256, 500000, 12345, 40001}, Case{1024, 1e6, 1048576 - 3000, 3000},
                         Case{6, 10, 63, 129}, Case{2, 10000, 1000000007, 100}, Case{130, 42.5, 5, 1},
                         // across the 2^18 where the blocks' phasors are taken from sin and cos again
                         Case{1024, 10000, 262144 - 5000, 9000}, Case{512, 1e9, 3 * 262144 - 64 * 63, 64 * 70}}) {
        const Eigen::VectorXd theta = base_frequencies(c.base, c.dims);
        FastCosineSum fast(theta);
        std::vector<double> mine(static_cast<std::size_t>(c.count));
        fast.compute(c.first, c.count, mine.data());
        const std::vector<double> want = exact_sums(theta, c.first, c.count);
        const double bound = fast.error_bound(c.first + c.count);
        double worst = 0;
        for (std::size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::abs(mine[i] - want[i]));
        EXPECT_LE(worst, bound) << "d=" << c.dims << " base=" << c.base << " first=" << c.first;
        EXPECT_LT(bound, 1e-6) << "a bound this loose would send most positions to the exact check";
    }
}

TEST(FastCosineSum, APositionsValueIsTheSameInAnyRun) {
    // The envelope's parts and the bound searches start where they like: a value must not depend
    // on where its run began or what the same object computed before.
    const Eigen::VectorXd theta = base_frequencies(10000, 1024);
    constexpr std::int64_t kCount = 600000;
    std::vector<double> whole(kCount);
    FastCosineSum(theta).compute(0, kCount, whole.data());
    FastCosineSum reused(theta);
    for (const std::int64_t first : {std::int64_t(262144 - 13), std::int64_t(4096 * 70 + 5), std::int64_t(1), std::int64_t(524288)}) {
        std::vector<double> part(50000);
        reused.compute(first, 50000, part.data());
        for (std::size_t i = 0; i < part.size(); ++i)
            ASSERT_EQ(part[i], whole[static_cast<std::size_t>(first) + i]) << "position " << first + static_cast<std::int64_t>(i);
    }
}

TEST(FastCosineSum, SlowPairsTakeShortSeriesAndTheBoundStaysTight) {
    const FastCosineSum fast(base_frequencies(10000, 1024));
    int pairs = 0, table = 0;
    for (const auto& [columns, count] : fast.columns()) {
        pairs += count;
        if (columns == FastCosineSum::kBlock) table += count;
        else EXPECT_LE(columns, FastCosineSum::kMaxTerms);
    }
    EXPECT_EQ(pairs, 512);
    EXPECT_LT(table, 128) << "pairs slower than one turn in 200 positions belong in a short series";
    // the series and the stepping add little to what the fast sums always allowed
    EXPECT_LT(fast.error_bound(1 << 20), 3e-8);
    EXPECT_LT(fast.error_bound(4096), 1e-9);
}

TEST(CosineEnvelope, EachBinHoldsItsExactExtremesAndWhereTheyAre) {
    const Eigen::VectorXd theta = base_frequencies(500, 64);
    const std::vector<std::int64_t> edges{0, 1, 1, 7, 64, 65, 1000, 4096, 4097, 20000};  // an empty bin too
    const CosineEnvelope env = cosine_sum_envelope(theta, edges);
    const std::vector<double> want = exact_sums(theta, 0, edges.back());
    const double bound = FastCosineSum(theta).error_bound(edges.back());
    ASSERT_EQ(env.low.size(), edges.size() - 1);
    for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
        if (edges[b] == edges[b + 1]) {
            EXPECT_EQ(env.low_at[b], -1);
            EXPECT_TRUE(std::isnan(env.low[b]));
            continue;
        }
        const auto lo = want.begin() + edges[b], hi = want.begin() + edges[b + 1];
        EXPECT_NEAR(env.low[b], *std::min_element(lo, hi), bound) << "bin " << b;
        EXPECT_NEAR(env.high[b], *std::max_element(lo, hi), bound) << "bin " << b;
        ASSERT_GE(env.low_at[b], edges[b]);
        ASSERT_LT(env.high_at[b], edges[b + 1]);
        EXPECT_NEAR(want[static_cast<std::size_t>(env.low_at[b])], env.low[b], bound);
        EXPECT_NEAR(want[static_cast<std::size_t>(env.high_at[b])], env.high[b], bound);
    }
}

TEST(CosineEnvelope, FirstNegativeIsTheExactSchemesFirstNegative) {
    // bases around the Men et al. bound, where sums graze zero
    for (const double base : {300.0, 2000.0, 26951.0, 26952.0, 30000.0, 1e6}) {
        const Eigen::VectorXd theta = base_frequencies(base, 128);
        const std::vector<double> want = exact_sums(theta, 0, 8193);
        const auto neg = std::find_if(want.begin(), want.end(), [](double v) { return v < 0; });
        const std::int64_t expected = neg == want.end() ? -1 : neg - want.begin();
        EXPECT_EQ(cosine_sum_envelope(theta, {0, 8193}).first_negative, expected) << "base " << base;
        EXPECT_EQ(first_negative_position(theta, 8192), expected) << "base " << base;
    }
}

TEST(CosineEnvelopeParts, MergedPartsAreExactlyTheSinglePass) {
    // several threads' parts, bins across their boundaries, an empty bin, first negatives in
    // several parts: every value, position and first negative the same, bit for bit
    struct PartsCase {
        int dims;
        double base;
        std::vector<std::int64_t> edges;
    };
    for (const PartsCase& c : {PartsCase{128, 300, {0, 5, 16384, 16390, 40000, 40000, 100000, 200001}},
                               PartsCase{1024, 1e6, {0, 1000, 70000, 131072, 300001}},
                               PartsCase{64, 10000, {3, 17, 50000, 65537}}, PartsCase{2, 10, {0, 1, 2}}}) {
        const Eigen::VectorXd theta = base_frequencies(c.base, c.dims);
        const CosineEnvelope whole = cosine_sum_envelope(theta, c.edges);
        for (const int n : {2, 3, 8}) {
            CosineEnvelopeParts parts(theta, c.edges, n);
            for (int i = parts.size() - 1; i >= 0; --i) ASSERT_TRUE(parts.compute(i));  // in any order
            const CosineEnvelope merged = parts.merged();
            ASSERT_EQ(merged.low.size(), whole.low.size());
            for (std::size_t b = 0; b < whole.low.size(); ++b) {
                EXPECT_EQ(std::isnan(merged.low[b]), std::isnan(whole.low[b]));
                if (!std::isnan(whole.low[b])) {
                    EXPECT_EQ(merged.low[b], whole.low[b]) << "bin " << b << " parts " << n;
                    EXPECT_EQ(merged.high[b], whole.high[b]) << "bin " << b << " parts " << n;
                }
                EXPECT_EQ(merged.low_at[b], whole.low_at[b]) << "bin " << b << " parts " << n;
                EXPECT_EQ(merged.high_at[b], whole.high_at[b]) << "bin " << b << " parts " << n;
            }
            EXPECT_EQ(merged.first_negative, whole.first_negative) << "d=" << c.dims << " base=" << c.base << " parts " << n;
        }
    }
}

TEST(CosineEnvelopeParts, ACancelledPartIsLeftNotDone) {
    const Eigen::VectorXd theta = base_frequencies(10000, 256);
    CosineEnvelopeParts parts(theta, {0, 500000}, 4);
    std::atomic<bool> cancel{true};
    EXPECT_FALSE(parts.compute(1, &cancel));
    EXPECT_FALSE(parts.done(1));
    EXPECT_TRUE(parts.compute(1));
    EXPECT_TRUE(parts.done(1));
}

}  // namespace
}  // namespace rope
