// Context extension: what a scaling variant does to the frequencies, for the current config and any
// variants picked for comparison (`compare`), against the same config unscaled or another preset
// (`compare_to`, A/B mode). Top row: per-pair frequency ratio, wavelengths against the original and
// the extended context with the variant's band shaded and the critical dimension marked, and the
// attention factor against the extension factor. Bottom row: the long-range decay and the angle
// heatmap before and after, and their difference.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "figures/alt_text.hpp"
#include "figures/build_context.hpp"
#include "figures/compared_build.hpp"
#include "figures/heatmap_cells.hpp"
#include "figures/subplot_fit.hpp"
#include "plot/colormap.hpp"
#include "plot/ticks.hpp"
#include "rope/bounds.hpp"
#include "rope/context_extension.hpp"
#include "rope/phasor.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::SubplotFit;

enum class ContextPlot { ratio, wavelength, attention, decay, before, after, difference };
// The three heatmap cells, left to right (which model's map each holds: AngleHeatmaps::maps).
ContextPlot heatmap_cell(int k) { return static_cast<ContextPlot>(static_cast<int>(ContextPlot::before) + k); }

// Fixed series slot per variant, so a variant looks the same in every plot and export.
int variant_slot(Scaling s) {
    switch (s) {
        case Scaling::linear: return 0;
        case Scaling::ntk: return 1;
        case Scaling::dynamic: return 2;
        case Scaling::yarn: return 3;
        case Scaling::llama3: return 4;
        case Scaling::longrope: return 5;
        case Scaling::none:
        case Scaling::proportional: break;  // not a context extension: never a compared variant
    }
    return -1;
}

plot::Color variant_color(const plot::Theme& th, Scaling s) {
    const int slot = variant_slot(s);
    return slot < 0 ? th.text : th.series[static_cast<std::size_t>(slot)];
}

// Lines in the text colour are references: the reference config (B, or the same config unscaled)
// is solid, the original wavelengths and the factor-1 line are in long dashes, a pattern no series uses.
constexpr float kReferenceDash = 20;

// The dash that goes with the variant's colour (greyscale prints tell the variants apart by it).
float variant_dash(const plot::Theme& th, Scaling s) {
    const int slot = variant_slot(s);
    return slot < 0 ? 0.0f : th.series_dash[static_cast<std::size_t>(slot)];
}

std::string scaling_label(const RopeConfig& c) {
    if (c.scaling == Scaling::none) return "no scaling";
    return std::string(to_string(c.scaling)) + " ×" + plot::readout_number(c.factor, 4);
}

// The comparison: "before" is the current config unscaled, or a preset (A/B).
struct Reference {
    RopeConfig config;
    FrequencyTable freqs;
    std::string name;   // legend text
    bool ab = false;
};

Reference make_reference(const ParamSet& params, const RopeConfig& current) {
    Reference r;
    const std::string to(params[P::compare_to]);
    if (to == "unscaled") {
        r.config = with_scaling(current, Scaling::none);
        r.config.attention_factor.reset();
        r.name = "before: no scaling";
    } else {
        ParamSet b;
        b.set(P::preset, to);
        r.config = b.config();
        r.name = "B: " + detail::model_label(params, true);
        r.ab = true;
    }
    r.freqs = compute_frequencies(r.config);
    return r;
}

// What the plots and the table share: the current config and its frequencies, what it is compared
// with ("before" or B, and the variants picked for comparison), and the two context lengths.
struct ContextData {
    const FrequencyTable& f;
    RopeConfig config;
    Reference ref;
    int pairs = 0;
    double l0 = 0;                                // the training context, original_max_position
    double context = 0;                           // the extended one, max_position
    std::string current_name{};                   // legend text: "after: yarn ×8", "A: …"
    std::vector<Scaling> compare{};               // the variants drawn beside it
    std::vector<FrequencyTable> compare_freqs{};  // and their frequencies
};

// The scalings compared with the config's own, each with its frequencies.
std::vector<std::pair<Scaling, FrequencyTable>> compared_variants(const ParamSet& params, const RopeConfig& config, int pairs) {
    std::vector<std::pair<Scaling, FrequencyTable>> out;
    for (const Scaling s : params[P::compare]) {
        if (s == config.scaling) continue;
        try {
            FrequencyTable variant = compute_frequencies(with_scaling(config, s));
            // proportional RoPE's pairs span the head; a context extension of the same fraction is
            // ordinary partial rotary, with other pairs: no pair-by-pair comparison, left out
            if (variant.pairs() != pairs) continue;
            out.emplace_back(s, std::move(variant));
        } catch (const std::invalid_argument&) {
            // a variant this config cannot take (ntk and dynamic need 4 rotated dims): left out
        }
    }
    return out;
}

