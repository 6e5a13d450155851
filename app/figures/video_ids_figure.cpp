// Video position ids: text_before text tokens, one video and text_after text tokens as this model
// numbers them (rope::video_sequence: the rule of video_time_ids, or VideoRoPE's diagonal layout
// for rope_axes = videorope). Left, a table with one row per run of tokens (the text, each
// temporal patch, Qwen3-VL's timestamp text and vision start/end between them) giving its token
// indices and its t, h and w, the frames marked by shaded rows; right, every token's t and the
// largest id so far against its index, beside the 1D position (the index itself): how slowly the ids grow.
#include <algorithm>
#include <cmath>

#include "figures/alt_text.hpp"
#include "figures/position_axes.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/video_layouts.hpp"
#include "figures/why_common.hpp"
#include "plot/ticks.hpp"
#include "rope/video_positions.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::position_axis_color;
using plot::Color;
namespace why = detail::why;

enum class VideoIdsPlot { table, ids };

// A run of tokens of one kind and temporal patch: one row of the table.
struct Run {
    std::size_t first = 0, last = 0;  // token indices, inclusive
    TokenKind kind = TokenKind::text;
    int frame = -1;
    PositionId lo, hi;  // each axis' smallest and largest id in the run
    std::string what;   // "text", "<1.0 seconds>", "vision start", "12 × 16 patches"
};

std::vector<Run> runs_of(const VideoSpec& spec, const std::vector<SequenceToken>& tokens) {
    std::vector<Run> runs;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const SequenceToken& t = tokens[i];
        if (runs.empty() || runs.back().kind != t.kind || runs.back().frame != t.frame) {
            Run r;
            r.first = i, r.kind = t.kind, r.frame = t.frame, r.lo = r.hi = t.id;
            runs.push_back(r);
        }
        Run& r = runs.back();
        r.last = i;
        r.lo = {std::min(r.lo.t, t.id.t), std::min(r.lo.h, t.id.h), std::min(r.lo.w, t.id.w)};
        r.hi = {std::max(r.hi.t, t.id.t), std::max(r.hi.h, t.id.h), std::max(r.hi.w, t.id.w)};
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
        Run& r = runs[i];
        const TokenKind before = i > 0 ? runs[i - 1].kind : TokenKind::text;
        if (r.kind == TokenKind::video) r.what = std::to_string(spec.rows) + " × " + std::to_string(spec.cols) + " patches";
        else if (r.kind == TokenKind::timestamp) r.what = timestamp_text(timestamp_seconds(spec, r.frame));
        else if (before == TokenKind::timestamp) r.what = "vision start";  // Qwen3-VL's tokens around each frame
        else if (before == TokenKind::video && spec.rule == VideoTimeIds::timestamps && !spec.diagonal && i + 1 < runs.size()) r.what = "vision end";
        else r.what = i == 0 ? "text before" : i + 1 == runs.size() && r.first > 0 ? "text after" : "text";
    }
    return runs;
}

std::string range_text(double lo, double hi) {
    const auto s = [](double v) { return plot::readout_number(v, 6); };
    return lo == hi ? s(lo) : s(lo) + "–" + s(hi);
}

// The rows shown (kEllipsis: a "…" row for the runs left out): every run if they fit; else the
// first runs, "…", and the last temporal patch's runs with the text after.
constexpr int kEllipsis = -1;
std::vector<int> shown_runs(const std::vector<Run>& runs, int capacity) {
    const int n = static_cast<int>(runs.size());
    std::vector<int> v;
    if (n <= capacity) {
        for (int i = 0; i < n; ++i) v.push_back(i);
        return v;
    }
    int tail = 1;  // the text after, then back to the last frame's first run
    while (tail < n && runs[static_cast<std::size_t>(n - tail - 1)].frame == runs[static_cast<std::size_t>(n - 2)].frame) ++tail;
    tail = std::min(tail, std::max(1, capacity / 2));
    const int head = std::max(1, capacity - 1 - tail);
    for (int i = 0; i < head; ++i) v.push_back(i);
    v.push_back(kEllipsis);
    for (int i = n - tail; i < n; ++i) v.push_back(i);
    return v;
}

struct Column {
    std::string head;
    Color colour;
    float width = 0;
};

