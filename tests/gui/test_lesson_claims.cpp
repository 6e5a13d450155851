// Each lesson step says something about the picture it points at; where a number can show it, the
// step's own parameters are put to the core (and to the panel's figure) and the claim is checked:
// a lesson that tells a class something the screen does not show is a bug.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "figures/registry.hpp"
#include "lessons/lessons.hpp"
#include "rope/bounds.hpp"
#include "rope/video_positions.hpp"
#include "rope/decay.hpp"
#include "rope/encodings.hpp"
#include "rope/frequencies.hpp"
#include "rope/model_layers.hpp"
#include "rope/nope_temperature.hpp"
#include "rope/partial_layouts.hpp"
#include "rope/precision.hpp"
#include "rope/multi_axis.hpp"
#include "rope/rotation.hpp"

using namespace rope;

namespace {

const lessons::Step& step(int n) { return lessons::builtin_lesson().steps.at(static_cast<std::size_t>(n - 1)); }
ParamSet at(int n) { return lessons::step_parameters(step(n)); }
FrequencyTable freqs(int n) { return compute_frequencies(at(n).config()); }

// The text the step's panel shows at a projector's size (all of its plots, as in an export).
bool panel_shows(int n, const std::string& text) {
    figures::FigureCache cache;
    figures::FigureRequest r;
    r.figure = step(n).panel;
    r.width = 1280;
    r.height = 720;
    const figures::FigureResult result = figures::build_figure(r, at(n), cache);
    for (const auto& c : result.list.commands)
        if (const auto* t = std::get_if<plot::TextCmd>(&c))
            if (t->text.find(text) != std::string::npos) return true;
    return false;
}

Eigen::VectorXd ones(int d) { return Eigen::VectorXd::Ones(d); }

}  // namespace

TEST(LessonClaims, Step01AtPositionMTheAngleIsMThetaAndTheLengthStays) {
    const ParamSet p = at(1);
    const FrequencyTable f = freqs(1);
    const std::vector<double> v = p.vector();
    const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(v.data(), 2);
    const double m = static_cast<double>(p[P::position]);
    const Eigen::VectorXd r = rotate(f, Pairing::interleaved, x, m);
    EXPECT_NEAR(r.norm(), x.norm(), 1e-12);
    EXPECT_NEAR(std::atan2(r[1], r[0]) - std::atan2(x[1], x[0]), m * f.theta[0], 1e-12);
}

TEST(LessonClaims, Step02TheScoreDependsOnNMinusMOnly) {
    const ParamSet p = at(2);
    const FrequencyTable f = freqs(2);
    const std::vector<double> v = p.vector();
    const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(v.data(), 2);
    const double m = static_cast<double>(p[P::position]), n = static_cast<double>(p[P::key_position]);
    const double s = attention_score(f, Pairing::interleaved, q, m, q, n);
    for (double shift : {1.0, 7.0, 1000.0}) EXPECT_NEAR(attention_score(f, Pairing::interleaved, q, m + shift, q, n + shift), s, 1e-9);
}

TEST(LessonClaims, Step03PairZeroTurnsARadianTheLastBarely) {
    const FrequencyTable f = freqs(3);
    EXPECT_EQ(f.pairs(), 8);
    EXPECT_DOUBLE_EQ(f.theta[0], 1.0);
    EXPECT_NEAR(f.theta[7], 0.0003, 0.00005);  // "0.0003 radians"
    EXPECT_NEAR(f.wavelength(0), 6.28, 0.01);  // "about 6 tokens"
    const Eigen::VectorXd wide = base_frequencies(10000, 128);
    EXPECT_NEAR(kTwoPi / wide[63], 54000, 1000);  // "about 54000 for the slowest pair when d = 128"
}