ContextData context_data(BuildContext& ctx) {
    const FrequencyTable& f = ctx.frequencies();
    const RopeConfig config = ctx.params.config();
    ContextData data{f, config, make_reference(ctx.params, config)};
    data.pairs = f.pairs();
    data.l0 = static_cast<double>(config.original_max_position);
    data.context = static_cast<double>(ctx.params[P::max_position]);
    // A by its model, as B is (the heatmaps' titles add each one's scaling)
    data.current_name = data.ref.ab ? "A: " + detail::model_label(ctx.params) : "after: " + scaling_label(config);
    for (auto& [s, variant] : compared_variants(ctx.params, config, data.pairs)) {
        data.compare_freqs.push_back(std::move(variant));
        data.compare.push_back(s);
    }
    return data;
}

// The per-pair plots' legend above them: in a narrow cell most entries take a row of their own, so
// a plot needs room for them (the layout and focus_fits read this).
std::vector<std::pair<int, plot::Vec2>> context_plot_needs(const ParamSet& params, const plot::Style& st) {
    const RopeConfig config = params.config();
    ScalingBand band;
    const float entries = 2.0f + static_cast<float>(compared_variants(params, config, config.rotated_pairs()).size()) +
                          (scaling_band(config, band) ? 1.0f : 0.0f);
    const float legend_rows = entries <= 2 ? 1.0f : std::ceil(entries * 0.75f);
    const plot::Vec2 need{0, st.px(150 + 30 * legend_rows)};
    return {{static_cast<int>(ContextPlot::ratio), need}, {static_cast<int>(ContextPlot::wavelength), need}};
}

// Cells: wide = 3 plots over 4, tall = 2 + 2 + 3 rows; all empty where seven plots do not fit.
std::vector<plot::Rect> seven_cells(const plot::Style& st, float W, float H, float top) {
    // Seven plots need room for their labels (below these sizes they collide): smaller, fewer and
    // larger plots, the ones a lesson step speaks of first, and a note says how to see the rest.
    const bool wide = W >= H * 1.15f;
    const bool all_seven = wide ? W >= st.px(1150) && H >= st.px(520) : W >= st.px(600) && H >= st.px(800);
    std::vector<plot::Rect> cell(7);
    if (wide) {
        const float row1 = top + (H - top) * 0.5f;
        for (int i = 0; i < 3; ++i) cell[i] = {W * i / 3.0f, top, W * (i + 1) / 3.0f, row1};
        // the heatmaps with a colour bar get the room it takes
        const float edges[5] = {0, 0.23f, 0.46f, 0.73f, 1.0f};
        for (int i = 0; i < 4; ++i) cell[3 + i] = {W * edges[i], row1, W * edges[i + 1], H};
    } else {
        const float h = (H - top) / 4.0f;
        cell[0] = {0, top, W / 2, top + h};
        cell[1] = {W / 2, top, W, top + h};
        cell[2] = {0, top + h, W / 2, top + 2 * h};
        cell[3] = {W / 2, top + h, W, top + 2 * h};
        cell[4] = {0, top + 2 * h, W / 2, top + 3 * h};
        cell[5] = {W / 2, top + 2 * h, W, top + 3 * h};
        cell[6] = {0, top + 3 * h, W / 2, H};
    }
    if (!all_seven)
        for (plot::Rect& c : cell) c = {};  // the seven-plot arrangement is not an option
    return cell;
}

// What the two per-pair line plots (ratio, wavelengths) share: the pairs along x, and the variant's
// band of pairs, shaded (YaRN's ramp, Llama 3's smooth band).
struct PairPlots {
    std::vector<double> pair_x{};
    plot::AxisSetup pair_axis{};
    ScalingBand band{};
    bool has_band = false;
    plot::Color band_fill{};
    std::string band_name{};
};

PairPlots pair_plots(const plot::Theme& th, const ContextData& data) {
    const RopeConfig& config = data.config;
    PairPlots pp;
    pp.has_band = scaling_band(config, pp.band);
    pp.band_fill = variant_color(th, config.scaling).with_alpha(0.16f);
    pp.band_name = config.scaling == Scaling::yarn ? "YaRN ramp (β_fast … β_slow)" : "Llama 3 smooth band";
    const int max_pairs = std::max(data.pairs, data.ref.freqs.pairs());
    pp.pair_x = std::vector<double>(static_cast<std::size_t>(max_pairs));
    for (int i = 0; i < max_pairs; ++i) pp.pair_x[i] = i;
    pp.pair_axis = plot::AxisSetup{"pair i (0 = fastest)", -0.5, std::max(0.5, max_pairs - 0.5)};
    pp.pair_axis.integer_ticks = true;
    pp.pair_axis.moves_in_animation = true;  // pair i of this dim
    return pp;
}

