// Score matrix: <R(m) q, R(n) k> over 64 query positions m and key positions n around `position`
// and `key_position` (the axes and the CSV give the real positions). With the pairing
// layouts matched it is constant along every diagonal (Toeplitz: the score depends on n - m only);
// beside it the same matrix with the layouts mixed (cos/sin laid out for the other layout than the
// vector's), where the stripes break. q = `vector`, k = `key_vector` (q unless set), as on the vectors panel.
#include <algorithm>
#include <cmath>

#include "figures/alt_text.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/why_common.hpp"
#include "plot/axis_pins.hpp"
#include "plot/ticks.hpp"
#include "rope/encodings.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::SubplotFit;
namespace why = detail::why;

enum class ScoresPlot { matched, mixed };

constexpr std::int64_t kScoreWindow = 64;

// The largest spread (max - min) along any diagonal n - m = const of a square matrix.
double diagonal_spread(const Eigen::MatrixXd& s) {
    const Eigen::Index n = s.rows();
    double worst = 0;
    for (Eigen::Index d = -(n - 1); d <= n - 1; ++d) {
        double lo = INFINITY, hi = -INFINITY;
        for (Eigen::Index m = std::max<Eigen::Index>(0, -d); m < n && m + d < n; ++m) {
            lo = std::min(lo, s(m, m + d));
            hi = std::max(hi, s(m, m + d));
        }
        worst = std::max(worst, hi - lo);
    }
    return worst;
}

// The positions the matrix shows, the same for m and n: 64 of them (fewer if max_position is
// smaller), centred on m and n so the selected cell is in view whenever |n - m| < 64, and kept
// inside 0 .. max_position - 1.
struct ScoreWindow {
    std::int64_t first = 0, count = 0;
};

ScoreWindow score_window(std::int64_t m, std::int64_t n, std::int64_t max_position) {
    ScoreWindow w;
    w.count = std::min<std::int64_t>(kScoreWindow, max_position);
    const std::int64_t centred = (m + n - (w.count - 1)) / 2;  // may be negative: clamped below
    w.first = std::clamp<std::int64_t>(centred, 0, max_position - w.count);
    return w;
}

// S(m, n) = <R(m) q, R(n) k> for m, n in the window (row and column 0 = window.first).
Eigen::MatrixXd window_scores(const FrequencyTable& f, Pairing table_layout, Pairing vector_layout, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& k, const ScoreWindow& w) {
    const Eigen::MatrixXd rq = rotated_rows_with_layouts(f, table_layout, vector_layout, q, w.first, w.count, f.attention_factor);
    const Eigen::MatrixXd rk = rotated_rows_with_layouts(f, table_layout, vector_layout, k, w.first, w.count, f.attention_factor);
    return rq * rk.transpose();
}

// The two matrices over the window, their one colour scale and where the current cell lies.
struct ScoresData {
    std::int64_t m_now = 0, n_now = 0;
    std::int64_t first = 0, count = 0;  // the window
    Eigen::MatrixXd correct, mixed;     // the layouts matched and mixed
    double v = 1;                       // the colour scale runs from -v to v
    bool cell_inside = false;           // (m, n) is in the window
    std::int64_t diag = 0;              // n - m
    bool diag_inside = false;           // its diagonal crosses the window
};

ScoresData scores_data(BuildContext& ctx) {
    const FrequencyTable& f = ctx.frequencies();
    const Pairing pairing = ctx.params.config().pairing;
    const Pairing table_mixed = why::other_layout(pairing);
    const Eigen::VectorXd q = why::q_vector(ctx.params), k = why::k_vector(ctx.params);
    ScoresData d;
    d.m_now = ctx.params[P::position], d.n_now = ctx.params[P::key_position];
    const ScoreWindow window = score_window(d.m_now, d.n_now, ctx.params[P::max_position]);
    const std::int64_t first = d.first = window.first, count = d.count = window.count;

    // cos and sin carry the attention factor, as in the model: scores grow by its square
    d.correct = window_scores(f, pairing, pairing, q, k, window);
    d.mixed = window_scores(f, table_mixed, pairing, q, k, window);
    double v = std::max(d.correct.cwiseAbs().maxCoeff(), d.mixed.cwiseAbs().maxCoeff());
    if (!(v > 0) || !std::isfinite(v)) v = 1;
    // an animation's every frame takes the largest score of them all (plot/axis_pins.hpp): the bar,
    // the cells and the room measured for the bar's labels stay put
    double lowest = -v;
    plot::hold_range(ctx.request.style.pins, "largest score", lowest, v);
    d.v = v;

    auto in_window = [&](std::int64_t pos) { return pos >= first && pos < first + count; };
    d.cell_inside = in_window(d.m_now) && in_window(d.n_now);
    d.diag = d.n_now - d.m_now;
    d.diag_inside = d.diag > -count && d.diag < count;
    return d;
}