// The table's words: its columns and each run's cells, in full words (form 0), short words (1) or
// without the "what" column (2), and the width they take at a size.
struct TableText {
    static constexpr float kGapEm = 1.2f;
    TableText(BuildContext& ctx_, const std::vector<Run>& runs_) : ctx(ctx_), runs(runs_) {
        const plot::Theme& th = ctx.request.style.theme;
        cols = {{"tokens", th.text}, {"what", th.text}, {"frame", th.text}, {"t", position_axis_color(th, PositionAxis::t)},
                {"h", position_axis_color(th, PositionAxis::h)}, {"w", position_axis_color(th, PositionAxis::w)}};
    }
    std::string what_of(const Run& r) const {
        if (form == 0 || r.kind == TokenKind::timestamp) return r.what;
        if (r.kind == TokenKind::video) return "patches";
        return r.what == "vision start" ? "start" : r.what == "vision end" ? "end" : "text";
    }
    std::vector<std::string> cells(const Run& r) const {
        return {range_text(static_cast<double>(r.first), static_cast<double>(r.last)), what_of(r), r.frame >= 0 ? std::to_string(r.frame) : "",
                range_text(r.lo.t, r.hi.t), range_text(r.lo.h, r.hi.h), range_text(r.lo.w, r.hi.w)};
    }
    // the whole width at type `size`; sets each column's width
    float width(float size) {
        float total = 0;
        for (std::size_t c = 0; c < cols.size(); ++c) {
            cols[c].width = 0;
            if (c == 1 && form == 2) continue;
            cols[c].width = ctx.measure.measure(cols[c].head, size).x;
            for (const Run& r : runs) cols[c].width = std::max(cols[c].width, ctx.measure.measure(cells(r)[c], size).x);
            total += cols[c].width + size * kGapEm;
        }
        return total;
    }
    BuildContext& ctx;
    const std::vector<Run>& runs;
    std::vector<Column> cols;
    int form = 0;
};

// The table's type: the tick labels' size, or a phone's column's (whose tick labels are smaller) the
// screen's usual tick size, so that the table fills the picture there too.
float table_type(const plot::Style& st) { return st.px(st.compact ? 16 : st.tick_font); }

void draw_table(BuildContext& ctx, const VideoSpec& spec, const std::vector<Run>& runs, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    const std::string layout = spec.diagonal ? "VideoRoPE's diagonal layout" : detail::rule_words(spec, detail::RuleWords::title);
    const std::string brief = spec.diagonal ? "VideoRoPE's diagonal" : detail::rule_words(spec, detail::RuleWords::short_title);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"(t, h, w) of each run of tokens: " + std::to_string(spec.text_before) + " text, a video of " +
                                      std::to_string(temporal_patches(spec)) + " temporal patches, " + std::to_string(spec.text_after) + " text (" +
                                      layout + ")",
                                  "(t, h, w) of each run of tokens (" + layout + ")", "(t, h, w) of each run of tokens (" + brief + ")",
                                  "position ids (" + brief + ")", "position ids"}));
    plot::AxisSetup ax{"", 0, 1}, ay{"", 1, 0};
    p.setup_x(ax);
    p.setup_y(ay);
    p.setup_no_axes();
    const plot::Rect a = p.area();
    TableText text(ctx, runs);
    // where the rows do not fit at the smallest type: the "what" column in short words, then without it
    while (text.form < 2 && text.width(st.px(st.min_text)) > a.width()) ++text.form;
    // the type: the tick labels' size, smaller (not below the smallest text) until the widest rows fit
    float size = table_type(st);
    while (text.width(size) > a.width() && size > st.px(st.min_text)) size = std::max(st.px(st.min_text), size * 0.92f);
    const float gap_em = TableText::kGapEm;
    std::vector<Column>& cols = text.cols;
    const int form = text.form;
    auto cells_of = [&](const Run& r) { return text.cells(r); };
    const float total = text.width(size);
    const int capacity = std::max(3, static_cast<int>((a.height() - size * 1.45f * 1.3f) / (size * 1.45f)));
    const std::vector<int> shown = shown_runs(runs, capacity);
    // rows spaced out, up to twice the type, where the cell is taller than the rows need
    const float row_h = std::clamp(a.height() / (static_cast<float>(shown.size()) + 1.3f), size * 1.45f, size * 2.0f);
    const float x_start = a.x0 + std::max(0.0f, (a.width() - total) / 2);
    float y = a.y0 + std::max(0.0f, (a.height() - row_h * (static_cast<float>(shown.size()) + 1.3f)) / 2);
    const float top = y;
    float x = x_start + size * gap_em / 2;
    for (std::size_t c = 0; c < cols.size(); ++c) {
        if (c == 1 && form == 2) continue;
        p.list().text({x, y + row_h / 2}, cols[c].head, size, cols[c].colour, plot::HAlign::left, plot::VAlign::middle);
        x += cols[c].width + size * gap_em;
    }
    y += row_h * 1.3f;
    p.list().segment({x_start, y - row_h * 0.15f}, {x_start + total, y - row_h * 0.15f}, th.axis, st.px(1));
    for (int index : shown) {
        if (index == kEllipsis) {
            p.list().text({x_start + size * gap_em / 2, y + row_h / 2}, "(" + std::to_string(runs.size() - shown.size() + 1) + " more runs)", size,
                          th.muted, plot::HAlign::left, plot::VAlign::middle);
            y += row_h;
            continue;
        }
        const Run& r = runs[static_cast<std::size_t>(index)];
        if (r.frame >= 0) {  // the frames marked: each temporal patch's rows shaded, alternately two tints
            Color tint = r.frame % 2 == 0 ? th.series[0] : th.series[1];
            tint.a = 0.16f;
            p.list().rect({x_start, y, x_start + total, y + row_h}, tint);
        }
        const std::vector<std::string> texts = cells_of(r);
        x = x_start + size * gap_em / 2;
        for (std::size_t c = 0; c < cols.size(); ++c) {
            if (c == 1 && form == 2) continue;
            p.list().text({x, y + row_h / 2}, texts[c], size, r.kind == TokenKind::text && c > 2 ? th.muted : th.text, plot::HAlign::left,
                          plot::VAlign::middle);
            x += cols[c].width + size * gap_em;
        }
        y += row_h;
    }
    PlotGeometry g = detail::plot_geometry(ctx, VideoIdsPlot::table);
    g.area = {x_start, top, x_start + total, y};
    g.frame = p.outer();
    ctx.result.plots.push_back(g);
    p.finish();
}

