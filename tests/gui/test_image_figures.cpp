// The "Images" and "Video" figures: the patch grid's maps hold the core's similarities (the axial
// cross, chunked M-RoPE's flat rows at Qwen2.5-VL's numbers, interleaved's not), the query patch is
// outlined where it is and a click moves it, the strip's marks sit at the pairs' wavelengths, and the
// position-id table holds get_rope_index's ids for every token.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "figures/registry.hpp"
#include "rope/frequencies.hpp"
#include "rope/multi_axis.hpp"
#include "rope/video_positions.hpp"
#include "support/figure_build.hpp"

using namespace rope;

namespace {

figures::FigureResult build_image(std::string_view name, const ParamSet& p, bool table = true, float w = 1200, float h = 900) {
    return rope::test::build_named(name, p, table, w, h);
}

using rope::test::params;

using rope::test::has_text;

// similarity[layout][row][col] from the CSV table (layout 0 axial, 1 chunked, 2 interleaved).
struct Maps {
    int rows = 0, cols = 0;
    std::vector<std::vector<double>> value;  // [layout][row * cols + col]
    double at(int layout, int r, int c) const { return value[static_cast<std::size_t>(layout)][static_cast<std::size_t>(r * cols + c)]; }
};

Maps maps_of(const figures::FigureResult& fig, int rows, int cols) {
    Maps m;
    m.rows = rows, m.cols = cols;
    m.value.assign(3, std::vector<double>(static_cast<std::size_t>(rows * cols), std::nan("")));
    const figures::DataTable& t = fig.table;
    for (std::size_t i = 0; i < t.rows(); ++i)
        m.value[static_cast<std::size_t>(t.values[0][i])][static_cast<std::size_t>(t.values[1][i] * cols + t.values[2][i])] = t.values[3][i];
    return m;
}

// The largest change along each row (over the columns), the largest over all rows.
double row_variation(const Maps& m, int layout) {
    double worst = 0;
    for (int r = 0; r < m.rows; ++r) {
        double lo = 2, hi = -2;
        for (int c = 0; c < m.cols; ++c) lo = std::min(lo, m.at(layout, r, c)), hi = std::max(hi, m.at(layout, r, c));
        worst = std::max(worst, hi - lo);
    }
    return worst;
}

// A panel over `params` whose edits are applied to a copy, validated and kept with their labels.
struct PanelEdits {
    explicit PanelEdits(const ParamSet& params) : base(params), edited(params) {}
    figures::PanelContext panel(const figures::FigureResult& fig) {
        return {base, cache, fig,
                [this](const std::string& label, const std::function<void(ParamSet&)>& change) {
                    ParamSet next = base;
                    change(next);
                    next.validate();
                    edited = next;
                    labels.push_back(label);
                    return true;
                },
                grab};
    }
    const ParamSet& base;
    ParamSet edited;
    std::vector<std::string> labels;
    figures::FigureCache cache;
    int grab = 0;
};

}  // namespace

TEST(ImageFigures, PatchGridTableHasEveryPatchOfEachMap) {
    const ParamSet p = params({{"grid_rows", "5"}, {"grid_cols", "7"}});
    const auto fig = build_image("patch_grid", p);
    EXPECT_EQ(fig.table.columns, (std::vector<std::string>{"layout", "row", "col", "similarity"}));
    EXPECT_EQ(fig.table.rows(), 3u * 5u * 7u);
    for (double v : fig.table.values[3]) EXPECT_TRUE(v >= -1 - 1e-12 && v <= 1 + 1e-12) << v;
    // a head whose rotated dims are not a multiple of 4 has no 2D axial map, and says so
    const ParamSet odd = params({{"dim", "6"}, {"grid_rows", "5"}, {"grid_cols", "7"}});
    const auto odd_fig = build_image("patch_grid", odd);
    EXPECT_EQ(odd_fig.table.rows(), 2u * 5u * 7u);
    EXPECT_TRUE(has_text(odd_fig, "multiple of 4 rotated dims"));
}

