// The "Today's models" figures and how every figure shows zero-frequency pairs and NoPE layers:
// the layouts of the partial-vs-proportional figure rotate as the core does, only the mixed tables
// break n - m, its table holds the core's frequencies, a click on the model anatomy loads a layer,
// and a NoPE layer gets a note instead of flat pictures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "rope/partial_layouts.hpp"
#include "figures/registry.hpp"
#include "rope/frequencies.hpp"
#include "rope/rotation.hpp"
#include "support/figure_build.hpp"
#include "support/random_vector.hpp"

using namespace rope;

namespace {

figures::FigureResult build_today(std::string_view name, const ParamSet& p, bool table = true, float w = 1100, float h = 700) {
    return rope::test::build_named(name, p, table, w, h);
}

using rope::test::params;

const std::vector<std::pair<std::string, std::string>> kGemma4Like = {
    {"layer_kinds",
     "sliding_attention: window=1024 dim=256 base=10000; full_attention: dim=512 base=1000000 scaling=proportional rotary_fraction=0.25"},
    {"model_layers", "5*sliding_attention,full_attention,5*sliding_attention,full_attention"},
    {"layer", "0"}};

using rope::test::has_text;

// The largest change of the score at one distance n - m when the query moves from m = 0 to 1000.
double drift(const LayoutTable& angles, const LayoutTable& partners, const Eigen::VectorXd& q, const Eigen::VectorXd& k) {
    double worst = 0;
    for (double n : {0.0, 3.0, 50.0})
        worst = std::max(worst, std::abs(score_with_tables(angles, partners, q, 0, k, n) -
                                         score_with_tables(angles, partners, q, 1000, k, 1000 + n)));
    return worst;
}

}  // namespace

// Each layout's tables rotate as the core does for that configuration (rotate_half pairing).
TEST(TodayFigures, LayoutsRotateAsTheCore) {
    for (double fraction : {0.25, 0.5, 0.75}) {
        const int dim = 64;
        for (RotaryLayout layout : {RotaryLayout::partial, RotaryLayout::proportional}) {
            const LayoutTable t = layout_table(layout, dim, fraction, 10000.0);
            const FrequencyTable f = compute_frequencies(layout_config(layout, dim, fraction, 10000.0));
            EXPECT_EQ(f.rotating_pairs, static_cast<int>(dim * fraction) / 2) << fraction;
            const Eigen::VectorXd x = rope::test::random_uniform_vector(dim, 7);
            for (double m : {0.0, 1.0, 37.0, 5000.0})
                EXPECT_LT((rotate_with_tables(t, t, x, m) - rotate(f, Pairing::half, x, m)).cwiseAbs().maxCoeff(), 1e-12)
                    << "layout " << static_cast<int>(layout) << ", f = " << fraction << ", m = " << m;
        }
    }
}

// Built as intended, the score depends on n - m only; with cos/sin of one layout and rotate_half of
// the other it depends on m too (both ways round).
TEST(TodayFigures, MixedTablesBreakTheRelativeProperty) {
    const LayoutTable partial = layout_table(RotaryLayout::partial, 128, 0.25, 1e6);
    const LayoutTable proportional = layout_table(RotaryLayout::proportional, 128, 0.25, 1e6);
    const Eigen::VectorXd q = rope::test::random_uniform_vector(128, 1), k = rope::test::random_uniform_vector(128, 2);
    EXPECT_LT(drift(partial, partial, q, k), 1e-9);
    EXPECT_LT(drift(proportional, proportional, q, k), 1e-9);
    EXPECT_GT(drift(proportional, partial, q, k), 0.05);
    EXPECT_GT(drift(partial, proportional, q, k), 0.05);
}