TEST(LessonClaims, Step04FastPairsCycleSlowPairsHardlyMove) {
    const ParamSet p = at(4);
    const FrequencyTable f = freqs(4);
    const double last = static_cast<double>(p[P::max_position] - 1);
    EXPECT_LT(f.wavelength(0), 10);                          // a full circle every few tokens
    EXPECT_LT(last * f.theta[f.pairs() - 1], 0.1);           // less than a tenth of a radian over the context
}

TEST(LessonClaims, Step05TheBoundFallsSteeplyThenKeepsFalling) {
    const FrequencyTable f = freqs(5);
    const Eigen::VectorXd b = decay_bound(f.theta, at(5)[P::max_distance]);
    EXPECT_DOUBLE_EQ(b[0], 32.5);                              // "at distance 0 it is (d/2 + 1)/2 = 32.5"
    EXPECT_NEAR(b[1], 31.5, 0.05);                             // "from 31.5 at distance 1" (numpy: 31.538)
    EXPECT_LT(b[100], b[1] / 3 + 0.5);                         // "about a third of that within a hundred tokens"
    EXPECT_LT(b.segment(1000, 3097).maxCoeff(), b[50]);        // levels off: no higher far away
    EXPECT_GT(b.segment(1000, 3097).maxCoeff() - b.segment(1000, 3097).minCoeff(), 1.0);  // while it oscillates
    EXPECT_TRUE(panel_shows(5, "|n − m| = 20"));   // the dashed line of the vectors panel's distance
}

TEST(LessonClaims, Step06ARaisedBaseTurnsMorePairsRed) {
    const ParamSet p = at(6);
    const double context = static_cast<double>(p[P::max_position]);
    auto longer_than_context = [&](double base) {
        const Eigen::VectorXd t = base_frequencies(base, 128);
        int n = 0;
        for (int i = 0; i < t.size(); ++i) n += kTwoPi / t[i] > context;
        return n;
    };
    EXPECT_GT(longer_than_context(500000), longer_than_context(10000));
    const auto bases = figures::sweep_bases(p[P::base]);
    EXPECT_NEAR(bases.front(), 1000, 1e-6);     // a decade below
    EXPECT_NEAR(bases.back(), 100000, 1e-6);    // a decade above
}

TEST(LessonClaims, Step07TheSumDipsAt1707AndTheBasesThatWorkAreNoInterval) {
    const FrequencyTable f = freqs(7);
    EXPECT_EQ(first_negative_position(f.theta, 4096), 1707);
    EXPECT_TRUE(panel_shows(7, "first negative m = 1707"));
    EXPECT_NEAR(base_lower_bound(128, 4096), 26952, 1);
    EXPECT_NEAR(base_lower_bound(128, 16384), 232000, 1000);
    EXPECT_EQ(first_negative_position(base_frequencies(26952.34, 128), 4096), -1);  // works
    EXPECT_GE(first_negative_position(base_frequencies(27000, 128), 4096), 0);      // fails again
    EXPECT_EQ(first_negative_position(base_frequencies(28629, 128), 4096), -1);     // works
}

TEST(LessonClaims, Step08Llama2CriticalDimensionIs92) {
    const ParamSet p = at(8);
    EXPECT_EQ(critical_dimension(128, p[P::base], static_cast<double>(p[P::original_max_position])), 92);
    EXPECT_TRUE(panel_shows(8, "critical dim 92"));
}

TEST(LessonClaims, Step09LinearDividesEveryFrequencyByFour) {
    const FrequencyTable f = freqs(9);
    for (int i = 0; i < f.pairs(); ++i) EXPECT_NEAR(f.theta[i] / f.original_theta[i], 0.25, 1e-15) << "pair " << i;
}

TEST(LessonClaims, Step10NtkKeepsPairZeroAndSlowsTheLastByTheFactor) {
    const FrequencyTable f = freqs(10);
    EXPECT_DOUBLE_EQ(f.theta[0] / f.original_theta[0], 1.0);
    EXPECT_NEAR(f.theta[f.pairs() - 1] / f.original_theta[f.pairs() - 1], 0.25, 1e-12);
    for (int i = 1; i < f.pairs(); ++i) EXPECT_LT(f.theta[i] / f.original_theta[i], f.theta[i - 1] / f.original_theta[i - 1]);
    EXPECT_NEAR(f.effective_base, 10000 * std::pow(4.0, 128.0 / 126.0), 1e-6);
}

