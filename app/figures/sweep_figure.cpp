// Base sweep: how the wavelengths of all pairs move with the base, against the context length, and
// the long-range decay for five bases around the current one.
#include <algorithm>
#include <cmath>
#include <optional>

#include "figures/alt_text.hpp"
#include "figures/build_context.hpp"
#include "figures/named_colours.hpp"
#include "figures/subplot_fit.hpp"
#include "plot/colormap.hpp"
#include "plot/ticks.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::SubplotFit;

enum class SweepPlot { wavelengths, decay, cosine_sum, base_bound };

constexpr double kSweepMin = kSweepMinBase, kSweepMax = kSweepMaxBase;
constexpr double kDecades = 3.0;  // colour range: wavelength / context from 1/1000 to 1000

std::vector<plot::Tick> ratio_ticks() {
    return {{-3, "1/1000"}, {-2, "1/100"}, {-1, "1/10"}, {0, "1"}, {1, "10"}, {2, "100"}, {3, "1000"}};
}

std::string base_label(double b) {
    const double e = std::log10(b);
    if (std::abs(e - std::round(e)) < 1e-9) return "base " + plot::power_label(b);
    if (b >= 100) return "base " + plot::tick_label(std::round(b), 1);
    return "base " + plot::readout_number(b, 5);
}

// The frequencies at base b for this model's layout: proportional RoPE keeps its tail of pairs at
// frequency 0 whatever the base.
Eigen::VectorXd sweep_theta(const FrequencyTable& f, double b) {
    Eigen::VectorXd theta = base_frequencies(b, f.rotated_dims);
    if (f.rotating_pairs < theta.size()) theta.tail(theta.size() - f.rotating_pairs).setZero();
    return theta;
}

// What the four plots and the table share: the model's frequencies, the context and the base.
struct SweepData {
    const FrequencyTable& f;
    int d = 0;  // rotated dims
    int pairs = 0;
    double context = 0;
    double base = 0;
};

// How the plots sit: `column`, one under another (a tall, narrow figure), else 2 x 2; `compact`,
// too little room for legends (see build_sweep).
struct SweepLayout {
    bool column = false;
    bool compact = false;
};

// A plot of the lower row: in the 2 x 2 grid a little below its cell's top.
plot::Rect lower_row_rect(const plot::Style& st, const SweepLayout& layout, plot::Rect cell) {
    return {cell.x0, cell.y0 + (layout.column ? 0 : st.px(4)), cell.x1, cell.y1};
}

// The band of the pairs that do not turn at any base (proportional RoPE's tail), with its note.
void shade_still_pairs(BuildContext& ctx, const SweepData& data, plot::Plot& p, const plot::Rect& area, double top_turning) {
    const plot::Style& st = ctx.request.style;
    const FrequencyTable& f = data.f;
    const int pairs = data.pairs;
    const double base = data.base;
    const plot::Vec2 a = p.to_px(kSweepMin, pairs - 0.5), z = p.to_px(kSweepMax, top_turning);
    p.list().rect({a.x, a.y, z.x, z.y}, plot::fade_color());
    // in the half of the band away from the base's marker, if it fits there
    const bool left_half = base > std::sqrt(kSweepMin * kSweepMax);
    const double x_mid = left_half ? std::pow(kSweepMin, 0.75) * std::pow(kSweepMax, 0.25) : std::pow(kSweepMin, 0.25) * std::pow(kSweepMax, 0.75);
    const float room_w = area.width() * 0.45f, room_h = z.y - a.y;
    for (const std::string& t : {"pairs " + std::to_string(f.rotating_pairs) + "–" + std::to_string(pairs - 1) + ": θ = 0 at every base",
                                 std::string("θ = 0 at every base")})
        if (ctx.measure.measure(t, st.px(st.tick_font)).x <= room_w && room_h >= st.px(st.tick_font) * 3) {
            p.text(x_mid, (top_turning + pairs - 0.5) / 2, t, st.theme.text, plot::HAlign::center, plot::VAlign::middle);
            break;
        }
}

