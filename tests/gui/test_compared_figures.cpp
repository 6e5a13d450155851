// Model B (compare_to) in every figure: a figure that does not draw B itself shows two pictures, A's
// and B's, each what that model alone gives at that size; its table is both tables in long form
// (model a, then b). Pairs of presets with other head dims, partial and proportional RoPE, 1D and
// M-RoPE.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "export/still_writers.hpp"
#include "figures/compared_build.hpp"
#include "figures/registry.hpp"
#include "plot/label_placer.hpp"
#include "rope/frequencies.hpp"
#include <algorithm>

using namespace rope;

namespace {

ParamSet pair_of(const std::string& a, const std::string& b) {
    ParamSet p;
    p.set("preset", a);
    p.set("compare_to", b);
    p.validate();
    return p;
}

ParamSet alone(const ParamSet& p) {
    ParamSet q = p;
    q.set("compare_to", "unscaled");
    return q;
}

figures::FigureRequest request(const figures::FigureDescriptor& f, float w, float h) {
    figures::FigureRequest r;
    r.figure = &f;
    r.width = w;
    r.height = h;
    r.with_table = true;
    return r;
}

// Rows [from, from + n) of the long table equal `own`, column by column (by name).
void expect_rows_equal(const figures::DataTable& long_table, std::size_t from, const figures::DataTable& own, const std::string& what) {
    ASSERT_GE(long_table.rows(), from + own.rows()) << what;
    for (std::size_t c = 0; c < own.columns.size(); ++c) {
        std::size_t lc = 0;
        while (lc < long_table.columns.size() && long_table.columns[lc] != own.columns[c]) ++lc;
        ASSERT_LT(lc, long_table.columns.size()) << what << ": no column " << own.columns[c];
        for (std::size_t r = 0; r < own.rows(); ++r) {
            const double want = own.values[c][r], got = long_table.values[lc][from + r];
            if (std::isnan(want)) EXPECT_TRUE(std::isnan(got)) << what;
            else ASSERT_EQ(got, want) << what << ", column " << own.columns[c] << ", row " << r;
        }
    }
}

const std::vector<std::pair<std::string, std::string>>& pairs() {
    static const std::vector<std::pair<std::string, std::string>> p = {
        {"llama-2-7b", "llama-3-8b"},        // two generations, one head dim
        {"qwen2.5-vl-7b", "qwen3-vl-8b"},    // chunked and interleaved M-RoPE
        {"gemma-3-12b", "gemma-4-31b"},      // 256 against 512 proportional, with layers
        {"llama-3.2-1b", "gpt-j-6b"},        // 64 against 256 with 64 rotated (partial)
        {"rope-vit-deit-b", "qwen2.5-vl-7b"},  // 2D axial against M-RoPE
    };
    return p;
}

}  // namespace

