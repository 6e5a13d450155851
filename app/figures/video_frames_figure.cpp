// Video frames as small multiples: the map of time as well as space. One row per way of giving a
// video positions (1D RoPE over the token stream, M-RoPE chunked and interleaved, VideoRoPE), one
// column per temporal patch; each cell the rows x cols patch map of the cosine similarity between
// the query patch (query_row, query_col) of temporal patch query_frame and every patch of that
// temporal patch, under the rule of video_time_ids. Down a column the layouts compare; along a row
// the similarity falls (or does not) with the distance in frames. One colour scale for every map.
// When the temporal patches do not all fit, evenly spaced ones are shown, the query's among them.
#include <algorithm>
#include <cmath>
#include <optional>

#include "figures/alt_text.hpp"
#include "figures/panel_hooks.hpp"
#include "figures/similarity_scale.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/video_layouts.hpp"
#include "figures/why_common.hpp"
#include "plot/ticks.hpp"
#include "rope/video_positions.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::video_layouts;
using detail::VideoLayout;
using plot::Color;
namespace why = detail::why;

enum class FramesPlot { maps };

// What the picture shows: the temporal patches of its columns and, per layout, each one's map.
struct FramesData {
    int rows = 1, cols = 1, query_row = 0, query_col = 0, query_frame = 0, frames = 1;
    std::vector<int> shown;  // temporal patches, one per column
    std::vector<std::vector<std::vector<double>>> maps;  // [layout][column]: rows x cols, row 0 first
    double lowest = 1;
};

