// Absolute vs RoPE: the original Transformer's sinusoidal encoding (PE(p, 2i) = sin(p w_i),
// PE(p, 2i+1) = cos(p w_i), w_i = 10000^(-2i/d) as Vaswani et al. fixed it, whatever RoPE's base) beside RoPE. PE(m).PE(n) depends on n - m only
// too, but it is the same for every token, and once added to the token x the score picks up cross
// terms x.PE(n) that depend on the positions themselves. RoPE's score <R(m)q, R(n)k> is one curve
// of n - m whatever m is, shaped by q and k. q = `vector`, k = `key_vector` (q unless set), as on the vectors panel.
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "figures/alt_text.hpp"
#include "figures/compared_build.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/why_common.hpp"
#include "plot/ticks.hpp"
#include "rope/encodings.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::SubplotFit;
namespace why = detail::why;

enum class SinusoidalPlot { absolute, rope };

// y range of some curves (nan-free), with room on top for the legend.
void range_of(const std::vector<const std::vector<double>*>& curves, double& lo, double& hi) {
    lo = std::numeric_limits<double>::infinity();
    hi = -lo;
    for (const auto* c : curves)
        for (double v : *c)
            if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (!(hi > lo)) lo -= 1, hi += 1;
    const double span = hi - lo;
    lo -= span * 0.06;
    hi += span * 0.5;
}

constexpr double kSinusoidalBase = 10000;  // Vaswani et al.'s, not the RoPE base being explored

// The curves both plots and the table read, over the distances n − m = -reach .. reach, for two
// query positions.
struct SinusoidalData {
    bool same = false;  // q = k = the token x
    // distances -reach .. reach; the second query position sits `reach` later, so its keys cover them all
    std::int64_t reach = 0, m1 = 0, m2 = 0;
    std::size_t points = 0;
    std::vector<double> distance;
    std::vector<double> pe;            // PE(m)·PE(n), the same for every m
    std::vector<double> add1, add2;    // the token plus its PE, at m1 and m2 (nan where no key exists)
    std::vector<double> rope1, rope2;  // RoPE's score at m1 and m2 (nan where no key exists)
    std::int64_t d_now = 0;            // the current n − m
    bool d_inside = false;
    std::string m1_text, m2_text;
};

// for query position m, keys n = m + r exist for r >= -m (positions start at 0)
void fill_scores(const FrequencyTable& f, Pairing pairing, const Eigen::VectorXd& q, const Eigen::VectorXd& k, std::int64_t reach,
                 std::int64_t m, std::vector<double>& add, std::vector<double>& rope) {
    const std::int64_t r0 = std::max(-reach, -m);
    const std::int64_t cnt = reach - r0 + 1;
    const std::vector<double> a = additive_score_curve(q, static_cast<double>(m), k, m + r0, cnt, kSinusoidalBase);
    const std::vector<double> s = rope_score_curve(f, pairing, q, static_cast<double>(m), k, m + r0, cnt, f.attention_factor);
    for (std::int64_t j = 0; j < cnt; ++j) {
        const std::size_t at = static_cast<std::size_t>(r0 + reach + j);
        add[at] = a[static_cast<std::size_t>(j)];
        rope[at] = s[static_cast<std::size_t>(j)];
    }
}

// The curves of one model; `reach` 0: its own (model B takes A's, so the two share one distance axis).
SinusoidalData sinusoidal_data(const ParamSet& params, const FrequencyTable& f, std::int64_t reach_of_a = 0) {
    const Pairing pairing = params.config().pairing;
    const int dim = static_cast<int>(params[P::dim]);
    const Eigen::VectorXd q = why::q_vector(params), k = why::k_vector(params);
    const std::int64_t m_now = params[P::position], n_now = params[P::key_position];
    SinusoidalData d;
    d.same = !params.has(P::key_vector);
    const std::int64_t reach = d.reach =
        reach_of_a > 0 ? reach_of_a : std::clamp<std::int64_t>(params[P::max_position], 16, dim > 512 ? 256 : 512);
    d.m1 = m_now, d.m2 = m_now + reach;
    const std::size_t points = d.points = static_cast<std::size_t>(2 * reach + 1);
    const double nan = std::numeric_limits<double>::quiet_NaN();

    d.distance.resize(points), d.pe.resize(points);
    d.add1.assign(points, nan), d.add2.assign(points, nan), d.rope1.assign(points, nan), d.rope2.assign(points, nan);
    const std::vector<double> half = sinusoidal_dot_curve(dim, kSinusoidalBase, reach);
    for (std::size_t i = 0; i < points; ++i) {
        const std::int64_t r = static_cast<std::int64_t>(i) - reach;
        d.distance[i] = static_cast<double>(r);
        d.pe[i] = half[static_cast<std::size_t>(std::llabs(r))];
    }
    fill_scores(f, pairing, q, k, reach, d.m1, d.add1, d.rope1);
    fill_scores(f, pairing, q, k, reach, d.m2, d.add2, d.rope2);

    d.d_now = n_now - m_now;
    d.d_inside = d.d_now >= -reach && d.d_now <= reach;
    d.m1_text = "m = " + plot::tick_label(static_cast<double>(d.m1), 1);
    d.m2_text = "m = " + plot::tick_label(static_cast<double>(d.m2), 1);
    return d;
}

