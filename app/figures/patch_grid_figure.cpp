// Patch grid: RoPE on an image. Three maps side by side, one per way of giving the pairs to the
// image's axes (2D axial RoPE with the chosen frequency schedule; M-RoPE with contiguous sections,
// Qwen2-VL / Qwen2.5-VL; M-RoPE interleaved, Qwen3-VL), each grid_rows x grid_cols patches coloured
// by the cosine similarity of the rotated query at the query patch and the rotated key at every
// patch (rope::patch_similarity). Below them a strip with one row per axis: a mark per pair at its
// wavelength, so it shows that chunked sections give w only pairs far slower than the image is wide
// and that interleaving spreads every axis. A click (or drag) on a map moves the query patch.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "figures/alt_text.hpp"
#include "figures/position_axes.hpp"
#include "figures/similarity_scale.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/why_common.hpp"
#include "plot/axis_pins.hpp"
#include "plot/ticks.hpp"
#include "rope/multi_axis.hpp"

namespace rope::figures {

const FigureDescriptor& patch_grid_figure();  // the figure this file describes (at its end)

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::position_axis_color;
using detail::SubplotFit;
namespace why = detail::why;
using plot::Color;

enum class GridPlot { axial, chunked, interleaved, axes };
constexpr int kMaps = static_cast<int>(GridPlot::axes);  // the three maps come before the axes strip

// One map: which layout, its titles (longest first), and the layout itself (none: 2D axial needs
// rotated dims that are a multiple of 4).
struct MapSpec {
    GridPlot tag;
    std::vector<std::string> titles;
    std::string short_name;  // the strip's group label
    std::optional<AxisLayout> layout;
    Eigen::MatrixXd similarity;  // rows x cols, filled by fill_similarities (empty without a layout)
};

std::string section_text(const MropeSection& s) {
    return "[" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ", " + std::to_string(s[2]) + "]";
}

std::vector<MapSpec> map_specs(const ParamSet& params) {
    std::vector<MapSpec> maps;
    const AxialFrequencies frequencies = params[P::axial_frequencies];
    // in words, not the parameter's code (per_axis)
    const std::string schedule = frequencies == AxialFrequencies::per_axis ? "per-axis" : std::string(enum_name(frequencies));
    std::vector<std::string> axial_titles;
    if (frequencies == AxialFrequencies::per_axis)
        axial_titles = {"2D axial, per-axis frequencies (Heo et al. 2024)", "2D axial, per-axis (Heo et al.)", "2D axial, per-axis"};
    else if (frequencies == AxialFrequencies::split)
        axial_titles = {"2D axial, 1D schedule split: columns fast, rows slow", "2D axial, split schedule", "2D axial, split"};
    else
        axial_titles = {"2D axial, alternating frequencies (Pixtral)", "2D axial, alternating (Pixtral)", "2D axial, alternating"};
    if (params[P::rope_axes] == RopeAxes::flux) {  // FLUX.1 in the first place: an image's ids are (0, row, col), a 2D layout
        const FluxAxesDims d = params.flux_axes_dims();
        const std::string dims = "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + "]";
        maps.push_back({GridPlot::axial,
                        {"FLUX.1 axes " + dims + " dims: first id, row, column", "FLUX.1 axes " + dims, "FLUX " + dims, "FLUX"},
                        "FLUX " + dims, params.axis_layout(RopeAxes::flux, false), {}});
    } else if (params[P::rope_axes] == RopeAxes::ernie_3d) {  // ERNIE-4.5-VL's own layout in the first place, beside Qwen's two
        const std::string s = section_text(params.mrope_section(false));
        maps.push_back({GridPlot::axial,
                        {"ERNIE 3D " + s + ": h and w alternate, t the slowest (ERNIE-4.5-VL)", "ERNIE 3D " + s + " (ERNIE-4.5-VL)",
                         "ERNIE 3D " + s, "ERNIE 3D"},
                        "ERNIE 3D " + s, params.axis_layout(RopeAxes::ernie_3d, false), {}});
    } else {
        maps.push_back({GridPlot::axial, axial_titles, "2D axial (" + schedule + ")", params.axis_layout(RopeAxes::axial_2d, false), {}});
    }
    const MropeSection chunked = params.mrope_section(false), interleaved = params.mrope_section(true);
    maps.push_back({GridPlot::chunked,
                    {"M-RoPE chunked " + section_text(chunked) + " (Qwen2-VL, Qwen2.5-VL)", "M-RoPE chunked " + section_text(chunked),
                     "chunked " + section_text(chunked), "chunked"},
                    "M-RoPE chunked " + section_text(chunked), params.axis_layout(RopeAxes::mrope, false), {}});
    maps.push_back({GridPlot::interleaved,
                    {"M-RoPE interleaved " + section_text(interleaved) + " (Qwen3-VL)", "M-RoPE interleaved " + section_text(interleaved),
                     "interleaved " + section_text(interleaved), "interleaved"},
                    "M-RoPE interleaved " + section_text(interleaved), params.axis_layout(RopeAxes::mrope, true), {}});
    return maps;
}

