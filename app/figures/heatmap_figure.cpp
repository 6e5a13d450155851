// Angle heatmap: positions (x) by pairs (y). Each cell (a pixel's worth of positions, and of pairs
// when there are more pairs than pixel rows) shows the exact mean of e^{i m theta_i} over what it
// covers: its angle on a cyclic colormap faded to grey by its magnitude, or its cos or sin, or the
// mean unwrapped angle. Means come from closed forms in double (figures/heatmap_cells.hpp), so far
// positions are coloured right and a pair turning faster than the columns cannot draw moire.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "figures/alt_text.hpp"
#include "figures/build_context.hpp"
#include "figures/compared_build.hpp"
#include "plot/ticks.hpp"
#include "figures/heatmap_cells.hpp"
#include "rope/phasor.hpp"
#include "figures/pair_axis.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;

enum class HeatmapPlot { heatmap };


// The CSV: one row per cell (or per position and pair). Ranges are half-open: [position_from,
// position_to) and [pair_from, pair_to). The mode's column is the shown value: "angle" (of the mean),
// "cos", "sin" (= mean_cos, mean_sin) or "unwrapped" (the mean of m theta_i).
void table_columns(DataTable& t, HeatmapMode mode) {
    t.columns = {"position_from", "position_to", "pair_from", "pair_to", std::string(enum_name(mode)), "mean_cos", "mean_sin", "magnitude"};
    t.values.assign(t.columns.size(), {});
}

void table_row(DataTable& t, HeatmapMode mode, const std::int64_t positions[2], const int pairs[2], PhasorMean mean,
               double mean_unwrapped) {
    const double shown = mode == HeatmapMode::angle || mode == HeatmapMode::a_minus_b ? mean.angle() : mode == HeatmapMode::cos ? mean.cos : mode == HeatmapMode::sin ? mean.sin : mean_unwrapped;
    const double row[8] = {static_cast<double>(positions[0]), static_cast<double>(positions[1]), static_cast<double>(pairs[0]),
                           static_cast<double>(pairs[1]), shown, mean.cos, mean.sin, mean.magnitude()};
    for (int i = 0; i < 8; ++i) t.values[static_cast<std::size_t>(i)].push_back(row[i]);
}

// One row per cell of the picture, column by column from the first position, pairs from 0.
void cell_table(DataTable& t, const HeatmapCells& cells, const Eigen::VectorXd& theta, HeatmapMode mode) {
    table_columns(t, mode);
    const CellGrid& g = cells.grid;
    for (int c = 0; c < g.cols; ++c)
        for (int r = 0; r < g.rows; ++r) {
            const std::int64_t positions[2] = {g.position_edges[c], g.position_edges[c + 1]};
            const int pairs[2] = {g.pair_edges[r], g.pair_edges[r + 1]};
            const double centre = 0.5 * static_cast<double>(positions[0] + positions[1] - 1);
            const double mean_theta = theta.segment(pairs[0], pairs[1] - pairs[0]).mean();
            table_row(t, mode, positions, pairs, g.at(c, r), centre * mean_theta);
        }
}

// One row per position and pair (export heatmap --full-resolution), for ranges small enough.
constexpr std::int64_t kFullResolutionRows = 1048576;

void full_resolution_table(DataTable& t, const Eigen::VectorXd& theta, std::int64_t from, std::int64_t to, HeatmapMode mode) {
    const std::int64_t pairs = theta.size(), rows = (to - from) * pairs;
    if (rows > kFullResolutionRows)
        throw std::invalid_argument("--full-resolution: positions " + std::to_string(from) + ".." + std::to_string(to - 1) + " x " +
                                    std::to_string(pairs) + " pairs = " + std::to_string(rows) + " rows; at most " +
                                    std::to_string(kFullResolutionRows) + " (narrow it with heatmap_from and heatmap_to)");
    table_columns(t, mode);
    for (std::int64_t m = from; m < to; ++m)
        for (int k = 0; k < static_cast<int>(pairs); ++k) {
            const std::int64_t positions[2] = {m, m + 1};
            const int pair[2] = {k, k + 1};
            table_row(t, mode, positions, pair, mean_phasor(m, m + 1, theta[k]), position_angle(static_cast<double>(m), theta[k]));
        }
}

// What a_minus_b colours: θ_A − θ_B pair by pair, or why it cannot (no B, or other pair counts: the
// map then shows A's angles under a note saying so).
struct DifferenceTheta {
    Eigen::VectorXd theta;
    std::string why_not;
};

