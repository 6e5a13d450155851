// Pairing layouts: which dims form a pair under interleaved (2i, 2i+1) and half-split (i, i + r/2)
// and the permutation between them; then the classic bug, cos/sin laid out for one layout and the
// vector for the other: shifting both tokens together no longer keeps the score, because the two
// dims of a pair now turn at different frequencies.
#include <algorithm>
#include <cmath>
#include <limits>

#include "figures/alt_text.hpp"
#include "figures/subplot_fit.hpp"
#include "plot/colormap.hpp"
#include "figures/why_common.hpp"
#include "plot/ticks.hpp"
#include "rope/encodings.hpp"
#include "rope/rotation.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::SubplotFit;
namespace why = detail::why;

enum class PairingPlot { dims, shift };

using plot::Color;
using plot::Vec2;

constexpr int kSchematicDims = 16;  // larger heads are drawn as a 16-dim schematic of the same pattern

// Frequency falls monotonically with the pair index: a sequential ramp (lightness rising with i),
// not the cyclic map, whose dark middle vanished on the dark background.
Color pair_color(const plot::Theme& th, int pair, int pairs) {
    return plot::ramp_color(th, pairs > 1 ? static_cast<double>(pair) / (pairs - 1) : 0.0);
}

using plot::ink_on;

// The largest drift of a shifted-score curve; "≈ 0" when it is rounding noise.
std::string drift_text(const std::vector<double>& scores) {
    double scale = 0;
    for (double s : scores) scale = std::max(scale, std::abs(s));
    return why::spread_text(largest_drift(scores), scale);
}

// The score along a shift of both tokens, the distance n − m fixed, with the layouts matched and mixed.
struct ShiftedScores {
    std::int64_t m_now = 0, distance = 0;
    std::vector<double> shift;           // the query positions m
    std::vector<double> matched, mixed;  // the score at each
};

ShiftedScores shift_both_tokens(BuildContext& ctx, Pairing pairing) {
    const FrequencyTable& f = ctx.frequencies();
    const Pairing table_mixed = why::other_layout(pairing);
    const Eigen::VectorXd q = why::q_vector(ctx.params), k = why::k_vector(ctx.params);
    const std::int64_t m_now = ctx.params[P::position], n_now = ctx.params[P::key_position];
    const std::int64_t distance = n_now - m_now;

    // shift both tokens over `span` positions around the current one (keys at m + distance >= 0)
    const std::int64_t span = std::clamp<std::int64_t>(ctx.params[P::max_position], 16, 512);
    const std::int64_t first_ok = std::max<std::int64_t>(0, -distance);
    const std::int64_t first = std::max(first_ok, m_now - span / 2);
    ShiftedScores s;
    s.m_now = m_now;
    s.distance = distance;
    s.matched = shifted_scores(f, pairing, pairing, q, k, distance, first, span, f.attention_factor);
    s.mixed = shifted_scores(f, table_mixed, pairing, q, k, distance, first, span, f.attention_factor);
    s.shift.resize(static_cast<std::size_t>(span));
    for (std::int64_t i = 0; i < span; ++i) s.shift[static_cast<std::size_t>(i)] = static_cast<double>(first + i);
    return s;
}

// Where the layouts' diagram puts its three rows of dim boxes (interleaved, half-split, mixed).
struct DimRows {
    int dims = 0;             // r: the head's rotated dims
    int shown = 0, half = 0;  // the dims drawn (at most kSchematicDims) and their pairs
    int turning = 0;          // the drawn pairs that turn (the rest in grey)
    plot::Rect area;          // the plot's
    float box = 0, gap = 0, x0 = 0, arc_h = 0;
    float y_top = 0, row1 = 0, row2 = 0, label3 = 0, row3 = 0;
    float font = 0;
    bool numbered = false;

    float box_x(int j) const { return x0 + static_cast<float>(j) * (box + gap); }
    Color colour(const plot::Theme& th, int pair) const { return pair >= turning ? plot::fade_color() : pair_color(th, pair, half); }
};

DimRows schematic_dims(const FrequencyTable& f) {
    DimRows rows;
    const int r = f.rotated_dims, pairs = f.pairs();
    rows.dims = r;
    rows.shown = std::min(r, kSchematicDims);
    rows.half = rows.shown / 2;
    // pairs of frequency 0 (proportional RoPE's tail) in grey, as many of the schematic's as of the head's
    rows.turning = rows.shown == r ? f.rotating_pairs : (f.rotating_pairs * rows.half + pairs - 1) / pairs;
    return rows;
}