// Every token's t and the largest id so far against its index, and the index itself (1D RoPE's position).
void draw_ids(BuildContext& ctx, const std::vector<SequenceToken>& tokens, const std::vector<Run>& runs, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    const std::size_t n = tokens.size();
    std::vector<double> index(n), t(n), largest(n);
    double so_far = -1e300, lowest = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const PositionId& id = tokens[i].id;
        index[i] = static_cast<double>(i);
        t[i] = id.t;
        largest[i] = so_far = std::max({so_far, id.t, id.h, id.w});
        lowest = std::min({lowest, id.h, id.w});
    }
    const double top = n > 0 ? largest.back() : 1;
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"ids against the token's index: " + std::to_string(n) + " tokens, largest id " + plot::readout_number(top, 6) +
                                      (static_cast<double>(n) - 1 > top * 1.1 ? " (1D: the index, leaves the top)" : ""),
                                  "ids against the token's index: " + std::to_string(n) + " tokens, largest id " + plot::readout_number(top, 6),
                                  "ids against the token index", "ids"}));
    plot::AxisSetup ax{"token index", 0, std::max(1.0, static_cast<double>(n) - 1)}, ay{"position id", lowest, std::max(1.0, top * 1.1)};
    p.setup_x(ax);
    p.setup_y(ay);
    // the legend above the plot (a short plot has no free corner), in short words where it is narrow
    const bool narrow = cell.width() < st.px(460);
    const std::string one_d = narrow ? "1D" : "1D (the index)", most = narrow ? "largest so far" : "largest of t, h, w so far";
    p.setup_legend_above({one_d, most, "t"});
    for (const Run& r : runs)  // the frames marked: each temporal patch's tokens shaded, alternately two tints
        if (r.kind == TokenKind::video) {
            Color tint = r.frame % 2 == 0 ? th.series[0] : th.series[1];
            tint.a = 0.10f;
            p.band_x(static_cast<double>(r.first) - 0.5, static_cast<double>(r.last) + 0.5, tint);
        }
    // 1D in the video panel's colour for it, in long dashes: a reference line. h and w repeat the same
    // range in every temporal patch (the table gives it); what grows is t and the largest id so far.
    p.line(index.data(), index.data(), n, 1, th.series[3], one_d, sub.line_width, 8);
    p.line(index.data(), largest.data(), n, 1, th.text, most, sub.line_width, 3);
    p.line(index.data(), t.data(), n, 1, position_axis_color(th, PositionAxis::t), "t", sub.line_width * 1.4f);
    detail::record_geometry(ctx, p, VideoIdsPlot::ids);
    p.finish();
}