// q = k = ones, 2D axial: a patch in the query's row or column keeps half the pairs at angle 0, so
// it is more similar than one off both; the map's maximum is the query patch (similarity 1).
TEST(ImageFigures, AxialMapShowsTheCross) {
    const ParamSet p = params({{"rope_axes", "2d_axial"}, {"grid_rows", "12"}, {"grid_cols", "16"}, {"query_row", "6"}, {"query_col", "8"}});
    const Maps m = maps_of(build_image("patch_grid", p), 12, 16);
    EXPECT_NEAR(m.at(0, 6, 8), 1.0, 1e-12);
    for (int d : {3, 5, 7}) {
        const double on_row = m.at(0, 6, 8 + d), on_col = m.at(0, 6 - d + 1, 8), diagonal = m.at(0, 6 - d + 1, 8 + d);
        EXPECT_GT(on_row, diagonal) << d;
        EXPECT_GT(on_col, diagonal) << d;
    }
}

// Qwen2.5-VL's numbers (d = 128, base 1e6, half-split, [16, 24, 24]): chunked M-RoPE gives the
// columns (w) only the slowest pairs, so a row of its map barely changes; interleaved changes.
TEST(ImageFigures, ChunkedRowsAreFlatInterleavedAreNot) {
    const ParamSet p = params({{"dim", "128"}, {"base", "1000000"}, {"pairing", "half"}, {"rope_axes", "mrope"},
                               {"grid_rows", "12"}, {"grid_cols", "16"}});
    const Maps m = maps_of(build_image("patch_grid", p), 12, 16);
    EXPECT_LT(row_variation(m, 1), 1e-3);
    EXPECT_GT(row_variation(m, 2), 0.05);
    EXPECT_GT(row_variation(m, 2), 100 * row_variation(m, 1));
    // the titles carry the sections in use
    const auto fig = build_image("patch_grid", p, false);
    EXPECT_TRUE(has_text(fig, "[16, 24, 24]"));
    EXPECT_TRUE(has_text(fig, "[24, 20, 20]"));
}

// The outline of the query patch is drawn on each map around the cell of (query_row, query_col).
TEST(ImageFigures, QueryPatchIsOutlinedWhereItIs) {
    const ParamSet p = params({{"grid_rows", "6"}, {"grid_cols", "9"}, {"query_row", "1"}, {"query_col", "7"}});
    const auto fig = build_image("patch_grid", p, false);
    for (const char* name : {"patch_axial", "patch_chunked", "patch_interleaved"}) {
        const figures::PlotGeometry* g = fig.plot(name);
        ASSERT_NE(g, nullptr) << name;
        // row 1 of 6 is drawn at data y = 6 - 1 - 1 = 4 (row 0 at the top)
        const plot::Vec2 lo = g->px(6.5, 4.5), hi = g->px(7.5, 3.5);
        bool found = false;
        for (const auto& c : fig.list.commands)
            if (const auto* r = std::get_if<plot::RectCmd>(&c))
                found = found || (std::abs(r->rect.x0 - lo.x) < 0.5f && std::abs(r->rect.y0 - lo.y) < 0.5f && std::abs(r->rect.x1 - hi.x) < 0.5f &&
                                  std::abs(r->rect.y1 - hi.y) < 0.5f);
        EXPECT_TRUE(found) << name;
        EXPECT_LT(g->area.y0 + 1, lo.y);  // row 1 is below the top edge, not at the bottom
        EXPECT_LT(lo.y, g->area.y0 + g->area.height() * 0.35f);
    }
}