DifferenceTheta difference_theta(const ParamSet& params, FigureCache& cache, const FrequencyTable& a) {
    const std::optional<ParamSet> b = detail::model_b(params);
    if (!b) return {a.theta, "A − B needs model B: set compare with (model B)"};
    const std::shared_ptr<const FrequencyTable> fb = cache.frequencies(*b);
    if (fb->pairs() != a.pairs())
        return {a.theta, "A − B: A has " + std::to_string(a.pairs()) + " pairs, B " + std::to_string(fb->pairs()) + ": no pair-by-pair difference"};
    return {a.theta - fb->theta, ""};
}

void build_heatmap(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const FrequencyTable& f = ctx.frequencies();
    const std::int64_t max_position = ctx.params[P::max_position];
    const HeatmapSpan shown_positions = heatmap_span(max_position, ctx.params[P::heatmap_from], ctx.params[P::heatmap_to]);
    const std::int64_t from = shown_positions.from, to = shown_positions.to;
    const HeatmapMode mode = ctx.params[P::heatmap_mode];
    const int pairs = f.pairs();
    const DifferenceTheta difference = mode == HeatmapMode::a_minus_b ? difference_theta(ctx.params, ctx.cache, f) : DifferenceTheta{f.theta, ""};
    const Eigen::VectorXd& theta = difference.theta;

    // a_minus_b that cannot be drawn: A's angles, the title line saying why (over the map it would not read)
    plot::Style titled = st;
    titled.draw_titles = st.draw_titles || !difference.why_not.empty();
    // (why first: a title too wide for its plot loses its "(aside)" before it is cut)
    const std::string title = difference.why_not.empty() ? ctx.title()
                              : st.draw_titles          ? difference.why_not + " (" + ctx.title() + ")"
                                                        : difference.why_not;
    plot::Plot p(ctx.result.list, ctx.measure, titled, {0, 0, ctx.request.width, ctx.request.height}, title);
    plot::AxisSetup x{"position m (tokens)", static_cast<double>(from), static_cast<double>(to)};
    const plot::AxisSetup y = detail::pair_axis(ctx.request, pairs, "pair i (0 = fastest)", -0.5, pairs - 0.5);
    p.setup_x(x);
    p.setup_y(y);
    plot::ColorbarSetup bar;
    plot::ColormapId cmap = plot::ColormapId::cyclic;
    float vmin = static_cast<float>(-kPi), vmax = static_cast<float>(kPi);
    const HeatmapMode shown = mode == HeatmapMode::a_minus_b ? HeatmapMode::angle : mode;
    if (mode == HeatmapMode::a_minus_b && difference.why_not.empty()) {
        bar = {"mean angle of m·Δθᵢ (A − B)", plot::ColormapId::cyclic, -kPi, kPi, angle_colorbar_ticks()};  // Δθᵢ = θᵢ of A − θᵢ of B (the readout says)
        bar.fade_note = "grey: A and B part within the cell";
    } else if (shown == HeatmapMode::angle) {
        bar = {"mean angle of m·θᵢ over a cell", plot::ColormapId::cyclic, -kPi, kPi, angle_colorbar_ticks()};
        bar.fade_note = "grey: the pair turns within the cell";
    } else if (shown == HeatmapMode::cos || shown == HeatmapMode::sin) {
        cmap = plot::ColormapId::diverging;
        vmin = -1;
        vmax = 1;
        bar = {mode == HeatmapMode::cos ? "mean cos(m·θᵢ) over a cell" : "mean sin(m·θᵢ) over a cell", cmap, -1, 1, {}};
    } else {
        cmap = plot::ColormapId::sequential;
        vmin = 0;
        vmax = static_cast<float>(std::max(1e-9, static_cast<double>(to - 1) * f.theta.maxCoeff()));
        bar = {"angle m·θᵢ, unwrapped (rad)", cmap, 0, vmax, {}};
    }
    p.setup_colorbar(bar);
    const plot::Rect area = p.area();

    // One cell per screen pixel at most (or per position / pair when zoomed in far enough), each
    // the exact mean over every position and pair it covers: no sampling, so no moire.
    const std::int64_t span = to - from;
    const int cols = heatmap_columns(span, area.width()), rows = heatmap_rows(pairs, area.height());
    if (ctx.request.with_table) {
        // (a_minus_b that cannot be drawn writes what is drawn: A's angles, in a column `angle`)
        const HeatmapMode written = difference.why_not.empty() ? mode : HeatmapMode::angle;
        if (ctx.request.full_resolution) full_resolution_table(ctx.result.table, theta, from, to, written);
        else cell_table(ctx.result.table, heatmap_cells(theta, from, to, cols, rows, shown, true), theta, written);
    }
    const auto cells = ctx.cache.heatmap_cells(theta, from, to, cols, rows, shown);
    p.heatmap(cells->values, cells->grid.cols, cells->grid.rows, static_cast<double>(from), static_cast<double>(to), -0.5, pairs - 0.5,
              cmap, vmin, vmax, cells->weights);
    if (f.rotating_pairs > 0 && f.rotating_pairs < pairs) {
        // proportional RoPE's tail: pairs of frequency 0 sit at angle 0 for every m; the line and its
        // tag say so rather than leave one flat colour to be read as "slow"
        const std::string range = std::to_string(f.rotating_pairs) + "–" + std::to_string(pairs - 1);
        std::string tag;
        for (const std::string& t : {"pairs " + range + " above: θ = 0, they pass through", "pairs " + range + ": θ = 0", std::string("θ = 0 above")})
            if (tag.empty() && ctx.measure.measure(t, st.px(st.tick_font)).x <= area.width() * 0.75f) tag = t;
        p.marker_y(f.rotating_pairs - 0.5, st.theme.text, tag, 1.5f, 0);
    }
    const std::int64_t m = ctx.params[P::position];
    const std::int64_t pair = ctx.params[P::pair];
    if (ctx.request.show_cursor)
        p.marker_y(static_cast<double>(pair), st.theme.text.with_alpha(0.7f), "pair i = " + std::to_string(pair), 1.5f, 6.0f);
    if (m >= from && m < to && ctx.request.show_cursor)
        p.marker_x(static_cast<double>(m) + 0.5 * (span <= area.width() ? 1 : 0), st.theme.accent,
                   "m = " + std::to_string(m), 2.5f);
    record_geometry(ctx, p, HeatmapPlot::heatmap);
    p.finish();
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

void reset_zoom(PanelContext& panel) {
    panel.edit("heatmap zoom reset", [](ParamSet& p) {
        p.set(P::heatmap_from, "0");
        p.set(P::heatmap_to, "0");
    });
}

void heatmap_header(PanelContext& panel, HeaderControls& ui) {
    const ParamSpec* spec = &param_spec(P::heatmap_mode);
    std::vector<std::string> modes(spec->choices.begin(), spec->choices.end());
    const std::string current(enum_name(panel.params[P::heatmap_mode]));
    const int now = static_cast<int>(std::find(modes.begin(), modes.end(), current) - modes.begin());
    const int picked = ui.combo(current, modes, now, 7.5f, spec->help);
    if (picked >= 0 && picked != now) {
        const std::string mode = modes[static_cast<std::size_t>(picked)];
        panel.edit("heatmap colours: " + mode, [&](ParamSet& p) { p.set(P::heatmap_mode, mode); });
    }
    ui.same_line();
    if (ui.button("reset zoom", "Show all positions 0 .. max_position-1 again (or double-click the heatmap). Wheel zooms, drag pans."))
        reset_zoom(panel);
}

// The cell under the pointer: its positions and pairs, the mean's angle and magnitude (what its colour
// shows), and how far the pair turns within it.
std::string heatmap_readout(PanelContext& panel, const PlotGeometry& g, double x, double y) {
    const auto f = panel.cache.frequencies(panel.params);
    const auto from = static_cast<std::int64_t>(std::llround(g.x_min)), to = static_cast<std::int64_t>(std::llround(g.x_max));
    const int pairs = f->pairs();
    CellAt cell;
    if (!heatmap_cell_at(from, to, pairs, heatmap_columns(to - from, g.area.width()), heatmap_rows(pairs, g.area.height()), x, y, cell))
        return "";
    const bool a_minus_b = panel.params[P::heatmap_mode] == HeatmapMode::a_minus_b;
    const DifferenceTheta difference = a_minus_b ? difference_theta(panel.params, panel.cache, *f) : DifferenceTheta{f->theta, ""};
    const PhasorMean mean = mean_phasor(cell.position_from, cell.position_to, difference.theta, cell.pair_from, cell.pair_to);
    const std::int64_t n = cell.position_to - cell.position_from;
    std::string s = n == 1 ? "position m = " + std::to_string(cell.position_from)
                           : "positions m = " + std::to_string(cell.position_from) + " … " + std::to_string(cell.position_to - 1) + " (" +
                                 std::to_string(n) + ")";
    s += cell.pair_to - cell.pair_from == 1 ? "\npair i = " + std::to_string(cell.pair_from)
                                             : "\npairs i = " + std::to_string(cell.pair_from) + " … " + std::to_string(cell.pair_to - 1);
    const double a = mean.angle(), r = mean.magnitude();
    s += std::string(a_minus_b && difference.why_not.empty() ? "\nA − B " : "\n") + (n == 1 ? "angle = " : "mean angle = ") + fmt("%.2f°", a * 180 / kPi) + " = " + fmt("%.5f rad", a);
    if (n > 1 || cell.pair_to - cell.pair_from > 1) s += "\n|mean| = " + fmt("%.3f", r) + (r < 0.1 ? " (turns within the cell: grey)" : "");
    const int k = cell.pair_from;
    const std::string of = cell.pair_to - cell.pair_from > 1 ? " (pair " + std::to_string(k) + ")" : "";
    if (a_minus_b && difference.why_not.empty())  // the angle by which A has run ahead of B
        return s + "\nΔθᵢ = θᵢ of A − θᵢ of B" + of + " = " + plot::readout_number(difference.theta[k], 6) + " rad/token" +
               "\n(A: " + plot::readout_number(f->theta[k], 6) + ")";
    if (!f->rotates(k)) return s + "\nθᵢ" + of + " = 0: this pair passes through (angle 0 at every position)";
    s += "\nθᵢ" + of + " = " + plot::readout_number(f->theta[k], 6) + " rad/token" + "\nwavelength = " +
         plot::readout_number(f->wavelength(k), 6) + " tokens";
    if (n > 1) s += "\nturns within the cell: " + plot::readout_number(static_cast<double>(n) * f->theta[k] / kTwoPi, 3);
    return s;
}

// Wheel zooms around the pointer, dragging pans, a double-click shows every position again.
void heatmap_pointer(PanelContext& panel, const PointerInput& in) {
    const PlotGeometry* g = panel.figure.find(HeatmapPlot::heatmap);
    if (!g) return;
    const ParamSet& p = panel.params;
    const std::int64_t max_position = p[P::max_position];
    const HeatmapSpan span = heatmap_span(max_position, p[P::heatmap_from], p[P::heatmap_to]);  // zoom and pan what is shown
    const std::int64_t from = span.from, to = span.to;
    auto set_range = [&](const char* label, double a, double b) {
        const auto lo = static_cast<std::int64_t>(std::floor(std::max(0.0, a)));
        const auto hi = static_cast<std::int64_t>(std::ceil(std::min(static_cast<double>(max_position), b)));
        if (hi - lo < 8) return;  // zoomed in to a few positions at most
        panel.edit(label, [&](ParamSet& next) {
            next.set_number(P::heatmap_from, static_cast<double>(lo));
            next.set_number(P::heatmap_to, hi >= max_position && lo == 0 ? 0.0 : static_cast<double>(hi));
        });
    };
    if (in.double_clicked) {
        reset_zoom(panel);
        return;
    }
    if (in.hovered && in.wheel != 0 && g->area.contains(in.local)) {
        const double at = g->x_at(in.local.x);
        const double k = std::pow(0.8, in.wheel);
        set_range("heatmap zoom", at - (at - static_cast<double>(from)) * k, at + (static_cast<double>(to) - at) * k);
    }
    if (in.held && in.delta.x != 0) {
        const double per_px = static_cast<double>(to - from) / g->area.width();
        double shift = -in.delta.x * per_px;
        shift = std::clamp(shift, -static_cast<double>(from), static_cast<double>(max_position - to));
        if (std::abs(shift) >= 1) set_range("heatmap pan", static_cast<double>(from) + shift, static_cast<double>(to) + shift);
    }
}

}  // namespace

