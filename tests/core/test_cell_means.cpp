// The heatmaps' cell means: the Dirichlet closed form against brute-force sums, at the awkward
// frequencies (0, near 2 pi, a whole turn per cell), and the grid's cuts.
#include <gtest/gtest.h>

#include <cmath>

#include "rope/cell_means.hpp"
#include "rope/frequencies.hpp"

using namespace rope;

namespace {

PhasorMean brute(std::int64_t from, std::int64_t to, double theta) {
    long double c = 0, s = 0;
    for (std::int64_t m = from; m < to; ++m) {
        c += std::cos(static_cast<long double>(m) * theta);
        s += std::sin(static_cast<long double>(m) * theta);
    }
    const long double n = static_cast<long double>(to - from);
    return {static_cast<double>(c / n), static_cast<double>(s / n)};
}

void expect_near(PhasorMean a, PhasorMean b, double tol) {
    EXPECT_NEAR(a.cos, b.cos, tol);
    EXPECT_NEAR(a.sin, b.sin, tol);
}

}  // namespace

TEST(CellMeans, ClosedFormMatchesBruteForce) {
    for (double theta : {1.0, 0.3, 1e-3, 1e-7, 2.5, -0.7, kPi, 3.0})
        for (auto [a, b] : {std::pair<std::int64_t, std::int64_t>{0, 1}, {0, 7}, {5, 6}, {0, 4096}, {123, 200}, {1000000, 1000013}})
            expect_near(mean_phasor(a, b, theta), brute(a, b, theta), 1e-9);
}

TEST(CellMeans, OnePositionIsThePhasorItself) {
    const PhasorMean m = mean_phasor(77, 78, 0.25);
    EXPECT_NEAR(m.cos, std::cos(77 * 0.25), 1e-15);
    EXPECT_NEAR(m.sin, std::sin(77 * 0.25), 1e-15);
    EXPECT_NEAR(m.magnitude(), 1.0, 1e-15);
}

TEST(CellMeans, NoTurnAndWholeTurns) {
    // theta = 0: every phasor is 1
    expect_near(mean_phasor(0, 1000, 0.0), {1, 0}, 0);
    // theta a multiple of 2 pi (sin(theta/2) = 0 in exact terms): again every phasor is ~1
    expect_near(mean_phasor(0, 1000, kTwoPi), brute(0, 1000, kTwoPi), 1e-9);
    expect_near(mean_phasor(3, 50, 2 * kTwoPi + 1e-9), brute(3, 50, 2 * kTwoPi + 1e-9), 1e-9);
    // exactly whole turns within the cell: the mean vanishes
    EXPECT_NEAR(mean_phasor(0, 64, kTwoPi / 8).magnitude(), 0.0, 1e-15);
    // tiny theta n: the magnitude stays 1 to rounding, no 0/0
    EXPECT_NEAR(mean_phasor(0, 1 << 20, 1e-15).magnitude(), 1.0, 1e-12);
    EXPECT_NEAR(dirichlet_ratio(1000, 1e-300), 1.0, 1e-15);
}

TEST(CellMeans, FastPairFadesSlowPairKeepsItsColour) {
    // d = 16, 4096 positions in 636 columns: pair 0 (1 rad/token) turns ~1 time per cell and fades;
    // the slowest pair turns 0.0007 turns per cell and keeps its full colour
    const Eigen::VectorXd theta = base_frequencies(10000, 16);
    const CellGrid g = cell_means(theta, 0, 4096, 636, 8);
    double fastest = 0, slowest = 1;
    for (int c = 0; c < g.cols; ++c) {
        fastest = std::max(fastest, g.at(c, 0).magnitude());
        slowest = std::min(slowest, g.at(c, 7).magnitude());
    }
    EXPECT_LT(fastest, 0.2);
    EXPECT_GT(slowest, 0.999);
}

TEST(CellMeans, GridCutsEveryPositionOnceAndStartsAtTheRangeStart) {
    const CellGrid g = cell_means(base_frequencies(10000, 64), 10, 4106, 636, 12);
    ASSERT_EQ(g.cols, 636);
    ASSERT_EQ(g.rows, 12);
    EXPECT_EQ(g.position_edges.front(), 10);
    EXPECT_EQ(g.position_edges.back(), 4106);
    EXPECT_EQ(g.pair_edges.front(), 0);
    EXPECT_EQ(g.pair_edges.back(), 32);
    for (int c = 0; c < g.cols; ++c) EXPECT_GE(g.position_edges[c + 1] - g.position_edges[c], 6);
    // fewer positions than columns: one column per position
    const CellGrid small = cell_means(base_frequencies(10000, 8), 0, 5, 636, 100);
    EXPECT_EQ(small.cols, 5);
    EXPECT_EQ(small.rows, 4);
}

TEST(CellMeans, ManyPairCellsAverageThePairs) {
    const Eigen::VectorXd theta = base_frequencies(10000, 64);
    const CellGrid g = cell_means(theta, 0, 4096, 100, 5);
    for (int r = 0; r < g.rows; ++r)
        for (int c : {0, 37, 99}) {
            const PhasorMean want = mean_phasor(g.position_edges[c], g.position_edges[c + 1], theta, g.pair_edges[r], g.pair_edges[r + 1]);
            expect_near(g.at(c, r), want, 1e-12);
        }
}

TEST(CellMeans, AnglesPathAgreesWithTheFullMeans) {
    const Eigen::VectorXd theta = base_frequencies(10000, 32);
    const std::int64_t from = 1000000, to = 1048576;
    const CellGrid g = cell_means(theta, from, to, 300, 16);
    std::vector<double> angle, magnitude;
    cell_angles(theta, g.position_edges, angle, magnitude);
    for (int k = 0; k < 16; ++k)
        for (int c = 0; c < g.cols; ++c) {
            const PhasorMean m = g.at(c, k);
            const std::size_t i = static_cast<std::size_t>(k) * g.cols + c;
            EXPECT_NEAR(magnitude[i], m.magnitude(), 1e-12);
            if (m.magnitude() > 1e-6) {
                EXPECT_NEAR(std::cos(angle[i]), m.cos / m.magnitude(), 1e-9);
                EXPECT_NEAR(std::sin(angle[i]), m.sin / m.magnitude(), 1e-9);
            }
        }
}

TEST(CellMeans, RejectsEmptyRanges) {
    EXPECT_THROW(mean_phasor(5, 5, 1.0), std::invalid_argument);
    EXPECT_THROW(cell_means(base_frequencies(10000, 8), 3, 3, 10, 4), std::invalid_argument);
}
