// RoPE on several position axes: 2D axial schedules, M-RoPE sections (chunked and interleaved),
// get_rope_index's position ids, and the patch similarity map. The numpy cross-check is in
// test_multi_axis_numpy.cpp; these are the properties that hold whatever the numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "rope/frequencies.hpp"
#include "rope/multi_axis.hpp"
#include "rope/params.hpp"
#include "rope/rotation.hpp"
#include "support/random_vector.hpp"

using namespace rope;

namespace {

}  // namespace

TEST(MultiAxis, ChunkedSectionsGiveTheFastestPairsToTAndTheSlowestToW) {
    const Eigen::VectorXd theta = base_frequencies(1e6, 128);
    const AxisLayout l = mrope_layout(theta, {16, 24, 24}, false);
    EXPECT_EQ(l.count(PositionAxis::t), 16);
    EXPECT_EQ(l.count(PositionAxis::h), 24);
    EXPECT_EQ(l.count(PositionAxis::w), 24);
    for (int j = 0; j < 64; ++j)
        EXPECT_EQ(l.axis[static_cast<std::size_t>(j)], j < 16 ? PositionAxis::t : j < 40 ? PositionAxis::h : PositionAxis::w) << j;
    // every w pair is slower than every h pair, which is slower than every t pair
    const AxisSpread t = axis_spread(l, PositionAxis::t), h = axis_spread(l, PositionAxis::h), w = axis_spread(l, PositionAxis::w);
    EXPECT_LT(t.longest_wavelength, h.shortest_wavelength);
    EXPECT_LT(h.longest_wavelength, w.shortest_wavelength);
    // w's fastest pair turns once in about 36,000 columns: no image is that wide
    EXPECT_GT(w.shortest_wavelength, 3e4);
}

TEST(MultiAxis, InterleavedSectionsGiveEveryAxisFastAndSlowPairs) {
    const Eigen::VectorXd theta = base_frequencies(5e6, 128);
    const AxisLayout l = mrope_layout(theta, {24, 20, 20}, true);
    EXPECT_EQ(l.count(PositionAxis::t), 24);
    EXPECT_EQ(l.count(PositionAxis::h), 20);
    EXPECT_EQ(l.count(PositionAxis::w), 20);
    // Qwen3-VL: j % 3 == 1 -> h, == 2 -> w for j < 60; 60..63 -> t
    for (int j = 0; j < 64; ++j) {
        const PositionAxis want = j >= 60 ? PositionAxis::t : j % 3 == 1 ? PositionAxis::h : j % 3 == 2 ? PositionAxis::w : PositionAxis::t;
        EXPECT_EQ(l.axis[static_cast<std::size_t>(j)], want) << j;
    }
    const AxisSpread h = axis_spread(l, PositionAxis::h), w = axis_spread(l, PositionAxis::w);
    // the fastest h and w pairs are pairs 1 and 2, the slowest 58 and 59
    EXPECT_DOUBLE_EQ(h.shortest_wavelength, kTwoPi / theta[1]);
    EXPECT_DOUBLE_EQ(w.shortest_wavelength, kTwoPi / theta[2]);
    EXPECT_DOUBLE_EQ(h.longest_wavelength, kTwoPi / theta[58]);
    EXPECT_DOUBLE_EQ(w.longest_wavelength, kTwoPi / theta[59]);
    EXPECT_LT(w.shortest_wavelength, 11.0);  // a pair that turns within about ten patches
}

TEST(MultiAxis, DefaultSectionsAreQwensAt64PairsAndAlwaysValid) {
    EXPECT_EQ(default_mrope_section(64, false), (MropeSection{16, 24, 24}));
    EXPECT_EQ(default_mrope_section(64, true), (MropeSection{24, 20, 20}));
    for (int pairs = 1; pairs <= 300; ++pairs)
        for (bool interleaved : {false, true})
            EXPECT_EQ(mrope_section_problem(default_mrope_section(pairs, interleaved), pairs, interleaved), "") << pairs;
}

TEST(MultiAxis, SectionProblemsAreNamed) {
    EXPECT_NE(mrope_section_problem({16, 24, 24}, 32, false).find("add up to 64"), std::string::npos);
    EXPECT_NE(mrope_section_problem({4, 30, 30}, 64, true).find("a third"), std::string::npos);
    EXPECT_EQ(mrope_section_problem({4, 30, 30}, 64, false), "");
    EXPECT_THROW(mrope_layout(base_frequencies(1e4, 64), {16, 24, 24}, false), std::invalid_argument);
}

