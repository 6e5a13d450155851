// Video: how each layout's similarity falls with the frame distance, and the position budget.
// Left (main): the cosine similarity of the query patch (query_row, query_col) of the first temporal
// patch with the same patch of every later one, under the rule of video_time_ids, for the ways of
// giving a video positions: 1D RoPE over the token stream, M-RoPE chunked and interleaved, VideoRoPE
// (its allocation and diagonal layout, frames video_spacing apart) and, for ERNIE-4.5-VL, its own. Right: the position ids
// a video of S seconds uses against the tokens it takes, per rule, beside the context length.
// Every number is rope::video_patch_id / video_costs (core/.../video_positions.hpp).
#include <algorithm>
#include <cmath>
#include <optional>

#include "figures/alt_text.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/video_layouts.hpp"
#include "figures/why_common.hpp"
#include "plot/ticks.hpp"
#include "rope/video_positions.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::SubplotFit;
namespace why = detail::why;

enum class VideoPlot { time, budget };

using Layout = detail::VideoLayout;

// The similarity curves over the temporal patches, one per layout.
struct TimeData {
    std::vector<double> frame;                 // 0 .. T-1
    std::vector<std::vector<double>> values;   // per layout
};

TimeData time_data(const ParamSet& p, const std::vector<Layout>& layouts) {
    VideoSpec spec = p.video_spec();
    spec.diagonal = false;
    const int frames = temporal_patches(spec);
    const std::pair<int, int> patch = p.query_patch();  // named, not bound: lambdas below use them (C++17)
    const int row = patch.first, col = patch.second;
    const int query_frame = static_cast<int>(std::min<std::int64_t>(p[P::query_frame], frames - 1));
    const Eigen::VectorXd q = why::q_vector(p), k = why::k_vector(p);
    const double norms = q.norm() * k.norm();
    const Pairing pairing = p.config().pairing;
    TimeData d;
    for (int f = 0; f < frames; ++f) d.frame.push_back(f);
    for (const Layout& l : layouts) {
        std::vector<double> v;
        const VideoSpec s = detail::spec_of(spec, l);
        auto id_of = [&](int f) { return detail::video_id(s, l, f, row, col); };
        const PositionId query = id_of(query_frame);
        for (int f = 0; f < frames && l.layout; ++f)
            v.push_back(norms > 0 ? multi_axis_score(*l.layout, pairing, q, query, k, id_of(f)) / norms : 0.0);
        d.values.push_back(std::move(v));
    }
    return d;
}

// Colour and dash by layout (the dash tells them apart in grey and under every colour vision).
// the fifth is ERNIE-4.5-VL's own, drawn only for its model
plot::Color layout_colour(const plot::Theme& th, std::size_t i) { return th.series[std::array<std::size_t, 5>{3, 0, 2, 1, 4}[i]]; }
float layout_dash(std::size_t i) { return std::array<float, 5>{2, 0, 5, 10, 0}[i]; }

void draw_time(BuildContext& ctx, const std::vector<Layout>& layouts, const TimeData& d, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Style sub = why::sub_style(st);
    const VideoSpec spec = ctx.params.video_spec();
    const auto [row, col] = ctx.params.query_patch();
    const std::string rule = detail::rule_words(spec, detail::RuleWords::title), brief = detail::rule_words(spec, detail::RuleWords::short_title);
    const int query_frame = static_cast<int>(std::min<std::int64_t>(ctx.params[P::query_frame], temporal_patches(spec) - 1));
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"patch (" + std::to_string(row) + ", " + std::to_string(col) + ") of temporal patch " + std::to_string(query_frame) +
                                      " against the same patch in every other (" + rule + "; VideoRoPE δ = " +
                                      plot::tick_label(spec.spacing, 0.01) + ")",
                                  "similarity over frames (" + rule + ")", "similarity over frames (" + brief + ")", "over frames (" + brief + ")",
                                  "over frames"}));
    // the x range a little beyond the first and last temporal patch: the query frame's line, on the
    // first, is then apart from the frame's edge and reads as a mark, not as the curve falling to -1
    const double last = std::max(1.0, static_cast<double>(d.frame.size()) - 1), pad = 0.03 * last;
    plot::AxisSetup ax{"temporal patch (" + std::to_string(spec.temporal_patch_size) + " frames each)", -pad, last + pad};
    ax.integer_ticks = true;
    plot::AxisSetup ay{"cosine similarity", -1.05, 1.05};
    p.setup_x(ax);
    p.setup_y(ay);
    std::vector<std::string> names;
    for (const Layout& l : layouts) names.push_back(l.name + (l.model ? " (this model)" : ""));
    p.setup_legend_above(names);
    for (std::size_t i = 0; i < layouts.size(); ++i) {
        if (d.values[i].empty()) continue;
        p.line(d.frame.data(), d.values[i].data(), d.values[i].size(), 1, layout_colour(st.theme, i), names[i],
               sub.line_width * (layouts[i].model ? 1.8f : 1.0f), layout_dash(i));
    }
    if (d.frame.size() > 1) p.marker_x(query_frame, st.theme.text.with_alpha(0.45f), "query frame", 1.0f, 3);  // the query's own frame, named
    record_geometry(ctx, p, VideoPlot::time);
    p.finish();
}

