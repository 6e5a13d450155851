// Numeric precision: the angle m * theta_i computed in float32, bf16 and fp16 against double, the
// gap between the positions those formats can store, the error of every pair at the current
// position, and what it does to the rotated vector. Includes the common mistake of casting the
// frequencies (inv_freq) to bf16 before multiplying by the position in float32.
#include <algorithm>
#include <cmath>
#include <limits>

#include "figures/alt_text.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/why_common.hpp"
#include "plot/axis_pins.hpp"
#include "plot/ticks.hpp"
#include "rope/precision.hpp"
#include "rope/rotation.hpp"
#include "figures/pair_axis.hpp"

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

// The numbers the plots and the table read, for the selected pair and position.
struct PrecisionData {
    int pairs = 0, pair = 0;
    double theta = 0;
    std::int64_t m_int = 0;
    double m_now = 0, top = 0;
    Eigen::VectorXd x;
    // the selected pair's angle at the sampled positions, and the worst error up to each
    std::vector<double> ms, exact, angle[4], worst[4];
    double smallest = 0, largest = 0;
    std::vector<double> gap[3];  // the gap between storable numbers at those positions
    // every pair's angle error at the current position
    std::vector<double> pair_index, pair_error[4];
    double pair_smallest = 0, pair_largest = 0;
    // the rotated vector's error for each recipe
    double vector_error[4] = {};
    double vec_smallest = 0, vec_largest = 0;
    bool fp16_overflow = false;
};

// 1. The angle of the selected pair at sampled positions, and the worst error up to each.
void sample_angle_errors(PrecisionData& d) {
    const double inf = std::numeric_limits<double>::infinity();
    d.ms = sample_positions(d.top, d.m_now);
    const std::vector<double>& ms = d.ms;
    const std::size_t count = ms.size();
    std::vector<double> error[4];
    d.exact.resize(count);
    d.smallest = inf, d.largest = 0;
    for (int r = 0; r < 4; ++r) d.angle[r].resize(count), error[r].resize(count), d.worst[r].resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        d.exact[i] = ms[i] * d.theta;
        for (int r = 0; r < 4; ++r) {
            d.angle[r][i] = recipe_angle(kRecipes[r], ms[i], d.theta);
            const double e = std::isfinite(d.angle[r][i]) ? std::abs(d.angle[r][i] - d.exact[i]) : inf;
            error[r][i] = e;
            d.worst[r][i] = std::max(e, i ? d.worst[r][i - 1] : 0.0);
            if (e > 0 && std::isfinite(e)) d.smallest = std::min(d.smallest, e), d.largest = std::max(d.largest, e);
        }
    }
    // 2. The gap between storable numbers at those positions.
    for (int r = 0; r < 3; ++r) {
        d.gap[r].resize(count);
        for (std::size_t i = 0; i < count; ++i) d.gap[r][i] = format_spacing(kRecipes[r].compute_format, ms[i]);
    }
}

// 3. Every pair's angle error at the current position.
void every_pair_error(PrecisionData& d, const FrequencyTable& f) {
    const double inf = std::numeric_limits<double>::infinity();
    const double m_now = d.m_now;
    d.pair_index.resize(static_cast<std::size_t>(d.pairs));
    d.pair_smallest = inf, d.pair_largest = 0;
    for (int r = 0; r < 4; ++r) d.pair_error[r].resize(static_cast<std::size_t>(d.pairs));
    for (int i = 0; i < d.pairs; ++i) {
        d.pair_index[i] = i;
        for (int r = 0; r < 4; ++r) {
            const double a = recipe_angle(kRecipes[r], m_now, f.theta[i]);
            const double e = std::isfinite(a) ? std::abs(a - m_now * f.theta[i]) : inf;
            d.pair_error[r][i] = e;
            if (e > 0 && std::isfinite(e)) d.pair_smallest = std::min(d.pair_smallest, e), d.pair_largest = std::max(d.pair_largest, e);
        }
    }
}

// 4. What the angles do to the rotated vector (the rest computed in double).
void rotated_vector_error(PrecisionData& d, const FrequencyTable& f, Pairing pairing) {
    const double inf = std::numeric_limits<double>::infinity();
    const Eigen::VectorXd rotated = rotate(f, pairing, d.x, d.m_now);
    d.vec_smallest = inf, d.vec_largest = 0;
    for (int r = 0; r < 4; ++r) {
        const double e = (rotate_with_angle_precision(f, pairing, d.x, d.m_now, kRecipes[r].theta_format, kRecipes[r].compute_format) -
                          rotated).norm();
        d.vector_error[r] = std::isfinite(e) ? e : inf;
        if (e > 0 && std::isfinite(e)) d.vec_smallest = std::min(d.vec_smallest, e), d.vec_largest = std::max(d.vec_largest, e);
    }
}