// The caption along the bottom; returns where it begins.
float draw_caption(BuildContext& ctx, const SinusoidalData& d, bool with_b) {
    const plot::Style& st = ctx.request.style;
    const float W = ctx.request.width, H = ctx.request.height;
    // a small figure (a panel in the grid) keeps its plots' height: the explanation waits for a larger view
    const bool small = H < st.px(420);
    // (with model B a dashed curve is B's: the marker is then called a line)
    const std::string dashed = d.d_inside && ctx.request.show_cursor
                                   ? (with_b ? "Vertical line: n − m = " : "Dashed: n − m = ") + std::to_string(d.d_now) + "."
                                   : std::string();
    const std::string caption =
        small ? dashed
              : "PE·PE: n − m only, but blind to the tokens; added to x, m matters too. RoPE: one curve for every m, shaped by q "
                "and k." + (dashed.empty() ? std::string() : "  " + dashed);
    return H - why::wrapped_caption(ctx, caption, 0, W, H - st.px(3), st.theme.text) - st.px(6);
}

plot::AxisSetup distance_axis(const SinusoidalData& d) {
    return {"distance n − m (tokens)", -static_cast<double>(d.reach), static_cast<double>(d.reach)};
}

// The current distance n − m, where it is in view.
// (solid where model B's curve is the dashed one)
void mark_distance(const BuildContext& ctx, plot::Plot& p, const SinusoidalData& d, bool with_b) {
    if (d.d_inside && ctx.request.show_cursor)
        p.marker_x(static_cast<double>(d.d_now), ctx.request.style.theme.accent, "", 1.5f, with_b ? 0.0f : 5.0f);
}

// Left: the sinusoidal encoding, alone and added to the token.
void draw_absolute(BuildContext& ctx, const SinusoidalData& d, bool with_b, plot::Rect left) {
    const plot::Theme& th = ctx.request.style.theme;
    const plot::Style sub = why::sub_style(ctx.request.style);
    const plot::AxisSetup ax = distance_axis(d);
    double lo, hi;
    range_of({&d.pe, &d.add1, &d.add2}, lo, hi);
    plot::Plot p(ctx.result.list, ctx.measure, sub, left,
                 why::pick_title(ctx, sub, left.width(), {"sinusoidal PE (Vaswani, base 10000), added to the token x", "sinusoidal PE (base 10000), added to x"}));
    plot::AxisSetup ay{"dot product", lo, hi};
    p.setup_x(ax);
    p.setup_y(ay);
    const std::string added = d.same ? "(x+PE(m))·(x+PE(n)), " : "(q+PE(m))·(k+PE(n)), ";
    p.setup_legend_above({added + d.m2_text, added + d.m1_text, "PE(m)·PE(n), any m, any token"});  // curves fill the plot
    p.line(d.distance.data(), d.add2.data(), d.points, 1, th.series[1], added + d.m2_text, sub.line_width * 0.8f, th.series_dash[1]);
    p.line(d.distance.data(), d.add1.data(), d.points, 1, th.series[3], added + d.m1_text, sub.line_width * 0.8f, th.series_dash[3]);
    p.line(d.distance.data(), d.pe.data(), d.points, 1, th.series[0], "PE(m)·PE(n), any m, any token");
    mark_distance(ctx, p, d, with_b);
    record_geometry(ctx, p, SinusoidalPlot::absolute);
    p.finish();
}

// Right: RoPE's score, the same curve for both query positions; with model B, A's and B's curves at
// the first query position (A solid, B dashed), the legend naming the models.
void draw_rope(BuildContext& ctx, const SinusoidalData& d, const SinusoidalData* b, plot::Rect right) {
    const plot::Theme& th = ctx.request.style.theme;
    const plot::Style sub = why::sub_style(ctx.request.style);
    const plot::AxisSetup ax = distance_axis(d);
    double lo, hi;
    if (b) range_of({&d.rope1, &b->rope1}, lo, hi);
    else range_of({&d.rope1, &d.rope2}, lo, hi);
    plot::Plot p(ctx.result.list, ctx.measure, sub, right,
                 why::pick_title(ctx, sub, right.width(), d.same ? std::vector<std::string>{"RoPE: q = k = x rotated to m and n", "RoPE: q = k = x"}
                                        : std::vector<std::string>{"RoPE: q rotated to m, k to n", "RoPE: q and k"}));
    plot::AxisSetup ay{"score ⟨R(m)q, R(n)k⟩", lo, hi};
    p.setup_x(ax);
    p.setup_y(ay);
    if (b) {
        const std::string a_name = "A: " + detail::model_label(ctx.params) + ", " + d.m1_text, b_name = "B: " + detail::model_label(ctx.params, true);
        p.setup_legend_above({a_name, b_name});
        p.line(d.distance.data(), d.rope1.data(), d.points, 1, th.series[2], a_name, sub.line_width * 1.6f);
        p.line(b->distance.data(), b->rope1.data(), b->points, 1, th.series[1], b_name, sub.line_width * 1.2f, 6);
        mark_distance(ctx, p, d, true);
        record_geometry(ctx, p, SinusoidalPlot::rope);
        p.finish();
        return;
    }
    p.setup_legend_above({"⟨R(m)q, R(n)k⟩, " + d.m1_text, "⟨R(m)q, R(n)k⟩, " + d.m2_text});
    p.line(d.distance.data(), d.rope1.data(), d.points, 1, th.series[2], "⟨R(m)q, R(n)k⟩, " + d.m1_text, sub.line_width * 1.6f);
    p.line(d.distance.data(), d.rope2.data(), d.points, 1, th.text, "⟨R(m)q, R(n)k⟩, " + d.m2_text, sub.line_width * 0.7f, 5);
    mark_distance(ctx, p, d, false);
    record_geometry(ctx, p, SinusoidalPlot::rope);
    p.finish();
}