// `count` of the temporal patches 0 .. frames-1, evenly spaced, the first, the last and the query's among them.
std::vector<int> shown_frames(int frames, int count, int query) {
    count = std::clamp(count, 1, frames);
    std::vector<int> v;
    for (int i = 0; i < count; ++i)
        v.push_back(count == 1 ? query : static_cast<int>(std::lround(static_cast<double>(i) * (frames - 1) / (count - 1))));
    if (std::find(v.begin(), v.end(), query) == v.end()) {
        auto nearest = std::min_element(v.begin(), v.end(), [&](int a, int b) { return std::abs(a - query) < std::abs(b - query); });
        if (nearest == v.begin() && v.size() > 1 && *nearest != query) ++nearest;  // keep the first
        if (nearest == v.end() - 1 && v.size() > 2) --nearest;                     // and the last
        *nearest = query;
        std::sort(v.begin(), v.end());
    }
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

FramesData frames_data(const ParamSet& p, const std::vector<VideoLayout>& layouts, int columns) {
    FramesData d;
    const VideoSpec spec = p.video_spec();
    d.rows = spec.rows, d.cols = spec.cols, d.frames = temporal_patches(spec);
    const std::pair<int, int> patch = p.query_patch();  // named, not bound: the lambda uses them (C++17)
    d.query_row = patch.first, d.query_col = patch.second;
    d.query_frame = static_cast<int>(std::min<std::int64_t>(p[P::query_frame], d.frames - 1));
    d.shown = shown_frames(d.frames, columns, d.query_frame);
    const Eigen::VectorXd q = why::q_vector(p), k = why::k_vector(p);
    const Pairing pairing = p.config().pairing;
    const int patches = d.rows * d.cols;
    for (const VideoLayout& l : layouts) {
        std::vector<std::vector<double>> per_column;
        const VideoSpec s = detail::spec_of(spec, l);
        const PositionId query = detail::video_id(s, l, d.query_frame, d.query_row, d.query_col);
        for (int f : d.shown) {
            std::vector<double> m;
            if (l.layout) {
                // a frame's patches are consecutive tokens (1D), or a block at its corner + (0, r, c):
                // the core sums each axis once per row and column (block_similarity)
                std::vector<double> v;
                if (l.one_d) {
                    v = run_similarity(*l.layout, pairing, q, query.t, k, static_cast<double>(video_patch_index(s, f, 0, 0)), patches);
                } else {
                    const Eigen::MatrixXd b = block_similarity(*l.layout, pairing, q, query, k, video_patch_id(s, f, 0, 0), d.rows, d.cols);
                    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows_first = b;
                    v.assign(rows_first.data(), rows_first.data() + patches);
                }
                for (double x : v) d.lowest = std::min(d.lowest, x);
                m = std::move(v);
            }
            per_column.push_back(std::move(m));
        }
        d.maps.push_back(std::move(per_column));
    }
    return d;
}

// The columns a cell has room for: maps as tall as a layout's row allows, at least three (the
// axis's three labels: the first, the query's, the last) and at most 24.
int columns_for(BuildContext& ctx, const plot::Style& sub, plot::Rect cell, int rows, int cols, int frames, std::size_t layouts) {
    const float tf = sub.px(sub.tick_font), lf = sub.px(sub.label_font);
    const float w = cell.width() - sub.px(16) - ctx.measure.measure("interleaved", tf).x - lf * 1.5f - sub.px(8) -
                    (sub.px(14 + 16 + 6) + ctx.measure.measure("−0.5", tf).x + lf * 1.5f);
    const float h = cell.height() - sub.px(16) - sub.px(sub.title_font) * 1.5f - tf * 1.5f - lf * 1.5f - sub.px(6);
    const float map_h = h / static_cast<float>(layouts) * 0.86f;
    const float map_w = std::max(map_h * static_cast<float>(cols) / static_cast<float>(rows), tf * 2.2f);
    // maps down to a third of their height-filling size (not below 40 pixels at scale 1), so that
    // more temporal patches compare side by side
    const float smallest = std::max(map_w * 0.35f, sub.px(40));
    return std::min(frames, std::clamp(static_cast<int>(w / (smallest / 0.9f)), 3, 24));
}

// A map's half width and height in data units (a slot is 1 x 1): as large as its slot allows at the
// patches' shape, a little apart from its neighbours. The build and the pointer read the same boxes.
struct MapBox {
    double half_w = 0.45, half_h = 0.43;
};
MapBox map_box(const plot::Rect& area, std::size_t columns, std::size_t rows_of_maps, int rows, int cols) {
    const float ux = area.width() / static_cast<float>(columns), uy = area.height() / static_cast<float>(rows_of_maps);
    const float map_w = std::min(ux * 0.9f, uy * 0.86f * static_cast<float>(cols) / static_cast<float>(rows));
    const float map_h = map_w * static_cast<float>(rows) / static_cast<float>(cols);
    return {map_w / 2 / ux, map_h / 2 / uy};
}

void draw_maps(BuildContext& ctx, const std::vector<VideoLayout>& layouts, const FramesData& d, const SimilarityScale& scale, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Style sub = why::sub_style(st);
    const VideoSpec spec = ctx.params.video_spec();
    const std::string patch = "(" + std::to_string(d.query_row) + ", " + std::to_string(d.query_col) + ")";
    const std::size_t n = d.shown.size(), rows_of_maps = layouts.size();
    const std::string rule = detail::rule_words(spec, detail::RuleWords::title), brief = detail::rule_words(spec, detail::RuleWords::short_title);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"patch " + patch + " of temporal patch " + std::to_string(d.query_frame) +
                                      " (outlined) against every patch of every frame (" + rule + ")",
                                  "patch " + patch + " of temporal patch " + std::to_string(d.query_frame) + " against every patch (" + rule + ")",
                                  "patch " + patch + " of temporal patch " + std::to_string(d.query_frame) + " against every patch (" + brief + ")",
                                  "every patch of every frame (" + brief + ")", "every patch of every frame"}));
    plot::AxisSetup ax{n < static_cast<std::size_t>(d.frames) ? "temporal patch (" + std::to_string(n) + " of " + std::to_string(d.frames) + " shown)"
                                                              : "temporal patch (" + std::to_string(spec.temporal_patch_size) + " frames each)",
                       -0.5, static_cast<double>(n) - 0.5};
    // (a phone's column: the rows' names say what they are)
    plot::AxisSetup ay{st.compact ? "" : "layout", -0.5, static_cast<double>(rows_of_maps) - 0.5};
    for (std::size_t i = 0; i < n; ++i) ax.ticks.push_back({static_cast<double>(i), std::to_string(d.shown[i])});
    for (std::size_t j = 0; j < rows_of_maps; ++j)
        ay.ticks.push_back({static_cast<double>(rows_of_maps - 1 - j), layouts[j].name});
    p.setup_x(ax);
    p.setup_y(ay);
    p.setup_colorbar({"cosine similarity", scale.map, scale.lo, scale.hi});
    const plot::Rect a = p.area();
    const MapBox box = map_box(a, n, rows_of_maps, d.rows, d.cols);
    const double hw = box.half_w, hh = box.half_h;
    const plot::Theme& th = st.theme;
    // this model's layout: its row framed in the accent colour (under the maps, as it always was)
    for (std::size_t j = 0; j < rows_of_maps; ++j)
        if (layouts[j].model) {
            const double yc = static_cast<double>(rows_of_maps - 1 - j);
            const plot::Vec2 lo = p.to_px(-0.5, yc - 0.5), hi = p.to_px(static_cast<double>(n) - 0.5, yc + 0.5);
            p.list().rect({lo.x + st.px(1), hi.y + st.px(1), hi.x - st.px(1), lo.y - st.px(1)}, Color{0, 0, 0, 0}, th.accent, st.px(2));
        }
    // then every map, then the query's outlines over them: the maps, coloured alike and one after
    // another, are one run for the screen's renderer (one GL program switch and one texture, not 96)
    for (std::size_t j = 0; j < rows_of_maps; ++j)
        for (std::size_t i = 0; i < n; ++i) {
            const std::vector<double>& m = d.maps[j][i];
            if (m.empty()) continue;
            const double xc = static_cast<double>(i), yc = static_cast<double>(rows_of_maps - 1 - j);
            p.heatmap(std::vector<float>(m.begin(), m.end()), d.cols, d.rows, xc - hw, xc + hw, yc - hh, yc + hh, scale.map, static_cast<float>(scale.lo), static_cast<float>(scale.hi));
        }
    for (std::size_t j = 0; j < rows_of_maps; ++j) {
        const double yc = static_cast<double>(rows_of_maps - 1 - j);
        for (std::size_t i = 0; i < n; ++i) {
            if (d.maps[j][i].empty() || d.shown[i] != d.query_frame) continue;
            const double xc = static_cast<double>(i);
            // the query patch: a dark outline with a light one inside, visible on either end of the colour map
            const double cw = 2 * hw / d.cols, ch = 2 * hh / d.rows;
            const plot::Vec2 q0 = p.to_px(xc - hw + cw * d.query_col, yc + hh - ch * d.query_row);
            const plot::Vec2 q1 = p.to_px(xc - hw + cw * (d.query_col + 1), yc + hh - ch * (d.query_row + 1));
            const float w = std::clamp((q1.x - q0.x) * 0.2f, st.px(1), st.px(2));
            p.list().rect({q0.x - w, q0.y - w, q1.x + w, q1.y + w}, Color{0, 0, 0, 0}, Color{0.05f, 0.05f, 0.08f, 1}, w);
            p.list().rect({q0.x, q0.y, q1.x, q1.y}, Color{0, 0, 0, 0}, Color{1, 1, 1, 1}, std::max(1.0f, w * 0.6f));
        }
    }
    detail::record_geometry(ctx, p, FramesPlot::maps);
    p.finish();
}