// The reported ports (#4195): proportional's values on partial's pairs. Still a rotation (n - m
// kept), but other scores than the model's. Not for q = k = all ones, where every pairing weighs
// each frequency alike (the curves agree to rounding), so the figure's own default, q = k = dims of
// unequal size, and random q, k.
TEST(TodayFigures, TransplantedValuesKeepNMinusMButNotTheScores) {
    const LayoutTable proportional = layout_table(RotaryLayout::proportional, 512, 0.25, 1e6);
    const LayoutTable transplanted = transplanted_table(RotaryLayout::partial, RotaryLayout::proportional, 512, 0.25, 1e6);
    auto largest_difference = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& k) {
        double worst = 0;
        for (double n = 0; n <= 256; ++n)
            worst = std::max(worst, std::abs(score_with_tables(transplanted, transplanted, q, 0, k, n) -
                                             score_with_tables(proportional, proportional, q, 0, k, n)));
        return worst;
    };
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(512);
    EXPECT_LT(largest_difference(ones, ones), 1e-9);  // all ones: no difference to see
    Eigen::VectorXd unequal(512);
    for (int j = 0; j < 512; ++j) unequal[j] = 1 + 0.9 * std::sin(2.4 * j);
    const Eigen::VectorXd q = rope::test::random_uniform_vector(512, 3), k = rope::test::random_uniform_vector(512, 4);
    for (const auto& [qv, kv] : {std::pair{unequal, unequal}, std::pair{q, k}}) {
        EXPECT_LT(drift(transplanted, transplanted, qv, kv), 1e-9);
        EXPECT_GT(largest_difference(qv, kv), 0.02 * std::abs(score_with_tables(proportional, proportional, qv, 0, kv, 0)));
    }
    EXPECT_GT(largest_difference(unequal, unequal), 20.0);  // 26.8 by numpy, of a score of 720 at n = m
    // the figure draws it by default, as one more curve of the scores as built
    const auto fig = build_today("partial_vs_proportional", params({{"dim", "512"}, {"rotary_fraction", "0.25"}, {"base", "1000000"}}), false);
    EXPECT_TRUE(has_text(fig, "proportional θ on partial pairs (#4195)"));
    EXPECT_FALSE(has_text(fig, "on the proportional curve here"));
    EXPECT_TRUE(has_text(fig, "spread ≈ 0") || has_text(fig, "spread over m ≈ 0"));
    // all ones set by hand: the legend says the curve lies on the proportional one
    std::string all_ones = "1";
    for (int j = 1; j < 512; ++j) all_ones += ",1";
    const auto ones_fig = build_today("partial_vs_proportional",
                                params({{"dim", "512"}, {"rotary_fraction", "0.25"}, {"base", "1000000"}, {"vector", all_ones}}), false);
    EXPECT_TRUE(has_text(ones_fig, "#4195's port: on the proportional curve here"));
}

// The CSV: per pair, each layout's frequency from the core; pairs that do not turn as 0 and inf.
TEST(TodayFigures, PartialVsProportionalTableHoldsTheCoreFrequencies) {
    const auto fig = build_today("partial_vs_proportional", params({{"dim", "512"}, {"rotary_fraction", "0.25"}, {"base", "1000000"}}));
    const figures::DataTable& t = fig.table;
    ASSERT_EQ(t.columns, (std::vector<std::string>{"pair", "theta_partial", "theta_proportional"}));
    ASSERT_EQ(t.rows(), 256u);
    const Eigen::VectorXd partial = base_frequencies(1e6, 128), proportional = proportional_frequencies(1e6, 512, 64);
    for (int i = 0; i < 256; ++i) {
        EXPECT_EQ(t.values[1][i], i < 64 ? partial[i] : 0.0) << i;
        EXPECT_EQ(t.values[2][i], proportional[i]) << i;
        EXPECT_EQ(t.values[2][i] == 0.0, i >= 64) << i;
    }
    EXPECT_DOUBLE_EQ(proportional[63], std::pow(1e6, -126.0 / 512));  // b^(-2i/d): the whole head in the exponent
    EXPECT_DOUBLE_EQ(partial[63], std::pow(1e6, -126.0 / 128));       // b^(-2i/r): the rotated dims
    // its four plots, the zero pairs named, the porting bugs cited
    EXPECT_EQ(fig.plots.size(), 4u);
    EXPECT_TRUE(has_text(fig, "θ = 0: pass through") || has_text(fig, "pairs 64–255: θ = 0, pass through"));
    EXPECT_TRUE(has_text(fig, "#4195/#4916"));
    // the picture's spreads: none for the layouts as built, some for the mixed tables
    EXPECT_TRUE(has_text(fig, "spread ≈ 0") || has_text(fig, "spread over m ≈ 0"));
}