// 1 s to 2 hours, 48 lengths on a log scale.
std::vector<double> budget_seconds() {
    std::vector<double> s;
    for (int i = 0; i <= 48; ++i) s.push_back(std::pow(10.0, std::log10(7200.0) * i / 48.0));
    return s;
}

// The first of `seconds` from which curve b lies on curve a (within 1%) to the end, if that is at
// least a quarter of them (where one would hide the other); else none.
std::optional<std::size_t> lies_on(const std::vector<double>& a, const std::vector<double>& b) {
    std::size_t from = a.size();
    while (from > 0 && std::abs(a[from - 1] - b[from - 1]) <= 0.01 * std::max(std::abs(a[from - 1]), 1.0)) --from;
    if (a.size() - from < std::max<std::size_t>(2, a.size() / 4)) return std::nullopt;
    return from;
}

// Curves that lie on an earlier one: the earlier one is covered (drawn wide and pale beneath, so
// both show), and the later one is named on the stretch they share ("VideoRoPE = seconds × 2"), in
// the plot (the legend keeps its short names: beside a small plot, a long one would take its room).
struct Coinciding {
    std::vector<bool> covered;
    struct Note {
        std::string text;
        double x = 0, y = 0;  // the middle of the shared stretch (log x)
        plot::Color colour;
    };
    std::vector<Note> notes;
};
template <typename Curve>
Coinciding coinciding(const std::vector<Curve>& curves, const std::vector<double>& seconds) {
    Coinciding c;
    c.covered.assign(curves.size(), false);
    for (std::size_t b = 1; b < curves.size(); ++b)
        for (std::size_t a = 0; a < b; ++a)
            if (const std::optional<std::size_t> from = lies_on(curves[a].y, curves[b].y); from && !c.covered[a]) {
                const std::size_t mid = (*from + seconds.size() - 1) / 2;
                c.notes.push_back({curves[b].name + " = " + curves[a].name, seconds[mid], curves[b].y[mid], curves[b].colour});
                c.covered[a] = true;
                break;
            }
    return c;
}

void draw_budget(BuildContext& ctx, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    const std::vector<double> seconds = budget_seconds();
    VideoSpec spec = ctx.params.video_spec();
    spec.text_before = spec.text_after = 0;
    struct Curve {
        std::string name;
        std::vector<double> y;
        plot::Color colour;
        float dash;
    };
    std::vector<Curve> curves;
    for (const VideoTimeIds rule : {VideoTimeIds::frame_index, VideoTimeIds::seconds, VideoTimeIds::timestamps}) {
        VideoSpec s = spec;
        s.rule = rule;
        s.diagonal = false;
        std::vector<double> y;
        for (const VideoCost& c : video_costs(s, seconds)) y.push_back(c.ids);
        const std::size_t colour = rule == VideoTimeIds::frame_index ? 0 : rule == VideoTimeIds::seconds ? 2 : 4;
        const float dash = rule == VideoTimeIds::frame_index ? 0 : rule == VideoTimeIds::seconds ? 5 : 10;
        curves.push_back({detail::rule_words(rule, spec, detail::RuleWords::legend), y, th.series[colour], dash});
    }
    {
        VideoSpec s = spec;
        s.diagonal = true;
        std::vector<double> y;
        for (const VideoCost& c : video_costs(s, seconds)) y.push_back(c.ids);
        curves.push_back({"VideoRoPE", y, th.series[1], 2});
        VideoSpec t = spec;
        t.rule = VideoTimeIds::frame_index;
        t.diagonal = false;
        std::vector<double> tokens;
        for (const VideoCost& c : video_costs(t, seconds)) tokens.push_back(static_cast<double>(c.tokens));
        curves.push_back({"tokens", tokens, th.text, 16});
    }
    const Coinciding shared = coinciding(curves, seconds);
    const std::vector<bool>& covered = shared.covered;
    double hi = static_cast<double>(ctx.params[P::max_position]);
    const std::string context = plot::tick_label(hi, 1);
    for (const Curve& c : curves)
        for (double v : c.y) hi = std::max(hi, v);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"position ids a video uses, per rule (" + plot::tick_label(spec.fps, 0.01) + " fps, " + std::to_string(spec.rows) + " x " +
                                      std::to_string(spec.cols) + " patches a frame); dashed line: context " + context,
                                  "position budget; dashed line: context " + context, "budget, context " + context}));
    plot::AxisSetup ax{"video length (seconds, log)", 1, 7200, true};
    plot::AxisSetup ay{"position ids used (log)", 1, hi * 2, true};
    p.setup_x(ax);
    p.setup_y(ay);
    // the curves rise to the right from low at 1 s, so a tall plot keeps its top left free for the
    // legend; a small one names them above it
    if (cell.height() >= st.px(420) && cell.width() >= st.px(360)) {
        p.setup_legend_top_left();
    } else {
        std::vector<std::string> names;
        for (const Curve& c : curves) names.push_back(c.name);
        p.setup_legend_above(names);
    }
    for (std::size_t i = 0; i < curves.size(); ++i)  // a curve another lies on: wide beneath it, so both show
        p.line(seconds.data(), curves[i].y.data(), curves[i].y.size(), 1, covered[i] ? curves[i].colour.with_alpha(0.45f) : curves[i].colour,
               curves[i].name, sub.line_width * (covered[i] ? 3.2f : 1.0f), covered[i] ? 0.0f : curves[i].dash);
    for (const Coinciding::Note& n : shared.notes) p.text(n.x, n.y, n.text, n.colour, plot::HAlign::left, plot::VAlign::top);
    // the context, a reference line its title names (a label on it would cross the curves)
    p.hline(static_cast<double>(ctx.params[P::max_position]), th.marker, "", 1.5f, 4);
    record_geometry(ctx, p, VideoPlot::budget);
    p.finish();
}