// Which map is this model's: -1 for a text-only (1d) model.
int model_map(const ParamSet& params) {
    const bool interleaved = params[P::mrope_interleaved];
    switch (params[P::rope_axes]) {
        case RopeAxes::axial_2d:
        case RopeAxes::flux:
        case RopeAxes::ernie_3d: return 0;  // FLUX's and ERNIE's maps stand in the 2D axial one's place
        case RopeAxes::mrope: return interleaved ? 2 : 1;
        case RopeAxes::one_d:
        case RopeAxes::videorope: return -1;  // VideoRoPE's own allocation: compute axes lists it
    }
    return -1;
}

struct Grid {
    int rows = 1, cols = 1, query_row = 0, query_col = 0;
};

Grid grid_of(const ParamSet& params) {
    Grid g;
    g.rows = static_cast<int>(params[P::grid_rows]);
    g.cols = static_cast<int>(params[P::grid_cols]);
    std::tie(g.query_row, g.query_col) = params.query_patch();
    return g;
}

Eigen::MatrixXd similarity(const ParamSet& params, const AxisLayout& layout, const Grid& g) {
    return patch_similarity(layout, params.config().pairing, why::q_vector(params), why::k_vector(params), g.rows, g.cols, g.query_row,
                            g.query_col);
}

void fill_similarities(const ParamSet& params, std::vector<MapSpec>& maps, const Grid& g) {
    for (MapSpec& m : maps)
        if (m.layout) m.similarity = similarity(params, *m.layout, g);
}

// One colour scale for the three maps, so that they compare (figures/similarity_scale.hpp).
using ColourScale = SimilarityScale;
ColourScale colour_scale(const std::vector<MapSpec>& maps, plot::AxisPins* pins) {
    double lowest = 1;
    for (const MapSpec& m : maps)
        if (m.similarity.size() > 0) lowest = std::min(lowest, m.similarity.minCoeff());
    return similarity_scale(lowest, pins, "patch similarity");
}

// Whole-number ticks 0 .. n-1 every `step` of 1, 2, 5, 10, ..., spaced to fit `pixels` (labels of
// `label_px` each), at least three on an axis of three or more patches: when no such step fits three,
// the first, middle and last index, the widest spacing three labels can have.
// `flip`: the data value of index i is n - 1 - i (rows: row 0 drawn at the top).
std::vector<plot::Tick> index_ticks(int n, float pixels, float label_px, bool flip) {
    static const int steps[] = {1, 2, 5, 10, 20, 25, 50, 100};
    const float per_index = pixels / static_cast<float>(std::max(1, n));
    std::vector<int> at;
    for (int s : steps) {
        if (s * per_index < label_px) continue;
        if (n >= 3 && (n - 1) / s < 2) break;  // fewer than three labels
        for (int i = 0; i < n; i += s) at.push_back(i);
        break;
    }
    if (at.empty()) at = n >= 3 ? std::vector<int>{0, (n - 1) / 2, n - 1} : n == 2 ? std::vector<int>{0, 1} : std::vector<int>{0};
    std::vector<plot::Tick> t;
    for (int i : at) t.push_back({static_cast<double>(flip ? n - 1 - i : i), std::to_string(i)});
    return t;
}

// "3.6×10⁴" from a thousand on, "6.3", "63" or "630" below: wavelengths for people, two digits.
std::string short_number(double v) {
    if (!std::isfinite(v) || v <= 0) return "–";
    int e = static_cast<int>(std::floor(std::log10(v)));
    double m = std::round(v / std::pow(10.0, e) * 10) / 10;
    if (m >= 10) m /= 10, ++e;
    if (e < 1) return plot::readout_number(m * std::pow(10.0, e), 2);
    if (e < 3) return std::to_string(static_cast<long>(std::lround(m * std::pow(10.0, e))));
    return plot::readout_number(m, 2) + "×" + plot::decade_label(std::pow(10.0, e));
}

std::string spread_text(const AxisLayout& layout, PositionAxis axis) {
    const AxisSpread s = axis_spread(layout, axis);
    std::string text = std::string(to_string(axis)) + ": " + std::to_string(s.pairs) + (s.pairs == 1 ? " pair" : " pairs");
    if (s.pairs == 0) return text;
    if (!std::isfinite(s.shortest_wavelength)) return text + ", none turns";
    return text + ", " + short_number(s.shortest_wavelength) +
           (s.longest_wavelength > s.shortest_wavelength * 1.0001 ? "–" + short_number(s.longest_wavelength) : "");
}

// The axes a map's strip row lists: a 2D layout has rows and columns only; FLUX's, in the same slot,
// also its first id's pairs (which an image's tokens, all at first id 0, never turn).
std::vector<PositionAxis> axes_of(const MapSpec& m) {
    if (m.tag == GridPlot::axial && (!m.layout || axis_spread(*m.layout, PositionAxis::t).pairs == 0)) return {PositionAxis::h, PositionAxis::w};
    return {PositionAxis::t, PositionAxis::h, PositionAxis::w};
}

// What a map's cell needs in height besides its patches: Plot's padding, title, x tick labels and axis label.
float map_margin_y(const plot::Style& sub) {
    return sub.px(16) + sub.px(sub.title_font) * 1.5f + sub.px(6) + sub.px(sub.tick_font) * 1.5f + sub.px(sub.label_font) * 1.5f;
}