// A click on a layer's cell, or on a kind's row, loads that layer (one edit, validated like --set).
TEST(TodayFigures, AnatomyClickLoadsTheLayer) {
    const ParamSet p = params(kGemma4Like);
    const auto fig = build_today("model_anatomy", p, false);
    const figures::PlotGeometry* strip = fig.plot("anatomy_layers");
    const figures::PlotGeometry* kinds = fig.plot("anatomy_kinds");
    ASSERT_NE(strip, nullptr);
    ASSERT_NE(kinds, nullptr);
    figures::FigureCache cache;
    int grab = 0;
    ParamSet edited = p;
    std::vector<std::string> labels;
    figures::PanelContext panel{p, cache, fig,
                                [&](const std::string& label, const std::function<void(ParamSet&)>& change) {
                                    ParamSet next = p;
                                    change(next);
                                    next.validate();
                                    edited = next;
                                    labels.push_back(label);
                                    return true;
                                },
                                grab};
    const auto& pointer = *figures::figure("model_anatomy").pointer;
    figures::PointerInput in;
    in.pressed = in.held = in.hovered = true;
    in.local = strip->px(5.5, 0.5);
    pointer(panel, in);
    ASSERT_EQ(labels.size(), 1u);
    EXPECT_EQ(edited[P::layer], 5);
    EXPECT_EQ(edited[P::dim], 512);
    EXPECT_TRUE(edited.config().is_proportional());
    EXPECT_EQ(edited.config().rotating_pairs(), 64);
    // the second row (full_attention) from layer 0: its first layer, 5
    in.local = {(kinds->area.x0 + kinds->area.x1) / 2, kinds->area.y0 + kinds->area.height() * 0.75f};
    pointer(panel, in);
    ASSERT_EQ(labels.size(), 2u);
    EXPECT_EQ(edited[P::layer], 5);
    // a click on the layer already loaded changes nothing
    in.local = strip->px(0.5, 0.5);
    pointer(panel, in);
    EXPECT_EQ(labels.size(), 2u);
}

// One CSV row per layer with its kind's numbers; the selected layer and the temperature curve.
TEST(TodayFigures, AnatomyTableAndTemperature) {
    auto sets = kGemma4Like;
    sets.push_back({"layer", "11"});
    const auto fig = build_today("model_anatomy", params(sets));
    const figures::DataTable& t = fig.table;
    ASSERT_EQ(t.rows(), 12u);
    EXPECT_EQ(t.values[1][5], 1);      // kind: full_attention
    EXPECT_EQ(t.values[5][5], 512);    // head dim
    EXPECT_EQ(t.values[6][5], 64);     // rotating pairs
    EXPECT_EQ(t.values[6][0], 128);    // a sliding layer: every pair of its 256 dims
    EXPECT_EQ(t.values[2][0], 1024);   // its window
    EXPECT_EQ(t.values[7][11], 1);     // selected
    EXPECT_EQ(fig.plot("anatomy_temperature"), nullptr);  // no NoPE layer

    const auto llama = build_today("model_anatomy", params({{"layer_kinds", "chunked_attention: window=8192 base=500000; full_attention: nope=true"},
                                                     {"model_layers", "3*chunked_attention,full_attention"},
                                                     {"layer", "3"},
                                                     {"attn_temperature_tuning", "true"},
                                                     {"max_position", "1048576"}}));
    ASSERT_NE(llama.plot("anatomy_temperature"), nullptr);
    EXPECT_EQ(llama.table.values[3][3], 1);  // nope
    EXPECT_EQ(llama.table.values[6][3], 0);
    EXPECT_TRUE(has_text(llama, "NoPE"));
    EXPECT_TRUE(has_text(llama, "a step every 8192 tokens"));
}