TEST(MultiAxis, AxialSchedules) {
    const AxisLayout per_axis = axial_layout(AxialFrequencies::per_axis, 100, 64);
    ASSERT_EQ(per_axis.pairs(), 32);
    for (int i = 0; i < 16; ++i) {
        EXPECT_DOUBLE_EQ(per_axis.theta[i], std::pow(100.0, -4.0 * i / 64.0));
        EXPECT_DOUBLE_EQ(per_axis.theta[16 + i], per_axis.theta[i]);
        EXPECT_EQ(per_axis.axis[static_cast<std::size_t>(i)], PositionAxis::w);
        EXPECT_EQ(per_axis.axis[static_cast<std::size_t>(16 + i)], PositionAxis::h);
    }
    const AxisLayout split = axial_layout(AxialFrequencies::split, 100, 64);
    EXPECT_LT(axis_spread(split, PositionAxis::w).longest_wavelength, axis_spread(split, PositionAxis::h).shortest_wavelength);
    const AxisLayout alternating = axial_layout(AxialFrequencies::alternating, 10000, 64);
    for (int i = 0; i < 16; ++i) {
        EXPECT_DOUBLE_EQ(alternating.theta[i], std::pow(10000.0, -2.0 * (2 * i) / 64.0));
        EXPECT_DOUBLE_EQ(alternating.theta[16 + i], std::pow(10000.0, -2.0 * (2 * i + 1) / 64.0));
        EXPECT_EQ(alternating.axis[static_cast<std::size_t>(i)], PositionAxis::h);
    }
    EXPECT_THROW(axial_layout(AxialFrequencies::per_axis, 100, 66), std::invalid_argument);
}

TEST(MultiAxis, PositionIdsFollowGetRopeIndex) {
    const std::vector<SequenceToken> s = mrope_sequence(3, 2, 4, 2);
    ASSERT_EQ(s.size(), 3u + 8u + 2u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(s[static_cast<std::size_t>(i)].kind, TokenKind::text);
        EXPECT_EQ(s[static_cast<std::size_t>(i)].id.t, i);
        EXPECT_EQ(s[static_cast<std::size_t>(i)].id.h, i);
        EXPECT_EQ(s[static_cast<std::size_t>(i)].id.w, i);
    }
    const SequenceToken& last_patch = s[10];  // row 1, col 3
    EXPECT_EQ(last_patch.kind, TokenKind::image);
    EXPECT_EQ(last_patch.id.t, 3);
    EXPECT_EQ(last_patch.id.h, 4);
    EXPECT_EQ(last_patch.id.w, 6);
    // the text after resumes at 1 + the largest id (6): 7, 8
    EXPECT_EQ(s[11].id.t, 7);
    EXPECT_EQ(s[11].id.w, 7);
    EXPECT_EQ(s[12].id.h, 8);
}

TEST(MultiAxis, TextTokensSeeExactly1dRope) {
    RopeConfig c;
    c.dim = 128;
    c.base = 1e6;
    c.pairing = Pairing::half;
    const FrequencyTable f = compute_frequencies(c);
    const Eigen::VectorXd q = rope::test::random_normal_vector(128, 1), k = rope::test::random_normal_vector(128, 2);
    for (bool interleaved : {false, true}) {
        const AxisLayout l = mrope_layout(f.theta, default_mrope_section(64, interleaved), interleaved);
        for (int m : {0, 5, 900})
            for (int n : {0, 3, 17})
                EXPECT_NEAR(multi_axis_score(l, Pairing::half, q, {m, m, m}, k, {n, n, n}), attention_score(f, Pairing::half, q, m, k, n),
                            1e-9);
    }
}

TEST(MultiAxis, ScoresDependOnThePositionDifferenceOnly) {
    const AxisLayout l = axial_layout(AxialFrequencies::per_axis, 100, 64);
    const Eigen::VectorXd q = rope::test::random_normal_vector(64, 3), k = rope::test::random_normal_vector(64, 4);
    const double a = multi_axis_score(l, Pairing::interleaved, q, {0, 2, 5}, k, {0, 7, 1});
    const double b = multi_axis_score(l, Pairing::interleaved, q, {0, 12, 25}, k, {0, 17, 21});
    EXPECT_NEAR(a, b, 1e-9);
}

TEST(MultiAxis, PatchSimilarityEqualsTheDirectScoreAndIsOneAtTheQuery) {
    const Eigen::VectorXd q = rope::test::random_normal_vector(128, 5), k = rope::test::random_normal_vector(128, 6);
    const AxisLayout l = mrope_layout(base_frequencies(1e6, 128), {24, 20, 20}, true);
    const Eigen::MatrixXd map = patch_similarity(l, Pairing::half, q, k, 5, 7, 2, 3);
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 7; ++c)
            EXPECT_NEAR(map(r, c), multi_axis_score(l, Pairing::half, q, {9, 9 + 2, 9 + 3}, k, {9, 9 + r, 9 + c}) / (q.norm() * k.norm()),
                        1e-12);
    const Eigen::MatrixXd self = patch_similarity(l, Pairing::half, q, q, 5, 7, 2, 3);
    EXPECT_NEAR(self(2, 3), 1.0, 1e-12);
    EXPECT_LE(self.maxCoeff(), 1.0 + 1e-12);
}