TEST(LessonClaims, Step11YarnKeepsFastPairsInterpolatesSlowOnesAndScales) {
    const FrequencyTable f = freqs(11);
    EXPECT_DOUBLE_EQ(f.theta[0] / f.original_theta[0], 1.0);
    EXPECT_NEAR(f.theta[f.pairs() - 1] / f.original_theta[f.pairs() - 1], 0.25, 1e-12);
    EXPECT_NEAR(f.attention_factor, 1.139, 0.0005);  // 0.1 ln 4 + 1
}

TEST(LessonClaims, Step12Llama3LeavesShortWavelengthsAndDividesLongOnes) {
    const ParamSet p = at(12);
    const FrequencyTable f = freqs(12);
    const double l0 = static_cast<double>(p[P::original_max_position]);
    int kept = 0, divided = 0;
    for (int i = 0; i < f.pairs(); ++i) {
        const double wl = kTwoPi / f.original_theta[i], ratio = f.theta[i] / f.original_theta[i];
        if (wl < l0 / 4) {
            EXPECT_DOUBLE_EQ(ratio, 1.0) << "pair " << i;
            ++kept;
        }
        if (wl > l0) {
            EXPECT_NEAR(ratio, 1.0 / 8, 1e-15) << "pair " << i;
            ++divided;
        }
    }
    EXPECT_GT(kept, 0);
    EXPECT_GT(divided, 0);
}

TEST(LessonClaims, Step13BothModelsReach131072Tokens) {
    const ParamSet a = at(13);
    EXPECT_EQ(a[P::max_position], 131072);
    ParamSet b;
    b.set(P::preset, a.value_text(P::compare_to));
    b.validate();
    EXPECT_EQ(b[P::max_position], 131072);
    EXPECT_EQ(static_cast<double>(b[P::original_max_position]) * b[P::factor], 131072);  // "a 4x YaRN ramp"
    EXPECT_EQ(a[P::factor], 8);  // "an 8x stretch of its slow pairs"
    EXPECT_EQ(a[P::base], 500000);
    EXPECT_EQ(b[P::base], 1000000);
}

TEST(LessonClaims, Step14Llama3TurnsFewerPairsFullyWithinTwiceTheContext) {
    const ParamSet a = at(14);
    const ParamSet b = *a.compared_model();
    EXPECT_EQ(a[P::dim], 128);
    EXPECT_EQ(b[P::dim], 128);
    EXPECT_EQ(a[P::base], 10000);
    EXPECT_EQ(b[P::base], 500000);
    EXPECT_EQ(a[P::max_position], 4096);
    EXPECT_EQ(b[P::max_position], 8192);
    // "pairs 0 to 45 turn a full circle within its 4096 tokens; ... only pairs 0 to 34 within its 8192"
    auto full_turns = [](const ParamSet& p) {
        const FrequencyTable f = compute_frequencies(p.config());
        int n = 0;
        while (n < f.pairs() && f.wavelength(n) < static_cast<double>(p[P::max_position])) ++n;
        for (int i = n; i < f.pairs(); ++i) EXPECT_GE(f.wavelength(i), static_cast<double>(p[P::max_position]));
        return n;
    };
    EXPECT_EQ(full_turns(a), 46);
    EXPECT_EQ(full_turns(b), 35);
    EXPECT_EQ(a[P::pair], 46);  // "the selected pair, 46, is the first that Llama 2 does not turn fully"
    // "about 2.56 million tokens for one turn, against 54,410"
    EXPECT_NEAR(compute_frequencies(b.config()).wavelength(63), 2.56e6, 0.005e6);
    EXPECT_EQ(std::round(compute_frequencies(a.config()).wavelength(63)), 54410);
    // the panel shows both models, side by side at a projector's size
    EXPECT_TRUE(panel_shows(14, "A: llama-2-7b"));
    EXPECT_TRUE(panel_shows(14, "B: llama-3-8b"));
}

