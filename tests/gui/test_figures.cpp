// The figures as the panels build them, without a window: the plotted data equals the core's
// values, far positions are coloured from double-precision angles, and nothing is recomputed when
// nothing changed.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <thread>

#include "figures/heatmap_cells.hpp"
#include "figures/registry.hpp"
#include "support/synthetic_model.hpp"
#include "rope/decay.hpp"
#include "rope/frequencies.hpp"
#include "rope/phasor.hpp"
#include "support/figure_build.hpp"

using namespace rope;

namespace {

figures::FigureResult build(const figures::FigureDescriptor& id, const ParamSet& p, figures::FigureCache& cache, bool table = true) {
    figures::FigureRequest r;
    r.figure = &id;
    r.width = 900;
    r.height = 520;
    r.with_table = table;
    return figures::build_figure(r, p, cache);
}

using rope::test::params;

template <typename T>
std::vector<const T*> commands(const plot::DisplayList& list) {
    std::vector<const T*> out;
    for (const auto& c : list.commands)
        if (const T* t = std::get_if<T>(&c)) out.push_back(t);
    return out;
}

}  // namespace

TEST(Figures, DecayPanelPlotsTheCoreBound) {
    figures::FigureCache cache(rope::weights::folder_reader());
    const ParamSet p = params({{"dim", "64"}, {"max_distance", "3000"}, {"base", "20000"}});
    const auto fig = build(figures::figure("decay"), p, cache);
    ASSERT_EQ(fig.table.columns[0], "distance");
    ASSERT_EQ(fig.table.columns[1], "bound");
    const Eigen::VectorXd expect = decay_bound(base_frequencies(20000.0, 64), 3000);
    ASSERT_EQ(fig.table.rows(), 3001u);
    for (int r = 0; r <= 3000; ++r) {
        EXPECT_EQ(fig.table.values[0][r], r);
        EXPECT_EQ(fig.table.values[1][r], expect[r]);
    }
    // and the line on screen passes through the bound at r = 1 (log axis: r = 0 is off the axis)
    const figures::PlotGeometry* g = fig.plot("decay");
    ASSERT_NE(g, nullptr);
    const plot::Vec2 at1 = g->px(1.0, expect[1]);
    bool found = false;
    for (const auto* l : commands<plot::PolylineCmd>(fig.list))
        for (const plot::Vec2& q : l->points) found = found || (std::abs(q.x - at1.x) < 0.01f && std::abs(q.y - at1.y) < 0.01f);
    EXPECT_TRUE(found);
}

TEST(Figures, HeatmapColoursDoubleAnglesAtFarPositions) {
    figures::FigureCache cache(rope::weights::folder_reader());
    const ParamSet p = params({{"max_position", "2000000"}, {"heatmap_from", "1000000"}, {"heatmap_to", "1000200"}});
    const auto fig = build(figures::figure("heatmap"), p, cache);
    const auto images = commands<plot::ImageCmd>(fig.list);
    ASSERT_GE(images.size(), 1u);
    const plot::ImageCmd& img = *images.back();  // the heatmap (the colour bar is drawn first)
    ASSERT_EQ(img.cols, 200);                 // one column per position when zoomed in
    ASSERT_EQ(img.rows, 64);
    const Eigen::VectorXd theta = base_frequencies(10000.0, 128);
    double worst = 0;
    for (int c = 0; c < img.cols; ++c) {
        const double m = 1000000.0 + c;
        for (int k = 0; k < 64; ++k) {
            const double exact = std::atan2(std::sin(m * theta[k]), std::cos(m * theta[k]));
            const double shown = img.values[static_cast<std::size_t>(63 - k) * img.cols + c];
            worst = std::max(worst, std::abs(std::remainder(shown - exact, 2 * kPi)));
        }
    }
    EXPECT_LT(worst, 1e-3);  // the contract
    EXPECT_LT(worst, 1e-6);  // what narrowing a double angle to float costs
    // float32 m * theta would not do: show that the test can tell
    double float_worst = 0;
    for (int k = 0; k < 64; ++k) {
        const float a = 1000123.0f * static_cast<float>(theta[k]);
        const double exact = std::remainder(1000123.0 * theta[k], 2 * kPi);
        float_worst = std::max(float_worst, std::abs(std::remainder(static_cast<double>(a) - exact, 2 * kPi)));
    }
    EXPECT_GT(float_worst, 1e-3);
}