// A block anywhere (a video frame: another t, h and w offset, fractional on VideoRoPE's diagonal) and
// a run of tokens (1D RoPE over the stream, past 64 steps so that the phasors are re-anchored, at a
// long distance) give the direct score of every patch or token.
TEST(MultiAxis, BlockAndRunSimilarityEqualTheDirectScore) {
    const Eigen::VectorXd q = rope::test::random_normal_vector(128, 7), k = rope::test::random_normal_vector(128, 8);
    const double norm = q.norm() * k.norm();
    const AxisLayout l = mrope_layout(base_frequencies(1e6, 128), {16, 24, 24}, false);
    const PositionId query{40, 31.5, 35.5}, corner{57, 52.5, 51.5};
    const Eigen::MatrixXd block = block_similarity(l, Pairing::half, q, query, k, corner, 6, 9);
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 9; ++c)
            EXPECT_NEAR(block(r, c), multi_axis_score(l, Pairing::half, q, query, k, {corner.t, corner.h + r, corner.w + c}) / norm, 1e-12);
    const AxisLayout one_d = mrope_layout(base_frequencies(1e4, 128), {64, 0, 0}, false);
    const std::vector<double> run = run_similarity(one_d, Pairing::interleaved, q, 3e5, k, 1234, 300);
    ASSERT_EQ(run.size(), 300u);
    for (int i = 0; i < 300; ++i) {
        const double at = 1234 + i;
        EXPECT_NEAR(run[static_cast<std::size_t>(i)], multi_axis_score(one_d, Pairing::interleaved, q, {3e5, 3e5, 3e5}, k, {at, at, at}) / norm, 1e-11) << i;
    }
    EXPECT_TRUE(run_similarity(one_d, Pairing::interleaved, q, 0, k, 0, 0).empty());
    EXPECT_THROW(block_similarity(l, Pairing::half, q, query, k, corner, 0, 3), std::invalid_argument);
}

TEST(MultiAxis, AxialMapsShowTheCross) {
    // q = k = all ones: the query's row and column keep half the score at every distance
    const AxisLayout l = axial_layout(AxialFrequencies::per_axis, 100, 64);
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(64);
    const Eigen::MatrixXd map = patch_similarity(l, Pairing::interleaved, ones, ones, 14, 14, 7, 7);
    EXPECT_GT(map(7, 0), 0.5);   // same row, far column
    EXPECT_GT(map(0, 7), 0.5);   // same column, far row
    EXPECT_LT(map(0, 0), map(7, 0));  // off the cross
}

TEST(MultiAxisParams, KeysValidateAndBuildLayouts) {
    ParamSet p;
    EXPECT_EQ(p[P::rope_axes], RopeAxes::one_d);
    EXPECT_EQ(p.mrope_section(false), (MropeSection{16, 24, 24}));
    p.set(P::mrope_section_interleaved, "24,20,20");
    p.set(P::mrope_interleaved, "true");
    EXPECT_NO_THROW(p.validate());
    EXPECT_EQ(p.mrope_section(true), (MropeSection{24, 20, 20}));
    EXPECT_EQ(p.mrope_section(false), (MropeSection{16, 24, 24}));  // the other layout: Qwen's shares
    // each layout keeps its own section: the toggle is never refused for the other one's
    p.set(P::mrope_section, "16,24,24");
    EXPECT_NO_THROW(p.validate());
    p.set(P::mrope_interleaved, "false");
    EXPECT_NO_THROW(p.validate());
    EXPECT_EQ(p.mrope_section(false), (MropeSection{16, 24, 24}));
    EXPECT_EQ(p.mrope_section(true), (MropeSection{24, 20, 20}));
    p.set(P::mrope_section_interleaved, "16,24,24");  // h and w may take at most a third each
    try {
        p.validate();
        FAIL() << "an interleaved section of 24 h pairs";
    } catch (const ParamError& e) {
        EXPECT_EQ(e.key(), "mrope_section_interleaved");
    }
    p.reset(P::mrope_section_interleaved);
    p.reset(P::mrope_section);
    p.set(P::mrope_section, "24,20,20");
    p.set(P::dim, "64");
    try {
        p.validate();
        FAIL() << "a section for 64 pairs with dim 64";
    } catch (const ParamError& e) {
        EXPECT_EQ(e.key(), "mrope_section");
        EXPECT_NE(std::string(e.what()).find("32 rotated pairs"), std::string::npos) << e.what();
    }
    p.reset(P::mrope_section);
    p.set(P::mrope_section, "16.5,8,7.5");
    EXPECT_THROW(p.validate(), ParamError);
    p.reset(P::mrope_section);
    p.set(P::dim, "6");
    p.set(P::rope_axes, "2d_axial");
    EXPECT_THROW(p.validate(), ParamError);
    p.set(P::dim, "8");
    EXPECT_NO_THROW(p.validate());
    p.set(P::scaling, "yarn");
    EXPECT_THROW(p.validate(), ParamError);
}

TEST(MultiAxisParams, QueryPatchDefaultsToTheMiddleAndStaysInTheGrid) {
    ParamSet p;
    EXPECT_EQ(p.query_patch(), (std::pair<int, int>{6, 8}));
    p.set(P::query_row, "40");
    p.set(P::query_col, "2");
    EXPECT_EQ(p.query_patch(), (std::pair<int, int>{11, 2}));
}