TEST(ComparedFigures, EachPictureIsThatModelAloneAndTheTableHoldsBoth) {
    figures::FigureCache cache;
    int two = 0;
    for (const auto& [a_name, b_name] : pairs()) {
        const ParamSet ab = pair_of(a_name, b_name);
        const ParamSet a = alone(ab), b = *ab.compared_model();
        for (const figures::FigureDescriptor* f : figures::all_figures()) {
            if (f->model_b == figures::ModelBView::itself) continue;
            const std::string what = std::string(f->name) + ", A " + a_name + ", B " + b_name;
            const figures::FigureRequest r = request(*f, 1900, 1400);
            // a table one of the models has none of (layers of a model without layers): refused for the pair too
            bool refused = false;
            for (const ParamSet* m : {&a, &b}) try {
                    figures::build_figure(request(*f, 900, 600), *m, cache);
                } catch (const std::invalid_argument&) {
                    refused = true;
                }
            if (refused) {
                EXPECT_THROW(figures::build_figure(r, ab, cache), std::invalid_argument) << what;
                continue;
            }
            const figures::FigureResult both = figures::build_figure(r, ab, cache);
            ASSERT_FALSE(both.error) << what;
            // the table: A's rows labelled a, then B's labelled b
            // (a figure that draws B itself here, the anatomy's two strips: one picture of the full size)
            const bool itself = f->draws_b_itself && f->draws_b_itself(ab);
            figures::detail::ComparedSplit split = figures::detail::compared_split(*f, ab, b, r.style, r.width, r.height);
            if (itself) split.a = split.b = {0, 0, r.width, r.height};
            ASSERT_TRUE(split.both || itself) << what << ": 1900x1400 holds both pictures";
            // each alone as its half is built: its pair axis i ÷ pairs where B has another pair count
            auto half = [&](plot::Rect area) {  // as build_compared builds each half: untitled
                figures::FigureRequest h = request(*f, area.width(), area.height());
                h.pair_fraction_axis = figures::detail::pair_fraction_axis(*f, a, b);
                h.style.draw_titles = false;
                return h;
            };
            const figures::DataTable ta = figures::build_figure(half(split.a), a, cache).table;
            const figures::DataTable tb = figures::build_figure(half(split.b), b, cache).table;
            EXPECT_EQ(both.table.label_column, "model") << what;
            ASSERT_EQ(both.table.labels.size(), ta.rows() + tb.rows()) << what;
            for (std::size_t i = 0; i < both.table.labels.size(); ++i)
                ASSERT_EQ(both.table.labels[i], i < ta.rows() ? "a" : "b") << what << ", row " << i;
            expect_rows_equal(both.table, 0, ta, what + " (A)");
            expect_rows_equal(both.table, ta.rows(), tb, what + " (B)");
            if (itself) continue;
            // the picture: B's plots beside or below A's, or one picture where the two are the same
            bool has_b = false;
            for (const figures::PlotGeometry& g : both.plots) has_b = has_b || g.model == 1;
            const bool same = figures::same_picture(figures::build_figure(half(split.a), a, cache).list,
                                                    figures::build_figure(half(split.b), b, cache).list);
            if (!same) {
                EXPECT_TRUE(has_b) << what << ": no plot of B's picture";
                ++two;
            }
        }
    }
    EXPECT_GT(two, 40);  // most figures differ between most pairs
}

// The CSV: a first column `model`, then the figure's own columns; a cell of a column only the other
// model has is empty.
TEST(ComparedFigures, TheCsvLeadsWithTheModelColumn) {
    figures::FigureCache cache;
    const ParamSet ab = pair_of("llama-2-7b", "llama-3-8b");
    const figures::FigureResult fig = figures::build_figure(request(figures::figure("sinusoidal"), 1600, 1000), ab, cache);
    const std::string csv = exporting::table_csv(fig.table);
    EXPECT_EQ(csv.rfind("model,", 0), 0u) << csv.substr(0, 80);
    EXPECT_NE(csv.find("\na,"), std::string::npos);
    EXPECT_NE(csv.find("\nb,"), std::string::npos);
    figures::DataTable t;
    t.label_column = "model";
    t.columns = {"x", "y"};
    t.values = {{1, 2}, {3, std::nan("")}};
    t.labels = {"a", "b"};
    EXPECT_EQ(exporting::table_csv(t), "model,x,y\na,1,3\nb,2,\n");
}

// Too small for two legible pictures: A's picture as it is without B.
TEST(ComparedFigures, APanelTooSmallForTwoShowsAAsItIs) {
    figures::FigureCache cache;
    const ParamSet ab = pair_of("llama-2-7b", "llama-3-8b");
    const figures::FigureDescriptor& f = figures::figure("scores");
    const figures::FigureResult small = figures::build_figure(request(f, 300, 260), ab, cache);
    const figures::FigureResult own = figures::build_figure(request(f, 300, 260), alone(ab), cache);
    std::string why;
    EXPECT_TRUE(figures::same_picture(small.list, own.list, &why)) << why;
    const figures::FigureResult large = figures::build_figure(request(f, 1400, 800), ab, cache);
    EXPECT_FALSE(figures::same_picture(large.list, figures::build_figure(request(f, 1400, 800), alone(ab), cache).list));
}