// The pixels per patch a map gets in `cell` (as Plot::layout lays out a titled, square plot with
// axis labels, tick labels and, with `own_bar`, a colour bar; the tag line below excluded).
float map_side(BuildContext& ctx, const plot::Style& sub, plot::Rect cell, const Grid& g, bool own_bar) {
    const float tf = sub.px(sub.tick_font), lf = sub.px(sub.label_font);
    const float w = cell.width() - sub.px(16) - (lf * 1.4f + ctx.measure.measure(std::to_string(g.rows - 1), tf).x + sub.px(8)) - sub.px(10) -
                    (own_bar ? sub.px(14 + 16 + 6) + ctx.measure.measure("−0.5", tf).x + lf * 1.5f : 0.0f);
    const float h = cell.height() - map_margin_y(sub);
    return std::max(0.0f, std::min(w / static_cast<float>(g.cols), h / static_cast<float>(g.rows)));
}

// A map is worth drawing when its patches are visible and its ticks fit: at least this many pixels a side.
float map_min_side(const plot::Style& st, const Grid& g) {
    return std::max(st.px(60), st.px(st.tick_font) * 4.2f) / static_cast<float>(std::min(g.rows, g.cols)) ;
}

void draw_map(BuildContext& ctx, const MapSpec& spec, const ColourScale& scale, const Grid& g, bool this_model, bool own_bar,
              plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    const float tf = st.px(st.tick_font);
    // a line under the map says which map is this model's (a phone's column: the header names the model,
    // and it shows this model's map alone)
    const bool tagged = this_model && !st.compact;
    const float tag_h = tagged ? tf * 1.5f : 0.0f;
    // the plot as tall as its square patches need (its frame tight around it), the block centred in the cell
    plot::Rect plot_cell{cell.x0, cell.y0, cell.x1, cell.y1 - tag_h};
    if (spec.layout) {
        const float need = map_side(ctx, sub, plot_cell, g, own_bar) * static_cast<float>(g.rows) + map_margin_y(sub) + st.px(2);
        if (need < plot_cell.height()) {
            plot_cell.y0 += (plot_cell.height() - need) / 2;
            plot_cell.y1 = plot_cell.y0 + need;
        }
        // and as wide as they need: the frame (export --plot) is the map, not the cell around it
        const float side = map_side(ctx, sub, plot_cell, g, own_bar);
        const float width_side = map_side(ctx, sub, {plot_cell.x0, 0, plot_cell.x1, 1e6f}, g, own_bar);
        const float need_w = plot_cell.width() - (width_side - side) * static_cast<float>(g.cols);
        if (need_w < plot_cell.width() - 1) {
            plot_cell.x0 += (plot_cell.width() - need_w) / 2;
            plot_cell.x1 = plot_cell.x0 + need_w;
        }
    }
    cell = {cell.x0, plot_cell.y0, cell.x1, plot_cell.y1 + tag_h};
    plot::Plot p(ctx.result.list, ctx.measure, sub, plot_cell, why::pick_title(ctx, sub, plot_cell.width(), spec.titles));
    plot::AxisSetup ax{"column (patch)", -0.5, g.cols - 0.5}, ay{"row (patch)", -0.5, g.rows - 0.5};
    const float side = map_side(ctx, sub, plot_cell, g, own_bar);
    ax.ticks = index_ticks(g.cols, side * static_cast<float>(g.cols), ctx.measure.measure(std::to_string(g.cols - 1), tf).x + tf, false);
    ay.ticks = index_ticks(g.rows, side * static_cast<float>(g.rows), tf * 1.3f, true);
    p.setup_x(ax);
    p.setup_y(ay);
    if (!spec.layout) {
        p.setup_no_axes();
        detail::centred_note(ctx, p.area(),
                             "2D axial RoPE needs a multiple of 4 rotated dims (half the pairs per axis); this head rotates " +
                                 std::to_string(ctx.params.config().rotated_dims()) + ".");
    } else {
        p.setup_square(true);
        if (own_bar) {  // a small map's bar: its ends and middle only, so the labels fit beside it
            const double mid = (scale.lo + scale.hi) / 2, step = (scale.hi - scale.lo) / 2;
            p.setup_colorbar({"similarity", scale.map, scale.lo, scale.hi,
                              {{scale.lo, plot::tick_label(scale.lo, step)}, {mid, plot::tick_label(mid, step)}, {scale.hi, plot::tick_label(scale.hi, step)}}});
        }
        const Eigen::MatrixXd& s = spec.similarity;
        std::vector<float> values(static_cast<std::size_t>(g.rows) * static_cast<std::size_t>(g.cols));
        for (int r = 0; r < g.rows; ++r)
            for (int c = 0; c < g.cols; ++c) values[static_cast<std::size_t>(r * g.cols + c)] = static_cast<float>(s(r, c));
        p.heatmap(std::move(values), g.cols, g.rows, -0.5, g.cols - 0.5, -0.5, g.rows - 0.5, scale.map, static_cast<float>(scale.lo),
                  static_cast<float>(scale.hi));
        // the query patch: a dark outline with a light one inside, visible on either end of the colour map
        const double y = g.rows - 1 - g.query_row;
        const plot::Vec2 a = p.to_px(g.query_col - 0.5, y + 0.5), b = p.to_px(g.query_col + 0.5, y - 0.5);
        const float w = std::clamp((b.x - a.x) * 0.12f, st.px(1.5f), st.px(3));
        p.list().rect({a.x, a.y, b.x, b.y}, Color{0, 0, 0, 0}, Color{0.05f, 0.05f, 0.08f, 1}, w);
        if (b.x - a.x > 3 * w) p.list().rect({a.x + w, a.y + w, b.x - w, b.y - w}, Color{0, 0, 0, 0}, Color{1, 1, 1, 1}, std::max(1.0f, w * 0.6f));
    }
    detail::record_geometry(ctx, p, spec.tag);
    p.finish();
    if (tagged) {
        ctx.result.list.rect({cell.x0 + st.px(2), cell.y0 + st.px(2), cell.x1 - st.px(2), cell.y1 - st.px(2)}, Color{0, 0, 0, 0}, th.accent, st.px(2.5f));
        const std::string tag = "this model";
        ctx.result.list.text({(cell.x0 + cell.x1) / 2, cell.y1 - tag_h / 2 - st.px(2)}, tag, tf, th.accent, plot::HAlign::center, plot::VAlign::middle);
    }
}