// one row per (query m, key n) the curves plot: rectangular, every cell a number (keys before
// position 0 do not exist, so the first query's rows may start later than the second's)
void fill_sinusoidal_table(DataTable& t, const SinusoidalData& d) {
    t.columns = {"m", "n", "distance", "pe_dot", "additive_score", "rope_score"};
    t.values.assign(t.columns.size(), {});
    for (const auto& [m, add, rope] : {std::tie(d.m1, d.add1, d.rope1), std::tie(d.m2, d.add2, d.rope2)}) {
        for (std::size_t i = 0; i < d.points; ++i) {
            if (!std::isfinite(add[i]) || !std::isfinite(rope[i])) continue;
            t.values[0].push_back(static_cast<double>(m));
            t.values[1].push_back(static_cast<double>(m) + d.distance[i]);
            t.values[2].push_back(d.distance[i]);
            t.values[3].push_back(d.pe[i]);
            t.values[4].push_back(add[i]);
            t.values[5].push_back(rope[i]);
        }
    }
}

void build_sinusoidal(BuildContext& ctx) {
    const SinusoidalData data = sinusoidal_data(ctx.params, ctx.frequencies());
    // model B: its RoPE score over A's distances, dashed over A's (the absolute encoding is no model's:
    // Vaswani's base, A's head)
    const std::optional<ParamSet> b_params = detail::model_b(ctx.params);
    std::optional<SinusoidalData> b;
    if (b_params) b.emplace(sinusoidal_data(*b_params, *ctx.cache.frequencies(*b_params), data.reach));
    const float W = ctx.request.width;
    const float top = why::title_space(ctx);
    const float bottom = draw_caption(ctx, data, b.has_value());
    const bool wide = W >= (bottom - top) * 1.3f;
    const float mid_y = top + (bottom - top) / 2;
    // too small for both: RoPE's curves
    const SubplotFit fit = fit_plots(ctx, {0, top, W, bottom},
                                        {wide ? plot::Rect{0, top, W / 2, bottom} : plot::Rect{0, top, W, mid_y},
                                         wide ? plot::Rect{W / 2, top, W, bottom} : plot::Rect{0, mid_y, W, bottom}});
    if (fit.shows(SinusoidalPlot::absolute)) draw_absolute(ctx, data, b.has_value(), fit.cell(SinusoidalPlot::absolute));
    if (fit.shows(SinusoidalPlot::rope)) draw_rope(ctx, data, b ? &*b : nullptr, fit.cell(SinusoidalPlot::rope));
    if (ctx.request.with_table) ctx.result.table = detail::table_of_models(data, b ? &*b : nullptr, fill_sinusoidal_table);
}

}  // namespace

const FigureDescriptor& sinusoidal_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "sinusoidal";
        f.title = "Absolute vs RoPE";
        f.page = 2;
        f.csv_columns = "m,n,distance,pe_dot,additive_score,rope_score";
        f.plots = tagged_plots<SinusoidalPlot>({
            {SinusoidalPlot::absolute, {"sinusoidal_absolute", "Absolute sinusoidal encoding: dot products and scores", "sinusoidal PE", PlotRole::supporting, AxisRole::other, AxisRole::other, 1, {240, 200}, 0, false, 1.5f, {"position vectors"}}},
            {SinusoidalPlot::rope, {"sinusoidal_rope", "RoPE's score for the same queries", "RoPE", PlotRole::main, AxisRole::other, AxisRole::other, 0, {240, 200}, 0, false, 1.5f, {"RoPE's score"}}},
        });
        f.reads = model_and({P::max_position, P::position, P::key_position, P::vector, P::key_vector, P::preset});
        f.describe = describe_sinusoidal;
        f.build = build_sinusoidal;
        f.model_b = ModelBView::itself;  // B's RoPE score dashed over A's
        return f;
    }();
    return d;
}

}  // namespace rope::figures