TEST(Figures, HeatmapTableIsTheCoreAngleTable) {
    figures::FigureCache cache(rope::weights::folder_reader());
    const ParamSet p = params({{"dim", "16"}, {"max_position", "300"}});
    const auto fig = build(figures::figure("heatmap"), p, cache);
    ASSERT_EQ(fig.table.columns[4], "angle");
    const Eigen::VectorXd theta = base_frequencies(10000.0, 16);
    ASSERT_EQ(fig.table.rows(), 300u * 8u);  // zoomed in this far, a cell is one position and one pair
    for (std::size_t i = 0; i < fig.table.rows(); ++i) {
        const double m = fig.table.values[0][i];
        const int k = static_cast<int>(fig.table.values[2][i]);
        EXPECT_EQ(fig.table.values[1][i], m + 1);
        EXPECT_EQ(fig.table.values[3][i], k + 1);
        EXPECT_NEAR(std::remainder(fig.table.values[4][i] - m * theta[k], 2 * kPi), 0.0, 1e-12);
    }
}

// d = 16 over 4096 positions: pair 0 (1 rad/token) turns about once per pixel column, so its cells
// fade to grey; the slowest pair keeps its full colour. Before, a sampled column drew pair 0 as a
// slower wave than pair 1.
TEST(Figures, HeatmapFadesPairsThatTurnWithinACell) {
    figures::FigureCache cache(rope::weights::folder_reader());
    const auto fig = build(figures::figure("heatmap"), params({{"dim", "16"}}), cache);
    const auto images = commands<plot::ImageCmd>(fig.list);
    ASSERT_EQ(images.size(), 2u);
    const plot::ImageCmd& bar = *images.front();
    EXPECT_GT(bar.cols, 1);  // the colour bar is a key in two dimensions: value up, weight across
    ASSERT_EQ(bar.weights.size(), bar.values.size());
    EXPECT_EQ(bar.weights.front(), 1.0f);
    EXPECT_EQ(bar.weights[static_cast<std::size_t>(bar.cols) - 1], 0.0f);
    const plot::ImageCmd& img = *images.back();
    ASSERT_EQ(img.rows, 8);
    ASSERT_EQ(img.weights.size(), img.values.size());
    float pair0 = 0, slowest = 1;
    for (int c = 0; c < img.cols; ++c) {
        pair0 = std::max(pair0, img.weights[static_cast<std::size_t>(7) * img.cols + c]);  // bottom row: pair 0
        slowest = std::min(slowest, img.weights[static_cast<std::size_t>(c)]);
    }
    EXPECT_LT(pair0, 0.25f);
    EXPECT_GT(slowest, 0.99f);
    // cos mode: the mean cos itself (near 0 for pair 0), no fade
    const auto cos_fig = build(figures::figure("heatmap"), params({{"dim", "16"}, {"heatmap_mode", "cos"}}), cache);
    const plot::ImageCmd& cos_img = *commands<plot::ImageCmd>(cos_fig.list).back();
    EXPECT_TRUE(cos_img.weights.empty());
    for (int c = 0; c < cos_img.cols; ++c) EXPECT_LT(std::abs(cos_img.values[static_cast<std::size_t>(7) * cos_img.cols + c]), 0.25f);
}

// Lesson 8: the context panel's "before" and "after" of the same unscaled config are the same
// picture, and their difference is 0 everywhere (on the cyclic map, at full colour).
TEST(Figures, ContextBeforeAndAfterOfOneConfigAreOnePicture) {
    figures::FigureCache cache(rope::weights::folder_reader());
    figures::FigureRequest r;  // its own export size: all seven plots
    r.figure = &figures::figure("context");
    r.width = 1280;
    r.height = 720;
    const auto fig = figures::build_figure(r, params({{"preset", "llama-2-7b"}, {"max_position", "16384"}}), cache);
    std::vector<const plot::ImageCmd*> heatmaps;
    for (const auto* img : commands<plot::ImageCmd>(fig.list))
        if (img->cols > 8) heatmaps.push_back(img);  // not the colour bars
    ASSERT_EQ(heatmaps.size(), 3u);
    EXPECT_EQ(heatmaps[0]->cols, heatmaps[1]->cols);
    EXPECT_EQ(heatmaps[0]->rows, heatmaps[1]->rows);
    EXPECT_EQ(heatmaps[0]->values, heatmaps[1]->values);
    EXPECT_EQ(heatmaps[0]->weights, heatmaps[1]->weights);
    EXPECT_EQ(heatmaps[2]->colormap, plot::ColormapId::cyclic);
    for (std::size_t i = 0; i < heatmaps[2]->values.size(); ++i) {
        EXPECT_EQ(heatmaps[2]->values[i], 0.0f);
        EXPECT_EQ(heatmaps[2]->weights[i], 1.0f);
    }
}