// the captions at the bottom: what the picture says, in numbers; returns where they begin
float draw_captions(BuildContext& ctx, const ScoresData& d) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const float W = ctx.request.width, H = ctx.request.height;
    const std::int64_t first = d.first, count = d.count, m_now = d.m_now, n_now = d.n_now, diag = d.diag;
    const std::string window_text = "m, n = " + std::to_string(first) + "–" + std::to_string(first + count - 1) + ".";
    const std::string line1 = !ctx.request.show_cursor ? window_text + " " + why::qk_text(ctx.params) + "." :
        (d.cell_inside ? "Box: m = " + std::to_string(m_now) + ", n = " + std::to_string(n_now) + "."
                       : "m = " + std::to_string(m_now) + ", n = " + std::to_string(n_now) + " (outside).") +
        (d.diag_inside ? " Dashed: the diagonal n − m = " + std::to_string(diag) + "." : std::string()) + " " + why::qk_text(ctx.params) + ".";
    const std::string line2 = "Largest change along a diagonal: matched " + why::spread_text(diagonal_spread(d.correct), d.v) +
                              ", mixed " + why::spread_text(diagonal_spread(d.mixed), d.v);
    // a phone's column keeps the matrix's size alone (the readout and the alt text give the numbers)
    if (st.compact) return H;
    // a small figure (a panel in the grid) keeps the matrices' size: the numbers, not the explanation
    const bool small = H < st.px(420);
    const float h2 = why::wrapped_caption(ctx, line2, 0, W, H - st.px(3), th.accent);
    const float h1 = small ? 0.0f : why::wrapped_caption(ctx, line1, 0, W, H - st.px(3) - h2, th.text);
    return H - h1 - h2 - st.px(6);
}

plot::ColorbarSetup score_bar(double v) { return {"score ⟨R(m)q, R(n)k⟩", plot::ColormapId::diverging, -v, v}; }

// The colour bar sits on the right-hand plot only (one scale for both); give that plot the bar's
// width on top of the other's, so both squares come out the same size.
std::vector<plot::Rect> own_cells(BuildContext& ctx, double v, float top, float bottom) {
    const plot::Style& st = ctx.request.style;
    const float W = ctx.request.width;
    const float tf = st.px(st.tick_font);
    float bar_total = 0;
    for (const plot::Tick& t : plot::linear_ticks(-v, v, 5))
        bar_total = std::max(bar_total, ctx.measure.measure(t.label, tf).x);
    bar_total += st.px(14) + st.px(16) + st.px(6) + st.px(st.label_font) * 1.5f;
    const bool wide = W >= (bottom - top) * 1.25f;
    plot::Rect left, right;
    if (wide) {
        const float split = (W - bar_total) / 2;
        left = {0, top, split, bottom};
        right = {split, top, W, bottom};
    } else {
        const float mid = top + (bottom - top) / 2;
        left = {0, top, W, mid};
        right = {0, mid, W, bottom};
    }
    return {left, right};
}

// the diagonal n - m = const through the current cell: one colour when the score is relative
void draw_diagonal(BuildContext& ctx, plot::Plot& p, const ScoresData& d) {
    const plot::Style& st = ctx.request.style;
    const std::int64_t first = d.first, count = d.count, diag = d.diag;
    const double m0 = static_cast<double>(first) + std::max<double>(0, static_cast<double>(-diag)) - 0.5;
    const double m1 = static_cast<double>(first) + std::min<double>(static_cast<double>(count), static_cast<double>(count - diag)) - 0.5;
    p.list().segment(p.to_px(m0 + static_cast<double>(diag), m0), p.to_px(m1 + static_cast<double>(diag), m1),
                     st.theme.text.with_alpha(0.9f), st.px(1.5f), st.px(5));
}