TEST(LessonClaims, Step15TheScoreMatrixIsConstantAlongDiagonals) {
    const ParamSet p = at(15);
    const FrequencyTable f = freqs(15);
    const Eigen::MatrixXd s = score_matrix(f, Pairing::interleaved, Pairing::interleaved, ones(64), ones(64), 16);
    for (int m = 1; m < 16; ++m)
        for (int n = 1; n < 16; ++n) EXPECT_NEAR(s(m, n), s(m - 1, n - 1), 1e-9);
}

TEST(LessonClaims, Step16MixedLayoutsDriftAsBothTokensShift) {
    const ParamSet p = at(16);
    const FrequencyTable f = freqs(16);
    const std::vector<double> v = p.vector();  // held: a Map of the temporary would dangle
    const Eigen::Map<const Eigen::VectorXd> q(v.data(), 16);
    const std::int64_t r = p[P::key_position] - p[P::position];
    EXPECT_LT(largest_drift(shifted_scores(f, Pairing::half, Pairing::half, q, q, r, 0, 256)), 1e-9);
    EXPECT_GT(largest_drift(shifted_scores(f, Pairing::interleaved, Pairing::half, q, q, r, 0, 256)), 1.0);
}

TEST(LessonClaims, Step17Bf16Rounds257AndFloat32StepsByAn128thNear131071) {
    EXPECT_EQ(round_to_bfloat16(257), 256);
    EXPECT_EQ(format_spacing(NumberFormat::float32, 131071), 1.0 / 128);
    EXPECT_EQ(freqs(17).theta[0], 1.0);  // the fastest pair: the angle is m itself
}

TEST(LessonClaims, Step18PositionDotDependsOnDistanceRopeScoreToo) {
    const ParamSet p = at(18);
    EXPECT_NEAR(sinusoidal_dot(0, 40, 128, 10000), sinusoidal_dot(512, 552, 128, 10000), 1e-9);
    const FrequencyTable f = freqs(18);
    EXPECT_NEAR(attention_score(f, Pairing::interleaved, ones(128), 0, ones(128), 40),
                attention_score(f, Pairing::interleaved, ones(128), 512, ones(128), 552), 1e-9);
    EXPECT_TRUE(panel_shows(18, "m = 512"));
}

// Steps 18-21: today's models.

TEST(LessonClaims, Step19PartialAndProportionalPairAndTurnDifferently) {
    const ParamSet p = at(19);
    const int d = static_cast<int>(p[P::dim]);
    const double f = p[P::rotary_fraction], base = p[P::base];
    const LayoutTable partial = layout_table(RotaryLayout::partial, d, f, base);
    const LayoutTable proportional = layout_table(RotaryLayout::proportional, d, f, base);
    EXPECT_EQ(partial.partner[0], 4);       // "partial pairs dim 0 with dim 4"
    EXPECT_EQ(proportional.partner[0], 8);  // "proportional pairs it with dim 8"
    const FrequencyTable fp = compute_frequencies(layout_config(RotaryLayout::partial, d, f, base));
    const FrequencyTable fq = compute_frequencies(layout_config(RotaryLayout::proportional, d, f, base));
    EXPECT_EQ(fp.rotating_pairs, 4);  // "both turn 4 pairs"
    EXPECT_EQ(fq.rotating_pairs, 4);
    EXPECT_EQ(fp.theta[0], fq.theta[0]);  // "every turning pair but the first gets a different frequency"
    for (int i = 1; i < 4; ++i) EXPECT_GT(std::abs(fp.theta[i] - fq.theta[i]), 1e-3 * fq.theta[i]) << i;
    for (int i = 4; i < fq.pairs(); ++i) EXPECT_EQ(fq.theta[i], 0.0) << i;  // "the rest frequency 0"
    EXPECT_TRUE(panel_shows(19, "(i, i + 8)"));
}

