// Partial vs proportional RoPE, side by side for the current head dim d, fraction f and base b:
//  - ordinary partial rotary (GPT-NeoX rotary_pct, Phi, GLM): the first r = int(d f) dims rotate,
//    pair (i, i + r/2) inside them, theta_i = b^(-2i/r); the other dims pass through;
//  - proportional (transformers' rope_type "proportional", Gemma 4's global layers): d/2 pairs
//    (i, i + d/2) across the head, theta_i = b^(-2i/d) for i < int(d f)//2, then exactly 0.
// Same count of turning pairs, other values and other partners. Two porting bugs, both drawn
// (core/include/rope/partial_layouts.hpp): the frequency values of one layout on the pairs of the
// other (Megatron-Bridge #4195/#4916, apple/coreai-models #66) is still a rotation, so n - m is kept
// but the scores are not the model's; the cos/sin table of one layout under the rotate_half of the
// other is no rotation at all and the score depends on m too.
// Both layouts are drawn half-split (rotate_half), as transformers applies them.
#include <algorithm>
#include <cmath>
#include <limits>

#include "figures/alt_text.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/why_common.hpp"
#include "plot/axis_pins.hpp"
#include "plot/colormap.hpp"
#include "plot/ticks.hpp"
#include "rope/frequencies.hpp"
#include "rope/partial_layouts.hpp"
#include "figures/pair_axis.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::SubplotFit;
namespace why = detail::why;
using plot::Color;
using plot::Vec2;

// The two layouts of a head at d, f, b: per-pair frequencies and per-dim tables, all from the core.
struct TwoLayouts {
    int dim = 0, rotated = 0, turning = 0;  // d, r = int(d f) made even, int(d f) // 2
    Eigen::VectorXd partial_theta;          // r/2 entries: b^(-2i/r)
    Eigen::VectorXd proportional_theta;     // d/2 entries: b^(-2i/d), zeros from `turning` on
    LayoutTable partial, proportional;      // each layout as it should be
    LayoutTable transplanted;               // proportional's values on partial's pairs (#4195)
};

TwoLayouts two_layouts(int dim, double fraction, double base) {
    TwoLayouts t;
    const FrequencyTable partial = compute_frequencies(layout_config(RotaryLayout::partial, dim, fraction, base));
    const FrequencyTable proportional = compute_frequencies(layout_config(RotaryLayout::proportional, dim, fraction, base));
    t.dim = dim;
    t.rotated = partial.rotated_dims;
    t.turning = proportional.rotating_pairs;
    t.partial_theta = partial.theta;
    t.proportional_theta = proportional.theta;
    t.partial = layout_table(RotaryLayout::partial, dim, fraction, base);
    t.proportional = layout_table(RotaryLayout::proportional, dim, fraction, base);
    t.transplanted = transplanted_table(RotaryLayout::partial, RotaryLayout::proportional, dim, fraction, base);
    return t;
}

enum class LayoutPlot { dims, wavelengths, matched, mixed };

// ---- the figure ----

// Absolute query positions the scores are taken at: the start, the middle and the end of the context.
std::vector<std::int64_t> query_positions(std::int64_t max_position, std::int64_t reach) {
    const std::int64_t last = std::max<std::int64_t>(0, max_position - 1 - reach);
    std::vector<std::int64_t> m{0, last / 2, last};
    m.erase(std::unique(m.begin(), m.end()), m.end());
    return m;
}

struct ScoreCurves {
    std::vector<double> distance;
    std::vector<std::vector<double>> score;  // [position][distance]
    double spread = 0, scale = 0;            // largest difference between positions at one distance
};

// Scores with the angles of one table and the partners of another (the same table: a layout as built).
ScoreCurves score_curves(const LayoutTable& angles, const LayoutTable& partners, const Eigen::VectorXd& q,
                         const Eigen::VectorXd& k, const std::vector<std::int64_t>& positions, std::int64_t reach) {
    ScoreCurves c;
    for (std::int64_t n = 0; n <= reach; ++n) c.distance.push_back(static_cast<double>(n));
    for (std::int64_t m : positions) {
        const Eigen::VectorXd qm = rotate_with_tables(angles, partners, q, static_cast<double>(m));
        std::vector<double> s;
        for (std::int64_t n = 0; n <= reach; ++n)
            s.push_back(qm.dot(rotate_with_tables(angles, partners, k, static_cast<double>(m + n))));
        c.score.push_back(std::move(s));
    }
    for (std::size_t i = 0; i < c.distance.size(); ++i) {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const auto& s : c.score) lo = std::min(lo, s[i]), hi = std::max(hi, s[i]);
        c.spread = std::max(c.spread, hi - lo);
        c.scale = std::max({c.scale, std::abs(lo), std::abs(hi)});
    }
    return c;
}