void write_table(BuildContext& ctx, const std::vector<VideoLayout>& layouts, const FramesData& d) {
    DataTable& t = ctx.result.table;
    t.columns = {"layout", "temporal_patch", "row", "col", "similarity"};
    t.values.assign(t.columns.size(), {});
    t.words = {detail::layout_names(layouts)};
    for (std::size_t j = 0; j < d.maps.size(); ++j)
        for (std::size_t i = 0; i < d.shown.size(); ++i) {
            const std::vector<double>& m = d.maps[j][i];
            for (std::size_t e = 0; e < m.size(); ++e) {
                t.values[0].push_back(static_cast<double>(j));
                t.values[1].push_back(d.shown[i]);
                t.values[2].push_back(static_cast<double>(e / static_cast<std::size_t>(d.cols)));
                t.values[3].push_back(static_cast<double>(e % static_cast<std::size_t>(d.cols)));
                t.values[4].push_back(m[e]);
            }
        }
}

void build_video_frames(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const float W = ctx.request.width, H = ctx.request.height;
    const float top = why::title_space(ctx);
    const std::vector<VideoLayout> layouts = video_layouts(ctx.params);
    const detail::SubplotFit fit = detail::fit_plots(ctx, {0, top, W, H}, {plot::Rect{0, top, W, H}});
    const plot::Rect cell = fit.cell(FramesPlot::maps);
    const VideoSpec spec = ctx.params.video_spec();
    const int columns = columns_for(ctx, why::sub_style(st), cell, spec.rows, spec.cols, temporal_patches(spec), layouts.size());
    // computed once for both builds of a picture beside B (the second on the scale both share)
    const std::shared_ptr<const FramesData> kept =
        ctx.cache.figure_data<FramesData>("video_frames.maps", ctx.params, ctx.request.figure->reads, columns,
                                          [&] { return frames_data(ctx.params, layouts, columns); });
    const FramesData& data = *kept;
    const SimilarityScale scale = similarity_scale(data.lowest, st.pins, "video similarity");
    if (fit.shows(FramesPlot::maps)) draw_maps(ctx, layouts, data, scale, cell);
    if (ctx.request.with_table) write_table(ctx, layouts, data);
}