PrecisionData precision_data(BuildContext& ctx) {
    const FrequencyTable& f = ctx.frequencies();
    const Pairing pairing = ctx.params.config().pairing;
    PrecisionData d;
    d.pairs = f.pairs();
    d.pair = static_cast<int>(std::min<std::int64_t>(ctx.params[P::pair], d.pairs - 1));
    d.theta = f.theta[d.pair];
    d.m_int = ctx.params[P::position];
    d.m_now = static_cast<double>(d.m_int);
    d.top = std::max(static_cast<double>(ctx.params[P::max_position]), 1048576.0);
    d.x = why::q_vector(ctx.params);
    sample_angle_errors(d);
    every_pair_error(d, f);
    rotated_vector_error(d, f, pairing);
    d.fp16_overflow = !std::isfinite(round_to_float16(d.m_now));
    return d;
}

// What the four plots draw with: the sub-plots' style, a colour and a dash per recipe, the height
// of a plot area and the current position's label.
struct PrecisionLook {
    plot::Style sub;
    float tf = 0;
    // room for the plot area, to space the hand-made log ticks
    float plot_h = 0;
    std::string m_tag;
    plot::Color colors[4];
    float dashes[4] = {};

    // vertical axis labels: the long form when the plot is tall enough to hold it
    std::string y_label(const BuildContext& ctx, const std::string& long_form, const std::string& short_form) const {
        const plot::Style& st = ctx.request.style;
        return ctx.measure.measure(long_form, st.px(sub.label_font)).x <= plot_h ? long_form : short_form;
    }
};

// The first decade at or above `v`.
double decade_ceiling(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

// Whether any of the four recipes' curves holds an exact value (drawn at the floor, labelled "0 (exact)").
bool any_exact(const std::vector<double> (&curves)[4]) {
    bool zeros = false;
    for (const auto& c : curves) zeros = zeros || std::count(c.begin(), c.end(), 0.0) > 0;
    return zeros;
}

// A log axis of errors from half the floor to the ceiling, with the hand-made decade ticks.
plot::AxisSetup error_axis(const BuildContext& ctx, const PrecisionLook& look, const std::string& long_form,
                           const std::string& short_form, double floor, double ceiling, bool zeros) {
    plot::AxisSetup ay{look.y_label(ctx, long_form, short_form), floor / 2, ceiling, true};
    ay.ticks = floored_log_ticks(floor, ceiling, look.plot_h, look.tf, zeros);
    return ay;
}

// An error axis' floor and ceiling, and whether exact values sit on its floor, held over an
// animation's frames (plot/axis_pins.hpp): its hand-made ticks are made for one range, so that range
// is the union of the frames', fixed before the ticks are made from it.
void hold_error_range(const BuildContext& ctx, const std::string& name, double& floor, double& ceiling, bool& zeros) {
    plot::hold_range(ctx.request.style.pins, name, floor, ceiling);
    plot::hold_flag(ctx.request.style.pins, name + ": some exact", zeros);
}

// The current position on a position axis.
void mark_position(const BuildContext& ctx, plot::Plot& p, const PrecisionData& d, const PrecisionLook& look) {
    if (d.m_now >= 1 && d.m_now <= d.top && ctx.request.show_cursor)
        p.marker_x(d.m_now, ctx.request.style.theme.accent, look.m_tag, 2.0f, 6);
}

// top left: the worst angle error up to m
void draw_angle_errors(BuildContext& ctx, const PrecisionData& d, const PrecisionLook& look, plot::Rect cell) {
    const plot::Theme& th = ctx.request.style.theme;
    const plot::Style& sub = look.sub;
    double floor = floor_for(d.smallest);
    double ceiling = decade_ceiling(std::max({d.largest, 10.0, kPi * 3}));
    bool zeros = any_exact(d.worst);
    hold_error_range(ctx, "worst angle error", floor, ceiling, zeros);
    const bool theta_exact = round_to_bfloat16(d.theta) == d.theta;
    const std::string theta_text = "θ = " + plot::readout_number(d.theta, 4);
    const std::string pair = std::to_string(d.pair);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"pair " + pair + " (" + theta_text + (theta_exact ? ", exact in bf16" : "") + "): worst angle error up to m",
                                  "worst angle error up to m, pair " + pair + " (" + theta_text + ")",
                                  "worst angle error, pair " + pair}));
    plot::AxisSetup ax{"position m (tokens, log)", 1, d.top, true};
    plot::AxisSetup ay = error_axis(ctx, look, "|angle error| (rad, log)", "|error| (rad)", floor, ceiling, zeros);
    p.setup_x(ax);
    p.setup_y(ay);
    p.marker_y(kPi, th.muted, "π", 1.2f, 4);
    for (int r = 3; r >= 0; --r) {
        std::vector<double> y(d.worst[r]);
        for (double& v : y) v = std::max(v, floor);
        p.line(d.ms.data(), y.data(), y.size(), 1, look.colors[r], "", r == 3 ? sub.line_width * 0.9f : sub.line_width,
               look.dashes[r]);
    }
    mark_position(ctx, p, d, look);
    record_geometry(ctx, p, PrecisionPlot::angle);
    p.finish();
}