// The line plots' legends go above them (their curves leave no corner free in a small cell).
std::vector<std::string> series_labels(const ContextData& data, const PairPlots& pp, bool with_original) {
    std::vector<std::string> labels;
    if (pp.has_band) labels.push_back(pp.band_name);
    if (with_original) labels.push_back("original");
    if (data.ref.ab) labels.push_back(data.current_name);  // A, then B
    if (data.ref.ab) labels.push_back(data.ref.name);
    for (Scaling v : data.compare) labels.emplace_back(to_string(v));
    if (!data.ref.ab) labels.push_back(data.current_name);
    return labels;
}

// A per-pair plot's axes (pairs along x) and its legend above it.
void setup_pair_plot(plot::Plot& p, const ContextData& data, const PairPlots& pp, const plot::AxisSetup& y, bool with_original) {
    p.setup_x(pp.pair_axis);
    p.setup_y(y);
    p.setup_legend_above(series_labels(data, pp, with_original));
}

// A per-pair plot's curves: B's (A/B), the compared variants', then the current config's on top.
void draw_pair_curves(BuildContext& ctx, plot::Plot& p, const ContextData& data, const PairPlots& pp, const plot::Style& sub,
                      const std::vector<double>& reference, const std::vector<std::vector<double>>& variants,
                      const std::vector<double>& current) {
    const plot::Theme& th = ctx.request.style.theme;
    const std::vector<Scaling>& compare = data.compare;
    if (data.ref.ab) p.line(pp.pair_x.data(), reference.data(), reference.size(), 1, th.text, data.ref.name, -1);
    for (std::size_t v = 0; v < compare.size(); ++v)
        p.line(pp.pair_x.data(), variants[v].data(), variants[v].size(), 1, variant_color(th, compare[v]),
               std::string(to_string(compare[v])), sub.line_width * 0.8f, variant_dash(th, compare[v]));
    p.line(pp.pair_x.data(), current.data(), current.size(), 1, th.accent, data.current_name, sub.line_width * 1.3f);
}

// 1. frequency ratio theta'_i / theta_i
void draw_ratio(BuildContext& ctx, const ContextData& data, const PairPlots& pp, const plot::Style& sub, plot::Rect cell) {
    const FrequencyTable& f = data.f;
    const Reference& ref = data.ref;
    const int pairs = data.pairs;
    std::vector<double> ratio(pairs);
    for (int i = 0; i < pairs; ++i) ratio[i] = f.theta[i] / f.original_theta[i];
    std::vector<std::vector<double>> ratios;
    for (const FrequencyTable& c : data.compare_freqs) {
        std::vector<double> r(pairs);
        for (int i = 0; i < pairs; ++i) r[i] = c.theta[i] / c.original_theta[i];
        ratios.push_back(std::move(r));
    }
    std::vector<double> ref_ratio(static_cast<std::size_t>(ref.freqs.pairs()));
    for (int i = 0; i < ref.freqs.pairs(); ++i) ref_ratio[i] = ref.freqs.theta[i] / ref.freqs.original_theta[i];
    double lo = 1, hi = 1;
    auto extend = [&](const std::vector<double>& v) {
        for (double x : v) {
            if (!std::isfinite(x)) continue;  // 0 ÷ 0: a pair of frequency 0 before and after
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
    };
    extend(ratio);
    extend(ref_ratio);
    for (const auto& r : ratios) extend(r);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell, "frequency ratio θ′ᵢ ÷ θᵢ");
    plot::AxisSetup y{"scaled ÷ original frequency (log)", lo / 1.6, hi * 1.6, true};
    setup_pair_plot(p, data, pp, y, false);
    if (pp.has_band) {
        p.band_x(pp.band.first_pair, pp.band.last_pair, pp.band_fill);
        p.add_legend({pp.band_name, pp.band_fill.with_alpha(0.5f), 10});
    }
    draw_pair_curves(ctx, p, data, pp, sub, ref_ratio, ratios, ratio);
    record_geometry(ctx, p, ContextPlot::ratio);
    p.finish();
}

// Every pair's wavelength, the current config's, the original, the compared variants' and the reference's.
struct Wavelengths {
    std::vector<double> wl{}, wl0{};
    std::vector<std::vector<double>> wls{};
    std::vector<double> ref_wl{};
    double hi = 0;  // the longest finite wavelength, or the longer context
};