// q = k for the scores when the user set no vector: all ones cannot tell pairings apart (every pair
// weighs 2, wherever its dims are), so #4195's curve would lie on the proportional one; dims of
// unequal size, as trained q and k have, make the pairing visible. Deterministic: sin, no RNG.
Eigen::VectorXd unequal_dims(int dim) {
    Eigen::VectorXd v(dim);
    for (int j = 0; j < dim; ++j) v[j] = 1 + 0.9 * std::sin(2.4 * j);
    return v;
}

// Whether q, k tell #4195's pairing from proportional's (score at m = 0 over the distances drawn);
// they do not when every dim weighs alike (all ones), and then its curve lies on the proportional one.
bool transplant_differs(const TwoLayouts& t, const Eigen::VectorXd& q, const Eigen::VectorXd& k, std::int64_t reach) {
    double largest = 0, scale = 1;
    for (std::int64_t n = 0; n <= reach; ++n) {
        const double proportional = score_with_tables(t.proportional, t.proportional, q, 0, k, static_cast<double>(n));
        const double ported = score_with_tables(t.transplanted, t.transplanted, q, 0, k, static_cast<double>(n));
        largest = std::max(largest, std::abs(ported - proportional));
        scale = std::max(scale, std::abs(proportional));
    }
    return largest > 1e-9 * scale;
}

// Colour of a turning pair by its frequency (log scale shared by both layouts); grey for theta = 0.
struct FrequencyColors {
    double log_lo = 0, log_hi = 0;
    Color of(const plot::Theme& th, double theta) const {
        if (!(theta > 0)) return plot::fade_color();
        const double t = log_hi > log_lo ? (log_hi - std::log(theta)) / (log_hi - log_lo) : 0.0;
        return plot::ramp_color(th, std::clamp(t, 0.0, 1.0));
    }
};

std::string range_text(int a, int b) { return a == b ? std::to_string(a) : std::to_string(a) + "–" + std::to_string(b); }