TEST(ImageFigures, ClickOnAMapSetsTheQueryPatch) {
    const ParamSet p = params({{"grid_rows", "12"}, {"grid_cols", "16"}});
    const auto fig = build_image("patch_grid", p, false);
    const figures::PlotGeometry* g = fig.plot("patch_interleaved");
    ASSERT_NE(g, nullptr);
    PanelEdits edits(p);
    figures::PanelContext panel = edits.panel(fig);
    const std::vector<std::string>& labels = edits.labels;
    const ParamSet& edited = edits.edited;
    const figures::FigureDescriptor& d = figures::figure("patch_grid");
    figures::PointerInput in;
    in.pressed = in.held = in.hovered = true;
    in.local = g->px(3, 12 - 1 - 2);  // row 2, column 3
    d.pointer(panel, in);
    ASSERT_EQ(labels.size(), 1u);
    EXPECT_EQ(labels[0], "query patch (2, 3)");
    EXPECT_EQ(edited[P::query_row], 2);
    EXPECT_EQ(edited[P::query_col], 3);
    // the readout names the patch and its similarity on that map
    const std::string text = d.readout(panel, *g, 3, 9);
    EXPECT_NE(text.find("patch (2, 3): similarity "), std::string::npos) << text;
    // outside every map: nothing
    in.local = {1, 1};
    d.pointer(panel, in);
    EXPECT_EQ(labels.size(), 1u);
}

// One mark per turning pair of each layout in the strip, at x = 2 pi / theta.
TEST(ImageFigures, StripMarksSitAtTheWavelengths) {
    const ParamSet p = params({{"dim", "128"}, {"base", "1000000"}, {"pairing", "half"}});
    const auto fig = build_image("patch_grid", p, false);
    const figures::PlotGeometry* g = fig.plot("patch_axes");
    ASSERT_NE(g, nullptr);
    EXPECT_TRUE(g->x_log);
    const AxisLayout chunked = mrope_layout(compute_frequencies(p.config()).theta, {16, 24, 24}, false);
    // the slowest w pair of chunked M-RoPE: a short vertical data segment at its wavelength
    const float x = g->px(kTwoPi / chunked.theta[63], 1).x;
    int marks = 0;
    for (const auto& c : fig.list.commands)
        if (const auto* l = std::get_if<plot::PolylineCmd>(&c); l && l->role == plot::Role::data && l->points.size() == 2 &&
                                                               std::abs(l->points[0].x - x) < 0.5f && l->points[0].x == l->points[1].x)
            ++marks;
    EXPECT_GE(marks, 1);
    EXPECT_TRUE(has_text(fig, "w: 24 pairs"));
}

TEST(ImageFigures, TextOnlyModelSaysSoAndMarksNoMap) {
    EXPECT_TRUE(has_text(build_image("patch_grid", ParamSet{}, false), "text-only"));
    const auto fig = build_image("patch_grid", params({{"rope_axes", "mrope"}, {"mrope_interleaved", "true"}}), false);
    EXPECT_FALSE(has_text(fig, "text-only"));
    EXPECT_TRUE(has_text(fig, "this model"));
}

// Every token's ids from get_rope_index; the text after the image resumes at text_before + max(rows, cols).
TEST(ImageFigures, PositionIdTableHoldsEveryToken) {
    const ParamSet p = params({{"text_before", "3"}, {"text_after", "2"}, {"grid_rows", "4"}, {"grid_cols", "6"}});
    const auto fig = build_image("position_ids", p, true, 1200, 560);
    const figures::DataTable& t = fig.table;
    EXPECT_EQ(t.columns, (std::vector<std::string>{"index", "kind", "row", "col", "t", "h", "w", "index_1d"}));
    ASSERT_EQ(t.rows(), 3u + 24u + 2u);
    // patch (2, 5): token 3 + 2 * 6 + 5 = 20, ids (3, 5, 8)
    EXPECT_EQ(t.values[1][20], 1);
    EXPECT_EQ(t.values[2][20], 2);
    EXPECT_EQ(t.values[3][20], 5);
    EXPECT_EQ(t.values[4][20], 3);
    EXPECT_EQ(t.values[5][20], 5);
    EXPECT_EQ(t.values[6][20], 8);
    // the first text token after the image: index 27, ids 3 + 6 = 9 on every axis
    for (std::size_t c : {4u, 5u, 6u}) EXPECT_EQ(t.values[c][27], 9);
    EXPECT_EQ(t.values[7][27], 27);
    EXPECT_TRUE(has_text(fig, "resumes at 9"));
}