TEST(LessonClaims, Step20MixedTablesBreakTheRelativePropertyAndTransplantedValuesChangeTheScores) {
    const ParamSet p = at(20);
    const int d = static_cast<int>(p[P::dim]);
    const double f = p[P::rotary_fraction], base = p[P::base];
    const FrequencyTable fq = compute_frequencies(layout_config(RotaryLayout::proportional, d, f, base));
    EXPECT_EQ(fq.rotating_pairs, 64);        // "64 pairs turn"
    EXPECT_EQ(fq.pairs() - fq.rotating_pairs, 192);  // "and 192 have frequency 0"
    const LayoutTable partial = layout_table(RotaryLayout::partial, d, f, base);
    const LayoutTable proportional = layout_table(RotaryLayout::proportional, d, f, base);
    const Eigen::VectorXd q = ones(d);
    auto drift = [&](const LayoutTable& a, const LayoutTable& b) {
        double worst = 0;
        for (int r = 0; r <= 256; r += 8)
            worst = std::max(worst, std::abs(score_with_tables(a, b, q, 0, q, r) - score_with_tables(a, b, q, 3000, q, 3000 + r)));
        return worst;
    };
    EXPECT_LT(drift(proportional, proportional), 1e-9);  // each layout on its own: one curve
    EXPECT_LT(drift(partial, partial), 1e-9);
    EXPECT_GT(drift(proportional, partial), 1.0);  // mixed tables: the curves spread
    EXPECT_GT(drift(partial, proportional), 1.0);
    // the reported ports: proportional's values on partial's pairs, still relative but not the model's scores
    const LayoutTable ported = transplanted_table(RotaryLayout::partial, RotaryLayout::proportional, d, f, base);
    EXPECT_LT(drift(ported, ported), 1e-9);
    // (for a q and k with structure: all-ones vectors score the same under any pairing)
    Eigen::VectorXd qs(d), ks(d);
    for (int j = 0; j < d; ++j) qs[j] = std::sin(0.7 * j + 0.3), ks[j] = std::cos(1.3 * j);
    double apart = 0;
    for (int r = 1; r <= 256; ++r)
        apart = std::max(apart, std::abs(score_with_tables(ported, ported, qs, 0, ks, r) -
                                         score_with_tables(proportional, proportional, qs, 0, ks, r)));
    EXPECT_GT(apart, 1.0);
    EXPECT_TRUE(panel_shows(20, "#4195"));  // the port's curve is drawn
    EXPECT_TRUE(panel_shows(20, "not a rotation"));
}

TEST(LessonClaims, Step21Gemma4HasFiveSlidingLayersToOneProportionalGlobalLayer) {
    const ParamSet p = at(21);
    const ModelLayers model = p.model_layers();
    ASSERT_EQ(model.layers(), 60);  // "ten times: 60 layers"
    int global = 0;
    for (int l = 0; l < 60; ++l) {
        const bool full = model.kind(l).attention == Attention::full;
        EXPECT_EQ(full, l % 6 == 5) << l;  // five sliding, then one global
        global += full;
        const RopeConfig c = p.with_kind(model.kind(l)).config();
        if (full) {
            EXPECT_EQ(c.dim, 512);
            EXPECT_EQ(c.scaling, Scaling::proportional);
            EXPECT_EQ(c.rotary_fraction, 0.25);
            EXPECT_EQ(c.base, 1e6);
        } else {
            EXPECT_EQ(model.kind(l).window, 1024);
            EXPECT_EQ(c.dim, 256);
            EXPECT_EQ(c.scaling, Scaling::none);
            EXPECT_EQ(c.base, 1e4);
        }
    }
    EXPECT_EQ(global, 10);
    // "Layer 5, the first global layer, is loaded here"
    EXPECT_EQ(p[P::layer], 5);
    EXPECT_EQ(p.config().dim, 512);
    EXPECT_EQ(p.config().scaling, Scaling::proportional);
}