// Left: log10(wavelength / context) for every pair over bases 1e2..1e8.
void draw_wavelength_map(BuildContext& ctx, const SweepData& data, const plot::Style& sub, const SweepLayout& layout, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const FrequencyTable& f = data.f;
    const int d = data.d, pairs = data.pairs;
    const double context = data.context, base = data.base;
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 "wavelength λ ÷ context L = " + std::to_string(static_cast<long long>(context)));
    plot::AxisSetup x{"base b (log)", kSweepMin, kSweepMax, true};
    plot::AxisSetup y{"pair i", -0.5, pairs - 0.5};
    y.moves_in_animation = true;  // pair i of this dim
    y.integer_ticks = true;
    p.setup_x(x);
    p.setup_y(y);
    p.setup_colorbar({layout.compact ? "" : "wavelength ÷ context", plot::ColormapId::diverging, -kDecades, kDecades, ratio_ticks()});
    const plot::Rect area = p.area();
    const int cols = std::max(2, static_cast<int>(std::floor(area.width())));
    std::vector<float> values = *ctx.cache.sweep_grid(d, context, cols);
    p.heatmap(std::move(values), cols, pairs, kSweepMin, kSweepMax, -0.5, pairs - 0.5, plot::ColormapId::diverging,
              static_cast<float>(-kDecades), static_cast<float>(kDecades));
    // where wavelength_i = context: i = (d/2) ln(L / 2 pi) / ln b
    std::vector<double> bx, iy;
    const double top_turning = f.rotating_pairs - 0.5;  // above it the pairs do not turn at any base
    for (int s = 0; s <= 200; ++s) {
        const double b = std::exp(std::log(kSweepMin) + s / 200.0 * (std::log(kSweepMax) - std::log(kSweepMin)));
        const double i = (d / 2.0) * std::log(context / kTwoPi) / std::log(b);
        if (i > top_turning) continue;
        bx.push_back(b);
        iy.push_back(i);
    }
    if (f.rotating_pairs < pairs) shade_still_pairs(ctx, data, p, area, top_turning);
    const plot::Color boundary = named_colour(NamedColour::sweep_wavelength_equals_context, st.theme);
    p.line(bx.data(), iy.data(), bx.size(), 1, boundary, "", 3.0f);
    // label the boundary where it crosses the middle of the plot
    const double mid_pair = (std::min(pairs, f.rotating_pairs) - 1) * 0.5;
    const double b_mid = std::exp((d / 2.0) * std::log(context / kTwoPi) / mid_pair);
    if (b_mid > kSweepMin && b_mid < kSweepMax)
        p.text(b_mid, mid_pair, "  λ = L", boundary, plot::HAlign::left,
               plot::VAlign::middle, st.label_font);
    if (base >= kSweepMin && base <= kSweepMax) p.marker_x(base, st.theme.accent, base_label(base), 2.5f);
    // model B's base (compare_to a preset), dashed: where the other model sits on the same sweep
    if (const std::optional<ParamSet> b = ctx.params.compared_model()) {
        const double base_b = b->config().base;
        if (base_b != base && base_b >= kSweepMin && base_b <= kSweepMax)
            p.marker_x(base_b, st.theme.text, "B: " + base_label(base_b), 2.0f, 6);
    }
    record_geometry(ctx, p, SweepPlot::wavelengths);
    p.finish();
}