// One matrix as a heatmap (row 0 at the top: the largest m), the diagonal and a box on the current cell.
void draw_score_matrix(BuildContext& ctx, const ScoresData& d, const Eigen::MatrixXd& s, const std::string& title, bool with_bar,
                       ScoresPlot tag, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const double lo = static_cast<double>(d.first) - 0.5, hi = static_cast<double>(d.first + d.count) - 0.5;
    plot::Plot p(ctx.result.list, ctx.measure, why::sub_style(st), cell, title);
    plot::AxisSetup ax{"key position n (tokens)", lo, hi};
    plot::AxisSetup ay{"query position m (tokens)", lo, hi};
    ax.integer_ticks = ay.integer_ticks = true;
    p.setup_x(ax);
    p.setup_y(ay);
    // not square: the matrix fills its cell (the diagonals stay diagonals in data units, and a
    // square in a panel of another shape would leave a band of the panel empty)
    if (with_bar) p.setup_colorbar(score_bar(d.v));
    const auto n = static_cast<int>(d.count);
    std::vector<float> values(static_cast<std::size_t>(n) * n);
    for (int r = 0; r < n; ++r)  // row 0 at the top: the largest m
        for (int c = 0; c < n; ++c) values[static_cast<std::size_t>(r) * n + c] = static_cast<float>(s(n - 1 - r, c));
    p.heatmap(std::move(values), n, n, lo, hi, lo, hi, plot::ColormapId::diverging, static_cast<float>(-d.v),
              static_cast<float>(d.v));
    if (d.diag_inside && ctx.request.show_cursor) draw_diagonal(ctx, p, d);
    const plot::Vec2 a = p.to_px(static_cast<double>(d.n_now) - 0.5, static_cast<double>(d.m_now) + 0.5);
    const plot::Vec2 b = p.to_px(static_cast<double>(d.n_now) + 0.5, static_cast<double>(d.m_now) - 0.5);
    record_geometry(ctx, p, tag);
    p.finish();
    if (d.cell_inside && ctx.request.show_cursor) {  // after finish: the box may stick out of the plot at its edge
        const float grow = st.px(2);
        ctx.result.list.rect({a.x - grow, a.y - grow, b.x + grow, b.y + grow}, {0, 0, 0, 0}, st.theme.accent, st.px(2.5f));
    }
}

void draw_matched_scores(BuildContext& ctx, const ScoresData& d, bool with_bar, plot::Rect cell) {
    const Pairing pairing = ctx.params.config().pairing;
    draw_score_matrix(ctx, d, d.correct, "matched layouts (" + why::layout_name(pairing) + ")", with_bar, ScoresPlot::matched, cell);
}

// `title_width`: the width of the right-hand cell of the figure's own arrangement
void draw_mixed_scores(BuildContext& ctx, const ScoresData& d, float title_width, plot::Rect cell) {
    const Pairing pairing = ctx.params.config().pairing;
    const Pairing table_mixed = why::other_layout(pairing);
    const std::string title = why::pick_title(ctx, why::sub_style(ctx.request.style), title_width,
                                              {"mixed layouts: cos/sin " + why::layout_name(table_mixed) + ", vector " + why::layout_name(pairing),
                                               "mixed layouts (cos/sin " + why::layout_name(table_mixed) + ")", "mixed layouts"});
    draw_score_matrix(ctx, d, d.mixed, title, true, ScoresPlot::mixed, cell);
}

void write_table(BuildContext& ctx, const ScoresData& d) {
    DataTable& t = ctx.result.table;
    t.columns = {"m", "n", "score", "score_mixed"};
    t.values.assign(4, {});
    for (std::int64_t m = 0; m < d.count; ++m)
        for (std::int64_t n = 0; n < d.count; ++n) {
            t.values[0].push_back(static_cast<double>(d.first + m));
            t.values[1].push_back(static_cast<double>(d.first + n));
            t.values[2].push_back(d.correct(m, n));
            t.values[3].push_back(d.mixed(m, n));
        }
}

void build_scores(BuildContext& ctx) {
    const ScoresData data = scores_data(ctx);
    const float W = ctx.request.width;
    const float top = why::title_space(ctx);
    const float bottom = draw_captions(ctx, data);
    const std::vector<plot::Rect> own = own_cells(ctx, data.v, top, bottom);
    // too small for both: the matched layouts' matrix, with the colour bar
    const SubplotFit fit = fit_plots(ctx, {0, top, W, bottom}, own);
    if (fit.shows(ScoresPlot::matched)) draw_matched_scores(ctx, data, !fit.shows(ScoresPlot::mixed), fit.cell(ScoresPlot::matched));
    if (fit.shows(ScoresPlot::mixed)) draw_mixed_scores(ctx, data, own[1].width(), fit.cell(ScoresPlot::mixed));
    if (ctx.request.with_table) write_table(ctx, data);
}

}  // namespace

const FigureDescriptor& scores_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "scores";
        f.title = "Score matrix";
        f.page = 2;
        f.csv_columns = "m,n,score,score_mixed";
        f.plots = tagged_plots<ScoresPlot>({
            {ScoresPlot::matched, {"scores", "The score matrix <R(m)q, R(n)k>", "matched layouts", PlotRole::main, AxisRole::position, AxisRole::position, 0, {240, 200}, 0, false, 1.0f, {"diagonal", "Toeplitz"}}},
            {ScoresPlot::mixed, {"scores_mixed", "The same with the pairing layouts mixed up", "mixed layouts", PlotRole::supporting, AxisRole::position, AxisRole::position, 1, {240, 200}, 110, false, 1.0f, {"mixed up", "stripes break"}}},
        });
        f.reads = model_and({P::max_position, P::position, P::key_position, P::vector, P::key_vector});
        f.describe = describe_scores;
        f.build = build_scores;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
