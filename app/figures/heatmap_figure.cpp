// Angle heatmap: positions (x) by pairs (y), coloured by the wrapped angle m*theta_i with a cyclic
// colormap (or cos, sin, or the unwrapped angle with a perceptual one). Angles are computed in double
// by the core and only then narrowed for the texture, so far positions are coloured right.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "figures/build_context.hpp"
#include "plot/ticks.hpp"
#include "rope/phasor.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;

enum class HeatmapPlot { heatmap = 1 };

std::vector<plot::Tick> degree_ticks() {
    return {{-kPi, "−180°"}, {-kPi / 2, "−90°"}, {0, "0°"}, {kPi / 2, "90°"}, {kPi, "180°"}};
}

void build_heatmap(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const FrequencyTable& f = ctx.frequencies();
    const std::int64_t max_position = ctx.params.integer("max_position");
    std::int64_t from = std::min(ctx.params.integer("heatmap_from"), max_position - 1);
    std::int64_t to = ctx.params.integer("heatmap_to");
    if (to == 0 || to > max_position) to = max_position;
    if (to <= from) to = std::min(max_position, from + 1);
    const std::string mode = ctx.params.text("heatmap_mode");
    const int pairs = f.pairs();

    plot::Plot p(ctx.result.list, ctx.measure, st, {0, 0, ctx.request.width, ctx.request.height},
                 ctx.title());
    plot::AxisSetup x{"position m (tokens)", static_cast<double>(from), static_cast<double>(to)};
    plot::AxisSetup y{"pair i (0 = fastest)", -0.5, pairs - 0.5};
    y.integer_ticks = true;
    p.setup_x(x);
    p.setup_y(y);
    plot::ColorbarSetup bar;
    plot::ColormapId cmap = plot::ColormapId::cyclic;
    float vmin = static_cast<float>(-kPi), vmax = static_cast<float>(kPi);
    if (mode == "angle") {
        bar = {"angle m·θᵢ (wrapped)", plot::ColormapId::cyclic, -kPi, kPi, degree_ticks()};
    } else if (mode == "cos" || mode == "sin") {
        cmap = plot::ColormapId::diverging;
        vmin = -1;
        vmax = 1;
        bar = {mode == "cos" ? "cos(m·θᵢ)" : "sin(m·θᵢ)", cmap, -1, 1, {}};
    } else {
        cmap = plot::ColormapId::sequential;
        vmin = 0;
        vmax = static_cast<float>(std::max(1e-9, static_cast<double>(to - 1) * f.theta.maxCoeff()));
        bar = {"angle m·θᵢ, unwrapped (rad)", cmap, 0, vmax, {}};
    }
    p.setup_colorbar(bar);
    const plot::Rect area = p.area();

    // One column per screen pixel at most (or per position when zoomed in far enough).
    const std::int64_t span = to - from;
    const int cols = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(span, std::max(1.0f, std::floor(area.width())))));
    std::vector<float> values(static_cast<std::size_t>(cols) * pairs);
    std::vector<double> column_position(cols);
    for (int c = 0; c < cols; ++c) {
        // the position at the column's centre
        column_position[c] = static_cast<double>(from + static_cast<std::int64_t>((c + 0.5) * static_cast<double>(span) / cols));
    }
    std::vector<double> angles(cols), shown(cols);
    // the mode once, not a string compare per value (those were most of a 1000-dim build)
    enum class Shown { angle, cos, sin, unwrapped };
    const Shown what = mode == "angle" ? Shown::angle : mode == "cos" ? Shown::cos : mode == "sin" ? Shown::sin : Shown::unwrapped;
    for (int k = 0; k < pairs; ++k) {
        const int row = pairs - 1 - k;  // row 0 at the top = the slowest pair
        float* out = values.data() + static_cast<std::size_t>(row) * cols;
        for (int c = 0; c < cols; ++c) angles[c] = position_angle(column_position[c], f.theta[k]);
        switch (what) {
            case Shown::angle:
                wrap_angles(angles.data(), shown.data(), angles.size());
                for (int c = 0; c < cols; ++c) out[c] = static_cast<float>(shown[c]);
                break;
            case Shown::cos:
                for (int c = 0; c < cols; ++c) out[c] = static_cast<float>(std::cos(angles[c]));
                break;
            case Shown::sin:
                for (int c = 0; c < cols; ++c) out[c] = static_cast<float>(std::sin(angles[c]));
                break;
            case Shown::unwrapped:
                for (int c = 0; c < cols; ++c) out[c] = static_cast<float>(angles[c]);
                break;
        }
    }
    if (ctx.request.with_table) {
        DataTable& t = ctx.result.table;
        t.columns = {"position", "pair", mode == "unwrapped" ? "unwrapped" : mode == "angle" ? "angle" : mode};
        t.values.assign(3, {});
        for (int c = 0; c < cols; ++c)
            for (int k = 0; k < pairs; ++k) {
                const double a = position_angle(column_position[c], f.theta[k]);
                t.values[0].push_back(column_position[c]);
                t.values[1].push_back(k);
                t.values[2].push_back(mode == "angle" ? wrap_angle(a) : mode == "cos" ? std::cos(a) : mode == "sin" ? std::sin(a) : a);
            }
    }
    p.heatmap(std::move(values), cols, pairs, static_cast<double>(from), static_cast<double>(to), -0.5, pairs - 0.5, cmap,
              vmin, vmax);
    const std::int64_t m = ctx.params.integer("position");
    const std::int64_t pair = ctx.params.integer("pair");
    if (ctx.request.show_cursor)
        p.marker_y(static_cast<double>(pair), st.theme.text.with_alpha(0.7f), "pair i = " + std::to_string(pair), 1.5f, 6.0f);
    if (m >= from && m < to && ctx.request.show_cursor)
        p.marker_x(static_cast<double>(m) + 0.5 * (span <= area.width() ? 1 : 0), st.theme.accent,
                   "m = " + std::to_string(m), 2.5f);
    record_geometry(ctx, p, {"heatmap", HeatmapPlot::heatmap, AxisRole::position, AxisRole::pair}, x, y);
    p.finish();
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