// The shared colour key: a horizontal bar over the scale's range with its label above, centred in `band`.
void draw_shared_bar(BuildContext& ctx, const ColourScale& scale, plot::Rect band) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const float tf = st.px(st.tick_font);
    const std::string label = "cosine similarity of R(query) q and R(patch) k   (q, k: the vector and key vector parameters)";
    const std::string brief = "cosine similarity of R(query) q and R(patch) k";
    const std::string& text = ctx.measure.measure(label, tf).x <= band.width() - st.px(16) ? label : brief;
    const float size = why::fitted_size(ctx.measure, text, tf, band.width() - st.px(16), st.px(st.min_text));
    const float bar_w = std::min(band.width() * 0.6f, st.px(420)), bar_h = st.px(10);
    const float cx = (band.x0 + band.x1) / 2, y_label = band.y0 + st.px(2);
    ctx.result.list.text({cx, y_label}, text, size, th.text, plot::HAlign::center, plot::VAlign::top);
    const plot::Rect bar{cx - bar_w / 2, y_label + size * 1.35f, cx + bar_w / 2, y_label + size * 1.35f + bar_h};
    std::vector<float> values(256);
    const double span = scale.hi - scale.lo;
    for (int i = 0; i < 256; ++i) values[static_cast<std::size_t>(i)] = static_cast<float>(scale.lo + span * (i + 0.5) / 256.0);
    ctx.result.list.add(plot::ImageCmd{bar, 256, 1, std::move(values), scale.map, static_cast<float>(scale.lo), static_cast<float>(scale.hi), {}});
    ctx.result.list.rect(bar, Color{0, 0, 0, 0}, th.axis, st.px(1));
    for (const plot::Tick& t : plot::linear_ticks(scale.lo, scale.hi, 5)) {
        const float x = bar.x0 + static_cast<float>((t.value - scale.lo) / span) * bar_w;
        ctx.result.list.segment({x, bar.y1}, {x, bar.y1 + st.px(4)}, th.axis, st.px(1));
        ctx.result.list.text({x, bar.y1 + st.px(5)}, t.label, tf, th.muted, plot::HAlign::center, plot::VAlign::top);
    }
}

float shared_bar_height(const plot::Style& st) { return st.px(st.tick_font) * 2.55f + st.px(17); }

// The strip: per layout a header line (its name and each axis' pairs and wavelengths), then one row
// per axis with a mark per pair at its wavelength 2 pi / theta.
// "t: time (text position)   h: row   w: column", each in its axis' colour, centred in [x0, x1] with
// its bottom at `bottom`; returns its height.
float axis_key(BuildContext& ctx, float x0, float x1, float bottom) {
    const plot::Style& st = ctx.request.style;
    const std::vector<std::pair<PositionAxis, std::string>> words{
        {PositionAxis::t, "t: time (text position)"}, {PositionAxis::h, "h: row (height)"}, {PositionAxis::w, "w: column (width)"}};
    const std::string gap = "     ";
    std::string all;
    for (const auto& [axis, w] : words) all += (all.empty() ? "" : gap) + w;
    const float size = why::fitted_size(ctx.measure, all, st.px(st.tick_font), x1 - x0 - st.px(8), st.px(st.min_text));
    float x = (x0 + x1) / 2 - ctx.measure.measure(all, size).x / 2;
    for (const auto& [axis, w] : words) {
        ctx.result.list.text({x, bottom}, w, size, position_axis_color(st.theme, axis), plot::HAlign::left, plot::VAlign::bottom);
        x += ctx.measure.measure(w + gap, size).x;
    }
    return size * 1.4f;
}

// The strip's slots from the top: per layout a header line and one row per axis it uses. Text lines are taller than the rows of marks.
constexpr double kHeaderWeight = 1.3;
struct StripSlot {
    int map = 0;
    bool header = false;
    PositionAxis axis = PositionAxis::t;
    double weight = 1, bottom = 0;  // its height, and its lower edge counted from the top
};

// The maps the strip lists (all; only the ones a presented lesson step speaks of, when it leaves
// the others out, so that the strip fits beside them).
using StripMaps = std::array<bool, kMaps>;

// How the strip draws each axis' marks: a row each labelled t, h or w; or, where those rows do not
// fit (a landscape export at blog type, a 4:3 projector), rows half as tall without labels, the
// colour key under the strip naming the axes. Compact before leaving the strip out.
enum class StripForm { labelled, compact };