TEST(Figures, NonFiniteCheckReadsImageWeights) {
    plot::DisplayList list;
    list.add(plot::ImageCmd{{0, 0, 10, 10}, 2, 1, {0.0f, 1.0f}, plot::ColormapId::cyclic, -1, 1, {1.0f, 0.5f}});
    EXPECT_EQ(plot::first_non_finite(list), "");
    std::get<plot::ImageCmd>(list.commands[0]).weights[1] = std::nanf("");
    EXPECT_NE(plot::first_non_finite(list).find("weight"), std::string::npos);
    std::get<plot::ImageCmd>(list.commands[0]).weights = {1.0f};
    EXPECT_NE(plot::first_non_finite(list).find("weight"), std::string::npos);
}

TEST(Figures, EveryFigureHasLabelledAxes) {
    figures::FigureCache cache(rope::weights::folder_reader());
    const ParamSet p;
    // the model anatomy draws plots for a model with layers (without one: a note on how to load one)
    const ParamSet model = params({{"layer_kinds", "chunked_attention: window=8192; full_attention: nope=true"},
                                   {"model_layers", "3*chunked_attention,full_attention"},
                                   {"layer", "0"},
                                   {"attn_temperature_tuning", "true"}});
    for (const figures::FigureDescriptor* each : figures::all_figures()) {
        const figures::FigureDescriptor& id = *each;
        // the trained model panel likewise for a model folder
        const auto fig = build(id, id.name == "model_anatomy" ? model : id.name == "trained" ? test::with_synthetic_model() : p, cache, false);
        EXPECT_FALSE(fig.plots.empty()) << id.name;
        std::size_t texts = commands<plot::TextCmd>(fig.list).size();
        EXPECT_GT(texts, 5u) << id.name;
        for (const auto* t : commands<plot::TextCmd>(fig.list)) {
            EXPECT_GE(t->pos.x, -1.0f) << t->text;
            EXPECT_LE(t->pos.x, 901.0f) << t->text;
            EXPECT_GE(t->pos.y, -1.0f) << t->text;
            EXPECT_LE(t->pos.y, 521.0f) << t->text;
        }
    }
    // units on the axes people read
    const auto decay = build(figures::figure("decay"), p, cache, false);
    bool tokens = false;
    for (const auto* t : commands<plot::TextCmd>(decay.list)) tokens = tokens || t->text.find("(tokens)") != std::string::npos;
    EXPECT_TRUE(tokens);
}

TEST(Figures, NothingIsRecomputedWhenNothingChanged) {
    figures::FigureCache cache(rope::weights::folder_reader());
    ParamSet p;
    for (const figures::FigureDescriptor* id : figures::all_figures()) build(*id, p, cache, false);
    const auto after_first = cache.computations();
    for (const figures::FigureDescriptor* id : figures::all_figures()) build(*id, p, cache, false);
    EXPECT_EQ(cache.computations(), after_first);
    p.set(P::position, "10");  // the frequencies and curves do not depend on the position
    for (const figures::FigureDescriptor* id : figures::all_figures()) build(*id, p, cache, false);
    EXPECT_EQ(cache.computations(), after_first);
    p.set(P::base, "20000");
    build(figures::figure("decay"), p, cache, false);
    EXPECT_GT(cache.computations(), after_first);
}

// The sweep reads neither the position nor the pair: moving them rebuilds no sweep data (its
// grid, decay curves, cosine sum), even at a million positions of 512 pairs.
TEST(Figures, MovingThePositionReusesEveryPartOfTheSweep) {
    figures::FigureCache cache(rope::weights::folder_reader());
    ParamSet p = params({{"max_position", "1048576"}, {"dim", "1024"}});
    build(figures::figure("sweep"), p, cache, false);
    const auto after_first = cache.computations();
    for (const char* position : {"5", "70000", "1048575"}) {
        p.set(P::position, position);
        build(figures::figure("sweep"), p, cache, false);
        EXPECT_EQ(cache.computations(), after_first) << "position " << position;
    }
    p.set(P::base, "20000");  // and the base does change them
    build(figures::figure("sweep"), p, cache, false);
    EXPECT_GT(cache.computations(), after_first);
}