// Right: the decay bound for five bases around the current one.
void draw_decay_for_bases(BuildContext& ctx, const SweepData& data, const plot::Style& sub, const SweepLayout& layout, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const bool compact = layout.compact;
    const std::int64_t max_distance = ctx.params[P::max_distance];
    const bool log_x = ctx.params[P::decay_scale] == DecayScale::log && max_distance >= 2;
    const auto bases = sweep_bases(data.base);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 compact ? "decay bound, bases " + base_label(bases[0]).substr(5) + " … " + base_label(bases[4]).substr(5) +
                               " (thick: current)"
                         : "decay bound for five bases");
    plot::AxisSetup x{"distance n − m (tokens)", log_x ? 1.0 : 0.0,
                      static_cast<double>(std::max<std::int64_t>(max_distance, 1)), log_x};
    plot::AxisSetup y{compact ? "bound" : "relative upper bound", 0, (data.pairs + 1) / 2.0 * 1.06};
    p.setup_x(x);
    p.setup_y(y);
    p.setup_legend_bottom_left();
    // ordered bases: lightness rises with the base (readable in any colour vision), and the dash
    // tells how far from the current base a curve is (readable in greyscale)
    // (the steps along the ramp are wider at its light end, where protanopes see it flatten)
    constexpr float kDash[5] = {6, 2.5f, 0, 2.5f, 6};
    constexpr double kRamp[5] = {0, 0.23, 0.46, 0.71, 1};
    for (int i = 0; i < 5; ++i) {
        const Eigen::VectorXd theta = sweep_theta(data.f, bases[i]);
        const auto b = ctx.cache.decay(theta, max_distance);
        // the two ends are the colours lessons name
        const plot::Color colour = i == 0   ? named_colour(NamedColour::sweep_lowest_base, st.theme)
                                   : i == 4 ? named_colour(NamedColour::sweep_highest_base, st.theme)
                                            : plot::ramp_color(st.theme, kRamp[i]);
        p.line(b->distance.data(), b->bound.data(), b->bound.size(), 1, colour,
               compact ? "" : base_label(bases[i]) + (i == 2 ? " (current)" : ""), i == 2 ? 3.0f : 2.0f, kDash[i]);
    }
    record_geometry(ctx, p, SweepPlot::decay);
    p.finish();
}

// Lower left: B(m) = sum_i cos(m theta_i) up to the context, with its first negative m (Men et al.:
// the base is too small for a context that reaches it).
void draw_cosine_sum(BuildContext& ctx, const SweepData& data, const plot::Style& sub, const SweepLayout& layout, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const int pairs = data.pairs;
    const double context = data.context;
    const bool log_x = context >= 64;
    // one bin per pixel column (the plot area is a little narrower than its rect: never coarser)
    const auto cosine = ctx.cache.cosine_sum(data.f.theta, static_cast<std::int64_t>(context),
                                             static_cast<int>(std::ceil(cell.width())), log_x);
    plot::Plot p(ctx.result.list, ctx.measure, sub, lower_row_rect(st, layout, cell),
                 "Σᵢ cos(m·θᵢ), " + base_label(data.base));  // "base 10⁸", as the marker says it
    plot::AxisSetup x{"position m (tokens)", log_x ? 1.0 : 0.0, std::max(1.0, context), log_x};
    const auto& b = cosine->series.bound;
    const double lo = std::min(-1.0, *std::min_element(b.begin(), b.end()));
    plot::AxisSetup y{"Σᵢ cos(m·θᵢ)", lo * 1.1, pairs * 1.08};
    p.setup_x(x);
    p.setup_y(y);
    p.hline(0, st.theme.text.with_alpha(0.6f), "", 1.2f);
    p.line(cosine->series.distance.data(), b.data(), b.size(), 1, st.theme.series[0], "", sub.line_width * 0.8f);
    if (cosine->first_negative >= 0)
        p.marker_x(static_cast<double>(std::max<std::int64_t>(cosine->first_negative, 1)), st.theme.marker,
                   "first negative m = " + std::to_string(cosine->first_negative), 2.0f, 6);
    else if (cosine->exact_until >= static_cast<std::int64_t>(context))
        p.text(std::max(1.0, context), pairs * 1.04, "never negative up to L  ", st.theme.text, plot::HAlign::right,
               plot::VAlign::top);
    else
        p.text(std::max(1.0, context), pairs * 1.04,
               "never negative up to m = " + plot::tick_label(static_cast<double>(cosine->exact_until), 1) + ", sampled beyond  ",
               st.theme.text, plot::HAlign::right, plot::VAlign::top);
    record_geometry(ctx, p, SweepPlot::cosine_sum);
    p.finish();
}