Wavelengths wavelengths(const ContextData& data) {
    const FrequencyTable& f = data.f;
    const int pairs = data.pairs;
    Wavelengths w{std::vector<double>(pairs), std::vector<double>(pairs)};
    for (int i = 0; i < pairs; ++i) {
        w.wl[i] = kTwoPi / f.theta[i];
        w.wl0[i] = kTwoPi / f.original_theta[i];
    }
    // the longest finite wavelength (pairs of frequency 0 have none: they are shaded instead)
    w.hi = std::max(data.context, data.l0);
    auto extend = [&](const std::vector<double>& v) {
        for (double x : v)
            if (std::isfinite(x)) w.hi = std::max(w.hi, x);
    };
    extend(w.wl);
    extend(w.wl0);
    for (const FrequencyTable& c : data.compare_freqs) {
        std::vector<double> wc(pairs);
        for (int i = 0; i < pairs; ++i) wc[i] = kTwoPi / c.theta[i];
        extend(wc);
        w.wls.push_back(std::move(wc));
    }
    w.ref_wl = std::vector<double>(static_cast<std::size_t>(data.ref.freqs.pairs()));
    for (int i = 0; i < data.ref.freqs.pairs(); ++i) w.ref_wl[i] = kTwoPi / data.ref.freqs.theta[i];
    extend(w.ref_wl);
    return w;
}

// 2. wavelengths against L0 and L, bands shaded, critical dimension marked
void draw_wavelengths(BuildContext& ctx, const ContextData& data, const PairPlots& pp, const plot::Style& sub, plot::Rect cell) {
    const plot::Theme& th = ctx.request.style.theme;
    const FrequencyTable& f = data.f;
    const RopeConfig& config = data.config;
    const int pairs = data.pairs;
    const double l0 = data.l0, context = data.context;
    const int crit = critical_dimension(f.rotated_dims, config.base, l0);
    const Wavelengths w = wavelengths(data);
    const double hi = w.hi;
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell, "wavelengths vs the context");
    plot::AxisSetup y{"wavelength 2π/θᵢ (tokens, log)", 4.0, hi * 3, true};
    setup_pair_plot(p, data, pp, y, true);
    if (pp.has_band) {
        p.band_x(pp.band.first_pair, pp.band.last_pair, pp.band_fill);
        if (config.scaling == Scaling::llama3) {
            p.hline(l0 / config.high_freq_factor, variant_color(th, config.scaling), "", 1.2f, 4);
            p.hline(l0 / config.low_freq_factor, variant_color(th, config.scaling), "", 1.2f, 4);
        }
        p.add_legend({pp.band_name, pp.band_fill.with_alpha(0.5f), 10});
    }
    p.marker_y(l0, th.text.with_alpha(0.8f), "L₀ = " + plot::tick_label(l0, 1) + " (training)", 1.5f, 5);
    if (context != l0) p.marker_y(context, th.marker, "L = " + plot::tick_label(context, 1), 1.5f, 5);
    if (f.rotating_pairs < pairs) {
        p.band_x(f.rotating_pairs - 0.5, pairs - 0.5, plot::fade_color().with_alpha(0.35f));
        p.text(f.rotating_pairs - 0.5 + (pairs - f.rotating_pairs) / 2.0, std::sqrt(4.0 * hi * 3), "θ = 0: pass through", th.text,
               plot::HAlign::center, plot::VAlign::middle);
    }
    const double crit_pair = crit / 2.0 - 0.5;  // pairs below crit/2 turn fully within L0
    if (crit > 0 && crit < f.rotated_dims && crit / 2 <= f.rotating_pairs)
        p.marker_x(crit_pair, th.text.with_alpha(0.7f), "critical dim " + std::to_string(crit), 1.5f, 3);
    p.line(pp.pair_x.data(), w.wl0.data(), w.wl0.size(), 1, th.text.with_alpha(0.75f), "original", -1, kReferenceDash);
    draw_pair_curves(ctx, p, data, pp, sub, w.ref_wl, w.wls, w.wl);
    record_geometry(ctx, p, ContextPlot::wavelength);
    p.finish();
}

// The attention factor of the current config and of YaRN and LongRoPE over extension factors s.
struct AttentionCurves {
    std::vector<std::pair<Scaling, std::vector<double>>> curves{};
    double y_hi = 1.2;  // the highest factor
};

AttentionCurves attention_curves(const RopeConfig& config, const std::vector<double>& s) {
    AttentionCurves a;
    std::vector<Scaling> shown = {config.scaling};
    for (Scaling v : {Scaling::yarn, Scaling::longrope})
        if (std::find(shown.begin(), shown.end(), v) == shown.end()) shown.push_back(v);
    for (Scaling v : shown) {
        RopeConfig c = with_scaling(config, v);
        if (v != config.scaling) c.attention_factor.reset();
        if (v == Scaling::longrope) c.long_factors.clear(), c.short_factors.clear();
        if (v == Scaling::none) continue;
        try {
            a.curves.emplace_back(v, attention_factor_curve(c, s));
        } catch (const std::invalid_argument&) {
            continue;  // not defined for this config
        }
        a.y_hi = std::max(a.y_hi, *std::max_element(a.curves.back().second.begin(), a.curves.back().second.end()));
    }
    return a;
}