// A large image keeps its first row of patches and the last patch, with "…" between, and states the ranges.
TEST(ImageFigures, PositionIdTableElidesALargeImage) {
    const ParamSet p = params({{"grid_rows", "40"}, {"grid_cols", "8"}});
    const auto fig = build_image("position_ids", p, true, 1600, 700);
    EXPECT_EQ(fig.table.rows(), 3u + 320u + 2u);
    EXPECT_TRUE(has_text(fig, "…"));
    EXPECT_TRUE(has_text(fig, "(0, 7)"));
    EXPECT_TRUE(has_text(fig, "(39, 7)"));
    EXPECT_FALSE(has_text(fig, "(1, 0)"));
    EXPECT_TRUE(has_text(fig, "h = 3..42, w = 3..10"));
}

// The video panel: the query patch is itself at the query frame (similarity 1 with q = k) under every
// layout, and the transformers 4.52-5.x cast makes Qwen2.5-VL's frames one time id at 4 fps, so the
// chunked layout sees no time at all.
TEST(ImageFigures, VideoPanelQueriesItsFrameAndShowsTheCastBug) {
    const ParamSet p = params({{"preset", "qwen2.5-vl-7b"}, {"media", "video"}, {"video_frames", "16"}, {"video_fps", "4"}, {"query_frame", "5"}});
    const auto fig = build_image("video", p);
    ASSERT_EQ(fig.table.columns, (std::vector<std::string>{"layout", "temporal_patch", "similarity"}));
    auto at = [&](const figures::FigureResult& f, int layout, int frame) {
        for (std::size_t i = 0; i < f.table.rows(); ++i)
            if (f.table.values[0][i] == layout && f.table.values[1][i] == frame) return f.table.values[2][i];
        return std::nan("");
    };
    for (int layout = 0; layout < 4; ++layout) EXPECT_NEAR(at(fig, layout, 5), 1.0, 1e-12) << layout;
    EXPECT_LT(at(fig, 1, 0), 0.999);  // frames apart: time turns the chunked pairs
    ParamSet bug = p;
    bug.set(P::video_seconds_cast, "true");
    const auto bugged = build_image("video", bug);
    for (int frame = 0; frame < 8; ++frame) EXPECT_NEAR(at(bugged, 1, frame), 1.0, 1e-12) << frame;  // every frame the same t
    EXPECT_TRUE(has_text(build_image("video", bug, false), "4.52-5.x cast"));
}