bool reset_zoom(PanelContext& panel) {
    return panel.edit("heatmap zoom reset", [](ParamSet& p) {
        p.set("heatmap_from", "0");
        p.set("heatmap_to", "0");
    });
}

void heatmap_header(PanelContext& panel, HeaderControls& ui) {
    const ParamSpec* spec = find_param("heatmap_mode");
    std::vector<std::string> modes(spec->choices.begin(), spec->choices.end());
    const std::string current = panel.params.text("heatmap_mode");
    const int now = static_cast<int>(std::find(modes.begin(), modes.end(), current) - modes.begin());
    const int picked = ui.combo(current, modes, now, 7.5f, spec->help);
    if (picked >= 0 && picked != now) {
        const std::string mode = modes[static_cast<std::size_t>(picked)];
        panel.edit("heatmap colours: " + mode, [&](ParamSet& p) { p.set("heatmap_mode", mode); });
    }
    ui.same_line();
    if (ui.button("reset zoom", "Show all positions 0 .. max_position-1 again (or double-click the heatmap). Wheel zooms, drag pans."))
        reset_zoom(panel);
}

std::string heatmap_readout(PanelContext& panel, const PlotGeometry&, double x, double y) {
    const auto f = panel.cache.frequencies(panel.params);
    const int pair = static_cast<int>(std::lround(y));
    const auto position = static_cast<std::int64_t>(std::floor(x));
    if (pair < 0 || pair >= f->pairs() || position < 0) return "";
    const double a = wrap_angle(position_angle(static_cast<double>(position), f->theta[pair]));
    return "position m = " + std::to_string(position) + "\npair i = " + std::to_string(pair) + "\nangle = " + fmt("%.2f°", a * 180 / kPi) +
           " = " + fmt("%.5f rad", a) + "\nθᵢ = " + plot::readout_number(f->theta[pair], 6) + " rad/token" +
           "\nwavelength = " + plot::readout_number(f->wavelength(pair), 6) + " tokens";
}

// Wheel zooms around the pointer, dragging pans, a double-click shows every position again.
void heatmap_pointer(PanelContext& panel, const PointerInput& in) {
    const PlotGeometry* g = panel.figure.find(HeatmapPlot::heatmap);
    if (!g) return;
    const ParamSet& p = panel.params;
    const std::int64_t max_position = p.integer("max_position");
    std::int64_t from = p.integer("heatmap_from"), to = p.integer("heatmap_to");
    if (to == 0 || to > max_position) to = max_position;
    auto set_range = [&](const char* label, double a, double b) {
        const auto lo = static_cast<std::int64_t>(std::floor(std::max(0.0, a)));
        const auto hi = static_cast<std::int64_t>(std::ceil(std::min(static_cast<double>(max_position), b)));
        if (hi - lo < 8) return;  // zoomed in to a few positions at most
        panel.edit(label, [&](ParamSet& next) {
            next.set_number("heatmap_from", static_cast<double>(lo));
            next.set_number("heatmap_to", hi >= max_position && lo == 0 ? 0.0 : static_cast<double>(hi));
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
        f.csv_columns = "position,pair,angle";
        f.plots = {"heatmap"};
        f.reads = model_and({"max_position", "heatmap_from", "heatmap_to", "heatmap_mode", "position", "pair"});
        f.build = build_heatmap;
        f.header_width_em = 14;
        f.header = heatmap_header;
        f.readout = heatmap_readout;
        f.pointer = heatmap_pointer;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