// 3. attention factor against the extension factor
void draw_attention(BuildContext& ctx, const ContextData& data, const plot::Style& sub, plot::Rect cell) {
    const plot::Theme& th = ctx.request.style.theme;
    const FrequencyTable& f = data.f;
    const RopeConfig& config = data.config;
    std::vector<double> s;
    for (int i = 0; i <= 120; ++i) s.push_back(std::pow(1000.0, i / 120.0));
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell, "attention factor");
    plot::AxisSetup x{"extension factor s (log)", 1, 1000, true};
    const AttentionCurves a = attention_curves(config, s);
    const auto& curves = a.curves;
    plot::AxisSetup y{"factor on cos and sin", 0.9, a.y_hi * 1.05};
    std::vector<std::string> labels;
    for (const auto& curve : curves) {
        const Scaling v = curve.first;
        labels.push_back(std::string(to_string(v)) + (v == config.scaling ? " (current)" : "") +
                         (v == Scaling::yarn ? ": 0.1 ln s + 1" : v == Scaling::longrope ? ": √(1 + ln s ÷ ln L₀)" : ""));
    }
    const std::string flat = "linear, ntk, dynamic, llama3: 1";
    labels.push_back(flat);
    p.setup_x(x);
    p.setup_y(y);
    p.setup_legend_above(labels);
    p.hline(1.0, th.text.with_alpha(0.6f), "", 1.2f, kReferenceDash);
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const auto& [v, curve] = curves[i];
        p.line(s.data(), curve.data(), curve.size(), 1, v == config.scaling ? th.accent : variant_color(th, v), labels[i],
               v == config.scaling ? sub.line_width * 1.3f : sub.line_width * 0.8f, v == config.scaling ? 0.0f : variant_dash(th, v));
    }
    p.add_legend({flat, th.text.with_alpha(0.6f), 1.2f, kReferenceDash});
    if (config.factor >= 1 && config.factor <= 1000) {
        p.list().circle(p.to_px(config.factor, f.attention_factor), sub.px(5), th.accent);
        p.text(config.factor, f.attention_factor, "  " + plot::readout_number(f.attention_factor, 4), th.text,
               plot::HAlign::left, plot::VAlign::top);
    }
    record_geometry(ctx, p, ContextPlot::attention);
    p.finish();
}

// 4. long-range decay before and after (and A − B)
void draw_decay(BuildContext& ctx, const ContextData& data, const plot::Style& sub, std::int64_t max_distance, bool log_x,
                plot::Rect cell) {
    const plot::Theme& th = ctx.request.style.theme;
    const Reference& ref = data.ref;
    const std::string& current_name = data.current_name;
    const auto after = ctx.cache.decay(data.f.theta, max_distance);
    const auto before = ctx.cache.decay(ref.freqs.theta, max_distance);
    const double top_b = std::max(data.pairs + 1, ref.freqs.pairs() + 1) / 2.0;
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell, "long-range decay");
    plot::AxisSetup x{"distance n − m (tokens)", log_x ? 1.0 : 0.0, static_cast<double>(std::max<std::int64_t>(max_distance, 1)), log_x};
    std::vector<double> diff;
    double y_lo = 0;
    if (ref.ab && after->bound.size() == before->bound.size()) {
        diff.resize(after->bound.size());
        for (std::size_t i = 0; i < diff.size(); ++i) diff[i] = after->bound[i] - before->bound[i];
        y_lo = std::min(0.0, *std::min_element(diff.begin(), diff.end()));
    }
    plot::AxisSetup y{"relative upper bound", y_lo * 1.06, top_b * 1.06};
    p.setup_x(x);
    p.setup_y(y);
    std::vector<std::string> legend = ref.ab ? std::vector<std::string>{current_name, ref.name} : std::vector<std::string>{ref.name, current_name};
    if (ref.ab && after->bound.size() == before->bound.size()) legend.push_back("A − B");
    p.setup_legend_above(legend);
    p.line(before->distance.data(), before->bound.data(), before->bound.size(), 1, th.text, ref.name, -1);
    p.line(after->distance.data(), after->bound.data(), after->bound.size(), 1, th.accent, current_name);
    if (!diff.empty()) p.line(after->distance.data(), diff.data(), diff.size(), 1, th.series[1], "A − B", sub.line_width * 0.8f, th.series_dash[1]);
    if (data.l0 <= static_cast<double>(max_distance)) p.marker_x(data.l0, th.text.with_alpha(0.7f), "L₀", 1.5f, 5);
    record_geometry(ctx, p, ContextPlot::decay);
    p.finish();
}

