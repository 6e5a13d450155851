// Proportional vs ordinary partial rotary, per dim, and the porting bug that mixes them.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "rope/frequencies.hpp"
#include "rope/partial_layouts.hpp"
#include "rope/rotation.hpp"
#include "support/random_vector.hpp"

using namespace rope;

namespace {

// Largest difference between scores at the same n - m, for several starting positions m.
double relative_drift(const LayoutTable& angles, const LayoutTable& partners, const Eigen::VectorXd& q,
                      const Eigen::VectorXd& k) {
    double drift = 0.0;
    for (double distance : {0.0, 5.0, 40.0}) {
        const double at_zero = score_with_tables(angles, partners, q, 0.0, k, distance);
        for (double m : {1.0, 17.0, 300.0, 4321.0})
            drift = std::max(drift, std::abs(score_with_tables(angles, partners, q, m, k, m + distance) - at_zero));
    }
    return drift;
}

}  // namespace

TEST(PartialLayouts, Gemma4GlobalDimsAndPartners) {
    // head_dim 512, fraction 0.25: 64 live pairs. Proportional: lanes [0, 64) and [256, 320) turn,
    // paired (i, i + 256). Partial: lanes [0, 128) turn, paired (i, i + 64), at base^(-2i/128).
    const LayoutTable prop = layout_table(RotaryLayout::proportional, 512, 0.25, 1e6);
    const LayoutTable part = layout_table(RotaryLayout::partial, 512, 0.25, 1e6);
    for (int j = 0; j < 512; ++j) {
        const bool prop_turns = j < 64 || (j >= 256 && j < 320);
        EXPECT_EQ(prop.angle[j] > 0.0, prop_turns) << j;
        EXPECT_EQ(part.angle[j] > 0.0, j < 128) << j;
        EXPECT_EQ(prop.partner[static_cast<std::size_t>(j)], j < 256 ? j + 256 : j - 256);
        EXPECT_EQ(part.partner[static_cast<std::size_t>(j)], j < 64 ? j + 64 : (j < 128 ? j - 64 : -1));
    }
    EXPECT_DOUBLE_EQ(prop.angle[1], std::pow(1e6, -2.0 / 512));
    EXPECT_DOUBLE_EQ(part.angle[1], std::pow(1e6, -2.0 / 128));
    EXPECT_DOUBLE_EQ(prop.angle[257], prop.angle[1]);
    EXPECT_DOUBLE_EQ(part.angle[65], part.angle[1]);
    EXPECT_EQ(prop.sign[0], -1.0);
    EXPECT_EQ(prop.sign[256], 1.0);
    EXPECT_EQ(part.sign[200], 0.0);
}

TEST(PartialLayouts, SameLayoutEqualsTheCoreRotation) {
    const Eigen::VectorXd x = rope::test::random_normal_vector(512, 1);
    for (Pairing pairing : {Pairing::half, Pairing::interleaved}) {
        for (RotaryLayout layout : {RotaryLayout::proportional, RotaryLayout::partial}) {
            const LayoutTable t = layout_table(layout, 512, 0.25, 1e6, pairing);
            const FrequencyTable f = compute_frequencies(layout_config(layout, 512, 0.25, 1e6, pairing));
            for (double m : {0.0, 1.0, 77.0, 10000.0}) {
                const Eigen::VectorXd expect = rotate(f, pairing, x, m);
                EXPECT_LE((rotate_with_tables(t, t, x, m) - expect).cwiseAbs().maxCoeff(), 1e-12) << m;
            }
        }
    }
}

TEST(PartialLayouts, SameLayoutKeepsTheRelativePropertyMixedBreaksIt) {
    const Eigen::VectorXd q = rope::test::random_normal_vector(512, 2), k = rope::test::random_normal_vector(512, 3);
    const LayoutTable prop = layout_table(RotaryLayout::proportional, 512, 0.25, 1e6);
    const LayoutTable part = layout_table(RotaryLayout::partial, 512, 0.25, 1e6);
    const double norm = q.norm() * k.norm();  // about 512: scores are of this size at most
    EXPECT_LE(relative_drift(prop, prop, q, k), 1e-9 * norm);
    EXPECT_LE(relative_drift(part, part, q, k), 1e-9 * norm);
    // the bug, either way round: a clear change of score at the same distance
    EXPECT_GE(relative_drift(prop, part, q, k), 0.01 * norm);
    EXPECT_GE(relative_drift(part, prop, q, k), 0.01 * norm);
}