// A long cosine sum shared out in parts (as the panels' workers run them, here on threads of the
// test's own) gives the very picture the single pass gives, and a stopped one publishes nothing.
TEST(Figures, CosineSumInPartsDrawsTheSamePictureAndAStoppedOneNothing) {
    const ParamSet p = params({{"max_position", "1048576"}, {"dim", "1024"}, {"base", "31000"}});
    figures::FigureCache alone, shared;
    std::size_t most_jobs = 0;
    shared.set_parallel([&](std::vector<std::function<void()>> jobs) {
        most_jobs = std::max(most_jobs, jobs.size());
        std::vector<std::thread> threads;
        for (std::size_t i = 1; i < jobs.size(); i += 2) threads.emplace_back(jobs[i]);  // every other one elsewhere
        for (std::size_t i = 0; i < jobs.size(); i += 2) jobs[i]();
        for (std::thread& t : threads) t.join();
    });
    const auto a = build(figures::figure("sweep"), p, alone, false), b = build(figures::figure("sweep"), p, shared, false);
    EXPECT_GT(most_jobs, 1u);
    std::string why;
    EXPECT_TRUE(figures::same_picture(a.list, b.list, &why)) << why;

    figures::FigureCache stopped;
    stopped.set_parallel([](std::vector<std::function<void()>>) {});  // every job dropped: the caller runs them
    stopped.stop_background();
    const auto theta = stopped.frequencies(p)->theta;
    const auto before = stopped.computations();
    EXPECT_THROW(stopped.cosine_sum(theta, 1048576, 700, true), std::exception);
    EXPECT_EQ(stopped.computations(), before) << "a stopped sum is never kept";
}

TEST(Figures, VectorsPanelShowsTheCoreRotation) {
    figures::FigureCache cache(rope::weights::folder_reader());
    const ParamSet p = params({{"dim", "8"}, {"position", "7"}, {"vector", "1,2,3,4,5,6,7,8"}});
    const auto fig = build(figures::figure("vectors"), p, cache);
    ASSERT_EQ(fig.table.columns[4], "rotated_first");
    const FrequencyTable f = compute_frequencies(p.config());
    for (int k = 0; k < 4; ++k) {
        const double a = 7.0 * f.theta[k];
        const double x = 2 * k + 1, y = 2 * k + 2;
        EXPECT_NEAR(fig.table.values[4][k], x * std::cos(a) - y * std::sin(a), 1e-12);
        EXPECT_NEAR(fig.table.values[5][k], x * std::sin(a) + y * std::cos(a), 1e-12);
    }
}

TEST(Figures, HugeDistancesAreSampledNotAllocated) {
    figures::FigureCache cache(rope::weights::folder_reader());
    const ParamSet p = params({{"max_distance", "1000000000000"}});
    const auto fig = build(figures::figure("decay"), p, cache);
    ASSERT_LT(fig.table.rows(), 100000u);
    EXPECT_EQ(fig.table.values[0].back(), 1e12);
    const Eigen::VectorXd theta = base_frequencies(10000.0, 128);
    DecayBound bound(theta);
    for (std::size_t i = fig.table.rows() - 5; i < fig.table.rows(); ++i) {
        double b = 0;
        bound.compute(static_cast<std::int64_t>(fig.table.values[0][i]), 1, &b);
        EXPECT_EQ(fig.table.values[1][i], b);
    }
    for (std::size_t i = 1; i < fig.table.rows(); ++i) EXPECT_LT(fig.table.values[0][i - 1], fig.table.values[0][i]);
}