// One of the angle heatmaps: whose frequencies (less `minus`, for the difference) and its caption.
struct AngleHeatmap {
    const FrequencyTable* freqs;
    const Eigen::VectorXd* minus;
    std::string title;
    ContextPlot tag;
};

// 5-7. angle heatmaps before, after, and the difference, over positions 0 .. L
struct AngleHeatmaps {
    plot::AxisSetup x;
    std::array<AngleHeatmap, 3> maps;  // before, after, difference
    bool same_pairs = false;
    bool after_shown = false;  // else "before" carries the colour bar
    float grid_width = 1e9f, grid_height = 1e9f;
};

// Heatmap k set up into `list` in `cell` (axes, and the colour bar for "after" and the difference).
std::pair<std::unique_ptr<plot::Plot>, plot::AxisSetup> setup_heatmap(BuildContext& ctx, const AngleHeatmaps& h, const plot::Style& sub,
                                                                      int k, plot::Rect cell, plot::DisplayList& list) {
    const int n = h.maps[k].freqs->pairs();
    auto p = std::make_unique<plot::Plot>(list, ctx.measure, sub, cell, h.maps[k].title);
    plot::AxisSetup y{"pair i", -0.5, n - 0.5};
    y.moves_in_animation = true;  // pair i of this dim
    y.integer_ticks = true;
    p->setup_x(h.x);
    p->setup_y(y);
    // "before" and "after" share one colour scale: only "after" carries its bar. The change
    // m (theta' - theta) is an angle too: wrapped, on the same cyclic map, faded the same way.
    plot::ColorbarSetup bar{k == 2 ? "mean angle change" : "mean angle m·θᵢ", plot::ColormapId::cyclic, -kPi, kPi, angle_colorbar_ticks()};
    bar.fade_note = "grey: turns within a cell";
    if (k >= 1 || !h.after_shown) p->setup_colorbar(bar);  // "before" alone carries it too
    return std::make_pair(std::move(p), y);
}

AngleHeatmaps angle_heatmaps(BuildContext& ctx, const ContextData& data, const plot::Style& sub, const SubplotFit& fit) {
    const Reference& ref = data.ref;
    // "A: llama-3.1-8b (llama3 ×8)": a title too wide for its plot loses its "(aside)" first
    const std::string before_title = ref.ab ? ref.name + " (" + scaling_label(ref.config) + ")" : "angles before (no scaling)";
    const std::string after_title = ref.ab ? data.current_name + " (" + scaling_label(data.config) + ")" : "angles after (" + scaling_label(data.config) + ")";
    AngleHeatmaps h;
    h.x = plot::AxisSetup{"position m (tokens)", 0, data.context};
    h.same_pairs = ref.freqs.pairs() == data.pairs;
    h.maps = {AngleHeatmap{&ref.freqs, nullptr, before_title, ContextPlot::before},
              AngleHeatmap{&data.f, nullptr, after_title, ContextPlot::after},
              AngleHeatmap{&data.f, h.same_pairs ? &ref.freqs.theta : nullptr,
                           ref.ab ? "difference A − B" : "difference after − before", ContextPlot::difference}};
    if (ref.ab) std::swap(h.maps[0], h.maps[1]);  // A's picture first, as everywhere
    h.after_shown = fit.shows(ContextPlot::after);
    // One grid of cells for all three, sized for the smallest plot: "before" and "after" of the
    // same config are then the same picture, cell for cell.
    for (int k = 0; k < 3; ++k) {
        if (!fit.shows(heatmap_cell(k))) continue;
        plot::DisplayList scratch;
        const plot::Rect a = setup_heatmap(ctx, h, sub, k, fit.cell(heatmap_cell(k)), scratch).first->area();
        h.grid_width = std::min(h.grid_width, a.width());
        h.grid_height = std::min(h.grid_height, a.height());
    }
    return h;
}