// Where B's picture is A's (the id tables of Qwen2.5-VL and Qwen3-VL: one image gives the same ids
// under both), one picture stands for both and says so (the header's "B the same"), at any size;
// where the pictures differ, a panel too small for both says it hides B instead.
TEST(ComparedFigures, APictureBothModelsShareIsShownOnceAndSaysSo) {
    figures::FigureCache cache;
    const ParamSet qwen = pair_of("qwen2.5-vl-7b", "qwen3-vl-8b");
    for (const auto& [w, h] : {std::pair<float, float>{1256, 534}, {1256, 225}, {600, 300}, {1400, 900}}) {
        const figures::FigureResult r = figures::build_figure(request(figures::figure("position_ids"), w, h), qwen, cache);
        EXPECT_EQ(r.same_for_b, "qwen3-vl-8b") << w << "x" << h;
        EXPECT_TRUE(r.hidden_b.empty()) << w << "x" << h;
    }
    const figures::FigureResult small =
        figures::build_figure(request(figures::figure("scores"), 300, 260), pair_of("llama-2-7b", "llama-3-8b"), cache);
    EXPECT_EQ(small.hidden_b, "llama-3-8b");
    EXPECT_TRUE(small.same_for_b.empty());
}

// The id table keeps every row within its picture: at heights where one band of rows at the larger
// types does not fit, it takes a smaller type (it used to put "1D RoPE (token index)" below a
// stacked half's bottom).
TEST(ComparedFigures, TheIdTableKeepsItsRowsInsideAnyHeight) {
    figures::FigureCache cache;
    plot::ApproximateTextMeasure measure;
    ParamSet p;
    p.set("preset", "qwen2.5-vl-7b");
    p.validate();
    for (float h = 240; h <= 480; h += 10) {  // from where the table's smallest legible size (120 px at scale 1) and its title fit
        figures::FigureRequest r = request(figures::figure("position_ids"), 1256, h);
        r.measure = &measure;
        r.style.scale = 1.4f;  // presentation's type at 1280x720
        const figures::FigureResult result = figures::build_figure(r, p, cache);
        for (const plot::Command& c : result.list.commands)
            if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
                const plot::Rect box = plot::text_box(*t, measure);
                EXPECT_LE(box.y1, h + 1) << "'" << t->text << "' at height " << h;
            }
    }
}

// The model anatomy with two layered models draws B itself: the strips one above the other, each under
// its model's name, and one table of both models' kinds, at a presenting panel's size (two stacked
// pictures did not fit there: it showed A only); with Llama 4, its NoPE curve beside B's.
TEST(ComparedFigures, TheAnatomyStacksBothStripsInOnePicture) {
    figures::FigureCache cache;
    plot::ApproximateTextMeasure measure;
    for (const auto& [a, b, texts] :
         {std::tuple<std::string, std::string, std::vector<std::string>>{
              "gemma-3-12b", "gemma-4-31b", {"A: gemma-3-12b, 48 layers, layer 5 loaded (framed)", "B: gemma-4-31b, 60 layers, layer 5 loaded (framed)",
                                 "B: full_attention"}},
          {"llama-4-scout", "gemma-3-12b", {"A: llama-4-scout, 48 layers, layer 0 loaded (framed)", "B: sliding_attention"}}}) {
        figures::FigureRequest r = request(figures::figure("model_anatomy"), 1256, 534);
        r.measure = &measure;
        r.style.scale = 1.4f;  // presentation's type at 1280x720
        const figures::FigureResult fig = figures::build_figure(r, pair_of(a, b), cache);
        EXPECT_TRUE(fig.hidden_b.empty()) << a;
        EXPECT_TRUE(fig.same_for_b.empty()) << a;
        std::vector<std::string> seen;
        for (const plot::Command& c : fig.list.commands)
            if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
                seen.push_back(t->text);
                const plot::Rect box = plot::text_box(*t, measure);
                EXPECT_TRUE(box.x0 >= -1 && box.x1 <= r.width + 1 && box.y0 >= -1 && box.y1 <= r.height + 1) << "'" << t->text << "'";
            }
        for (const std::string& want : texts)
            EXPECT_NE(std::find(seen.begin(), seen.end(), want), seen.end()) << a << ": no '" << want << "'";
        std::string layers_plot;
        for (const figures::PlotGeometry& g : fig.plots) layers_plot += std::to_string(g.tag) + " ";
        EXPECT_NE(layers_plot.find("0 "), std::string::npos) << a << ": the strip is left out";
        EXPECT_NE(layers_plot.find("1 "), std::string::npos) << a << ": the kinds table is left out";
    }
    // Llama 4's NoPE layers scale their queries (attn_temperature_tuning): its curve, named, at a
    // size that holds the strip, the table and the curve
    figures::FigureRequest r = request(figures::figure("model_anatomy"), 1100, 900);
    const figures::FigureResult fig = figures::build_figure(r, pair_of("llama-4-scout", "gemma-3-12b"), cache);
    bool named = false, marked = false;
    for (const plot::Command& c : fig.list.commands)
        if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
            named = named || t->text.rfind("A: llama-4-scout (a = ", 0) == 0;
            marked = marked || t->text.rfind("A: s = 1.716 at p = ", 0) == 0;
        }
    EXPECT_TRUE(named) << "the NoPE curve's legend names A";
    EXPECT_TRUE(marked) << "the curve's top marker says whose it is";
}