// The rows' boxes sized to the plot area `a` and the block of rows centred in it.
void place_rows(DimRows& rows, const plot::Style& st, plot::Rect a) {
    const int shown = rows.shown;
    const float tf = st.px(st.tick_font);
    rows.area = a;
    const float label_h = tf * 1.3f;
    const float box = rows.box = std::max(st.px(8), std::min({a.width() / (shown + 2.5f), (a.height() - 3 * label_h) / 6.3f, st.px(46)}));
    const float gap = rows.gap = box * 0.14f;
    const float row_w = shown * box + (shown - 1) * gap;
    rows.x0 = a.x0 + (a.width() - row_w) / 2;
    const float arc_h = rows.arc_h = box * 0.55f;
    const float block_h = 3 * label_h + 3 * arc_h + 3 * box + box * 1.1f + box * 0.3f;
    const float y_top = rows.y_top = a.y0 + std::max(0.0f, (a.height() - block_h) / 2);
    const float row1 = rows.row1 = y_top + label_h + arc_h;                        // top of the interleaved boxes
    const float row2 = rows.row2 = row1 + box + box * 1.1f;                        // top of the half-split boxes
    const float label3 = rows.label3 = row2 + box + arc_h + label_h + box * 0.3f;  // top of the mixed row's label
    rows.row3 = label3 + label_h + arc_h;                                          // top of the mixed boxes
    // dim numbers inside the boxes while the boxes can hold readable ones
    rows.font = std::min(tf, box * 0.5f);
    rows.numbered = rows.font >= st.px(st.min_text) - 0.01f;
}

// the permutation: half-split dim j holds interleaved dim perm[j]
void draw_permutation(BuildContext& ctx, plot::Plot& p, const DimRows& rows) {
    const plot::Style& st = ctx.request.style;
    const int shown = rows.shown, half = rows.half;
    const float box = rows.box;
    const std::vector<int> perm = half_from_interleaved_permutation(shown, shown);
    for (int j = 0; j < shown; ++j)
        p.list().segment({rows.box_x(perm[j]) + box / 2, rows.row1 + box}, {rows.box_x(j) + box / 2, rows.row2},
                         rows.colour(st.theme, j % half).with_alpha(0.85f), st.px(1.6f));
}

// Arcs joining the partners of a row: above it, below it for the half-split row (row 1).
void draw_partner_arcs(BuildContext& ctx, plot::Plot& p, const DimRows& rows, int row, Pairing partners, float y) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const int shown = rows.shown, half = rows.half;
    const float box = rows.box, arc_h = rows.arc_h;
    for (int i = 0; i < half; ++i) {
        const PairDims d = pair_dims(partners, shown, i);
        const float xa = rows.box_x(d.first) + box / 2, xb = rows.box_x(d.second) + box / 2;
        const bool below = row == 1;
        const float h = partners == Pairing::interleaved
                            ? arc_h * 0.8f
                            : arc_h * (0.55f + 0.45f * static_cast<float>(i) / static_cast<float>(std::max(1, half - 1)));
        const Color c = row == 2 ? th.text.with_alpha(0.75f) : rows.colour(th, i);
        why::pair_arc(p.list(), xa, xb, below ? y + box : y, h, below ? 1.0f : -1.0f, c, st.px(2), 24);
    }
}

// A row's boxes, coloured by the pair whose frequency each dim turns at under `freq_layout`.
void draw_dim_boxes(BuildContext& ctx, plot::Plot& p, const DimRows& rows, int row, Pairing freq_layout, float y, int selected) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const int shown = rows.shown;
    const float box = rows.box, gap = rows.gap;
    for (int j = 0; j < shown; ++j) {
        const int pr = cos_sin_pair_of_dim(freq_layout, shown, j);
        const Color c = rows.colour(th, pr);
        const plot::Rect b{rows.box_x(j), y, rows.box_x(j) + box, y + box};
        const bool hot = shown == rows.dims && row < 2 && pr == selected && ctx.request.show_cursor;
        p.list().rect(b, c, hot ? th.accent : th.background, hot ? st.px(2.5f) : st.px(1));
        if (rows.numbered)
            p.list().text({(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2}, std::to_string(j), rows.font, ink_on(c), plot::HAlign::center,
                          plot::VAlign::middle);
    }
    const float small = st.px(st.min_text), digits_w = ctx.measure.measure(std::to_string(shown - 1), small).x;
    if (!rows.numbered && rows.box_x(0) - gap * 2 - digits_w >= rows.area.x0 - 1) {
        // boxes too small for numbers: the row's first and last dims beside it, where they fit
        const float mid = y + box / 2;
        p.list().text({rows.box_x(0) - gap * 2, mid}, "0", small, th.muted, plot::HAlign::right, plot::VAlign::middle);
        p.list().text({rows.box_x(shown - 1) + box + gap * 2, mid}, std::to_string(shown - 1), small, th.muted, plot::HAlign::left,
                      plot::VAlign::middle);
    }
}