std::vector<StripSlot> strip_slots(const std::vector<MapSpec>& maps, const StripMaps& listed, StripForm form) {
    const double row = form == StripForm::labelled ? 1.0 : 0.5;
    std::vector<StripSlot> slots;
    for (int i = 0; i < kMaps; ++i) {
        if (!listed[static_cast<std::size_t>(i)]) continue;
        slots.push_back({i, true, PositionAxis::t, kHeaderWeight, (slots.empty() ? 0 : slots.back().bottom) + kHeaderWeight});
        for (PositionAxis a : axes_of(maps[static_cast<std::size_t>(i)])) slots.push_back({i, false, a, row, slots.back().bottom + row});
    }
    return slots;
}

// The height the strip needs to keep its rows' labels apart: about 1.2 lines of tick labels a row,
// plus its title, legend, x axis and padding.
float strip_min_height(const plot::Style& st, const std::vector<MapSpec>& maps, const StripMaps& listed, StripForm form) {
    const plot::Style sub = why::sub_style(st);
    const float tf = st.px(st.tick_font);
    return static_cast<float>(strip_slots(maps, listed, form).back().bottom) * tf * 0.9f + sub.px(sub.title_font) * 1.5f + tf * 1.5f +
           tf * 1.5f + st.px(st.label_font) * 1.5f + st.px(24);
}

// The maps a presented lesson step's strip lists: its focus and this model's map (all when it names none).
StripMaps listed_maps(const FigureDescriptor& figure, const plot::Style& st, int mine) {
    StripMaps listed{true, true, true};
    if (!st.presenting || st.focus.empty()) return listed;
    const std::string focus = "," + st.focus + ",";
    for (int i = 0; i < kMaps; ++i)
        listed[static_cast<std::size_t>(i)] =
            i == mine || focus.find("," + std::string(figure.plots[static_cast<std::size_t>(i)].name) + ",") != std::string::npos;
    if (std::none_of(listed.begin(), listed.end(), [](bool b) { return b; })) listed = {true, true, true};
    return listed;
}

void draw_axes_strip(BuildContext& ctx, const std::vector<MapSpec>& maps, const StripMaps& listed, StripForm form, const Grid& g, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    const float tf = st.px(st.tick_font);
    double lo = std::min(g.rows, g.cols), hi = std::max(g.rows, g.cols);
    for (const MapSpec& m : maps)
        if (m.layout)
            for (int j = 0; j < m.layout->pairs(); ++j)
                if (m.layout->theta[j] > 0) lo = std::min(lo, kTwoPi / m.layout->theta[j]), hi = std::max(hi, kTwoPi / m.layout->theta[j]);
    lo = std::pow(10.0, std::floor(std::log10(lo / 1.5)));
    hi = std::pow(10.0, std::ceil(std::log10(hi * 1.5)));
    // labelled rows closer than their labels' type would lose some labels: then the compact rows
    const double labelled_slots = strip_slots(maps, listed, StripForm::labelled).back().bottom;
    const float fixed = strip_min_height(st, maps, listed, StripForm::labelled) - static_cast<float>(labelled_slots) * tf * 0.9f;
    if ((cell.height() - fixed) / static_cast<float>(labelled_slots) < tf * 1.15f) form = StripForm::compact;
    const std::vector<StripSlot> slots = strip_slots(maps, listed, form);
    const std::string image = std::to_string(g.rows) + (g.rows == 1 ? " row, " : " rows, ") + std::to_string(g.cols) + (g.cols == 1 ? " column" : " columns");
    const double n = slots.back().bottom;
    auto slot_y = [&](std::size_t i) { return n - (slots[i].bottom - slots[i].weight / 2); };  // data y of slot i's middle
    // the axes' colours as a line of coloured words under the strip (each row is also labelled t, h or w)
    const float key_h = axis_key(ctx, cell.x0, cell.x1, cell.y1 - st.px(2));
    cell.y1 -= key_h + st.px(2);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"which pairs each axis gets, and at what wavelength (one mark per pair; dashed: the image's " + image +
                                      ")",
                                  "pairs per axis and their wavelengths (dashed: the image's " + image + ")", "pairs per axis and their wavelengths",
                                  "pairs per axis"}));
    plot::AxisSetup ax{"wavelength (patches per turn)", lo, hi, true}, ay{"", 0, n};
    ay.no_ticks = form == StripForm::compact;
    for (std::size_t i = 0; i < slots.size() && form == StripForm::labelled; ++i)
        if (!slots[i].header) ay.ticks.push_back({slot_y(i), std::string(to_string(slots[i].axis))});
    std::sort(ay.ticks.begin(), ay.ticks.end(), [](const plot::Tick& a, const plot::Tick& b) { return a.value < b.value; });
    p.setup_x(ax);
    p.setup_y(ay);
    const plot::Rect a = p.area();
    const float unit = a.height() / static_cast<float>(n), slot_h = unit * kHeaderWeight;
    // the image's size: rows (h) and columns (w), behind everything
    for (auto [size, axis] : {std::pair{g.rows, PositionAxis::h}, std::pair{g.cols, PositionAxis::w}}) {
        const float x = p.x_px(size);
        ctx.result.list.add(plot::PolylineCmd{{{x, a.y0}, {x, a.y1}}, position_axis_color(th, axis), st.px(1.5f), false, st.px(5),
                                              plot::Role::grid});
    }
    const float size_text = std::min(tf, std::max(st.px(st.min_text), slot_h * 0.7f));
    for (std::size_t i = 0; i < slots.size(); ++i) {
        const MapSpec& m = maps[static_cast<std::size_t>(slots[i].map)];
        const float y = p.y_px(slot_y(i));
        if (slots[i].header) {
            std::vector<std::string> parts;
            if (m.layout)
                for (PositionAxis axis : axes_of(m)) parts.push_back(spread_text(*m.layout, axis));
            std::string full = m.short_name + (m.layout ? ":" : ": needs a multiple of 4 rotated dims");
            for (std::size_t k = 0; k < parts.size(); ++k) full += (k ? " · " : "  ") + parts[k];
            const float room = a.width() - st.px(8);
            const float size = why::fitted_size(ctx.measure, full, size_text, room, st.px(st.min_text));
            std::string shown = full;
            if (ctx.measure.measure(shown, size).x > room) {
                shown = m.short_name;
                for (std::size_t k = 0; k < parts.size(); ++k) shown += (k ? " · " : ": ") + parts[k].substr(0, parts[k].find(','));
            }
            if (ctx.measure.measure(shown, size).x > room) shown = m.short_name;
            p.list().rect({a.x0 + st.px(2), y - slot_h * 0.5f, a.x0 + st.px(6) + ctx.measure.measure(shown, size).x, y + slot_h * 0.5f},
                          th.plot_fill.with_alpha(0.85f));
            p.list().text({a.x0 + st.px(4), y}, shown, size, th.text, plot::HAlign::left, plot::VAlign::middle);
            continue;
        }
        if (!m.layout) continue;
        const Color c = position_axis_color(th, slots[i].axis);
        for (int j = 0; j < m.layout->pairs(); ++j) {
            if (m.layout->axis[static_cast<std::size_t>(j)] != slots[i].axis || !(m.layout->theta[j] > 0)) continue;
            const float x = p.x_px(kTwoPi / m.layout->theta[j]);
            const float half = unit * static_cast<float>(slots[i].weight) * (form == StripForm::labelled ? 0.34f : 0.42f);
            p.list().segment({x, y - half}, {x, y + half}, c, st.px(2));
        }
    }
    detail::record_geometry(ctx, p, GridPlot::axes);
    p.finish();
}