// The frames as small multiples: each map holds the core's similarity of the query patch of the query
// frame with every patch of that frame, per layout; the query's own map is 1 at the query patch; a
// click on a map makes that patch of that temporal patch the query.
TEST(ImageFigures, VideoFramesHoldEveryPatchOfEveryFrame) {
    const ParamSet p = params({{"preset", "qwen3-vl-8b"}, {"media", "video"}, {"video_frames", "9"}, {"query_frame", "2"}, {"query_row", "3"}, {"query_col", "4"}});
    const auto fig = build_image("video_frames", p, true, 1600, 700);
    ASSERT_EQ(fig.table.columns, (std::vector<std::string>{"layout", "temporal_patch", "row", "col", "similarity"}));
    const VideoSpec spec = p.video_spec();
    const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(p.vector().data(), static_cast<Eigen::Index>(p.vector().size()));
    const Eigen::VectorXd k = Eigen::Map<const Eigen::VectorXd>(p.key_vector().data(), static_cast<Eigen::Index>(p.key_vector().size()));
    const AxisLayout interleaved = *p.axis_layout(RopeAxes::mrope, true);
    std::set<double> frames;
    int checked = 0;
    for (std::size_t i = 0; i < fig.table.rows(); ++i) {
        const int layout = static_cast<int>(fig.table.values[0][i]), frame = static_cast<int>(fig.table.values[1][i]);
        const int r = static_cast<int>(fig.table.values[2][i]), c = static_cast<int>(fig.table.values[3][i]);
        frames.insert(frame);
        if (layout == 0 && frame == 2 && r == 3 && c == 4) {
            EXPECT_NEAR(fig.table.values[4][i], 1.0, 1e-6);
        }
        // every layout's map: the core's direct score, normalised (1D: the token's index on every axis)
        const std::vector<std::pair<AxisLayout, bool>> by_layout{{*p.axis_layout(RopeAxes::one_d, false), true},
                                                                 {*p.axis_layout(RopeAxes::mrope, false), false},
                                                                 {interleaved, false},
                                                                 {*p.axis_layout(RopeAxes::videorope, false), false}};
        VideoSpec s = spec;
        s.diagonal = layout == 3;
        const bool one_d = by_layout[static_cast<std::size_t>(layout)].second;
        auto id = [&](int f, int row, int col) {
            const double index = static_cast<double>(video_patch_index(s, f, row, col));
            return one_d ? PositionId{index, index, index} : video_patch_id(s, f, row, col);
        };
        const double want = multi_axis_score(by_layout[static_cast<std::size_t>(layout)].first, p.config().pairing, q, id(2, 3, 4), k, id(frame, r, c)) /
                            (q.norm() * k.norm());
        EXPECT_NEAR(fig.table.values[4][i], want, 1e-11) << frame << " " << r << " " << c;
        ++checked;
    }
    EXPECT_EQ(frames, (std::set<double>{0, 1, 2, 3, 4}));  // 9 frames: 5 temporal patches, all of them fit
    EXPECT_EQ(checked, 4 * 5 * 12 * 16);
    EXPECT_TRUE(has_text(build_image("video_frames", p, false, 1600, 700), "temporal patch 2"));

    // a narrow picture shows fewer, evenly spaced temporal patches, the query's among them
    ParamSet many = p;
    many.set(P::video_frames, "64");
    many.set(P::query_frame, "13");
    const auto narrow = build_image("video_frames", many, true, 700, 500);
    std::set<double> shown(narrow.table.values[1].begin(), narrow.table.values[1].end());
    EXPECT_LT(shown.size(), 32u);
    EXPECT_TRUE(shown.count(0) && shown.count(13) && shown.count(31)) << shown.size();

    // a click on the VideoRoPE row's map of the last column
    const auto pic = build_image("video_frames", p, false, 1600, 700);
    const figures::PlotGeometry* g = pic.plot("video_frames");
    ASSERT_NE(g, nullptr);
    PanelEdits edits(p);
    figures::PanelContext panel = edits.panel(pic);
    const std::vector<std::string>& labels = edits.labels;
    const ParamSet& edited = edits.edited;
    const figures::FigureDescriptor& d = figures::figure("video_frames");
    figures::PointerInput in;
    in.pressed = in.held = in.hovered = true;
    in.local = g->px(4, 0);  // the middle of the map: patch (6, 8)
    d.pointer(panel, in);
    ASSERT_EQ(labels.size(), 1u);
    EXPECT_EQ(labels[0], "query patch (6, 8) of temporal patch 4");
    EXPECT_EQ(edited[P::query_frame], 4);
    EXPECT_EQ(edited[P::query_row], 6);
    EXPECT_EQ(edited[P::query_col], 8);
    const std::string text = d.readout(panel, *g, 4, 0);
    EXPECT_NE(text.find("temporal patch 4, patch (6, 8), VideoRoPE: similarity "), std::string::npos) << text;
    in.local = g->px(3.5, 1.5);  // between the maps: nothing
    d.pointer(panel, in);
    EXPECT_EQ(labels.size(), 1u);
}