void draw_dims(BuildContext& ctx, const TwoLayouts& t, const FrequencyColors& colors, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"which dims pair (arcs join partners; colour: the pair's frequency, dark = fast; grey: θ = 0, passes through)",
                                  "which dims pair (colour: frequency, dark = fast; grey: passes through)", "which dims pair"}));
    plot::AxisSetup ax{"", 0, 1}, ay{"", 0, 1};
    p.setup_x(ax);
    p.setup_y(ay);
    p.setup_no_axes();
    const plot::Rect a = p.area();
    const float tf = st.px(st.tick_font), label_h = tf * 1.35f;
    // the strips and arcs grow with a tall cell (a narrow panel that shows only this plot), no
    // further than the width keeps them in proportion
    float strip_h = std::clamp(a.height() * 0.13f, st.px(8), std::max(st.px(34), a.width() * 0.12f));
    float arc_h = std::clamp(a.height() * 0.17f, st.px(8), std::max(st.px(60), a.width() * 0.3f));
    const float mid_h = tf * 1.5f, words = 2 * label_h + mid_h + st.px(8);
    // a cell near its minimum (the score plots below it): the arcs and strips share what the words leave
    const float shapes = 2 * (arc_h + strip_h), room = a.height() - words;
    if (shapes > room) {
        arc_h = std::max(st.px(8), arc_h * room / shapes);
        strip_h = std::max(st.px(8), strip_h * room / shapes);
    }
    const float block = words + 2 * arc_h + 2 * strip_h;
    const float y0 = a.y0 + std::max(0.0f, (a.height() - block) / 2);
    const float strip1 = y0 + label_h + arc_h + st.px(4), strip2 = strip1 + strip_h + mid_h;
    const float x0 = a.x0 + st.px(6), width = a.width() - st.px(12);
    const float col = width / static_cast<float>(t.dim);
    auto dim_x = [&](double j) { return x0 + static_cast<float>(j) * col; };

    auto strip = [&](const LayoutTable& r, float y) {
        // runs of equal colour as one box each (a 512-dim head is 512 slivers otherwise)
        int from = 0;
        for (int j = 1; j <= t.dim; ++j) {
            const double phi_from = r.angle[from];  // 0 for a dim that passes through or does not turn
            const double phi_j = j == t.dim ? -1.0 : r.angle[j];
            const bool outlined = col >= st.px(9);  // dims outlined one by one only where each is wide
            if (j < t.dim && phi_j == phi_from && !outlined) continue;
            p.list().rect({dim_x(from), y, dim_x(j), y + strip_h}, colors.of(th, phi_from), outlined ? th.background : Color{0, 0, 0, 0},
                          st.px(0.5f));
            from = j;
        }
        p.list().rect({dim_x(0), y, dim_x(t.dim), y + strip_h}, Color{0, 0, 0, 0}, th.axis, st.px(1));
    };
    auto arcs = [&](const LayoutTable& r, int pairs, float y, float dir) {
        // a few partners joined (every pair would be a solid fan): the first, the last and some between
        const int shown = std::min(pairs, 7);
        for (int s = 0; s < shown; ++s) {
            const int i = shown == 1 ? 0 : static_cast<int>(std::lround(static_cast<double>(s) * (pairs - 1) / (shown - 1)));
            const int partner = r.partner[static_cast<std::size_t>(i)];
            why::pair_arc(p.list(), dim_x(i + 0.5), dim_x(partner + 0.5), y, arc_h * (0.45f + 0.55f * static_cast<float>(s + 1) / static_cast<float>(shown)),
                dir, colors.of(th, r.angle[i]), st.px(1.8f), 32);
        }
    };
    strip(t.partial, strip1);
    arcs(t.partial, t.turning, strip1, -1);
    strip(t.proportional, strip2);
    arcs(t.proportional, t.turning, strip2 + strip_h, 1);

    // the dims where something changes, numbered in the band between the strips
    std::vector<int> marks{0, t.turning, t.rotated, t.dim / 2, t.dim / 2 + t.turning, t.dim};
    std::sort(marks.begin(), marks.end());
    marks.erase(std::unique(marks.begin(), marks.end()), marks.end());
    const float small = st.px(st.min_text) > tf * 0.85f ? st.px(st.min_text) : tf * 0.85f;
    float right_of_last = -1e9f;
    for (int m : marks) {
        const std::string s = std::to_string(m);
        const float w = ctx.measure.measure(s, small).x;
        float x = dim_x(m);
        x = std::clamp(x, a.x0 + w / 2, a.x1 - w / 2);
        if (x - w / 2 < right_of_last + st.px(6)) continue;
        p.list().segment({dim_x(m), strip1 + strip_h}, {dim_x(m), strip1 + strip_h + st.px(3)}, th.muted, st.px(1));
        p.list().text({x, strip1 + strip_h + mid_h / 2}, s, small, th.muted, plot::HAlign::center, plot::VAlign::middle);
        right_of_last = x + w / 2;
    }

    auto label = [&](const std::string& full, const std::string& brief, const std::string& tiny, float y, plot::VAlign v) {
        // the longest of the three that fits the width at a size fitted_size allows
        for (const std::string* text : {&full, &brief, &tiny}) {
            const float size = why::fitted_size(ctx.measure, *text, tf, a.width(), st.px(st.min_text));
            if (ctx.measure.measure(*text, size).x <= a.width() - st.px(4) || text == &tiny) {
                p.list().text({a.x0 + a.width() / 2, y}, *text, size, th.text, plot::HAlign::center, v);
                return;
            }
        }
    };
    const std::string r = std::to_string(t.rotated), d = std::to_string(t.dim), half = std::to_string(t.dim / 2);
    label("partial rotary (GPT-NeoX rotary_pct, Phi, GLM): dims " + range_text(0, t.rotated - 1) + " rotate, pair (i, i + " +
              std::to_string(t.rotated / 2) + "), θᵢ = b^(−2i/" + r + "); dims " + range_text(t.rotated, t.dim - 1) + " pass through",
          "partial: pair (i, i + " + std::to_string(t.rotated / 2) + "), θᵢ = b^(−2i/" + r + ")",
          "partial: (i, i + " + std::to_string(t.rotated / 2) + ")", y0, plot::VAlign::top);
    label("proportional (Gemma 4 global layers): pair (i, i + " + half + ") across the head, θᵢ = b^(−2i/" + d + ") for i < " +
              std::to_string(t.turning) + ", then 0",
          "proportional: pair (i, i + " + half + "), θᵢ = b^(−2i/" + d + "), 0 from i = " + std::to_string(t.turning),
          "proportional: (i, i + " + half + ")",
          strip2 + strip_h + arc_h + st.px(4) + label_h, plot::VAlign::bottom);
    record_geometry(ctx, p, LayoutPlot::dims);
    p.finish();
}