// Heatmap k (before, after, difference) in `cell`, on the grid the three share.
void draw_angle_heatmap(BuildContext& ctx, const ContextData& data, const AngleHeatmaps& h, const plot::Style& sub, int k,
                        plot::Rect cell) {
    const plot::Theme& th = ctx.request.style.theme;
    const double context = data.context;
    const AngleHeatmap& pn = h.maps[k];
    const int n = pn.freqs->pairs();
    auto [plot_k, y] = setup_heatmap(ctx, h, sub, k, cell, ctx.result.list);
    plot::Plot& p = *plot_k;
    const bool diff = k == 2;
    const auto positions = static_cast<std::int64_t>(context);
    const int cols = heatmap_columns(positions, h.grid_width), rows = heatmap_rows(n, h.grid_height);
    if (diff && !h.same_pairs) {
        p.text(context / 2, (n - 1) / 2.0, "A: " + std::to_string(data.pairs) + " pairs, B: " + std::to_string(data.ref.freqs.pairs()),
               th.text, plot::HAlign::center, plot::VAlign::bottom);
        p.text(context / 2, (n - 1) / 2.0, "no pair-by-pair difference", th.text, plot::HAlign::center, plot::VAlign::top);
    } else {
        // each cell the exact mean of e^{i m theta} over its positions and pairs (for the
        // difference, of e^{i m (theta' - theta)}): no sampled columns, so no moire
        const Eigen::VectorXd theta = pn.minus ? Eigen::VectorXd(pn.freqs->theta - *pn.minus) : pn.freqs->theta;
        const auto cells = ctx.cache.heatmap_cells(theta, 0, positions, cols, rows, HeatmapMode::angle);
        p.heatmap(cells->values, cells->grid.cols, cells->grid.rows, 0, context, -0.5, n - 0.5, plot::ColormapId::cyclic,
                  static_cast<float>(-kPi), static_cast<float>(kPi), cells->weights);
    }
    if (data.l0 < context) p.marker_x(data.l0, th.text, "L₀", 1.5f, 5);
    record_geometry(ctx, p, pn.tag);
    p.finish();
}

void fill_context_table(BuildContext& ctx, const ContextData& data) {
    const FrequencyTable& f = data.f;
    const std::vector<Scaling>& compare = data.compare;
    DataTable& t = ctx.result.table;
    // theta_reference: the "before" config's frequencies (left out when it rotates another number of pairs)
    const bool with_reference = data.ref.freqs.pairs() == data.pairs;
    t.columns = {"pair", "original_theta", "theta", "ratio", "original_wavelength", "wavelength"};
    if (with_reference) t.columns.push_back("theta_reference");
    const std::size_t first_compare = t.columns.size();
    for (Scaling s : compare) t.columns.push_back("theta_" + std::string(to_string(s)));
    t.values.assign(t.columns.size(), {});
    // the pairs that turn (a pair of frequency 0, proportional RoPE's tail, has no ratio or wavelength)
    for (int i = 0; i < f.rotating_pairs; ++i) {
        t.values[0].push_back(i);
        t.values[1].push_back(f.original_theta[i]);
        t.values[2].push_back(f.theta[i]);
        t.values[3].push_back(f.theta[i] / f.original_theta[i]);
        t.values[4].push_back(kTwoPi / f.original_theta[i]);
        t.values[5].push_back(kTwoPi / f.theta[i]);
        if (with_reference) t.values[6].push_back(data.ref.freqs.theta[i]);
        for (std::size_t v = 0; v < compare.size(); ++v) t.values[first_compare + v].push_back(data.compare_freqs[v].theta[i]);
    }
}

void build_context(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const ContextData data = context_data(ctx);
    const bool ab = data.ref.ab;
    const float W = ctx.request.width, H = ctx.request.height;
    const float title_space = st.draw_titles ? st.px(st.title_font) * 1.4f : 0;
    if (st.draw_titles)
        ctx.result.list.text({W / 2, st.px(6)}, ab ? ctx.title() : ctx.title() + " — " + data.current_name.substr(7),
                             st.px(st.title_font), st.theme.text, plot::HAlign::center, plot::VAlign::top);
    plot::Style sub = st;
    sub.title_font = st.title_font * 0.8f;
    sub.draw_titles = true;  // several plots: each needs its caption, on screen too
    sub.line_width = st.line_width * 0.85f;
    const float top = title_space;
    // the heatmaps' colour bars (with their fading key) take about 150 px beside the plot
    // the per-pair plots carry a legend above them (original, after, the variants compared, the band):
    // in a narrow cell most entries take a row of their own
    const PairPlots per_pair = pair_plots(st.theme, data);
    detail::FitOptions options;
    for (const auto& need : context_plot_needs(ctx.params, st)) options.min_of.push_back(need);
    const SubplotFit fit = fit_plots(ctx, {0, top, W, H}, seven_cells(st, W, H, top), options);

    if (fit.shows(ContextPlot::ratio)) draw_ratio(ctx, data, per_pair, sub, fit.cell(ContextPlot::ratio));
    if (fit.shows(ContextPlot::wavelength)) draw_wavelengths(ctx, data, per_pair, sub, fit.cell(ContextPlot::wavelength));
    if (fit.shows(ContextPlot::attention)) draw_attention(ctx, data, sub, fit.cell(ContextPlot::attention));
    const std::int64_t max_distance = ctx.params[P::max_distance];
    const bool decay_log_x = ctx.params[P::decay_scale] == DecayScale::log && max_distance >= 2;  // read even when not shown
    if (fit.shows(ContextPlot::decay)) draw_decay(ctx, data, sub, max_distance, decay_log_x, fit.cell(ContextPlot::decay));
    const AngleHeatmaps heatmaps = angle_heatmaps(ctx, data, sub, fit);
    for (int k = 0; k < 3; ++k)
        if (fit.shows(heatmap_cell(k))) draw_angle_heatmap(ctx, data, heatmaps, sub, k, fit.cell(heatmap_cell(k)));
    if (ctx.request.with_table) fill_context_table(ctx, data);
}