void row_label(BuildContext& ctx, plot::Plot& p, plot::Rect a, const std::string& text, float y, bool current) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const float tf = st.px(st.tick_font);
    // the whole row label, or what comes before its colon (the layout's name) where it does not fit
    std::string full = text + (current ? "  (current)" : "");
    const std::size_t colon = text.find(':');
    if (colon != std::string::npos && ctx.measure.measure(full, st.px(st.min_text)).x > a.width())
        full = text.substr(0, colon) + (current ? "  (current)" : "");
    const float size = why::fitted_size(ctx.measure, full, tf, a.width(), st.px(st.min_text));
    p.list().text({a.x0 + a.width() / 2, y}, full, size, current ? th.accent : th.text, plot::HAlign::center,
                  plot::VAlign::top);
}

// 1. The two layouts as rows of dim boxes (coloured by the frequency each dim turns at, partners
// joined by arcs), the permutation between them, and the mixed layout where partners disagree.
void draw_layouts(BuildContext& ctx, Pairing pairing, int selected, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Style sub = why::sub_style(st);
    const Pairing table_mixed = why::other_layout(pairing);
    DimRows rows = schematic_dims(ctx.frequencies());
    const int r = rows.dims, shown = rows.shown;
    const std::string title = "dims coloured by the frequency they turn at" + std::string(rows.turning < rows.half ? " (grey: θ = 0)" : "") +
                              ", arcs join partners" +
                              (shown == r ? std::string() : " (16-dim schematic of r = " + std::to_string(r) + ")");
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell, title);
    plot::AxisSetup ax{"", 0, 1}, ay{"", 0, 1};
    p.setup_x(ax);
    p.setup_y(ay);
    p.setup_no_axes();
    const plot::Rect a = p.area();
    place_rows(rows, st, a);
    draw_permutation(ctx, p, rows);
    // rows: 0 interleaved, 1 half-split, 2 mixed (cos/sin for the other layout, partners of the current)
    for (int row = 0; row < 3; ++row) {
        const Pairing partners = row == 0 ? Pairing::interleaved : row == 1 ? Pairing::half : pairing;
        const Pairing freq_layout = row == 2 ? table_mixed : partners;
        const float y = row == 0 ? rows.row1 : row == 1 ? rows.row2 : rows.row3;
        draw_partner_arcs(ctx, p, rows, row, partners, y);
        draw_dim_boxes(ctx, p, rows, row, freq_layout, y, selected);
    }
    row_label(ctx, p, a, "interleaved (GPT-J, Meta Llama): pair i = dims (2i, 2i+1)", rows.y_top, pairing == Pairing::interleaved);
    row_label(ctx, p, a, "half-split (GPT-NeoX, HF rotate_half): pair i = dims (i, i + d/2)", rows.row2 + rows.box + rows.arc_h + st.px(2),
              pairing == Pairing::half);
    row_label(ctx, p, a,
              r == 2 ? std::string("mixed layouts: with one pair (d = 2) both layouts are the same")
                     : "the bug: cos/sin laid out " + why::layout_name(table_mixed) + ", vector " + why::layout_name(pairing) +
                           ": partners turn at different θ",
              rows.label3, false);
    record_geometry(ctx, p, PairingPlot::dims);
    p.finish();
}

// The range of both score curves, padded.
void score_range(const ShiftedScores& s, double& lo, double& hi) {
    lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double v : s.matched) lo = std::min(lo, v), hi = std::max(hi, v);
    for (double v : s.mixed) lo = std::min(lo, v), hi = std::max(hi, v);
    // a flat curve gets a span of its own, not one of rounding noise
    const double least = 0.05 * std::max(1.0, std::max(std::abs(lo), std::abs(hi)));
    if (!(hi - lo >= least)) {
        const double c = (lo + hi) / 2;
        lo = c - least / 2, hi = c + least / 2;
    }
    const double pad = (hi - lo) * 0.08;
    lo -= pad, hi += pad;
}