void draw_wavelengths(BuildContext& ctx, const TwoLayouts& t, std::int64_t context, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    const int pairs = t.dim / 2;
    std::vector<double> index, part, prop;
    double hi = static_cast<double>(context);
    for (int i = 0; i < t.turning; ++i) {
        index.push_back(i);
        part.push_back(kTwoPi / t.partial_theta[i]);
        prop.push_back(kTwoPi / t.proportional_theta[i]);
        hi = std::max({hi, part.back(), prop.back()});
    }
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(), {"which frequency each pair gets: wavelength 2π/θᵢ", "wavelength of each pair", "wavelengths"}));
    const plot::AxisSetup ax = detail::pair_axis(ctx.request, static_cast<int>(pairs), "pair i", -0.5, std::max(1.0, pairs - 0.5));
    plot::AxisSetup ay{"wavelength λ (tokens, log)", 3, hi * 12, true};
    p.setup_x(ax);
    p.setup_y(ay);
    p.setup_legend_above({"partial", "proportional"});
    if (t.turning < pairs) {
        p.band_x(t.turning - 0.5, pairs - 0.5, plot::fade_color().with_alpha(0.35f));
        const float band_w = p.x_px(pairs - 0.5) - p.x_px(t.turning - 0.5) - st.px(8);
        for (const std::string& s : {"pairs " + range_text(t.turning, pairs - 1) + ": θ = 0, pass through", std::string("θ = 0: pass through"),
                                     std::string("θ = 0")})
            if (ctx.measure.measure(s, st.px(st.tick_font)).x <= band_w) {
                p.text(t.turning - 0.5 + (pairs - t.turning) / 2.0, hi * 3, s, th.text, plot::HAlign::center, plot::VAlign::bottom);
                break;
            }
    }
    // the layouts' colours of the score plot beside it
    p.line(index.data(), part.data(), index.size(), 1, th.series[1], "partial");
    p.line(index.data(), prop.data(), index.size(), 1, th.series[4], "proportional", -1, th.series_dash[4]);
    p.marker_y(static_cast<double>(context), th.accent, "context L = " + plot::grouped_number(static_cast<double>(context)), -1, 6);
    record_geometry(ctx, p, LayoutPlot::wavelengths);
    p.finish();
}

// Colour = layout (two series that share a dash, so the palette keeps them apart in grey), dash = query position: where the three positions give one curve, the dashes lie on
// one line and it reads as solid; where they spread, three patterns of one colour part.
constexpr float kPositionDash[3] = {0, 9, 2.5f};
// #4195's port is one more curve among two that share dash 0, and no colour of the palette is apart
// in grey from both: it gets a dash of its own for every m (a rotation, its three copies coincide),
// and the proportional curve shows through its gaps where the two agree.
constexpr float kPortDash = 6;