// The variants drawn beside the current one, and what "before" is (unscaled, or a preset: A/B).
void context_header(PanelContext& panel, HeaderControls& ui) {
    const ParamSpec& compare = param_spec(P::compare);
    ui.text("compare:", compare.help);
    const std::vector<Scaling> picked = panel.params[P::compare];
    for (std::string_view word : compare.choices) {
        const Scaling variant = *enum_from_name<Scaling>(word);
        const std::string name(word);
        bool on = std::find(picked.begin(), picked.end(), variant) != picked.end();
        ui.same_line();
        if (!ui.checkbox(name, on, "Draw " + name + " scaling (same factor and L0) beside the current config.")) continue;
        std::vector<Scaling> next;
        for (std::string_view c : compare.choices) {
            const Scaling s = *enum_from_name<Scaling>(c);
            if (s == variant ? on : std::find(picked.begin(), picked.end(), s) != picked.end()) next.push_back(s);
        }
        panel.edit((on ? "compare with " : "stop comparing with ") + name, [&](ParamSet& p) { p.set(P::compare, next); });
    }
    ui.same_line(1);
    ui.text("vs", "");
    ui.same_line();
    const ParamSpec& to = param_spec(P::compare_to);
    const std::string current(panel.params[P::compare_to]);
    std::vector<std::string> choices(to.choices.begin(), to.choices.end());
    const int now = static_cast<int>(std::find(choices.begin(), choices.end(), current) - choices.begin());
    const int chosen = ui.combo(current == "unscaled" ? "unscaled (before)" : "B: " + current, choices, now, 10, to.help);
    if (chosen >= 0 && chosen != now) {
        const std::string pick = choices[static_cast<std::size_t>(chosen)];
        panel.edit("compare to " + pick, [&](ParamSet& p) { p.set(P::compare_to, pick); });
    }
}

}  // namespace

const FigureDescriptor& context_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "context";
        f.title = "Context extension";
        f.page = 1;
        // seven plots at type a blog column can read (plot::kBlogTickPx): three rows and a fourth, portrait
        f.export_width = 1200;
        f.export_height = 1400;
        f.csv_columns = "pair,original_theta,theta,ratio,original_wavelength,wavelength,theta_reference,theta_<variant>...";
        f.plots = tagged_plots<ContextPlot>({
            {ContextPlot::ratio, {"context_ratio", "Frequency ratio θ′ᵢ/θᵢ per pair", "ratio", PlotRole::supporting, AxisRole::pair, AxisRole::other, 1, {240, 200}, 0, false, 1.5f, {"ratio", "divided by"}}},
            {ContextPlot::wavelength, {"context_wavelength", "Wavelengths against the original and the extended context", "wavelengths", PlotRole::main, AxisRole::pair, AxisRole::other, 0, {240, 200}, 0, false, 1.5f, {"wavelength", "shaded band"}}},
            {ContextPlot::attention, {"context_attention", "The attention factor against the extension factor", "attention factor", PlotRole::supporting, AxisRole::other, AxisRole::other, 6, {240, 200}, 0, false, 1.5f, {"attention factor plot"}}},
            {ContextPlot::decay, {"context_decay", "Long-range decay before and after", "decay", PlotRole::supporting, AxisRole::other, AxisRole::other, 2, {240, 200}, 0, false, 1.5f, {"decay plot"}}},
            {ContextPlot::before, {"context_before", "The angle heatmap before", "before", PlotRole::supporting, AxisRole::position, AxisRole::pair, 4, {240, 200}, 40, false, 1.2f, {"angle heatmaps"}}},
            {ContextPlot::after, {"context_after", "The angle heatmap after", "after", PlotRole::supporting, AxisRole::position, AxisRole::pair, 3, {240, 200}, 150, false, 1.2f, {"angle heatmaps"}}},
            {ContextPlot::difference, {"context_difference", "The angles' difference, after minus before", "difference", PlotRole::supporting, AxisRole::position, AxisRole::pair, 5, {240, 200}, 150, false, 1.2f, {"A minus B"}}},
        });
        f.reads = model_and({P::max_position, P::max_distance, P::decay_scale, P::compare, P::compare_to});
        f.describe = describe_context;
        f.build = build_context;
        f.model_b = ModelBView::itself;  // its own A/B mode: B against A pair by pair
        f.plot_needs = context_plot_needs;
        f.header_width_em = 44;
        f.header = context_header;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