// The hover readout names the cell under the pointer: the image's columns and rows spread evenly
// over the axes, so a point maps to the cell drawn there, whose ranges are the grid's cuts.
TEST(Figures, HeatmapPointerFindsTheCellDrawnThere) {
    figures::CellAt cell;
    ASSERT_TRUE(figures::heatmap_cell_at(0, 4096, 8, 636, 8, 0.2, -0.4, cell));
    EXPECT_EQ(cell.position_from, 0);
    EXPECT_EQ(cell.pair_from, 0);
    EXPECT_EQ(cell.pair_to, 1);
    const std::vector<std::int64_t> edges = cell_edges(0, 4096, 636);
    ASSERT_TRUE(figures::heatmap_cell_at(0, 4096, 8, 636, 8, 4095.5, 7.2, cell));
    EXPECT_EQ(cell.position_from, edges[635]);
    EXPECT_EQ(cell.position_to, 4096);
    EXPECT_EQ(cell.pair_from, 7);
    // 512 pairs in 300 rows: a row holds one or two pairs, and pair 511 is in the last
    ASSERT_TRUE(figures::heatmap_cell_at(1000, 2000, 512, 100, 300, 1500, 511.4, cell));
    EXPECT_EQ(cell.pair_to, 512);
    EXPECT_LE(cell.pair_from, 511);
    EXPECT_GE(cell.pair_from, 510);
    EXPECT_LE(cell.position_from, 1500);
    EXPECT_GT(cell.position_to, 1500);
    EXPECT_FALSE(figures::heatmap_cell_at(0, 4096, 8, 636, 8, 4096, 0, cell));
    EXPECT_FALSE(figures::heatmap_cell_at(0, 4096, 8, 636, 8, 5, 7.6, cell));
}

// A panel too small for all its plots says how many it shows; in the grid it suggests maximising the
// panel (its number key), but a maximised panel does not suggest what it already is.
TEST(Figures, TheLeftOutNoteSuggestsMaximisingOnlyWhenNotMaximised) {
    figures::FigureCache cache(rope::weights::folder_reader());
    auto note = [&](bool maximized) {
        figures::FigureRequest r;
        r.figure = &figures::figure("precision");
        r.width = 700;
        r.height = 300;
        r.maximized = maximized;
        const figures::FigureResult result = figures::build_figure(r, ParamSet(), cache);
        for (const plot::TextCmd* t : commands<plot::TextCmd>(result.list))
            if (t->text.find(" plots") != std::string::npos) return t->text;
        return std::string();
    };
    const std::string in_grid = note(false), maximised = note(true);
    ASSERT_FALSE(in_grid.empty());
    ASSERT_FALSE(maximised.empty());
    EXPECT_NE(in_grid.find("maximise"), std::string::npos) << in_grid;
    EXPECT_EQ(maximised.find("maximise"), std::string::npos) << maximised;
    EXPECT_NE(maximised.find("larger window"), std::string::npos) << maximised;
}

// No figure shows a parameter's code as words (frame_index, per_axis, 2d_axial, a_minus_b: a choice
// written with an underscore is the --set value, not a word a reader knows), in its texts on screen
// and in a file, or in its alt text, at the states that select those choices. The model card lists
// parameters by their --set names and values on purpose, and is left out.
TEST(Figures, NoFigureShowsAParametersCodeAsWords) {
    std::vector<std::string> codes;
    for (const ParamSpec& spec : parameter_table())
        if (spec.type == ParamType::choice || spec.type == ParamType::choice_list)
            for (std::string_view c : spec.choices)
                if (c.find('_') != std::string_view::npos) codes.emplace_back(c);
    ASSERT_FALSE(codes.empty());
    const std::vector<ParamSet> states = {
        ParamSet{},
        params({{"preset", "qwen2-vl-7b"}, {"media", "video"}}),  // video_time_ids = frame_index
        params({{"rope_axes", "2d_axial"}, {"axial_frequencies", "per_axis"}}),
        params({{"preset", "llama-2-7b"}, {"compare_to", "llama-3-8b"}, {"heatmap_mode", "a_minus_b"}}),
    };
    figures::FigureCache cache;
    for (const ParamSet& state : states)
        for (const figures::FigureDescriptor* f : figures::all_figures()) {
            if (f->name == "model_card" || f->name == "trained") continue;  // the trained figure has no model folder here
            for (bool interactive : {true, false}) {
                figures::FigureRequest r;
                r.figure = f;
                r.width = 1000;
                r.height = 640;
                r.interactive = interactive;
                const figures::FigureResult fig = figures::build_figure(r, state, cache);
                std::string words = f->describe ? f->describe(state, fig) : "";
                for (const plot::TextCmd* t : commands<plot::TextCmd>(fig.list)) words += "\n" + t->text;
                for (const std::string& code : codes)
                    EXPECT_EQ(words.find(code), std::string::npos) << f->name << " shows " << code << " (state " << state.value_text(P::preset) << ")";
            }
        }
}