// top right: the gap between storable numbers at position m
void draw_position_gaps(BuildContext& ctx, const PrecisionData& d, const PrecisionLook& look, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style& sub = look.sub;
    double hi = 10;
    for (int r = 0; r < 3; ++r)
        for (double g : d.gap[r])
            if (std::isfinite(g)) hi = std::max(hi, g);
    const double ceiling = decade_ceiling(hi);
    const double floor = 1e-8;
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell, "gap between storable numbers near m");
    plot::AxisSetup ax{"position m (tokens, log)", 1, d.top, true};
    plot::AxisSetup ay{look.y_label(ctx, "gap (tokens, log)", "gap (tokens)"), floor, ceiling, true};
    p.setup_x(ax);
    p.setup_y(ay);
    p.marker_y(1, th.muted, "1 token", 1.2f, 4);
    for (int r = 0; r < 3; ++r) p.line(d.ms.data(), d.gap[r].data(), d.ms.size(), 1, look.colors[r], "", sub.line_width * 0.9f);
    p.list().circle(p.to_px(257, 2), st.px(4.5f), look.colors[1]);
    const std::string note = p.x_px(257) - ctx.measure.measure("bf16: 257 → 256  ", look.tf).x > p.area().x0 ? "bf16: 257 → 256  "
                                                                                                             : "257 → 256 ";
    p.text(257, 2, note, th.text, plot::HAlign::right, plot::VAlign::bottom);
    mark_position(ctx, p, d, look);
    record_geometry(ctx, p, PrecisionPlot::positions);
    p.finish();
}

// bottom left: every pair's angle error at the current position
void draw_pair_errors(BuildContext& ctx, const PrecisionData& d, const PrecisionLook& look, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style& sub = look.sub;
    const int pairs = d.pairs;
    double floor = floor_for(d.pair_smallest);
    double ceiling = decade_ceiling(std::max({d.pair_largest, 10.0, kPi * 3}));
    bool zeros = any_exact(d.pair_error);
    hold_error_range(ctx, "pair angle error", floor, ceiling, zeros);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"angle error of every pair at " + look.m_tag + (d.fp16_overflow ? " (fp16: m overflows)" : ""),
                                  "every pair's angle error at " + look.m_tag}));
    const plot::AxisSetup ax = detail::pair_axis(ctx.request, static_cast<int>(pairs), "pair i", -0.5, std::max(pairs - 0.5, 0.5));
    plot::AxisSetup ay = error_axis(ctx, look, "|angle error| (rad, log)", "|error| (rad)", floor, ceiling, zeros);
    p.setup_x(ax);
    p.setup_y(ay);
    p.marker_y(kPi, th.muted, "π", 1.2f, 4);
    for (int r = 3; r >= 0; --r) {
        std::vector<double> y(d.pair_error[r]);
        for (double& v : y) v = std::max(v, floor);
        p.line(d.pair_index.data(), y.data(), y.size(), 1, look.colors[r], "", sub.line_width * 0.8f, look.dashes[r]);
        if (pairs <= 64)
            for (int i = 0; i < pairs; ++i)
                if (std::isfinite(y[i])) p.list().circle(p.to_px(i, y[i]), st.px(2.5f), look.colors[r]);
    }
    if (pairs > 1 && ctx.request.show_cursor) p.marker_x(d.pair, th.accent, "pair " + std::to_string(d.pair), 1.5f, 5);
    if (d.m_int == 0)
        p.text((pairs - 1) / 2.0, std::sqrt(floor * ceiling),
               ctx.measure.measure("position 0 is exact in every format", look.tf).x < p.area().width() - st.px(12)
                   ? "position 0 is exact in every format"
                   : "m = 0: all exact",
               th.muted, plot::HAlign::center, plot::VAlign::middle);
    record_geometry(ctx, p, PrecisionPlot::pairs);
    p.finish();
}