void draw_scores(BuildContext& ctx, const std::vector<ScoreCurves>& layouts, const std::vector<std::int64_t>& positions,
                 const std::vector<std::string>& layout_names, const std::vector<std::size_t>& series,
                 const std::vector<float>& own_dash, const std::vector<std::string>& titles, LayoutPlot tag, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const ScoreCurves& c : layouts)
        for (const auto& s : c.score)
            for (double v : s) lo = std::min(lo, v), hi = std::max(hi, v);
    const double least = 0.05 * std::max(1.0, std::max(std::abs(lo), std::abs(hi)));
    if (!(hi - lo >= least)) lo = (lo + hi) / 2 - least / 2, hi = lo + least;
    const double pad = (hi - lo) * 0.08;
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell, why::pick_title(ctx, sub, cell.width(), titles));
    const std::vector<double>& x = layouts.front().distance;
    plot::AxisSetup ax{"distance n − m (tokens)", 0, std::max(1.0, x.back())};
    plot::AxisSetup ay{"score ⟨q at m, k at n⟩", lo - pad, hi + pad};
    p.setup_x(ax);
    p.setup_y(ay);
    // the queries' line styles are the figure's shared key (position_key), under the score plots
    p.setup_legend_above(layout_names);
    for (std::size_t l = 0; l < layouts.size(); ++l)
        for (std::size_t i = 0; i < positions.size(); ++i)
            p.line(x.data(), layouts[l].score[i].data(), x.size(), 1, th.series[series[l]], i == 0 ? layout_names[l] : "",
                   sub.line_width * 0.8f, l < own_dash.size() && own_dash[l] >= 0 ? own_dash[l] : kPositionDash[i % 3]);
    record_geometry(ctx, p, tag);
    p.finish();
}

// The queries' positions as line styles, one key for both score plots.
std::vector<plot::LegendEntry> position_key(const plot::Style& st, const std::vector<std::int64_t>& positions) {
    const plot::Style sub = why::sub_style(st);
    std::vector<plot::LegendEntry> key;
    for (std::size_t i = 0; i < positions.size(); ++i)
        key.push_back({"m = " + plot::grouped_number(static_cast<double>(positions[i])), st.theme.text, sub.line_width * 0.8f, kPositionDash[i % 3]});
    return key;
}

}  // namespace

double shown_rotary_fraction(int dim, double rotary_fraction) {
    // with the whole head rotated the two layouts are the same: show Gemma 4's quarter instead, and say so
    const bool illustrating = !(rotary_fraction < 1.0) || static_cast<int>(dim * rotary_fraction) < 2;
    return illustrating ? std::max(0.25, 2.0 / dim) : rotary_fraction;
}