// The height the row labels need: the three index_ticks keeps at the least (first, middle, last: every
// row of a 1- to 3-row image), a line of type apart. (Four rows' room was asked before: a 12-row map
// then took a fifth more height than its labels use, and the strip below had none.)
float row_labels_need(const plot::Style& st, const Grid& g) {
    const int rows_apart = std::max(1, (g.rows - 1) / 2);
    return st.px(st.tick_font) * 1.4f * static_cast<float>(g.rows) / static_cast<float>(rows_apart);
}

// The height a map's cell needs: its patches at their smallest, room for its row labels, its margins
// and the tag line under it.
float map_need(const plot::Style& st, const Grid& g) {
    const plot::Style sub = why::sub_style(st);
    return std::max(map_min_side(st, g) * static_cast<float>(g.rows), row_labels_need(st, g)) + map_margin_y(sub) + st.px(st.tick_font) * 1.5f;
}

// The figure's own arrangement, when it holds: the maps in a row as tall as their square patches
// need at this width (three abreast: the width limits them), the shared colour key, and the strip the
// rest, up to twice what it needs (a taller strip only spreads its rows; export --plot, which
// grows the figure to make one plot its size, gets a strip of sane shape). Not for a presented
// lesson step that speaks of some plots: the engine gives those the room.
bool draw_in_a_row(BuildContext& ctx, const std::vector<MapSpec>& maps, const ColourScale& scale, const Grid& g, int mine, StripForm form,
                   plot::Rect body) {
    const plot::Style& st = ctx.request.style;
    if (st.presenting && !st.focus.empty()) return false;
    const plot::Style sub = why::sub_style(st);
    const float W = body.width(), third = W / kMaps, tag_h = st.px(st.tick_font) * 1.5f;
    const StripMaps every_map{true, true, true};
    const float bar_h = shared_bar_height(st), strip_min = strip_min_height(st, maps, every_map, form);
    const float side = map_side(ctx, sub, {0, 0, third, 1e6f}, g, false);
    const float maps_need = side * static_cast<float>(g.rows) + map_margin_y(sub) + tag_h + st.px(4);
    const float strip_h = std::clamp(body.height() - bar_h - maps_need, strip_min, strip_min * 2.0f);
    const float maps_h = body.height() - bar_h - strip_h;
    if (!(maps_h > 0 && map_side(ctx, sub, {0, 0, third, maps_h - tag_h}, g, false) >= map_min_side(st, g))) return false;
    for (int i = 0; i < kMaps; ++i)
        draw_map(ctx, maps[static_cast<std::size_t>(i)], scale, g, i == mine, false,
                 {third * static_cast<float>(i), body.y0, third * static_cast<float>(i + 1), body.y0 + maps_h});
    const plot::Rect band{0, body.y0 + maps_h, W, body.y1 - strip_h};
    draw_shared_bar(ctx, scale, band);
    ctx.result.shared_key = band;
    draw_axes_strip(ctx, maps, every_map, form, g, {0, body.y1 - strip_h, W, body.y1});
    return true;
}