// The video's position-id table: its CSV is the core's sequence token by token, and the picture names
// Qwen3-VL's timestamps, its vision start and end and every temporal patch's runs.
TEST(ImageFigures, VideoIdsTableHoldsEachRunOfTokens) {
    const ParamSet p = params({{"preset", "qwen3-vl-8b"}, {"media", "video"}, {"video_frames", "9"}, {"text_before", "2"}, {"text_after", "3"}});
    const auto fig = build_image("video_ids", p, true, 1600, 900);
    ASSERT_EQ(fig.table.columns, (std::vector<std::string>{"index", "kind", "frame", "row", "col", "t", "h", "w"}));
    const std::vector<SequenceToken> tokens = video_sequence(p.video_spec());
    ASSERT_EQ(fig.table.rows(), tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        EXPECT_EQ(fig.table.values[2][i], tokens[i].frame);
        EXPECT_EQ(fig.table.values[5][i], tokens[i].id.t);
        EXPECT_EQ(fig.table.values[7][i], tokens[i].id.w);
    }
    EXPECT_EQ(fig.table.values[1][2], 2);  // the first timestamp's first token
    const auto pic = build_image("video_ids", p, false, 1600, 900);
    for (const char* text : {"<0.2 seconds>", "<2.2 seconds>", "vision start", "vision end", "12 × 16 patches", "text after"})
        EXPECT_TRUE(has_text(pic, text)) << text;
    // VideoRoPE's diagonal: frames video_spacing apart in t
    ParamSet diag = p;
    diag.set(P::rope_axes, "videorope");
    const auto d = build_image("video_ids", diag, true, 1600, 900);
    double first_t = -1, second_t = -1;
    for (std::size_t i = 0; i < d.table.rows(); ++i) {
        if (d.table.values[2][i] == 0 && first_t < 0) first_t = d.table.values[5][i];
        if (d.table.values[2][i] == 1 && second_t < 0) second_t = d.table.values[5][i];
    }
    EXPECT_DOUBLE_EQ(second_t - first_t, 2.0);
    EXPECT_TRUE(has_text(build_image("video_ids", diag, false, 1600, 900), "VideoRoPE's diagonal layout"));
}

namespace {

// The video states a reader meets: each rule of video_time_ids (Qwen2-VL, Qwen2.5-VL, Qwen3-VL), the
// transformers cast, VideoRoPE, and a longer video queried at its last temporal patch.
std::vector<ParamSet> video_states() {
    return {params({{"preset", "qwen2-vl-7b"}, {"media", "video"}}),
            params({{"preset", "qwen2.5-vl-7b"}, {"media", "video"}}),
            params({{"preset", "qwen3-vl-8b"}, {"media", "video"}}),
            params({{"preset", "qwen2.5-vl-7b"}, {"media", "video"}, {"video_fps", "4"}, {"video_seconds_cast", "true"}}),
            params({{"preset", "qwen2.5-vl-7b"}, {"media", "video"}, {"rope_axes", "videorope"}}),
            params({{"preset", "qwen2.5-vl-7b"}, {"media", "video"}, {"video_frames", "32"}, {"query_frame", "15"}})};
}

const std::vector<std::pair<float, float>> kVideoSizes = {{1200, 900}, {800, 480}, {700, 420}, {560, 620}};

// Where polyline `line` is at x (between its points; NaN outside it).
double y_at(const plot::PolylineCmd& line, float x) {
    for (std::size_t i = 1; i < line.points.size(); ++i) {
        const plot::Vec2 a = line.points[i - 1], b = line.points[i];
        if ((x >= a.x && x <= b.x) || (x >= b.x && x <= a.x))
            return b.x == a.x ? (a.y + b.y) / 2 : a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x);
    }
    return std::nan("");
}

}  // namespace

// The similarity plot's line at the query's temporal patch is named ("query frame") and, on the
// first patch, is not the frame's edge: the x range starts before 0, so the line cannot be read as
// the curve falling to -1.
TEST(ImageFigures, TheQueryFramesLineIsNamedAndApartFromTheFrame) {
    for (const ParamSet& state : video_states())
        for (const auto& [w, h] : kVideoSizes) {
            const auto fig = build_image("video", state, false, w, h);
            const figures::PlotGeometry* time = fig.plot("video_time");
            if (!time) continue;  // a size that shows the budget alone
            EXPECT_TRUE(has_text(fig, "query frame")) << w << "x" << h << " " << state.value_text(P::preset);
            EXPECT_LT(time->x_min, 0) << w << "x" << h;
        }
}