namespace {

void build_partial_vs_proportional(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const int dim = static_cast<int>(ctx.params[P::dim]);
    const double fraction_set = ctx.params[P::rotary_fraction], base = ctx.params[P::base];
    const std::int64_t context = ctx.params[P::max_position];
    const double fraction = shown_rotary_fraction(dim, fraction_set);
    const bool illustrating = !(fraction_set < 1.0) || static_cast<int>(dim * fraction_set) < 2;  // as shown_rotary_fraction decides
    const TwoLayouts t = two_layouts(dim, fraction, base);
    const float W = ctx.request.width, H = ctx.request.height;
    const float top = why::title_space(ctx);

    const bool own_vectors = ctx.params.has(P::vector) || ctx.params.has(P::key_vector);
    const std::int64_t reach = std::clamp<std::int64_t>(context - 1, 1, 256);
    const std::vector<std::int64_t> positions = query_positions(context, reach);
    const Eigen::VectorXd q = own_vectors ? why::q_vector(ctx.params) : unequal_dims(dim);
    const Eigen::VectorXd k = own_vectors ? why::k_vector(ctx.params) : q;
    const bool pairing_shows = transplant_differs(t, q, k, reach);
    const std::string why_text =
        std::string(illustrating ? "rotary_fraction = 1 rotates the whole head in both layouts; shown for f = " +
                                       plot::readout_number(fraction) + " (Gemma 4's). "
                                 : "") +
        "Same number of turning pairs, other frequencies and other partners. The reported ports (Megatron-Bridge "
        "#4195/#4916, apple/coreai-models #66) kept proportional's " + std::to_string(t.turning) +
        " frequencies but paired them inside the " + std::to_string(t.rotated) + "-dim prefix, (i, i + " +
        std::to_string(t.rotated / 2) + "), not across the " + std::to_string(dim) +
        "-dim head: still a rotation, one curve for every m, " +
        (pairing_shows ? std::string("but not the model's scores.")
                       : std::string("and for these q, k its scores equal proportional's: they cannot tell the pairings apart, trained q, k can.")) +
        " The cos/sin table of one "
        "layout under the rotate_half of the other is no rotation: the score then depends on m, not only on n − m." +
        (own_vectors ? std::string()
                     : std::string(" Scores for qⱼ = kⱼ = 1 + 0.9 sin(2.4 j): with all ones #4195's pairing would give exactly the "
                                 "proportional scores (set vector for your own)."));
    const float caption_h = why::wrapped_caption(ctx, why_text, 0, W, H - st.px(3), th.text, false);
    bool without_caption = !(caption_h < (H - top) * 0.22f);
    // the caption's words follow the fraction: an animation holds whether a frame has the caption
    // (plot/axis_pins.hpp), and the room below the plots is its frames' largest, so the plots stay put
    plot::hold_flag(st.pins, "a frame without the caption", without_caption);
    // Without the caption (presentation mode, small panels) a note still says that the fraction
    // drawn is not the model's.
    const std::string note = "Drawn for f = " + plot::readout_number(fraction) + (fraction == 0.25 ? " (Gemma 4's)" : "") +
                             ", not this model's f = " + plot::readout_number(fraction_set) +
                             (fraction_set >= 1 ? " (the whole head turns)" : "");
    const bool with_note = without_caption && fraction != fraction_set;
    const float note_h = with_note ? why::wrapped_caption(ctx, note, 0, W, H - st.px(3), th.text, false) : 0.0f;
    double room = without_caption ? (with_note ? note_h + st.px(6) : 0.0f) : caption_h + st.px(6), least_room = room;
    plot::hold_range(st.pins, "room below the plots", least_room, room);
    if (!without_caption) why::wrapped_caption(ctx, why_text, 0, W, H - st.px(3), th.text);
    if (with_note) why::wrapped_caption(ctx, note, 0, W, H - st.px(3), th.text);
    const float bottom = H - static_cast<float>(room);

    // the score plots' shared key of line styles along the bottom (measured, then drawn once they are placed)
    const std::vector<plot::LegendEntry> key = position_key(st, positions);
    // (no room kept for it when neither score plot is drawn)
    const float key_h = st.px(st.tick_font) * 2.0f;
    auto arrange = [&](float plots_bottom) {
        const float split = top + (plots_bottom - top) * 0.42f, third = W / 3;
        return fit_plots(ctx, {0, top, W, plots_bottom},
                         {plot::Rect{0, top, W, split}, plot::Rect{0, split, third, plots_bottom},
                          plot::Rect{third, split, 2 * third, plots_bottom}, plot::Rect{2 * third, split, W, plots_bottom}});
    };
    float plots_bottom = bottom - key_h;
    const std::size_t drawn = ctx.result.list.commands.size();
    SubplotFit fit = arrange(plots_bottom);
    if (!fit.shows(LayoutPlot::matched) && !fit.shows(LayoutPlot::mixed)) {
        ctx.result.list.commands.resize(drawn);  // the first arrangement's note line, if it drew one
        SubplotFit without_key = arrange(bottom);
        if (!without_key.shows(LayoutPlot::matched) && !without_key.shows(LayoutPlot::mixed)) {
            fit = without_key;
            plots_bottom = bottom;
        } else {  // the band's room decides: with it, no score plot
            ctx.result.list.commands.resize(drawn);
            fit = arrange(plots_bottom);
        }
    }
    if (fit.shows(LayoutPlot::matched) || fit.shows(LayoutPlot::mixed)) {
        const plot::Rect band{0, plots_bottom, W, bottom};
        why::legend_row(ctx, key, band.x0, band.x1, band.y1 - st.px(2));
        ctx.result.shared_key = band;
    }

    FrequencyColors colors;
    if (t.turning > 0) {
        colors.log_hi = std::log(std::max(t.partial_theta[0], t.proportional_theta[0]));
        colors.log_lo = std::log(std::min(t.partial_theta[t.turning - 1], t.proportional_theta[t.turning - 1]));
    }
    if (fit.shows(LayoutPlot::dims)) draw_dims(ctx, t, colors, fit.cell(LayoutPlot::dims));
    if (fit.shows(LayoutPlot::wavelengths)) draw_wavelengths(ctx, t, context, fit.cell(LayoutPlot::wavelengths));

    if (fit.shows(LayoutPlot::matched)) {
        // the two layouts as built, and the reported port: proportional values on partial pairs
        const std::vector<ScoreCurves> matched{score_curves(t.partial, t.partial, q, k, positions, reach),
                                               score_curves(t.proportional, t.proportional, q, k, positions, reach),
                                               score_curves(t.transplanted, t.transplanted, q, k, positions, reach)};
        double spread = 0, scale = 0;
        for (const ScoreCurves& c : matched) spread = std::max(spread, c.spread), scale = std::max(scale, c.scale);
        const std::string s = why::spread_text(spread, scale);
        draw_scores(ctx, matched, positions,
                    {"partial", "proportional", pairing_shows ? "proportional θ on partial pairs (#4195)" : "#4195's port: on the proportional curve here"},
                    {1, 4, 3}, {-1, -1, kPortDash},
                    {"rotations, as built or ported: one curve for every m (spread " + s + ")",
                     "rotations: one curve for every m (spread " + s + ")", "rotations: spread over m " + s, "rotations"},
                    LayoutPlot::matched, fit.cell(LayoutPlot::matched));
    }
    if (fit.shows(LayoutPlot::mixed)) {
        const std::vector<ScoreCurves> bug{score_curves(t.proportional, t.partial, q, k, positions, reach),
                                           score_curves(t.partial, t.proportional, q, k, positions, reach)};
        const std::string spread =
            why::spread_text(std::max(bug[0].spread, bug[1].spread), std::max(bug[0].scale, bug[1].scale));
        draw_scores(ctx, bug, positions, {"proportional cos/sin, partial rotate_half", "partial cos/sin, proportional rotate_half"}, {2, 5}, {},
                    {"tables mixed, cos/sin and rotate_half: not a rotation, spread over m " + spread,
                     "tables mixed, not a rotation: spread over m " + spread, "tables mixed: spread over m " + spread,
                     "tables mixed: spread " + spread, "tables mixed"},
                    LayoutPlot::mixed, fit.cell(LayoutPlot::mixed));
    }

    if (ctx.request.with_table) {
        // per pair i of the head: each layout's frequency (0: the pair does not turn, its dims pass through)
        DataTable& tab = ctx.result.table;
        tab.columns = {"pair", "theta_partial", "theta_proportional"};
        tab.values.assign(tab.columns.size(), {});
        for (int i = 0; i < dim / 2; ++i) {
            tab.values[0].push_back(i);
            tab.values[1].push_back(i < t.partial_theta.size() ? t.partial_theta[i] : 0.0);
            tab.values[2].push_back(t.proportional_theta[i]);
        }
    }
}

}  // namespace