// What the engine knows of the maps and the strip in this state: each map's height, the strip's
// (labelled or compact) for the maps it lists.
detail::FitOptions patch_fit_options(const FigureDescriptor& figure, const plot::Style& st, const std::vector<MapSpec>& maps, const Grid& g,
                                     int mine, StripForm form) {
    detail::FitOptions options;
    if (mine >= 0) options.keep.push_back(mine);
    options.min_of.push_back({kMaps, {st.px(240), strip_min_height(st, maps, listed_maps(figure, st, mine), form)}});
    for (int i = 0; i < kMaps; ++i) options.min_of.push_back({i, {0, map_need(st, g)}});
    return options;
}

// A map's best cell height at a width: as tall as its square patches are at that width (with its
// colour bar), its margins and tag line.
std::function<float(float)> map_height_for(BuildContext& ctx, const Grid& g) {
    return [&ctx, g](float width) {
        const plot::Style& st = ctx.request.style;
        const plot::Style sub = why::sub_style(st);
        return map_side(ctx, sub, {0, 0, width, 1e6f}, g, true) * static_cast<float>(g.rows) + map_margin_y(sub) + st.px(st.tick_font) * 1.5f +
               st.px(2);
    };
}

// Too small for the maps in a row above the strip, or a presented lesson step that speaks of some of
// them: the layout engine arranges the maps (one colour bar beside each row of them) and the strip, never
// leaving out the step's focus or this model's map; the strip compact where that shows more plots.
void draw_arranged(BuildContext& ctx, const std::vector<MapSpec>& maps, const ColourScale& scale, const Grid& g, int mine, plot::Rect body) {
    const plot::Style& st = ctx.request.style;
    const std::size_t drawn = ctx.result.list.commands.size();
    StripForm form = StripForm::labelled;
    auto options = [&](StripForm f) {
        detail::FitOptions o = patch_fit_options(ctx.figure(), st, maps, g, mine, f);
        for (int i = 0; i < kMaps; ++i) o.height_for_width.push_back({i, map_height_for(ctx, g)});
        return o;
    };
    detail::SubplotFit fit = fit_plots(ctx, body, std::vector<plot::Rect>(kMaps + 1), options(form));
    if (!fit.all()) {
        const std::vector<plot::Command> labelled_note(ctx.result.list.commands.begin() + static_cast<std::ptrdiff_t>(drawn), ctx.result.list.commands.end());
        ctx.result.list.commands.resize(drawn);  // the note line of the arrangement that leaves plots out
        detail::SubplotFit compact = fit_plots(ctx, body, std::vector<plot::Rect>(kMaps + 1), options(StripForm::compact));
        if (compact.shown > fit.shown) {
            fit = compact;
            form = StripForm::compact;
        } else {
            ctx.result.list.commands.resize(drawn);
            ctx.result.list.commands.insert(ctx.result.list.commands.end(), labelled_note.begin(), labelled_note.end());
        }
    }
    for (int i = 0; i < kMaps; ++i)
        if (const GridPlot map = static_cast<GridPlot>(i); fit.shows(map))
            draw_map(ctx, maps[static_cast<std::size_t>(i)], scale, g, i == mine, fit.draws_key_of(map), fit.cell(map));
    if (fit.shows(GridPlot::axes)) draw_axes_strip(ctx, maps, listed_maps(ctx.figure(), st, mine), form, g, fit.cell(GridPlot::axes));
}

// What the maps and the strip need in this state (focus_fits): the compact strip, the least it takes.
std::vector<std::pair<int, plot::Vec2>> patch_plot_needs(const ParamSet& params, const plot::Style& st) {
    return patch_fit_options(patch_grid_figure(), st, map_specs(params), grid_of(params), model_map(params), StripForm::compact).min_of;
}

void build_patch_grid(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const float W = ctx.request.width, H = ctx.request.height;
    const float top = why::title_space(ctx);
    const Grid g = grid_of(ctx.params);
    std::vector<MapSpec> maps = map_specs(ctx.params);
    fill_similarities(ctx.params, maps, g);
    const ColourScale scale = colour_scale(maps, st.pins);
    const int mine = model_map(ctx.params);

    if (ctx.request.with_table) {
        DataTable& t = ctx.result.table;
        t.columns = {"layout", "row", "col", "similarity"};
        t.values.assign(t.columns.size(), {});
        t.words = {{"2D axial", "M-RoPE chunked", "M-RoPE interleaved"}};  // the maps' names
        for (int i = 0; i < kMaps; ++i) {
            if (!maps[static_cast<std::size_t>(i)].layout) continue;
            const Eigen::MatrixXd& s = maps[static_cast<std::size_t>(i)].similarity;
            for (int r = 0; r < g.rows; ++r)
                for (int c = 0; c < g.cols; ++c) {
                    t.values[0].push_back(i);
                    t.values[1].push_back(r);
                    t.values[2].push_back(c);
                    t.values[3].push_back(s(r, c));
                }
        }
    }

    float body_top = top;
    if (mine < 0) {
        const std::string note = ctx.params[P::rope_axes] == RopeAxes::videorope
                                     ? "VideoRoPE (rope_axes = videorope) gives t the slowest pairs: the maps show the other layouts' allocations."
                                     : "This model is text-only (rope_axes = 1d): the maps show what its frequencies would do on an image.";
        body_top += why::wrapped_caption(ctx, note, 0, W, top + why::wrapped_caption(ctx, note, 0, W, 0, st.theme.text, false), st.theme.muted) +
                    st.px(4);
    }
    const plot::Rect body{0, body_top, W, H};
    for (const StripForm form : {StripForm::labelled, StripForm::compact})
        if (draw_in_a_row(ctx, maps, scale, g, mine, form, body)) return;
    draw_arranged(ctx, maps, scale, g, mine, body);
}