// Every series the position budget names is visible: no curve lies under a later one as wide as
// itself for most of its length (where two coincide, the one beneath is drawn wide and the legend
// says "= ..."), at every video state and size.
TEST(ImageFigures, EveryBudgetSeriesTheLegendNamesIsVisible) {
    for (const ParamSet& state : video_states())
        for (const auto& [w, h] : kVideoSizes) {
            const auto fig = build_image("video", state, false, w, h);
            const figures::PlotGeometry* budget = fig.plot("video_budget");
            if (!budget) continue;
            std::vector<const plot::PolylineCmd*> series;
            for (const auto& c : fig.list.commands)
                if (const auto* l = std::get_if<plot::PolylineCmd>(&c); l && l->role == plot::Role::data && l->points.size() >= 10 &&
                                                                         budget->area.contains(l->points[l->points.size() / 2]))
                    series.push_back(l);
            EXPECT_GE(series.size(), 5u) << w << "x" << h;
            bool coincide = false;
            for (std::size_t i = 0; i < series.size(); ++i) {
                std::size_t hidden = 0;
                for (const plot::Vec2& pt : series[i]->points)
                    for (std::size_t j = i + 1; j < series.size(); ++j) {
                        const double y = y_at(*series[j], pt.x);
                        const float reach = std::max(1.0f, (series[j]->width - series[i]->width) / 2 + 1);
                        if (series[j]->width >= 0.7f * series[i]->width && std::abs(y - pt.y) <= reach) {
                            ++hidden;
                            break;
                        }
                    }
                EXPECT_LT(hidden, series[i]->points.size() * 6 / 10)
                    << "series " << i << " lies under a later one at " << w << "x" << h << " " << state.value_text(P::preset);
                for (std::size_t j = i + 1; j < series.size(); ++j) {
                    std::size_t near = 0;
                    for (const plot::Vec2& pt : series[i]->points) near += std::abs(y_at(*series[j], pt.x) - pt.y) <= 1.5;
                    coincide = coincide || near > series[i]->points.size() / 2;
                }
            }
            if (coincide) {
                EXPECT_TRUE(has_text(fig, " = ")) << "coinciding curves, and the legend does not say so, at " << w << "x" << h;
            }
        }
}

// The video figures name the rule of video_time_ids in words ("time id = seconds × 2 per second"),
// never by the parameter's code (frame_index, seconds, timestamps in brackets), on screen, in files
// and in their alt text; VideoRoPE by its diagonal.
TEST(ImageFigures, VideoFiguresNameTheTimeRuleInWords) {
    const std::vector<std::string> codes = {"frame_index", "(seconds)", "(seconds;", "(seconds, 4.52", "(timestamps", "by seconds", "by timestamps"};
    for (const ParamSet& state : video_states())
        for (const char* name : {"video", "video_frames", "video_ids"})
            for (const auto& [w, h] : kVideoSizes) {
                const auto fig = build_image(name, state, false, w, h);
                std::string texts = figures::figure(name).describe(state, fig);
                for (const auto& c : fig.list.commands)
                    if (const auto* t = std::get_if<plot::TextCmd>(&c)) texts += "\n" + t->text;
                for (const std::string& code : codes) EXPECT_EQ(texts.find(code), std::string::npos) << name << " " << w << "x" << h << ": " << code;
            }
    const ParamSet qwen25 = params({{"preset", "qwen2.5-vl-7b"}, {"media", "video"}});
    EXPECT_TRUE(has_text(build_image("video", qwen25, false), "time id = seconds × 2 per second"));
    EXPECT_TRUE(has_text(build_image("video_ids", params({{"preset", "qwen2-vl-7b"}, {"media", "video"}}), false), "time id = temporal patch index"));
    EXPECT_NE(figures::figure("video_ids").describe(qwen25, {}).find("time id = seconds × 2 per second"), std::string::npos);
}