void write_table(BuildContext& ctx, const std::vector<Layout>& layouts, const TimeData& d) {
    DataTable& t = ctx.result.table;
    t.columns = {"layout", "temporal_patch", "similarity"};
    t.values.assign(t.columns.size(), {});
    t.words = {detail::layout_names(layouts)};
    for (std::size_t i = 0; i < layouts.size(); ++i)
        for (std::size_t f = 0; f < d.values[i].size(); ++f) {
            t.values[0].push_back(static_cast<double>(i));
            t.values[1].push_back(d.frame[f]);
            t.values[2].push_back(d.values[i][f]);
        }
}

void build_video(BuildContext& ctx) {
    const std::vector<Layout> layouts = detail::video_layouts(ctx.params);
    const TimeData data = time_data(ctx.params, layouts);
    const float W = ctx.request.width, H = ctx.request.height;
    const float top = why::title_space(ctx);
    const bool wide = W >= (H - top) * 1.3f;
    const float mid_x = W * 0.55f, mid_y = top + (H - top) * 0.55f;
    const SubplotFit fit = fit_plots(ctx, {0, top, W, H},
                                     {wide ? plot::Rect{0, top, mid_x, H} : plot::Rect{0, top, W, mid_y},
                                      wide ? plot::Rect{mid_x, top, W, H} : plot::Rect{0, mid_y, W, H}});
    if (fit.shows(VideoPlot::time)) draw_time(ctx, layouts, data, fit.cell(VideoPlot::time));
    if (fit.shows(VideoPlot::budget)) draw_budget(ctx, fit.cell(VideoPlot::budget));
    if (ctx.request.with_table) write_table(ctx, layouts, data);
}

}  // namespace

const FigureDescriptor& video_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "video";
        f.title = "Video: frames and budget";
        f.page = 5;
        f.csv_columns = "layout,temporal_patch,similarity";
        f.plots = tagged_plots<VideoPlot>({
            {VideoPlot::time, {"video_time", "Similarity of a patch to the same patch in later frames, per layout", "over frames", PlotRole::main, AxisRole::other, AxisRole::other, 0, {240, 200}, 0, false, 1.5f, {"frames", "over time"}}},
            {VideoPlot::budget, {"video_budget", "Position ids a video uses against its tokens and the context", "position budget", PlotRole::supporting, AxisRole::other, AxisRole::other, 1, {240, 200}, 0, false, 1.5f, {"budget", "position ids"}}},
        });
        f.reads = model_and({P::rope_axes, P::mrope_section, P::mrope_section_interleaved, P::mrope_interleaved, P::grid_rows, P::grid_cols,
                             P::query_row, P::query_col, P::video_frames, P::temporal_patch_size, P::video_fps, P::tokens_per_second,
                             P::video_time_ids, P::video_spacing, P::video_seconds_cast, P::query_frame, P::text_before, P::text_after, P::max_position, P::vector, P::key_vector});
        f.describe = describe_video;
        f.build = build_video;
        // the similarity plot's legend above it (a row per two layouts): the plot keeps room for its
        // frame to hold "cosine similarity" uncut
        f.plot_needs = [](const ParamSet& params, const plot::Style& st) -> std::vector<std::pair<int, plot::Vec2>> {
            const float rows = std::ceil(static_cast<float>(detail::video_layouts(params).size()) / 2.0f);
            return {{static_cast<int>(VideoPlot::time), {0, st.px(185 + 22 * rows)}}};
        };
        return f;
    }();
    return d;
}

}  // namespace rope::figures