TEST(LessonClaims, Step22Llama4LeavesRopeOutOfEveryFourthLayerAndScalesItsQueries) {
    const ParamSet p = at(22);
    const ModelLayers model = p.model_layers();
    ASSERT_EQ(model.layers(), 48);
    for (int l = 0; l < 48; ++l) {
        const RopeConfig c = p.with_kind(model.kind(l)).config();
        EXPECT_EQ(c.nope, l % 4 == 3) << l;  // "layers 3, 7, 11 and so on are NoPE layers"
        EXPECT_EQ(model.kind(l).attention, l % 4 == 3 ? Attention::full : Attention::chunked) << l;
        if (l % 4 != 3) {
            EXPECT_EQ(model.kind(l).window, 8192) << l;  // "chunks of 8192 tokens"
        }
    }
    EXPECT_TRUE(p.config().nope);  // layer 3 is loaded
    EXPECT_TRUE(p[P::attn_temperature_tuning]);
    const std::int64_t fs = p[P::floor_scale];
    const double as = p[P::attn_scale];
    EXPECT_EQ(fs, 8192);
    EXPECT_EQ(as, 0.1);
    EXPECT_EQ(nope_attention_scale(8190, fs, as), 1.0);  // "1 up to position 8190"
    EXPECT_GT(nope_attention_scale(8191, fs, as), 1.0);  // "then a step up every 8192 tokens"
    EXPECT_EQ(nope_attention_scale(8191 + 8191, fs, as), nope_attention_scale(8191, fs, as));
    EXPECT_GT(nope_attention_scale(8191 + 8192, fs, as), nope_attention_scale(8191, fs, as));
    const double last = nope_attention_scale(p[P::max_position] - 1, fs, as);
    EXPECT_EQ(p[P::max_position] - 1, 1048575);
    EXPECT_NEAR(last, 1.49, 0.005);  // "1.49 at position 1,048,575"
    EXPECT_TRUE(panel_shows(22, "first step: p = 8191"));
}

namespace {

// The similarity map of one layout at a step's parameters (q and k as the panel takes them).
Eigen::MatrixXd patch_map(const ParamSet& p, RopeAxes axes, bool interleaved) {
    const std::optional<AxisLayout> layout = p.axis_layout(axes, interleaved);
    if (!layout) throw std::runtime_error("no layout");
    const std::vector<double> q = p.vector(), k = p.key_vector();
    const auto [row, col] = p.query_patch();
    return patch_similarity(*layout, p.config().pairing, Eigen::Map<const Eigen::VectorXd>(q.data(), static_cast<Eigen::Index>(q.size())),
                            Eigen::Map<const Eigen::VectorXd>(k.data(), static_cast<Eigen::Index>(k.size())),
                            static_cast<int>(p[P::grid_rows]), static_cast<int>(p[P::grid_cols]), row, col);
}

}  // namespace