TEST(PartialLayouts, MixedTablesAreNotARotation) {
    const Eigen::VectorXd x = rope::test::random_normal_vector(512, 4);
    const LayoutTable prop = layout_table(RotaryLayout::proportional, 512, 0.25, 1e6);
    const LayoutTable part = layout_table(RotaryLayout::partial, 512, 0.25, 1e6);
    EXPECT_NEAR(rotate_with_tables(prop, prop, x, 3.0).norm(), x.norm(), 1e-12);
    EXPECT_GT(std::abs(rotate_with_tables(prop, part, x, 3.0).norm() - x.norm()), 1e-3);
    EXPECT_GT(std::abs(rotate_with_tables(part, prop, x, 3.0).norm() - x.norm()), 1e-3);
}

TEST(PartialLayouts, FullFractionMakesTheLayoutsEqual) {
    // fraction 1: both are ordinary RoPE over the whole head
    const LayoutTable prop = layout_table(RotaryLayout::proportional, 128, 1.0, 1e4);
    const LayoutTable part = layout_table(RotaryLayout::partial, 128, 1.0, 1e4);
    EXPECT_EQ(prop.partner, part.partner);
    EXPECT_LE((prop.angle - part.angle).cwiseAbs().maxCoeff(), 0.0);
}

TEST(PartialLayouts, TooSmallAFractionIsTheIdentityAndBadInputThrows) {
    const LayoutTable t = layout_table(RotaryLayout::proportional, 8, 0.2, 1e4);  // int(8*0.2)//2 = 0 pairs
    const Eigen::VectorXd x = rope::test::random_normal_vector(8, 5);
    EXPECT_EQ(rotate_with_tables(t, t, x, 9.0), x);
    EXPECT_THROW(layout_table(RotaryLayout::partial, 7, 0.5, 1e4), std::invalid_argument);
    EXPECT_THROW(layout_table(RotaryLayout::partial, 8, 0.0, 1e4), std::invalid_argument);
    EXPECT_THROW(layout_table(RotaryLayout::partial, 8, 0.5, 1.0), std::invalid_argument);
    EXPECT_THROW(rotate_with_tables(t, t, rope::test::random_normal_vector(6, 1), 1.0), std::invalid_argument);
}

TEST(PartialLayouts, TransplantedValuesKeepTheRelativePropertyButNotTheModelsScores) {
    const Eigen::VectorXd q = rope::test::random_normal_vector(512, 6), k = rope::test::random_normal_vector(512, 7);
    const LayoutTable prop = layout_table(RotaryLayout::proportional, 512, 0.25, 1e6);
    const LayoutTable part = layout_table(RotaryLayout::partial, 512, 0.25, 1e6);
    // Megatron-Bridge #4195: proportional's values on the prefix pairs (i, i + 64)
    const LayoutTable bridge = transplanted_table(RotaryLayout::partial, RotaryLayout::proportional, 512, 0.25, 1e6);
    // pegainfer #820: the right pairs (i, i + 256), the exponent over 128 instead of 512
    const LayoutTable denominator = transplanted_table(RotaryLayout::proportional, RotaryLayout::partial, 512, 0.25, 1e6);
    EXPECT_EQ(bridge.partner, part.partner);
    EXPECT_EQ(denominator.partner, prop.partner);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(bridge.angle[i], prop.angle[i]);  // "the 64 frequency values match HF bit-for-bit"
        EXPECT_EQ(bridge.angle[i + 64], prop.angle[i]);
        EXPECT_EQ(denominator.angle[i], part.angle[i]);
        EXPECT_EQ(denominator.angle[i + 256], part.angle[i]);
    }
    EXPECT_EQ(bridge.angle[200], 0.0);
    EXPECT_EQ(denominator.angle[100], 0.0);
    const double norm = q.norm() * k.norm();
    for (const LayoutTable* bug : {&bridge, &denominator}) {
        EXPECT_LE(relative_drift(*bug, *bug, q, k), 1e-9 * norm);  // still a rotation
        double largest = 0.0;
        for (double distance : {1.0, 10.0, 100.0, 1000.0})
            largest = std::max(largest, std::abs(score_with_tables(*bug, *bug, q, 0.0, k, distance) -
                                                 score_with_tables(prop, prop, q, 0.0, k, distance)));
        // but not the model's scores: off by a clear share of a score's typical size, sqrt(sum q_j^2 k_j^2)
        EXPECT_GE(largest, 0.1 * q.cwiseProduct(k).norm());
    }
}