// 2. Shift both tokens, the distance fixed: matched layouts keep the score, mixed ones do not.
void draw_shift(BuildContext& ctx, const ShiftedScores& s, Pairing pairing, plot::Rect shift_rect) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    const float tf = st.px(st.tick_font);
    const Pairing table_mixed = why::other_layout(pairing);
    const std::vector<double>& shift = s.shift;
    const std::int64_t distance = s.distance, m_now = s.m_now;
    double lo, hi;
    score_range(s, lo, hi);
    // A short figure leaves the plot too little height for a title and a legend: the legend then
    // says what the title would (each curve's drift).
    const bool short_plot = shift_rect.height() < st.px(170);
    plot::Plot p(ctx.result.list, ctx.measure, sub, shift_rect,
                 short_plot ? std::string()
                            : "shift both tokens, n − m = " + std::to_string(distance) + " fixed: the score drifts by " +
                                  drift_text(s.matched) + " (matched), " + drift_text(s.mixed) + " (mixed)");
    plot::AxisSetup ax{"query position m (tokens; key at m + " + std::to_string(distance) + ")", shift.front(),
                       std::max(shift.back(), shift.front() + 1)};
    // the long label when the plot is tall enough to hold it
    const float plot_h = shift_rect.height() - st.px(sub.title_font) * 1.5f - tf * 1.5f - st.px(sub.label_font) * 1.5f - st.px(22);
    const std::string y_label =
        ctx.measure.measure("score ⟨q at m, k at n⟩", st.px(sub.label_font)).x <= plot_h ? "score ⟨q at m, k at n⟩" : "score";
    plot::AxisSetup ay{y_label, lo, hi};
    p.setup_x(ax);
    p.setup_y(ay);
    // the legend in a row above the plot: the curves and the marker leave no corner of it free
    const std::string mixed_name =
        short_plot ? "mixed: drifts by " + drift_text(s.mixed) : "mixed (cos/sin " + why::layout_name(table_mixed) + ")";
    const std::string matched_name =
        short_plot ? "matched: drifts by " + drift_text(s.matched) : "matched (" + why::layout_name(pairing) + ")";
    p.setup_legend_above({mixed_name, matched_name});
    p.line(shift.data(), s.mixed.data(), s.mixed.size(), 1, th.series[1], mixed_name, sub.line_width * 0.8f, th.series_dash[1]);
    p.line(shift.data(), s.matched.data(), s.matched.size(), 1, th.series[0], matched_name);
    if (m_now >= shift.front() && m_now <= shift.back() && ctx.request.show_cursor)
        p.marker_x(static_cast<double>(m_now), th.accent, "m = " + std::to_string(m_now), 2.0f, 6);
    record_geometry(ctx, p, PairingPlot::shift);
    p.finish();
}

// the score curves against the shift (the pairing diagram is drawn from dim and layout alone)
void write_table(BuildContext& ctx, const ShiftedScores& s) {
    DataTable& t = ctx.result.table;
    t.columns = {"m", "n", "score_matched", "score_mixed"};
    t.values.assign(t.columns.size(), {});
    for (std::size_t i = 0; i < s.shift.size(); ++i) {
        t.values[0].push_back(s.shift[i]);
        t.values[1].push_back(s.shift[i] + static_cast<double>(s.distance));
        t.values[2].push_back(s.matched[i]);
        t.values[3].push_back(s.mixed[i]);
    }
}

void build_pairing(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const FrequencyTable& f = ctx.frequencies();
    const Pairing pairing = ctx.params.config().pairing;
    const int pairs = f.pairs();
    const int selected = static_cast<int>(std::min<std::int64_t>(ctx.params[P::pair], pairs - 1));
    const ShiftedScores scores = shift_both_tokens(ctx, pairing);

    const float W = ctx.request.width, H = ctx.request.height;
    const float top = why::title_space(ctx);
    const float split = top + (H - top) * (H < st.px(620) ? 0.5f : 0.54f);
    // too small for both: the layouts' diagram
    const SubplotFit fit =
        fit_plots(ctx, {0, top, W, H}, {plot::Rect{0, top, W, split}, plot::Rect{0, split, W, H}});
    if (fit.shows(PairingPlot::dims)) draw_layouts(ctx, pairing, selected, fit.cell(PairingPlot::dims));
    if (fit.shows(PairingPlot::shift)) draw_shift(ctx, scores, pairing, fit.cell(PairingPlot::shift));
    if (ctx.request.with_table) write_table(ctx, scores);
}

}  // namespace

const FigureDescriptor& pairing_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "pairing";
        f.title = "Pairing layouts";
        f.page = 2;
        f.csv_columns = "m,n,score_matched,score_mixed";
        f.plots = tagged_plots<PairingPlot>({
            {PairingPlot::dims, {"pairing_dims", "Which dims form each pair in either layout", "pairs", PlotRole::main, AxisRole::other, AxisRole::other, 0, {240, 200}, 0, true, 3.0f, {"pair neighbours", "rotate_half"}}},
            {PairingPlot::shift, {"pairing_shift", "The score along a shift of both tokens", "shift", PlotRole::supporting, AxisRole::position, AxisRole::other, 1, {240, 200}, 0, true, 3.0f, {"drifts"}}},
        });
        f.reads = model_and({P::pair, P::max_position, P::position, P::key_position, P::vector, P::key_vector});
        f.describe = describe_pairing;
        f.build = build_pairing;
        f.b_shares_ranges = false;  // curves: A's and B's pictures each on their own axes (one build each)
        return f;
    }();
    return d;
}

}  // namespace rope::figures