TEST(LessonClaims, Step23AxialRopeDrawsACross) {
    const ParamSet p = at(23);
    EXPECT_EQ(p[P::rope_axes], RopeAxes::axial_2d);
    EXPECT_EQ(p[P::grid_rows], 14);  // "14 x 14 patches"
    EXPECT_EQ(p[P::grid_cols], 14);
    const AxisLayout l = *p.axis_layout(RopeAxes::axial_2d, false);
    EXPECT_EQ(l.count(PositionAxis::h), l.pairs() / 2);  // "half of the pairs turn with its column, half with its row"
    EXPECT_EQ(l.count(PositionAxis::w), l.pairs() / 2);
    const Eigen::MatrixXd m = patch_map(p, RopeAxes::axial_2d, false);
    const auto [qr, qc] = p.query_patch();
    double cross_min = 2, off_min = 2;
    int off_min_r = -1, off_min_c = -1;
    for (int r = 0; r < 14; ++r)
        for (int c = 0; c < 14; ++c) {
            if (r == qr || c == qc) {
                cross_min = std::min(cross_min, m(r, c));
            } else if (m(r, c) < off_min) {
                off_min = m(r, c);
                off_min_r = r;
                off_min_c = c;
            }
        }
    EXPECT_GT(cross_min, 0.67);                 // "On the cross it stays above 0.67"
    EXPECT_NEAR(off_min, 0.37, 0.005);          // "it falls to 0.37 in the far corner"
    EXPECT_EQ(off_min_r, 13);                   // the corner farthest from the query (4, 5)
    EXPECT_EQ(off_min_c, 13);
    // the cross: a patch in the query's row is more similar than one off it at the same column
    for (int c = 0; c < 14; ++c)
        if (c != qc) {
            EXPECT_GT(m(qr, c), m(13, c)) << c;
        }
}

TEST(LessonClaims, Step24PositionIdsOfTextImageText) {
    const ParamSet p = at(24);
    EXPECT_EQ(p[P::rope_axes], RopeAxes::mrope);
    const std::vector<SequenceToken> s =
        mrope_sequence(static_cast<int>(p[P::text_before]), static_cast<int>(p[P::grid_rows]),
                       static_cast<int>(p[P::grid_cols]), static_cast<int>(p[P::text_after]));
    ASSERT_EQ(s.size(), 3u + 6u + 2u);
    for (int i = 0; i < 3; ++i) {  // "Text carries the same number on all three"
        EXPECT_EQ(s[static_cast<std::size_t>(i)].id.t, i);
        EXPECT_EQ(s[static_cast<std::size_t>(i)].id.h, i);
        EXPECT_EQ(s[static_cast<std::size_t>(i)].id.w, i);
    }
    for (std::size_t i = 3; i < 9; ++i) {  // "t = 3, h = 3 + row, w = 3 + col"
        EXPECT_EQ(s[i].id.t, 3);
        EXPECT_EQ(s[i].id.h, 3 + s[i].row);
        EXPECT_EQ(s[i].id.w, 3 + s[i].col);
    }
    EXPECT_EQ(s[9].id.t, 6);  // "resumes at 1 + the largest id, 6, where counting tokens would give 9"
    EXPECT_EQ(s[9].id.w, 6);
    // for text, M-RoPE is plain 1D RoPE
    const FrequencyTable f = compute_frequencies(p.config());
    const AxisLayout l = *p.axis_layout(RopeAxes::mrope, p[P::mrope_interleaved]);
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(f.dim, -1, 1), k = Eigen::VectorXd::LinSpaced(f.dim, 2, -0.5);
    EXPECT_NEAR(multi_axis_score(l, p.config().pairing, q, {11, 11, 11}, k, {4, 4, 4}), attention_score(f, p.config().pairing, q, 11, k, 4),
                1e-9);
}

TEST(LessonClaims, Step25ChunkedSectionsLeaveTheImageFlatAndInterleavedOnesDoNot) {
    const ParamSet p = at(25);
    EXPECT_EQ(p.mrope_section(false), (MropeSection{16, 24, 24}));  // "sections [16, 24, 24]"
    EXPECT_EQ(p.mrope_section(true), (MropeSection{24, 20, 20}));   // "[24, 20, 20]"
    EXPECT_EQ(p[P::base], 1e6);
    const AxisLayout chunked = *p.axis_layout(RopeAxes::mrope, false);
    EXPECT_NEAR(axis_spread(chunked, PositionAxis::w).shortest_wavelength, 35333, 0.5);  // "once in 35,333 columns"
    EXPECT_EQ(p[P::grid_rows], 12);  // "this 12 x 16 image"
    EXPECT_EQ(p[P::grid_cols], 16);
    const Eigen::MatrixXd c = patch_map(p, RopeAxes::mrope, false), i = patch_map(p, RopeAxes::mrope, true);
    EXPECT_GT(c.minCoeff(), 0.999);            // "stays within 0.001 of 1"
    EXPECT_NEAR(i.minCoeff(), 0.88, 0.005);    // "falls to 0.88"
}