// Lower right: the smallest base whose B(m) stays >= 0 up to each context length.
void draw_base_bound(BuildContext& ctx, const SweepData& data, const plot::Style& sub, const SweepLayout& layout, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const bool compact = layout.compact;
    const int d = data.d;
    const double context = data.context, base = data.base;
    auto curve = ctx.cache.base_bound_curve(d, static_cast<std::int64_t>(context), ctx.request.wait_for_background);
    if (curve && curve->context.empty()) curve = nullptr;  // cancelled before its first context
    plot::Plot p(ctx.result.list, ctx.measure, sub, lower_row_rect(st, layout, cell),
                 compact ? "lowest base, d = " + std::to_string(d) + " (Men et al. 2024)" : "lower bound of the base (Men et al. 2024)");
    const double top_context = curve ? curve->context.back() : std::max(16384.0, context);
    plot::AxisSetup x{"context length L (tokens, log)", 64, top_context, true};
    plot::AxisSetup y{compact ? "base b" : "smallest base b (log)", 10, 1e10, true};
    p.setup_x(x);
    p.setup_y(y);
    p.setup_legend_bottom_right();  // the bound rises to the right: that corner is free
    if (curve) {
        p.line(curve->context.data(), curve->base.data(), curve->base.size(), 1, st.theme.series[1],
               compact ? "" : "bound for d = " + std::to_string(d), sub.line_width);
        bool any_bound = false;
        for (std::size_t i = 0; i < curve->base.size(); ++i) {
            if (!std::isfinite(curve->base[i])) continue;  // no base up to 1e15 works for this L
            p.list().circle(p.to_px(curve->context[i], curve->base[i]), sub.px(3), st.theme.series[1]);
            any_bound = true;
        }
        if (!any_bound)
            p.text(std::sqrt(64 * top_context), 1e8, "no base up to 1e15 keeps the sum >= 0",  // above the base marker
                   st.theme.text, plot::HAlign::center, plot::VAlign::middle);
    } else {
        ctx.result.incomplete = true;
        p.text(std::sqrt(64 * top_context), 1e5, "computing…", st.theme.text, plot::HAlign::center, plot::VAlign::middle);
    }
    if (base >= 10 && base <= 1e10) p.marker_y(base, st.theme.accent, base_label(base), 2.0f);
    if (context >= 64 && context <= top_context) p.marker_x(context, st.theme.marker, "L = " + plot::tick_label(context, 1), 2.0f, 6);
    record_geometry(ctx, p, SweepPlot::base_bound);
    p.finish();
}

// The four plots' cells below the title (th_ high): 2 x 2, or one column.
std::vector<plot::Rect> sweep_cells(float W, float H, float th_, bool column) {
    const float mid_x = W * 0.52f, mid_y = th_ + (H - th_) * 0.5f;
    return {column ? plot::Rect{0, th_, W, th_ + (H - th_) * 0.25f} : plot::Rect{0, th_, mid_x, mid_y},
            column ? plot::Rect{0, th_ + (H - th_) * 0.25f, W, th_ + (H - th_) * 0.5f} : plot::Rect{mid_x, th_, W, mid_y},
            column ? plot::Rect{0, th_ + (H - th_) * 0.5f, W, th_ + (H - th_) * 0.75f} : plot::Rect{0, mid_y, mid_x, H},
            column ? plot::Rect{0, th_ + (H - th_) * 0.75f, W, H} : plot::Rect{mid_x, mid_y, W, H}};
}

// d = 2 (one pair): θ₀ = base⁰ = 1 whatever the base, so there is nothing to sweep. The decay bound
// for five bases shows it (its five curves are one) beside a note that says why.
void draw_one_pair(BuildContext& ctx, const SweepData& data, const plot::Style& sub, plot::Rect area) {
    const plot::Style& st = ctx.request.style;
    plot::Rect note = area, cell = area;
    if (area.width() >= area.height() * 1.6f) note.x1 = cell.x0 = area.x0 + area.width() * 0.4f;
    else note.y1 = cell.y0 = area.y0 + area.height() * 0.4f;
    const std::string d = std::to_string(data.d);
    const bool roomy = note.width() >= st.px(300) && note.height() >= st.px(160);
    detail::centred_note(ctx, note,
                         roomy ? "With one pair (d = " + d + ") the base changes nothing: pair 0 turns by θ₀ = base⁰ = 1 radian per "
                                 "token whatever the base, so the five bases' decay bounds are one curve. Raise the head dim d to "
                                 "see what the base does."
                               : "One pair (d = " + d + "): θ₀ = base⁰ = 1 at any base, so the five curves are one. Raise d to "
                                 "see what the base does.");
    SweepLayout layout;
    layout.compact = cell.height() < st.px(300) || cell.width() < st.px(380);
    draw_decay_for_bases(ctx, data, sub, layout, cell);
}