const FigureDescriptor& partial_vs_proportional_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "partial_vs_proportional";
        f.title = "Partial vs proportional";
        f.page = 3;
        f.export_width = 1100;
        f.export_height = 1300;  // four plots at type a blog column can read (plot::kBlogTickPx)
        f.csv_columns = "pair,theta_partial,theta_proportional";
        f.plots = tagged_plots<LayoutPlot>({
            {LayoutPlot::dims, {"layout_dims", "Which dims pair in each layout", "dims", PlotRole::supporting, AxisRole::other, AxisRole::other, 0, {300, 190}, 0, false, 4.0f, {"pairs dim"}}},
            {LayoutPlot::wavelengths, {"layout_wavelengths", "Each pair's wavelength against the context", "wavelengths", PlotRole::supporting, AxisRole::pair, AxisRole::other, 2, {300, 230}, 0, false, 1.2f, {"frequency"}}},
            {LayoutPlot::matched, {"layout_scores_matched", "Scores of the reported port: still a rotation", "rotations", PlotRole::supporting, AxisRole::other, AxisRole::other, 3, {300, 230}, 0, false, 1.2f, {"dashed curve"}}},
            {LayoutPlot::mixed, {"layout_scores_mixed", "Scores of mixed layouts: no rotation", "tables mixed", PlotRole::main, AxisRole::other, AxisRole::other, 1, {300, 230}, 0, false, 1.2f, {"spread apart"}}},
        });
        f.reads = {P::dim, P::base, P::rotary_fraction, P::max_position, P::vector, P::key_vector,
                   P::scaling,   // scaling: with B, whether the pair axes read i ÷ pairs (pair counts differ)
                   P::preset, P::model_name};  // the title's name
        f.pair_axis = true;  // i ÷ pairs beside a B of another pair count
        f.describe = describe_partial_vs_proportional;
        f.build = build_partial_vs_proportional;
        f.build_cost = 2;
        f.draws_nope = true;  // the layouts of the current dim and fraction, whatever this layer does
        return f;
    }();
    return d;
}

}  // namespace rope::figures