const FigureDescriptor& heatmap_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "heatmap";
        f.title = "Angle heatmap";
        f.page = 0;
        f.csv_columns = "position_from,position_to,pair_from,pair_to,angle,mean_cos,mean_sin,magnitude";
        f.full_resolution_table = true;
        f.plots = tagged_plots<HeatmapPlot>({
            {HeatmapPlot::heatmap, {"heatmap", "The angle of every pair at every position", "angles", PlotRole::main, AxisRole::position, AxisRole::pair, 0, {240, 200}, 90, false, 1.6f, {"cell", "colour"}}},
        });
        f.reads = model_and({P::max_position, P::heatmap_from, P::heatmap_to, P::heatmap_mode, P::position, P::pair});
        f.pair_axis = true;  // i ÷ pairs beside a B of another pair count
        f.draws_b_itself = [](const ParamSet& p) { return p[P::heatmap_mode] == HeatmapMode::a_minus_b; };  // one map of A − B
        f.describe = describe_heatmap;
        f.build = build_heatmap;
        f.header_width_em = 14;
        f.header = heatmap_header;
        f.readout = heatmap_readout;
        f.pointer = heatmap_pointer;
        f.wheel_zooms = true;  // heatmap_pointer: the wheel zooms about the pointer
        return f;
    }();
    return d;
}

}  // namespace rope::figures