// bottom right: the rotated vector's error for each way of computing the angles
void draw_vector_errors(BuildContext& ctx, const PrecisionData& d, const PrecisionLook& look, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style& sub = look.sub;
    double floor = floor_for(d.vec_smallest);
    double ceiling = decade_ceiling(std::max({d.vec_largest, d.x.norm() * 3, 10.0}));
    bool zeros = std::count(d.vector_error, d.vector_error + 4, 0.0) > 0;
    hold_error_range(ctx, "vector error", floor, ceiling, zeros);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"error of the rotated vector R(m)x at " + look.m_tag, "error of R(m)x at " + look.m_tag}));
    plot::AxisSetup ax{"angles computed in", -0.6, 3.6};
    ax.ticks = {{0, "float32"}, {1, "bf16"}, {2, "fp16"}, {3, "θ→bf16"}};
    plot::AxisSetup ay = error_axis(ctx, look, "‖R(m)x − exact‖ (log)", "‖error‖", floor, ceiling, zeros);
    p.setup_x(ax);
    p.setup_y(ay);
    if (d.x.norm() > 0) p.marker_y(d.x.norm(), th.muted, "‖x‖", 1.2f, 4);
    for (int r = 0; r < 4; ++r) {
        const double v = d.vector_error[r];
        if (!std::isfinite(v)) {
            p.text(r, std::sqrt(floor * ceiling), "overflow", look.colors[r], plot::HAlign::center, plot::VAlign::middle);
            continue;
        }
        const plot::Vec2 a = p.to_px(r - 0.3, std::max(v, floor)), b = p.to_px(r + 0.3, floor / 2);
        p.list().rect({a.x, a.y, b.x, b.y}, look.colors[r].with_alpha(0.85f), look.colors[r], st.px(1));
        p.text(r, std::max(v, floor), v > 0 ? plot::readout_number(v, 2) : "0", th.text, plot::HAlign::center,
               plot::VAlign::bottom);
    }
    record_geometry(ctx, p, PrecisionPlot::vector);
    p.finish();
}

// long layout, every cell a number: one row per format and sampled position for the selected
// pair, then one per format and pair at the current position. `format` is 0 float32, 1 bf16,
// 2 fp16, 3 theta cast to bf16 first with m*theta in float32. `error` is signed, angle -
// angle_exact (the plots show its size on a log axis). Where a format overflows (fp16 from
// 65520 on, m or m * theta) it has no value, so it has no row.
void write_table(BuildContext& ctx, const PrecisionData& d) {
    const FrequencyTable& f = ctx.frequencies();
    const double m_now = d.m_now;
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
        for (std::size_t i = 0; i < d.ms.size(); ++i) row(r, d.ms[i], d.pair, d.exact[i], d.angle[r][i]);
    for (int r = 0; r < 4; ++r)
        for (int i = 0; i < d.pairs; ++i)
            row(r, m_now, i, m_now * f.theta[i], recipe_angle(kRecipes[r], m_now, f.theta[i]));
}

// layout: 2 x 2, or one column when the figure is tall and narrow
std::vector<plot::Rect> own_cells(float W, float top, float B, bool column) {
    const float mid_x = W * 0.5f, mid_y = top + (B - top) * 0.5f;
    return {column ? plot::Rect{0, top, W, top + (B - top) * 0.25f} : plot::Rect{0, top, mid_x, mid_y},
            column ? plot::Rect{0, top + (B - top) * 0.25f, W, mid_y} : plot::Rect{mid_x, top, W, mid_y},
            column ? plot::Rect{0, mid_y, W, top + (B - top) * 0.75f} : plot::Rect{0, mid_y, mid_x, B},
            column ? plot::Rect{0, top + (B - top) * 0.75f, W, B} : plot::Rect{mid_x, mid_y, W, B}};
}