// The patch under the pointer: which layout's row, which temporal patch and which (row, col).
struct PatchHit {
    int layout = 0, frame = 0, row = 0, col = 0;
};
std::optional<PatchHit> patch_at(const ParamSet& params, const PlotGeometry& g, double x, double y) {
    if (!g.is(FramesPlot::maps)) return std::nullopt;
    const std::size_t layouts = video_layouts(params).size();
    const VideoSpec spec = params.video_spec();
    const int frames = temporal_patches(spec);
    // the columns are the x range's slots; the same count gives the build's frames (shown_frames)
    const int columns = static_cast<int>(std::lround(g.x_max + 0.5));
    const int column = static_cast<int>(std::lround(x)), slot = static_cast<int>(layouts) - 1 - static_cast<int>(std::lround(y));
    if (columns < 1 || column < 0 || column >= columns || slot < 0 || slot >= static_cast<int>(layouts)) return std::nullopt;
    const int query = static_cast<int>(std::min<std::int64_t>(params[P::query_frame], frames - 1));
    const std::vector<int> shown = shown_frames(frames, columns, query);
    if (column >= static_cast<int>(shown.size())) return std::nullopt;
    const MapBox box = map_box(g.area, static_cast<std::size_t>(columns), layouts, spec.rows, spec.cols);
    const double u = (x - (column - box.half_w)) / (2 * box.half_w), v = ((layouts - 1 - slot) + box.half_h - y) / (2 * box.half_h);
    if (u < 0 || u >= 1 || v < 0 || v >= 1) return std::nullopt;
    return PatchHit{slot, shown[static_cast<std::size_t>(column)], static_cast<int>(v * spec.rows), static_cast<int>(u * spec.cols)};
}

// "temporal patch 3, patch (2, 5), chunked: similarity 0.912 (click: make it the query)"
std::string frames_readout(PanelContext& panel, const PlotGeometry& g, double x, double y) {
    const std::optional<PatchHit> hit = patch_at(panel.params, g, x, y);
    if (!hit) return "";
    const std::vector<VideoLayout> layouts = video_layouts(panel.params);
    const VideoLayout& l = layouts[static_cast<std::size_t>(hit->layout)];
    const std::string where = "temporal patch " + std::to_string(hit->frame) + ", patch (" + std::to_string(hit->row) + ", " +
                              std::to_string(hit->col) + "), " + l.name;
    if (!l.layout) return where;
    // the one patch under the pointer, not every map: the readout runs every frame it shows
    const VideoSpec s = detail::spec_of(panel.params.video_spec(), l);
    const std::pair<int, int> query = panel.params.query_patch();
    const int query_frame = static_cast<int>(std::min<std::int64_t>(panel.params[P::query_frame], temporal_patches(s) - 1));
    const Eigen::VectorXd q = why::q_vector(panel.params), k = why::k_vector(panel.params);
    const double norm = q.norm() * k.norm();
    const double score = multi_axis_score(*l.layout, panel.params.config().pairing, q, detail::video_id(s, l, query_frame, query.first, query.second), k,
                                          detail::video_id(s, l, hit->frame, hit->row, hit->col));
    return where + ": similarity " + plot::readout_number(norm > 0 ? score / norm : 0.0, 3) + " (click: make it the query)";
}

// A click (or drag) on a map makes that patch of that temporal patch the query.
void frames_pointer(PanelContext& panel, const PointerInput& in) {
    if (!in.held && !in.pressed) return;
    for (const PlotGeometry& g : panel.figure.plots) {
        if (!g.area.contains(in.local)) continue;
        const std::optional<PatchHit> hit = patch_at(panel.params, g, g.x_at(in.local.x), g.y_at(in.local.y));
        if (!hit) continue;
        const int frame = hit->frame, row = hit->row, col = hit->col;
        if (panel.params.query_patch() == std::pair{row, col} && panel.params[P::query_frame] == frame && panel.params.has(P::query_row) &&
            panel.params.has(P::query_col) && panel.params.has(P::query_frame))
            return;
        panel.edit("query patch (" + std::to_string(row) + ", " + std::to_string(col) + ") of temporal patch " + std::to_string(frame), [&](ParamSet& next) {
            next.set(P::query_row, std::to_string(row));
            next.set(P::query_col, std::to_string(col));
            next.set(P::query_frame, std::to_string(frame));
        });
        return;
    }
}

}  // namespace

const FigureDescriptor& video_frames_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "video_frames";
        f.title = "Video: every frame";
        f.page = 5;
        f.export_width = 1000;
        f.csv_columns = "layout,temporal_patch,row,col,similarity";
        f.plots = tagged_plots<FramesPlot>({
            {FramesPlot::maps, {"video_frames", "The query patch's similarity to every patch of every frame, per layout", "frames", PlotRole::main, AxisRole::other,
             AxisRole::other, 0, {320, 240}, 70, false, 2.0f, {"small multiples", "every frame"}}},
        });
        f.reads = model_and({P::rope_axes, P::mrope_section, P::mrope_section_interleaved, P::mrope_interleaved, P::grid_rows, P::grid_cols,
                             P::query_row, P::query_col, P::video_frames, P::temporal_patch_size, P::video_fps, P::tokens_per_second,
                             P::video_time_ids, P::video_spacing, P::video_seconds_cast, P::query_frame, P::text_before, P::text_after, P::vector, P::key_vector});
        f.describe = describe_video_frames;
        f.build = build_video_frames;
        f.readout = frames_readout;
        f.pointer = frames_pointer;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