void write_table(BuildContext& ctx, const std::vector<SequenceToken>& tokens) {
    DataTable& t = ctx.result.table;
    t.columns = {"index", "kind", "frame", "row", "col", "t", "h", "w"};
    t.values.assign(t.columns.size(), {});
    t.words = {{}, {"text", "video", "timestamp"}};  // compute position-ids' words for them
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const SequenceToken& k = tokens[i];
        const double kind = k.kind == TokenKind::video ? 1 : k.kind == TokenKind::timestamp ? 2 : 0;
        const double row[8] = {static_cast<double>(i), kind, static_cast<double>(k.frame), static_cast<double>(k.row), static_cast<double>(k.col),
                               k.id.t, k.id.h, k.id.w};
        for (int c = 0; c < 8; ++c) t.values[static_cast<std::size_t>(c)].push_back(row[c]);
    }
}

void build_video_ids(BuildContext& ctx) {
    const float W = ctx.request.width, H = ctx.request.height;
    const float top = why::title_space(ctx);
    const VideoSpec spec = ctx.params.video_spec();  // VideoRoPE's diagonal for rope_axes=videorope
    const std::vector<SequenceToken> tokens = video_sequence(spec);
    const std::vector<Run> runs = runs_of(spec, tokens);
    if (ctx.request.with_table) write_table(ctx, tokens);
    // stacked, the table takes the height its rows need (at most 45%), the plot the rest; side by side
    // where the rows would take more than half the height, the table keeps its words and the plot
    // keeps 320 pixels (at scale 1) beside it, the table's cell as wide as its words
    const plot::Style& st = ctx.request.style;
    const plot::Style sub = why::sub_style(st);
    const float table_h = sub.px(16) + sub.px(sub.title_font) * 1.5f +
                          table_type(st) * 1.45f * (static_cast<float>(std::min<std::size_t>(runs.size(), 16)) + 1.6f);
    TableText words(ctx, runs);
    const float table_w = words.width(table_type(st)) + st.px(48);
    const bool wide = W >= (H - top) * 1.6f && W - table_w >= st.px(320) && table_h > (H - top) * 0.5f;
    const float mid_x = std::max(table_w, W * 0.35f), mid_y = top + std::min((H - top) * 0.45f, table_h);
    const detail::SubplotFit fit = detail::fit_plots(ctx, {0, top, W, H},
                                                     {wide ? plot::Rect{0, top, mid_x, H} : plot::Rect{0, top, W, mid_y},
                                                      wide ? plot::Rect{mid_x, top, W, H} : plot::Rect{0, mid_y, W, H}});
    if (fit.shows(VideoIdsPlot::table)) draw_table(ctx, spec, runs, fit.cell(VideoIdsPlot::table));
    if (fit.shows(VideoIdsPlot::ids)) draw_ids(ctx, tokens, runs, fit.cell(VideoIdsPlot::ids));
}

}  // namespace

const FigureDescriptor& video_ids_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "video_ids";
        f.title = "Video position ids";
        f.page = 5;
        f.export_width = 1000;
        f.csv_columns = "index,kind,frame,row,col,t,h,w";
        f.plots = tagged_plots<VideoIdsPlot>({
            {VideoIdsPlot::table, {"video_id_table", "Position ids (t, h, w) of text, a video and text, a row per run of tokens", "id table", PlotRole::table, AxisRole::other,
             AxisRole::other, 0, {300, 160}, 0, false, 1.6f, {"id table", "run of tokens"}}},
            {VideoIdsPlot::ids, {"video_id_steps", "Each token's t, h and w against its index", "ids by index", PlotRole::supporting, AxisRole::other, AxisRole::other, 1,
             {240, 160}, 0, false, 1.5f, {"against its index", "staircase"}}},
        });
        f.reads = {P::rope_axes, P::grid_rows, P::grid_cols, P::video_frames, P::temporal_patch_size, P::video_fps, P::tokens_per_second,
                   P::video_time_ids, P::video_spacing, P::video_seconds_cast, P::text_before, P::text_after, P::preset, P::model_name};
        f.describe = describe_video_ids;
        f.build = build_video_ids;
        // the staircase's legend above it takes two rows where the plot is narrow: room for its frame
        // to hold "position id" uncut
        f.plot_needs = [](const ParamSet&, const plot::Style& st) -> std::vector<std::pair<int, plot::Vec2>> {
            return {{1, {0, st.px(200)}}};
        };
        f.model_b = ModelBView::stacked;  // the id tables one above the other
        f.draws_nope = true;  // position ids are the same whatever the frequencies
        return f;
    }();
    return d;
}

}  // namespace rope::figures