// the four series share one legend, in a row at the bottom; returns the top of the row
float draw_shared_legend(BuildContext& ctx, const PrecisionLook& look) {
    const plot::Style& st = ctx.request.style;
    const float W = ctx.request.width, H = ctx.request.height;
    std::vector<plot::LegendEntry> legend;
    for (int r = 0; r < 4; ++r) legend.push_back({kRecipes[r].label, look.colors[r], 3.0f, look.dashes[r]});
    legend[2].label = "fp16 (overflows past 65 504)";
    if (st.compact) {  // a phone's column: one row of short names (the readout and the alt text say the rest)
        legend[2].label = "fp16";
        legend[3].label = "θ in bf16";
    }
    const float B = H - why::legend_row(ctx, legend, 0, W, H - st.px(4)) - st.px(6);
    ctx.result.shared_key = {0, B, W, H};
    return B;
}

void build_precision(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const PrecisionData data = precision_data(ctx);
    PrecisionLook look;
    // a colour and a dash per recipe: bf16 and fp16 differ in colour under any colour vision and in greyscale
    for (int r = 0; r < 4; ++r) look.colors[r] = th.series[r], look.dashes[r] = th.series_dash[r];

    const float W = ctx.request.width, H = ctx.request.height;
    const float top = why::title_space(ctx);
    look.sub = why::sub_style(st);
    look.tf = st.px(st.tick_font);
    const bool column = H >= W * 1.6f;
    const float B = draw_shared_legend(ctx, look);
    // too small for four plots: the angle errors first, then the rotated vector's, then the gaps
    const SubplotFit fit = fit_plots(ctx, {0, top, W, B}, own_cells(W, top, B, column));
    float cell_h = 0;
    for (const plot::Rect& r : fit.cells) cell_h = std::max(cell_h, r.height());
    look.plot_h = cell_h - st.px(look.sub.title_font) * 1.5f - look.tf * 1.5f - st.px(look.sub.label_font) * 1.5f - st.px(22);
    look.m_tag = "m = " + plot::tick_label(data.m_now, 1);

    if (fit.shows(PrecisionPlot::angle)) draw_angle_errors(ctx, data, look, fit.cell(PrecisionPlot::angle));
    if (fit.shows(PrecisionPlot::positions)) draw_position_gaps(ctx, data, look, fit.cell(PrecisionPlot::positions));
    if (fit.shows(PrecisionPlot::pairs)) draw_pair_errors(ctx, data, look, fit.cell(PrecisionPlot::pairs));
    if (fit.shows(PrecisionPlot::vector)) draw_vector_errors(ctx, data, look, fit.cell(PrecisionPlot::vector));
    if (ctx.request.with_table) write_table(ctx, data);
}

}  // namespace

const FigureDescriptor& precision_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "precision";
        f.title = "Numeric precision";
        f.page = 2;
        f.csv_columns = "format,m,pair,angle_exact,angle,error,spacing";
        f.plots = tagged_plots<PrecisionPlot>({
            {PrecisionPlot::angle, {"precision_angle", "Angle error against position", "angle error", PlotRole::main, AxisRole::position, AxisRole::other, 0, {240, 200}, 0, false, 1.5f, {"bfloat16", "rounded"}}},
            {PrecisionPlot::positions, {"precision_positions", "The gap between the positions each format stores", "position gaps", PlotRole::supporting, AxisRole::position, AxisRole::other, 3, {240, 200}, 0, false, 1.5f, {"position 257"}}},
            {PrecisionPlot::pairs, {"precision_pairs", "Angle error of every pair at m", "every pair", PlotRole::supporting, AxisRole::pair, AxisRole::other, 1, {240, 200}, 0, false, 1.5f, {"fastest pair"}}},
            {PrecisionPlot::vector, {"precision_vector", "The rotated vector in each format", "rotated vector", PlotRole::supporting, AxisRole::other, AxisRole::other, 2, {240, 200}, 0, false, 1.5f, {"casting"}}},
        });
        f.reads = model_and({P::pair, P::max_position, P::position, P::vector});
        f.pair_axis = true;  // i ÷ pairs beside a B of another pair count
        f.describe = describe_precision;
        f.build = build_precision;
        f.b_shares_ranges = false;  // curves: A's and B's pictures each on their own axes (one build each)
        return f;
    }();
    return d;
}

}  // namespace rope::figures
