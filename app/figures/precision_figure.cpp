// Numeric precision: the angle m * theta_i computed in float32, bf16 and fp16 against double, the
// gap between the positions those formats can store, the error of every pair at the current
// position, and what it does to the rotated vector. Includes the common mistake of casting the
// frequencies (inv_freq) to bf16 before multiplying by the position in float32.
#include <algorithm>
#include <cmath>
#include <limits>

#include "figures/subplot_fit.hpp"
#include "figures/why_common.hpp"
#include "plot/ticks.hpp"
#include "rope/precision.hpp"
#include "rope/rotation.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::SubplotFit;
namespace why = detail::why;

enum class PrecisionPlot { angle, positions, pairs, vector };

// The four ways of computing the angle the figure compares.
struct Recipe {
    NumberFormat theta_format, compute_format;
    const char* label;
    const char* column;
};
constexpr Recipe kRecipes[4] = {
    {NumberFormat::float32, NumberFormat::float32, "float32", "float32"},
    {NumberFormat::bfloat16, NumberFormat::bfloat16, "bf16", "bf16"},
    {NumberFormat::float16, NumberFormat::float16, "fp16", "fp16"},
    {NumberFormat::bfloat16, NumberFormat::float32, "θ cast to bf16 first, m·θ in fp32", "theta_bf16_first"},
};

double recipe_angle(const Recipe& r, double m, double theta) {
    return angle_with_theta_cast(r.theta_format, r.compute_format, m, theta);
}

// Positions the error curves are evaluated at: every one up to 4096, then log-spaced to `top`,
// with the teaching points (257, 2049, 65504, 65520, 131071, 2^24 + 1) and the current position.
std::vector<double> sample_positions(double top, double current) {
    std::vector<double> m;
    for (int i = 1; i <= 4096 && i <= top; ++i) m.push_back(i);
    if (top > 4096) {
        const int steps = 2400;
        for (int s = 1; s <= steps; ++s) m.push_back(std::round(4096 * std::pow(top / 4096, static_cast<double>(s) / steps)));
    }
    for (double v : {257.0, 2049.0, 65504.0, 65520.0, 131071.0, 16777217.0, current})
        if (v >= 1 && v <= top) m.push_back(v);
    std::sort(m.begin(), m.end());
    m.erase(std::unique(m.begin(), m.end()), m.end());
    return m;
}

// Decade ticks from `floor` to `top`, spaced for `pixels`; with `zeros` the floor is labelled
// "0 (exact)": exact values are drawn there (a log axis has no 0).
std::vector<plot::Tick> floored_log_ticks(double floor, double top, float pixels, float font, bool zeros) {
    const int decades = std::max(1, static_cast<int>(std::lround(std::log10(top / floor))));
    // every decade that fits, but never fewer than three labels; all as powers of ten (one format)
    const int fit = std::max(2, static_cast<int>(pixels / (font * 2.2f)));
    const int every = std::max(1, decades / fit);
    std::vector<plot::Tick> t{{floor, zeros ? "0 (exact)" : plot::decade_label(floor), true}};
    if (decades <= 2) {  // a decade or two: 2s and 5s too, all as plain numbers
        if (!zeros) t.front().label = plot::tick_label(floor, floor);
        for (int e = 0; e <= decades; ++e)
            for (double k : {2.0, 5.0, 10.0}) {
                const double v = floor * std::pow(10.0, e) * k;
                if (v <= top * (1 + 1e-9) && (k < 10 || e == decades - 1)) t.push_back({v, plot::tick_label(v, v < 1 ? v : 1), true});
            }
        return t;
    }
    for (int e = every; e <= decades; e += every) {
        const double v = floor * std::pow(10.0, e);
        t.push_back({v, plot::decade_label(v), true});
    }
    return t;
}

double floor_for(double smallest_positive) {
    if (!(smallest_positive > 0) || !std::isfinite(smallest_positive)) return 1e-12;
    return std::pow(10.0, std::floor(std::log10(smallest_positive)) - 1);
}