// Without a model: a note on how to load one. On a NoPE layer: every rotation figure says why it is
// empty (and draws no plot to click), the anatomy still shows the model.
TEST(TodayFigures, NotesForNoModelAndForNoPE) {
    EXPECT_THROW(build_today("model_anatomy", ParamSet{}), std::invalid_argument);  // no table of layers to write
    const auto none = build_today("model_anatomy", ParamSet{}, false);
    EXPECT_TRUE(none.plots.empty());
    EXPECT_TRUE(has_text(none, "No model with layers"));
    const ParamSet nope = params({{"nope", "true"}});
    for (const figures::FigureDescriptor* d : figures::all_figures()) {
        const auto fig = build_today(d->name, nope, false);
        if (d->draws_nope) continue;
        EXPECT_TRUE(fig.plots.empty()) << d->name;
        EXPECT_TRUE(has_text(fig, "This layer is NoPE")) << d->name;
    }
}

// Proportional RoPE's pairs of frequency 0: marked on the heatmap, at 0 for every base in the sweep
// (not swept as if they turned), in grey on the pairing diagram's title.
TEST(TodayFigures, ZeroFrequencyPairsAreShownAsSuch) {
    const ParamSet p = params({{"dim", "512"}, {"scaling", "proportional"}, {"rotary_fraction", "0.25"}, {"base", "1000000"}, {"pairing", "half"}});
    EXPECT_TRUE(has_text(build_today("heatmap", p, false), "θ = 0, they pass through"));
    const auto sweep = build_today("sweep", p, true, 1600, 1000);
    EXPECT_TRUE(has_text(sweep, "at every base"));
    const figures::DataTable& t = sweep.table;
    ASSERT_GT(t.rows(), 0u);
    for (std::size_t r = 0; r < t.rows(); ++r) {
        EXPECT_LT(t.values[1][r], 64) << r;  // the pairs of frequency 0 have no wavelength to list
        EXPECT_TRUE(std::isfinite(t.values[2][r])) << r;
    }
    EXPECT_TRUE(has_text(build_today("pairing", p, false), "(grey: θ = 0)"));
    EXPECT_TRUE(has_text(build_today("context", p, false, 1600, 1000), "θ = 0: pass through"));
    for (std::string_view name : {"vectors", "heatmap", "sweep", "decay", "context", "scores", "pairing", "precision", "sinusoidal"})
        EXPECT_EQ(plot::first_non_finite(build_today(name, p, false).list), "") << name;
}

// The context panel on a proportional layer: its compared context extensions would be ordinary
// partial rotary with other pairs (fewer of them), so they are left out instead of being read
// past their end (found by AddressSanitizer in the soak); the table stays rectangular and finite.
TEST(TodayFigures, ContextLeavesOutVariantsWithOtherPairs) {
    const ParamSet p = params({{"dim", "128"}, {"scaling", "proportional"}, {"rotary_fraction", "0.25"}, {"base", "1000000"},
                               {"compare", "linear,ntk,dynamic,yarn,llama3,longrope"}});
    const figures::FigureResult r = build_today("context", p);
    ASSERT_FALSE(r.table.columns.empty());
    for (const std::string& c : r.table.columns) EXPECT_EQ(c.rfind("theta_linear", 0), std::string::npos) << c;
    for (const auto& column : r.table.values) {
        EXPECT_EQ(column.size(), r.table.rows());
        for (double v : column) EXPECT_TRUE(std::isfinite(v));
    }
    // an ordinary partial config keeps its variants
    const ParamSet q = params({{"dim", "128"}, {"rotary_fraction", "0.25"}, {"compare", "linear"}});
    const figures::FigureResult s = build_today("context", q);
    EXPECT_NE(std::find(s.table.columns.begin(), s.table.columns.end(), "theta_linear"), s.table.columns.end());
}