// Figures that draw B themselves on one plot (the vectors on one circle, RoPE's score curve): their
// table holds A's rows as A alone gives them, then B's as B alone gives them (the score curve where
// B alone runs over as many distances as A).
TEST(ComparedFigures, FiguresDrawingBThemselvesHoldBothTables) {
    figures::FigureCache cache;
    for (const auto& [a_name, b_name] : pairs()) {
        const ParamSet ab = pair_of(a_name, b_name);
        const ParamSet a = alone(ab), b = *ab.compared_model();
        for (const char* name : {"vectors", "sinusoidal"}) {
            const std::string what = std::string(name) + ", A " + a_name + ", B " + b_name;
            // the score curves run over A's distances (one axis): B alone runs over its own
            auto reach = [](const ParamSet& p) { return std::clamp<std::int64_t>(p[P::max_position], 16, p[P::dim] > 512 ? 256 : 512); };
            if (std::string(name) == "sinusoidal" && reach(a) != reach(b)) continue;
            const figures::FigureDescriptor& f = figures::figure(name);
            const figures::DataTable both = figures::build_figure(request(f, 1200, 800), ab, cache).table;
            const figures::DataTable ta = figures::build_figure(request(f, 1200, 800), a, cache).table;
            figures::DataTable tb = figures::build_figure(request(f, 1200, 800), b, cache).table;
            ASSERT_EQ(both.label_column, "model") << what;
            ASSERT_EQ(both.labels.size(), ta.rows() + tb.rows()) << what;
            expect_rows_equal(both, 0, ta, what + " (A)");
            expect_rows_equal(both, ta.rows(), tb, what + " (B)");
        }
    }
}

// heatmap_mode=a_minus_b: one map of the angle m·(θᵢ of A − θᵢ of B), cell by cell the exact mean;
// without B, or with other pair counts, A's angles under a title that says why (and a column `angle`).
TEST(ComparedFigures, HeatmapAMinusBIsTheAngleOfTheDifference) {
    figures::FigureCache cache;
    ParamSet ab = pair_of("llama-2-7b", "llama-3-8b");
    ab.set("heatmap_mode", "a_minus_b");
    ab.set("heatmap_to", "40");
    figures::FigureRequest r = request(figures::figure("heatmap"), 900, 500);
    r.full_resolution = true;
    const figures::FigureResult fig = figures::build_figure(r, ab, cache);
    ASSERT_TRUE(fig.table.label_column.empty()) << "one map, not two pictures";
    const auto col = [&](const std::string& c) {
        return static_cast<std::size_t>(std::find(fig.table.columns.begin(), fig.table.columns.end(), c) - fig.table.columns.begin());
    };
    ASSERT_LT(col("a_minus_b"), fig.table.columns.size());
    const ParamSet b = *ab.compared_model();
    const Eigen::VectorXd ta = compute_frequencies(ab.config()).theta, tb = compute_frequencies(b.config()).theta;
    ASSERT_EQ(fig.table.rows(), 40u * 64u);
    for (std::size_t i = 0; i < fig.table.rows(); i += 37) {
        const double m = fig.table.values[col("position_from")][i];
        const int k = static_cast<int>(fig.table.values[col("pair_from")][i]);
        const double want = std::remainder(m * (ta[k] - tb[k]), 2 * M_PI);
        EXPECT_NEAR(fig.table.values[col("a_minus_b")][i], want, 1e-9) << "m " << m << ", pair " << k;
    }
    ParamSet other = pair_of("llama-2-7b", "gemma-7b");  // 64 against 128 pairs
    other.set("heatmap_mode", "a_minus_b");
    for (const ParamSet& p : {other, alone(ab)}) {
        const figures::FigureResult f = figures::build_figure(request(figures::figure("heatmap"), 900, 500), p, cache);
        EXPECT_EQ(f.table.columns.at(4), "angle");
        bool said = false;
        for (const plot::Command& c : f.list.commands)
            if (const auto* t = std::get_if<plot::TextCmd>(&c)) said = said || t->text.find("A − B") != std::string::npos;
        EXPECT_TRUE(said);
    }
}