void fill_sweep_table(BuildContext& ctx, const SweepData& data) {
    DataTable& t = ctx.result.table;
    t.columns = {"base", "pair", "wavelength", "wavelength_over_context"};
    t.values.assign(4, {});
    for (int s = 0; s <= 60; ++s) {
        const double b = std::pow(10.0, 2.0 + s / 10.0);
        const Eigen::VectorXd theta = sweep_theta(data.f, b);
        for (int k = 0; k < data.f.rotating_pairs; ++k) {  // a pair of frequency 0 has no wavelength
            t.values[0].push_back(b);
            t.values[1].push_back(k);
            t.values[2].push_back(kTwoPi / theta[k]);
            t.values[3].push_back(kTwoPi / theta[k] / data.context);
        }
    }
}

void build_sweep(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const FrequencyTable& f = ctx.frequencies();
    SweepData data{f};
    data.d = f.rotated_dims;
    data.pairs = f.pairs();
    data.context = static_cast<double>(ctx.params[P::max_position]);
    data.base = ctx.params[P::base];
    const float W = ctx.request.width, H = ctx.request.height;
    // four plots: 2 x 2, or one column when the figure is tall and narrow
    SweepLayout layout;
    layout.column = H >= W * 1.6f;
    const float th_ = st.draw_titles ? st.px(st.title_font) * 1.4f : 0;
    if (st.draw_titles)
        ctx.result.list.text({W / 2, st.px(6)}, ctx.title(), st.px(st.title_font),
                             st.theme.text, plot::HAlign::center, plot::VAlign::top);
    plot::Style sub = st;
    sub.title_font = st.title_font * 0.8f;
    sub.draw_titles = true;  // several plots: each needs its caption, on screen too
    if (data.pairs == 1 && !ctx.request.with_table) {
        draw_one_pair(ctx, data, sub, {0, th_, W, H});
        return;
    }
    // Too small for four plots (a 1280x720 window with the lesson open), fewer and larger ones: the
    // wavelength map first, then the decay for five bases, the lowest base and the cosine sum.
    const SubplotFit fit = fit_plots(ctx, {0, th_, W, H}, sweep_cells(W, H, th_, layout.column));
    // A panel in the grid (not maximised) leaves each plot too little room for legends: they would
    // cover the titles, markers and data. Then titles say what legends would, and the colour bar's
    // label (the title's words again) gives way to the neighbouring plot's axis label.
    float cell_h = 0, cell_w = 0;
    for (const plot::Rect& r : fit.cells) cell_h = std::max(cell_h, r.height()), cell_w = std::max(cell_w, r.width());
    layout.compact = cell_h < st.px(300) || cell_w < st.px(380);

    if (fit.shows(SweepPlot::wavelengths)) draw_wavelength_map(ctx, data, sub, layout, fit.cell(SweepPlot::wavelengths));
    if (fit.shows(SweepPlot::decay)) draw_decay_for_bases(ctx, data, sub, layout, fit.cell(SweepPlot::decay));
    if (fit.shows(SweepPlot::cosine_sum)) draw_cosine_sum(ctx, data, sub, layout, fit.cell(SweepPlot::cosine_sum));
    if (fit.shows(SweepPlot::base_bound)) draw_base_bound(ctx, data, sub, layout, fit.cell(SweepPlot::base_bound));
    if (ctx.request.with_table) fill_sweep_table(ctx, data);
}

void sweep_header(PanelContext& panel, HeaderControls& ui) {
    bool log = panel.params[P::decay_scale] == DecayScale::log;
    if (ui.checkbox("log distance", log, param_spec(P::decay_scale).help))
        panel.edit("distance axis", [log](ParamSet& p) { p.set(P::decay_scale, log ? DecayScale::log : DecayScale::linear); });
}