TEST(LessonClaims, Step26TimeIdsStepWithTheFrameRate) {
    ParamSet p = at(26);
    EXPECT_EQ(p[P::media], Media::video);
    EXPECT_EQ(p[P::video_time_ids], VideoTimeIds::seconds);  // the Qwen2.5-VL preset
    VideoSpec s = p.video_spec();
    EXPECT_EQ(temporal_patches(s), 16);  // "F sampled frames make ceil(F / 2) temporal patches"
    // "at 2 fps ... steps by tokens_per_second = 2, at 4 fps by 1, at 1 fps by 4"
    for (const auto& [fps, step] : {std::pair{2.0, 2}, std::pair{4.0, 1}, std::pair{1.0, 4}}) {
        s.fps = fps;
        EXPECT_EQ(seconds_offset(s, 1), step) << fps;
        EXPECT_EQ(seconds_offset(s, 5), 5 * step) << fps;
    }
    s.fps = 2;
    EXPECT_EQ(timestamp_text(timestamp_seconds(s, 0)), "<0.2 seconds>");
}

TEST(LessonClaims, Step27TokensAndIdsAreTwoBudgets) {
    const ParamSet p = at(27);
    VideoSpec s = p.video_spec();
    s.text_before = s.text_after = 0;
    EXPECT_EQ(s.rows * s.cols * s.fps / s.temporal_patch_size, 192);  // "192 tokens a second"
    const VideoCost hour = video_costs(s, {3600})[0];
    EXPECT_EQ(hour.tokens, 691200);  // "an hour is 691,200 tokens"
    EXPECT_EQ(hour.ids, 7199);       // "and 7,199 ids"
    EXPECT_EQ(video_costs(s, {1000})[0].ids - video_costs(s, {999})[0].ids, 2);  // "2 position ids a second"
    EXPECT_EQ(p[P::max_position], 128000);
    // "the tokens pass the 128,000-token context after about 11 minutes"
    EXPECT_LT(video_costs(s, {10.5 * 60})[0].tokens, 128000);
    EXPECT_GT(video_costs(s, {11.5 * 60})[0].tokens, 128000);
    s.rule = VideoTimeIds::timestamps;
    EXPECT_EQ(video_costs(s, {3600})[0].ids, 96090);  // "the same hour uses 96,090 ids"
}

TEST(LessonClaims, Step28VideoRopeGivesTimeTheSlowestPairs) {
    const ParamSet p = at(28);
    const AxisLayout l = *p.axis_layout(RopeAxes::videorope, false);
    EXPECT_EQ(l.count(PositionAxis::t), 16);
    for (int j = 48; j < 64; ++j) EXPECT_EQ(l.axis[static_cast<std::size_t>(j)], PositionAxis::t);  // "the 16 slowest"
    for (int j = 0; j < 48; ++j) EXPECT_EQ(l.axis[static_cast<std::size_t>(j)], j % 2 ? PositionAxis::w : PositionAxis::h);
    const AxisLayout chunked = *p.axis_layout(RopeAxes::mrope, false);
    for (int j = 0; j < 16; ++j) EXPECT_EQ(chunked.axis[static_cast<std::size_t>(j)], PositionAxis::t);  // "the 16 fastest"
    EXPECT_EQ(p[P::video_spacing], 2);  // "video_spacing = 2"
    const VideoSpec s = p.video_spec();
    EXPECT_TRUE(s.diagonal);
    const PositionId a = video_patch_id(s, 3, 0, 0);  // "a patch's h and w start from the frame's t"
    EXPECT_EQ(a.h, a.t - (s.rows - 1) / 2);
    EXPECT_EQ(video_patch_id(s, 4, 0, 0).t - a.t, 2);
}