// The patch under the pointer on one of the maps, if any.
std::optional<std::pair<int, int>> patch_at(const ParamSet& params, const PlotGeometry& g, double x, double y) {
    if (!g.is(GridPlot::axial) && !g.is(GridPlot::chunked) && !g.is(GridPlot::interleaved)) return std::nullopt;
    const Grid grid = grid_of(params);
    const int col = static_cast<int>(std::lround(x)), row = grid.rows - 1 - static_cast<int>(std::lround(y));
    if (col < 0 || col >= grid.cols || row < 0 || row >= grid.rows) return std::nullopt;
    return std::pair{row, col};
}

std::string patch_grid_readout(PanelContext& panel, const PlotGeometry& g, double x, double y) {
    const auto patch = patch_at(panel.params, g, x, y);
    if (!patch) return "";
    const std::string where = "patch (" + std::to_string(patch->first) + ", " + std::to_string(patch->second) + ")";
    for (const MapSpec& m : map_specs(panel.params)) {
        if (!g.is(m.tag)) continue;
        if (!m.layout) return where;
        // the one patch under the pointer, not the whole grid: the readout runs every frame it shows
        const Grid grid = grid_of(panel.params);
        const Eigen::VectorXd q = why::q_vector(panel.params), k = why::k_vector(panel.params);
        const double norm = q.norm() * k.norm();
        const double score = multi_axis_score(*m.layout, panel.params.config().pairing, q, {0, grid.query_row, grid.query_col}, k,
                                              {0, patch->first, patch->second});
        return where + ": similarity " + plot::readout_number(norm > 0 ? score / norm : 0.0, 3) + " (click: make it the query)";
    }
    return where;
}

void patch_grid_pointer(PanelContext& panel, const PointerInput& in) {
    if (!in.held && !in.pressed) return;
    for (const PlotGeometry& g : panel.figure.plots) {
        if (!g.area.contains(in.local)) continue;
        const auto patch = patch_at(panel.params, g, g.x_at(in.local.x), g.y_at(in.local.y));
        if (!patch) continue;
        if (panel.params.query_patch() == *patch && panel.params.has(P::query_row) && panel.params.has(P::query_col)) return;
        const int row = patch->first, col = patch->second;  // not a structured binding: C++17 lambdas cannot capture those
        panel.edit("query patch (" + std::to_string(row) + ", " + std::to_string(col) + ")", [&](ParamSet& next) {
            next.set(P::query_row, std::to_string(row));
            next.set(P::query_col, std::to_string(col));
        });
        return;
    }
}

}  // namespace

const FigureDescriptor& patch_grid_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "patch_grid";
        f.title = "Patch grid: RoPE on images";
        f.page = 4;
        f.export_width = 1200;
        f.export_height = 900;
        f.csv_columns = "layout,row,col,similarity";
        f.plots = tagged_plots<GridPlot>({
            {GridPlot::axial, {"patch_axial", "Similarity to the query patch, 2D axial RoPE", "2D axial", PlotRole::main, AxisRole::index, AxisRole::index, 0, {160, 160}, 90, false, 1.3f, {"cross"}, true, true}},
            {GridPlot::chunked, {"patch_chunked", "Similarity to the query patch, M-RoPE in sections", "chunked", PlotRole::main, AxisRole::index, AxisRole::index, 1, {160, 160}, 90, false, 1.3f, {"chunked map"}, true, true}},
            {GridPlot::interleaved, {"patch_interleaved", "Similarity to the query patch, M-RoPE interleaved", "interleaved", PlotRole::main, AxisRole::index, AxisRole::index, 2, {160, 160}, 90, false, 1.3f, {"interleaves"}, true, true}},
            {GridPlot::axes, {"patch_axes", "Each axis' pairs and their wavelengths", "pairs per axis", PlotRole::strip, AxisRole::other, AxisRole::other, 3, {240, 120}, 0, true, 5.0f, {"which axis", "half of the pairs"}}},
        });
        f.reads = model_and({P::rope_axes, P::axial_frequencies, P::flux_axes_dim, P::mrope_section, P::mrope_section_interleaved, P::mrope_interleaved, P::grid_rows, P::grid_cols, P::query_row,
                             P::query_col, P::vector, P::key_vector});
        f.describe = describe_patch_grid;
        f.build = build_patch_grid;
        f.plot_needs = patch_plot_needs;
        f.own_plot = [](const ParamSet& params) -> const char* {  // the map of the model's layout (plots 0-2)
            const int mine = model_map(params);
            return mine < 0 ? nullptr : patch_grid_figure().plots[static_cast<std::size_t>(mine)].name.data();
        };
        f.readout = patch_grid_readout;
        f.pointer = patch_grid_pointer;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