std::string sweep_readout(PanelContext& panel, const PlotGeometry& g, double x, double y) {
    const auto f = panel.cache.frequencies(panel.params);
    if (g.is(SweepPlot::wavelengths)) {
        const int pair = static_cast<int>(std::lround(y));
        if (pair < 0 || pair >= f->pairs()) return "";
        if (!f->rotates(pair)) return "base = " + plot::readout_number(x, 4) + "\npair i = " + std::to_string(pair) + "\nθ = 0 at every base: passes through";
        const double wl = kTwoPi / base_frequencies(x, f->rotated_dims)[pair];
        const double ctx = static_cast<double>(panel.params[P::max_position]);
        return "base = " + plot::readout_number(x, 4) + "\npair i = " + std::to_string(pair) + "\nwavelength = " +
               plot::readout_number(wl, 5) + " tokens" + "\nwavelength ÷ context = " + plot::readout_number(wl / ctx, 4) +
               (wl <= ctx ? "\n(turns fully within the context)" : "\n(never completes a turn in the context)");
    }
    if (g.is(SweepPlot::decay)) {
        const auto r = static_cast<std::int64_t>(std::llround(std::max(0.0, x)));
        const std::int64_t max_distance = panel.params[P::max_distance];
        if (r > max_distance) return "";
        const auto b = panel.cache.decay(f->theta, max_distance);
        const auto at = std::lower_bound(b->distance.begin(), b->distance.end(), static_cast<double>(r));
        if (at == b->distance.end()) return "";
        const std::size_t i = static_cast<std::size_t>(at - b->distance.begin());
        return "distance n − m = " + std::to_string(static_cast<long long>(*at)) + "\nbound = " +
               plot::readout_number(b->bound[i], 6) + " (current base)";
    }
    return "";
}

// The five bases' decay curves, each its own job.
std::vector<std::function<void()>> sweep_prepare(const ParamSet& params, FigureCache& cache) {
    const auto f = cache.frequencies(params);
    const std::int64_t max_distance = params[P::max_distance];
    std::vector<std::function<void()>> jobs;
    for (double b : sweep_bases(params[P::base]))
        jobs.push_back([&cache, theta = sweep_theta(*f, b), max_distance] { cache.decay(theta, max_distance); });
    return jobs;
}

}  // namespace

const FigureDescriptor& sweep_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "sweep";
        f.title = "Base sweep";
        f.page = 0;
        f.csv_columns = "base,pair,wavelength,wavelength_over_context";
        f.plots = tagged_plots<SweepPlot>({
            {SweepPlot::wavelengths, {"sweep", "Wavelength over context for every pair and base", "wavelength λ ÷ context", PlotRole::main, AxisRole::other, AxisRole::pair, 0, {240, 200}, 0, false, 1.4f, {"one row per pair"}}},
            {SweepPlot::decay, {"sweep_decay", "The decay bound for five bases", "decay bound", PlotRole::supporting, AxisRole::other, AxisRole::other, 1, {240, 200}, 0, false, 1.4f, {"five bases"}}},
            {SweepPlot::cosine_sum, {"sweep_cosine", "The sum of cos(m·θᵢ) against m", "cosine sum", PlotRole::supporting, AxisRole::position, AxisRole::other, 3, {240, 200}, 0, false, 1.8f, {"sum of cos", "below zero"}}},
            {SweepPlot::base_bound, {"sweep_bound", "The smallest base against context length", "base bound", PlotRole::supporting, AxisRole::other, AxisRole::other, 2, {240, 200}, 0, false, 1.4f, {"smallest base"}}},
        });
        f.reads = model_and({P::max_position, P::max_distance, P::decay_scale, P::compare_to});
        f.describe = describe_sweep;
        f.build = build_sweep;
        f.model_b = ModelBView::itself;  // B's base marked on A's sweep
        f.prepare = sweep_prepare;
        f.build_cost = 5;
        f.header_width_em = 8;
        f.header = sweep_header;
        f.readout = sweep_readout;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