// In every A/B picture each model's data covers a readable share of its plots: an axis the two
// pictures share runs to at most twice what that model alone shows there (llama-2-7b's 4096 positions
// are not a sliver of an axis to 131072; Qwen2.5-VL's ids 3-17 not a line on Qwen3-VL's 0-200). Where
// one would, the axis keeps each model's own range and each caption gives its own.
TEST(ComparedFigures, EachModelsDataCoversAReadableShareOfItsPlots) {
    figures::FigureCache cache;
    const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
        {"llama-2-7b", "llama-3.1-8b", "text"}, {"gemma-3-4b-global", "qwen3-8b", "text"}, {"qwen2.5-vl-7b", "qwen3-vl-8b", "video"}};
    int checked = 0, own = 0;
    for (const auto& [a_name, b_name, media] : cases) {
        ParamSet ab = pair_of(a_name, b_name);
        ab.set("media", media == "video" ? "video" : "image");
        const ParamSet a = alone(ab), b = *ab.compared_model();
        for (const figures::FigureDescriptor* f : figures::all_figures()) {
            if (f->model_b == figures::ModelBView::itself || (f->draws_b_itself && f->draws_b_itself(ab))) continue;
            const std::string what = std::string(f->name) + ", A " + a_name + ", B " + b_name;
            const figures::FigureRequest r = request(*f, 1920, 1000);
            figures::FigureResult both;
            try {
                both = figures::build_figure(r, ab, cache);
            } catch (const std::invalid_argument&) {
                continue;  // a table neither model has (the anatomy without layers)
            }
            const figures::detail::ComparedSplit split = figures::detail::compared_split(*f, ab, b, r.style, r.width, r.height);
            if (!split.both) continue;
            auto half = [&](plot::Rect area) {  // as build_compared builds each half: untitled
                figures::FigureRequest h = request(*f, area.width(), area.height());
                h.pair_fraction_axis = figures::detail::pair_fraction_axis(*f, a, b);
                h.style.draw_titles = false;
                return h;
            };
            const figures::FigureResult alone_a = figures::build_figure(half(split.a), a, cache);
            const figures::FigureResult alone_b = figures::build_figure(half(split.b), b, cache);
            for (const figures::PlotGeometry& g : both.plots) {
                const figures::FigureResult& mine = g.model == 0 ? alone_a : alone_b;
                const figures::PlotGeometry* o = mine.find(g.tag);
                if (!o) continue;
                auto span = [](double lo, double hi, bool log) { return log ? std::log(hi / lo) : hi - lo; };
                const double x = span(g.x_min, g.x_max, g.x_log), y = span(g.y_min, g.y_max, g.y_log);
                const double ox = span(o->x_min, o->x_max, o->x_log), oy = span(o->y_min, o->y_max, o->y_log);
                EXPECT_LE(x, 2 * ox * (1 + 1e-9)) << what << ", plot " << g.name << " of " << (g.model ? "B" : "A") << ": x " << g.x_min
                                                  << ".." << g.x_max << " where it alone shows " << o->x_min << ".." << o->x_max;
                EXPECT_LE(y, 2 * oy * (1 + 1e-9)) << what << ", plot " << g.name << " of " << (g.model ? "B" : "A") << ": y " << g.y_min
                                                  << ".." << g.y_max << " where it alone shows " << o->y_min << ".." << o->y_max;
                ++checked;
            }
            // a caption that gives a picture its own axis says so
            for (const plot::Command& c : both.list.commands)
                if (const auto* t = std::get_if<plot::TextCmd>(&c); t && t->text.find(" axis: ") != std::string::npos) ++own;
        }
    }
    EXPECT_GT(checked, 60);
    EXPECT_GE(own, 2);  // llama-2-7b's heatmap beside llama-3.1-8b's at least (A's caption and B's)
}