void build_precision(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const FrequencyTable& f = ctx.frequencies();
    const Pairing pairing = ctx.params.config().pairing;
    const int pairs = f.pairs();
    const int pair = static_cast<int>(std::min<std::int64_t>(ctx.params[P::pair], pairs - 1));
    const double theta = f.theta[pair];
    const std::int64_t m_int = ctx.params[P::position];
    const double m_now = static_cast<double>(m_int);
    const double top = std::max(static_cast<double>(ctx.params[P::max_position]), 1048576.0);
    const Eigen::VectorXd x = why::q_vector(ctx.params);
    const double inf = std::numeric_limits<double>::infinity();
    // a colour and a dash per recipe: bf16 and fp16 differ in colour under any colour vision and in greyscale
    const plot::Color colors[4] = {th.series[0], th.series[1], th.series[2], th.series[3]};
    const float dashes[4] = {th.series_dash[0], th.series_dash[1], th.series_dash[2], th.series_dash[3]};

    // 1. The angle of the selected pair at sampled positions, and the worst error up to each.
    const std::vector<double> ms = sample_positions(top, m_now);
    const std::size_t count = ms.size();
    std::vector<double> exact(count), angle[4], error[4], worst[4];
    double smallest = inf, largest = 0;
    for (int r = 0; r < 4; ++r) angle[r].resize(count), error[r].resize(count), worst[r].resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        exact[i] = ms[i] * theta;
        for (int r = 0; r < 4; ++r) {
            angle[r][i] = recipe_angle(kRecipes[r], ms[i], theta);
            const double e = std::isfinite(angle[r][i]) ? std::abs(angle[r][i] - exact[i]) : inf;
            error[r][i] = e;
            worst[r][i] = std::max(e, i ? worst[r][i - 1] : 0.0);
            if (e > 0 && std::isfinite(e)) smallest = std::min(smallest, e), largest = std::max(largest, e);
        }
    }
    // 2. The gap between storable numbers at those positions.
    std::vector<double> gap[3];
    for (int r = 0; r < 3; ++r) {
        gap[r].resize(count);
        for (std::size_t i = 0; i < count; ++i) gap[r][i] = format_spacing(kRecipes[r].compute_format, ms[i]);
    }
    // 3. Every pair's angle error at the current position.
    std::vector<double> pair_index(static_cast<std::size_t>(pairs)), pair_error[4];
    double pair_smallest = inf, pair_largest = 0;
    for (int r = 0; r < 4; ++r) pair_error[r].resize(static_cast<std::size_t>(pairs));
    for (int i = 0; i < pairs; ++i) {
        pair_index[i] = i;
        for (int r = 0; r < 4; ++r) {
            const double a = recipe_angle(kRecipes[r], m_now, f.theta[i]);
            const double e = std::isfinite(a) ? std::abs(a - m_now * f.theta[i]) : inf;
            pair_error[r][i] = e;
            if (e > 0 && std::isfinite(e)) pair_smallest = std::min(pair_smallest, e), pair_largest = std::max(pair_largest, e);
        }
    }
    // 4. What the angles do to the rotated vector (the rest computed in double).
    const Eigen::VectorXd rotated = rotate(f, pairing, x, m_now);
    double vector_error[4];
    double vec_smallest = inf, vec_largest = 0;
    for (int r = 0; r < 4; ++r) {
        const double e = (rotate_with_angle_precision(f, pairing, x, m_now, kRecipes[r].theta_format, kRecipes[r].compute_format) -
                          rotated).norm();
        vector_error[r] = std::isfinite(e) ? e : inf;
        if (e > 0 && std::isfinite(e)) vec_smallest = std::min(vec_smallest, e), vec_largest = std::max(vec_largest, e);
    }
    const bool fp16_overflow = !std::isfinite(round_to_float16(m_now));

    // layout: 2 x 2, or one column when the figure is tall and narrow
    const float W = ctx.request.width, H = ctx.request.height;
    const float th_ = why::title_space(ctx);
    const plot::Style sub = why::sub_style(st);
    const float tf = st.px(st.tick_font);
    const bool column = H >= W * 1.6f;
    // the four series share one legend, in a row at the bottom
    std::vector<plot::LegendEntry> legend;
    for (int r = 0; r < 4; ++r) legend.push_back({kRecipes[r].label, colors[r], 3.0f, dashes[r]});
    legend[2].label = "fp16 (overflows past 65 504)";
    const float B = H - why::legend_row(ctx, legend, 0, W, H - st.px(4)) - st.px(6);
    ctx.result.shared_key = {0, B, W, H};
    const float mid_x = W * 0.5f, mid_y = th_ + (B - th_) * 0.5f;
    // too small for four plots: the angle errors first, then the rotated vector's, then the gaps
    const SubplotFit fit = fit_plots(
        ctx, {0, th_, W, B},
        {column ? plot::Rect{0, th_, W, th_ + (B - th_) * 0.25f} : plot::Rect{0, th_, mid_x, mid_y},
         column ? plot::Rect{0, th_ + (B - th_) * 0.25f, W, mid_y} : plot::Rect{mid_x, th_, W, mid_y},
         column ? plot::Rect{0, mid_y, W, th_ + (B - th_) * 0.75f} : plot::Rect{0, mid_y, mid_x, B},
         column ? plot::Rect{0, th_ + (B - th_) * 0.75f, W, B} : plot::Rect{mid_x, mid_y, W, B}});
    const std::vector<plot::Rect>& cell = fit.cells;
    float cell_h = 0;
    for (const plot::Rect& r : cell) cell_h = std::max(cell_h, r.height());
    // room for the plot area, to space the hand-made log ticks
    const float plot_h = cell_h - st.px(sub.title_font) * 1.5f - tf * 1.5f - st.px(sub.label_font) * 1.5f - st.px(22);
    const std::string m_tag = "m = " + plot::tick_label(m_now, 1);
    // vertical axis labels: the long form when the plot is tall enough to hold it
    auto y_label = [&](const std::string& long_form, const std::string& short_form) {
        return ctx.measure.measure(long_form, st.px(sub.label_font)).x <= plot_h ? long_form : short_form;
    };

    // top left: the worst angle error up to m
    if (fit.shows(0)) {
        const double floor = floor_for(smallest);
        const double ceiling = std::pow(10.0, std::ceil(std::log10(std::max({largest, 10.0, kPi * 3}))));
        const bool theta_exact = round_to_bfloat16(theta) == theta;
        const std::string theta_text = "θ = " + plot::readout_number(theta, 4);
        plot::Plot p(ctx.result.list, ctx.measure, sub, cell[0],
                     why::pick_title(ctx, sub, cell[0].width(),
                                     {"pair " + std::to_string(pair) + " (" + theta_text + (theta_exact ? ", exact in bf16" : "") +
                                          "): worst angle error up to m",
                                      "worst angle error up to m, pair " + std::to_string(pair) + " (" + theta_text + ")",
                                      "worst angle error, pair " + std::to_string(pair)}));
        plot::AxisSetup ax{"position m (tokens, log)", 1, top, true};
        plot::AxisSetup ay{y_label("|angle error| (rad, log)", "|error| (rad)"), floor / 2, ceiling, true};
        bool zeros = false;
        for (const auto& w : worst) zeros = zeros || std::count(w.begin(), w.end(), 0.0) > 0;
        ay.ticks = floored_log_ticks(floor, ceiling, plot_h, tf, zeros);
        p.setup_x(ax);
        p.setup_y(ay);
        p.marker_y(kPi, th.muted, "π", 1.2f, 4);
        for (int r = 3; r >= 0; --r) {
            std::vector<double> y(worst[r]);
            for (double& v : y) v = std::max(v, floor);
            p.line(ms.data(), y.data(), y.size(), 1, colors[r], "", r == 3 ? sub.line_width * 0.9f : sub.line_width,
                   dashes[r]);
        }
        if (m_now >= 1 && m_now <= top && ctx.request.show_cursor) p.marker_x(m_now, th.accent, m_tag, 2.0f, 6);
        record_geometry(ctx, p, PrecisionPlot::angle, ax, ay);
        p.finish();
    }

    // top right: the gap between storable numbers at position m
    if (fit.shows(1)) {
        double hi = 10;
        for (int r = 0; r < 3; ++r)
            for (double g : gap[r])
                if (std::isfinite(g)) hi = std::max(hi, g);
        const double ceiling = std::pow(10.0, std::ceil(std::log10(hi)));
        const double floor = 1e-8;
        plot::Plot p(ctx.result.list, ctx.measure, sub, cell[1], "gap between storable numbers near m");
        plot::AxisSetup ax{"position m (tokens, log)", 1, top, true};
        plot::AxisSetup ay{y_label("gap (tokens, log)", "gap (tokens)"), floor, ceiling, true};
        p.setup_x(ax);
        p.setup_y(ay);
        p.marker_y(1, th.muted, "1 token", 1.2f, 4);
        for (int r = 0; r < 3; ++r) p.line(ms.data(), gap[r].data(), count, 1, colors[r], "", sub.line_width * 0.9f);
        p.list().circle(p.to_px(257, 2), st.px(4.5f), colors[1]);
        const std::string note = p.x_px(257) - ctx.measure.measure("bf16: 257 → 256  ", tf).x > p.area().x0 ? "bf16: 257 → 256  "
                                                                                                           : "257 → 256 ";
        p.text(257, 2, note, th.text, plot::HAlign::right, plot::VAlign::bottom);
        if (m_now >= 1 && m_now <= top && ctx.request.show_cursor) p.marker_x(m_now, th.accent, m_tag, 2.0f, 6);
        record_geometry(ctx, p, PrecisionPlot::positions, ax, ay);
        p.finish();
    }

    // bottom left: every pair's angle error at the current position
    if (fit.shows(2)) {
        const double floor = floor_for(pair_smallest);
        const double ceiling = std::pow(10.0, std::ceil(std::log10(std::max({pair_largest, 10.0, kPi * 3}))));
        plot::Plot p(ctx.result.list, ctx.measure, sub, cell[2],
                     why::pick_title(ctx, sub, cell[2].width(),
                                     {"angle error of every pair at " + m_tag + (fp16_overflow ? " (fp16: m overflows)" : ""),
                                      "every pair's angle error at " + m_tag}));
        plot::AxisSetup ax{"pair i", -0.5, std::max(pairs - 0.5, 0.5)};
        ax.moves_in_animation = true;  // pair i of this dim
        ax.integer_ticks = true;
        plot::AxisSetup ay{y_label("|angle error| (rad, log)", "|error| (rad)"), floor / 2, ceiling, true};
        bool zeros = false;
        for (const auto& e : pair_error) zeros = zeros || std::count(e.begin(), e.end(), 0.0) > 0;
        ay.ticks = floored_log_ticks(floor, ceiling, plot_h, tf, zeros);
        p.setup_x(ax);
        p.setup_y(ay);
        p.marker_y(kPi, th.muted, "π", 1.2f, 4);
        for (int r = 3; r >= 0; --r) {
            std::vector<double> y(pair_error[r]);
            for (double& v : y) v = std::max(v, floor);
            p.line(pair_index.data(), y.data(), y.size(), 1, colors[r], "", sub.line_width * 0.8f, dashes[r]);
            if (pairs <= 64)
                for (int i = 0; i < pairs; ++i)
                    if (std::isfinite(y[i])) p.list().circle(p.to_px(i, y[i]), st.px(2.5f), colors[r]);
        }
        if (pairs > 1 && ctx.request.show_cursor) p.marker_x(pair, th.accent, "pair " + std::to_string(pair), 1.5f, 5);
        if (m_int == 0)
            p.text((pairs - 1) / 2.0, std::sqrt(floor * ceiling),
                   ctx.measure.measure("position 0 is exact in every format", tf).x < p.area().width() - st.px(12)
                       ? "position 0 is exact in every format"
                       : "m = 0: all exact",
                   th.muted, plot::HAlign::center, plot::VAlign::middle);
        record_geometry(ctx, p, PrecisionPlot::pairs, ax, ay);
        p.finish();
    }

    // bottom right: the rotated vector's error for each way of computing the angles
    if (fit.shows(3)) {
        const double floor = floor_for(vec_smallest);
        const double ceiling = std::pow(10.0, std::ceil(std::log10(std::max({vec_largest, x.norm() * 3, 10.0}))));
        plot::Plot p(ctx.result.list, ctx.measure, sub, cell[3],
                     why::pick_title(ctx, sub, cell[3].width(),
                                     {"error of the rotated vector R(m)x at " + m_tag, "error of R(m)x at " + m_tag}));
        plot::AxisSetup ax{"angles computed in", -0.6, 3.6};
        ax.ticks = {{0, "float32"}, {1, "bf16"}, {2, "fp16"}, {3, "θ→bf16"}};
        plot::AxisSetup ay{y_label("‖R(m)x − exact‖ (log)", "‖error‖"), floor / 2, ceiling, true};
        ay.ticks = floored_log_ticks(floor, ceiling, plot_h, tf, std::count(vector_error, vector_error + 4, 0.0) > 0);
        p.setup_x(ax);
        p.setup_y(ay);
        if (x.norm() > 0) p.marker_y(x.norm(), th.muted, "‖x‖", 1.2f, 4);
        for (int r = 0; r < 4; ++r) {
            const double v = vector_error[r];
            if (!std::isfinite(v)) {
                p.text(r, std::sqrt(floor * ceiling), "overflow", colors[r], plot::HAlign::center, plot::VAlign::middle);
                continue;
            }
            const plot::Vec2 a = p.to_px(r - 0.3, std::max(v, floor)), b = p.to_px(r + 0.3, floor / 2);
            p.list().rect({a.x, a.y, b.x, b.y}, colors[r].with_alpha(0.85f), colors[r], st.px(1));
            p.text(r, std::max(v, floor), v > 0 ? plot::readout_number(v, 2) : "0", th.text, plot::HAlign::center,
                   plot::VAlign::bottom);
        }
        record_geometry(ctx, p, PrecisionPlot::vector, ax, ay);
        p.finish();
    }

    if (ctx.request.with_table) {
        // long layout, every cell a number: one row per format and sampled position for the selected
        // pair, then one per format and pair at the current position. `format` is 0 float32, 1 bf16,
        // 2 fp16, 3 theta cast to bf16 first with m*theta in float32. `error` is signed, angle -
        // angle_exact (the plots show its size on a log axis). Where a format overflows (fp16 from
        // 65520 on, m or m * theta) it has no value, so it has no row.
        DataTable& t = ctx.result.table;
        t.columns = {"format", "m", "pair", "angle_exact", "angle", "error", "spacing"};
        t.values.assign(t.columns.size(), {});
        auto row = [&](int r, double m, int i, double exact_angle, double a) {
            const double spacing = format_spacing(kRecipes[r].compute_format, m);
            const double e = a - exact_angle;
            if (!std::isfinite(a) || !std::isfinite(e) || !std::isfinite(spacing)) return;
            const double cells[] = {static_cast<double>(r), m, static_cast<double>(i), exact_angle, a, e, spacing};
            for (std::size_t c = 0; c < t.columns.size(); ++c) t.values[c].push_back(cells[c]);
        };
        for (int r = 0; r < 4; ++r)
            for (std::size_t i = 0; i < count; ++i) row(r, ms[i], pair, exact[i], angle[r][i]);
        for (int r = 0; r < 4; ++r)
            for (int i = 0; i < pairs; ++i)
                row(r, m_now, i, m_now * f.theta[i], recipe_angle(kRecipes[r], m_now, f.theta[i]));
    }
}

}  // namespace

const FigureDescriptor& precision_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "precision";
        f.title = "Numeric precision";
        f.page = 2;
        f.csv_columns = "format,m,pair,angle_exact,angle,error,spacing";
        f.plots = {
            {"precision_angle", "Angle error against position", "angle error", PlotRole::main, AxisRole::position, AxisRole::other, 0, {240, 200}, 0, false, 1.5f, {"bfloat16", "rounded"}},
            {"precision_positions", "The gap between the positions each format stores", "position gaps", PlotRole::supporting, AxisRole::position, AxisRole::other, 3, {240, 200}, 0, false, 1.5f, {"position 257"}},
            {"precision_pairs", "Angle error of every pair at m", "every pair", PlotRole::supporting, AxisRole::pair, AxisRole::other, 1, {240, 200}, 0, false, 1.5f, {"fastest pair"}},
            {"precision_vector", "The rotated vector in each format", "rotated vector", PlotRole::supporting, AxisRole::other, AxisRole::other, 2, {240, 200}, 0, false, 1.5f, {"casting"}},
        };
        f.reads = model_and({P::pair, P::max_position, P::position, P::vector});
        f.build = build_precision;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
