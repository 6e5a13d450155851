// M-RoPE position ids: the table of (t, h, w) for text_before text tokens, one grid_rows x grid_cols
// image and text_after text tokens (rope::mrope_sequence, transformers' get_rope_index), one column
// per token, with a fourth row, the 1D RoPE position (the token's index), for contrast: the text
// after the image resumes at text_before + max(rows, cols), not at its index. Long images keep the
// first row of patches and the last patch, with "…" for the patches between; the table wraps into
// bands when the panel is narrow.
#include <algorithm>
#include <cmath>

#include "figures/position_axes.hpp"
#include "figures/why_common.hpp"
#include "plot/ticks.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::position_axis_color;
namespace why = detail::why;
using plot::Color;

enum class IdsPlot { table };
constexpr int kEllipsis = -1;

// The tokens shown, in order (kEllipsis: a "…" column for the tokens left out), at most `capacity`
// columns: every token if they fit; else the text before, the image's first row, "…", the last
// patch and the text after, with long text and then the first row cut down until it fits.
std::vector<int> shown_columns(int text_before, int rows, int cols, int text_after, int capacity) {
    const int total = text_before + rows * cols + text_after;
    std::vector<int> all(static_cast<std::size_t>(total));
    for (int i = 0; i < total; ++i) all[static_cast<std::size_t>(i)] = i;
    if (total <= capacity) return all;
    const int last_patch = text_before + rows * cols - 1;
    int before = text_before, first_row = std::min(cols, rows * cols - 1), after = text_after;
    auto count = [&] { return (before < text_before ? 1 : 0) + before + first_row + 1 + 1 + after + (after < text_after ? 1 : 0); };
    // long runs of text first (two tokens each side show the pattern), then the first row down to
    // two patches, then the rest of the text, then the first row down to one
    auto trim_text = [&](int keep) {
        while (count() > capacity && (before > keep || after > keep)) {
            if (before >= after && before > keep) --before;
            else --after;
        }
    };
    trim_text(2);
    while (count() > capacity && first_row > 2) --first_row;
    trim_text(0);
    while (count() > capacity && first_row > 1) --first_row;
    // a "…" takes a column: where it would stand for one token, that token is shown instead
    if (before == text_before - 1) before = text_before;
    if (after == text_after - 1) after = text_after;
    if (text_before + first_row == last_patch - 1) ++first_row;
    std::vector<int> v;
    if (before < text_before) v.push_back(kEllipsis);
    for (int i = text_before - before; i < text_before; ++i) v.push_back(i);
    for (int i = 0; i < first_row; ++i) v.push_back(text_before + i);
    if (text_before + first_row < last_patch) v.push_back(kEllipsis);
    v.push_back(last_patch);
    for (int i = 0; i < after; ++i) v.push_back(last_patch + 1 + i);
    if (after < text_after) v.push_back(kEllipsis);
    return v;
}

struct Layout {
    float size = 14;        // type
    float col_w = 0, head_w = 0, row_h = 0;
    int per_band = 1, bands = 1;
    std::vector<int> columns;
};

// The sequence the table shows: text_before text tokens, one rows x cols image, text_after text tokens.
struct Sequence {
    int text_before = 0, text_after = 0;
    int rows = 0, cols = 0;
    std::vector<SequenceToken> tokens{};
    int total = 0;
    std::int64_t resume = 0;  // the position the text after the image resumes at
};

Sequence sequence_of(const ParamSet& params) {
    Sequence s;
    s.text_before = static_cast<int>(params[P::text_before]), s.text_after = static_cast<int>(params[P::text_after]);
    s.rows = static_cast<int>(params[P::grid_rows]), s.cols = static_cast<int>(params[P::grid_cols]);
    s.tokens = mrope_sequence(s.text_before, s.rows, s.cols, s.text_after);
    s.total = static_cast<int>(s.tokens.size());
    const std::int64_t t0 = s.text_before;
    s.resume = t0 + std::max(s.rows, s.cols);
    return s;
}

void fill_position_ids_table(BuildContext& ctx, const Sequence& s) {
    DataTable& t = ctx.result.table;
    t.columns = {"index", "kind", "row", "col", "t", "h", "w", "index_1d"};
    t.values.assign(t.columns.size(), {});
    for (int i = 0; i < s.total; ++i) {
        const SequenceToken& k = s.tokens[static_cast<std::size_t>(i)];
        const double row[8] = {static_cast<double>(i), k.kind == TokenKind::image ? 1.0 : 0.0, static_cast<double>(k.row), static_cast<double>(k.col),
                               static_cast<double>(k.id.t), static_cast<double>(k.id.h), static_cast<double>(k.id.w), static_cast<double>(i)};
        for (int c = 0; c < 8; ++c) t.values[static_cast<std::size_t>(c)].push_back(row[c]);
    }
}

// the notes under the table: whose ids these are, what an image costs, and the image's ranges
struct TableNotes {
    std::string model;  // "" for a model that uses M-RoPE
    std::string ranges, cost;
    float height = 0;  // all of them, wrapped to the figure's width
};

TableNotes table_notes(BuildContext& ctx, const Sequence& s) {
    const plot::Theme& th = ctx.request.style.theme;
    const float W = ctx.request.width;
    const int rows = s.rows, cols = s.cols;
    const std::int64_t t0 = s.text_before, resume = s.resume;
    TableNotes n;
    n.ranges = "Image of " + std::to_string(rows) + " × " + std::to_string(cols) + " patches: t = " + std::to_string(t0) +
               ", h = " + std::to_string(t0) + ".." + std::to_string(t0 + rows - 1) + ", w = " + std::to_string(t0) + ".." +
               std::to_string(t0 + cols - 1) + " (patch (r, c) has h = " + std::to_string(t0) + " + r, w = " +
               std::to_string(t0) + " + c; text has t = h = w).";
    n.cost = "An image costs max(rows, cols) = " + std::to_string(std::max(rows, cols)) + " positions, not its rows × cols = " +
             std::to_string(rows * cols) + " tokens: " +
             (s.text_after > 0 ? "the text after it resumes at " + std::to_string(resume) + ", not at its token index " +
                                     std::to_string(s.text_before + rows * cols) + "."
                               : "text after it would resume at " + std::to_string(resume) + ".");
    const RopeAxes axes = ctx.params[P::rope_axes];
    if (axes != RopeAxes::mrope)
        n.model = "This model does not use M-RoPE (rope_axes = " + ctx.params.value_text(P::rope_axes) + ": " +
                  (axes == RopeAxes::axial_2d ? "a patch turns with its row and column, no t" : "one position per token") +
                  "): these are the ids Qwen2-VL's M-RoPE gives this sequence.";
    n.height = why::wrapped_caption(ctx, n.cost, 0, W, 0, th.text, false) + why::wrapped_caption(ctx, n.ranges, 0, W, 0, th.text, false) +
               (n.model.empty() ? 0.0f : why::wrapped_caption(ctx, n.model, 0, W, 0, th.text, false));
    return n;
}

// The notes right under the table, their top at notes_top.
void draw_notes(BuildContext& ctx, const TableNotes& notes, float notes_top) {
    const plot::Theme& th = ctx.request.style.theme;
    const float W = ctx.request.width;
    const float model_h = notes.model.empty() ? 0.0f : why::wrapped_caption(ctx, notes.model, 0, W, 0, th.text, false);
    if (model_h > 0) why::wrapped_caption(ctx, notes.model, 0, W, notes_top + model_h, th.accent);
    const float cost_h = why::wrapped_caption(ctx, notes.cost, 0, W, 0, th.text, false);
    why::wrapped_caption(ctx, notes.cost, 0, W, notes_top + model_h + cost_h, th.text);
    why::wrapped_caption(ctx, notes.ranges, 0, W, notes_top + notes.height, th.muted);
}

// The rows' heads, and the short ones where the full ones do not fit.
struct RowHeads {
    std::vector<std::string> full{"t (time)", "h (row)", "w (column)", "1D RoPE (token index)"};
    std::vector<std::string> short_heads{"t", "h", "w", "1D"};
};

// Lays the table out in area `a` at type `size` with `head_texts`; true if its bands fit the height.
bool fit_layout(Layout& L, const plot::TextMeasure& measure, const Sequence& s, plot::Rect a, float size,
                const std::vector<std::string>& head_texts) {
    L.size = size;
    L.head_w = 0;
    for (const std::string& h : head_texts) L.head_w = std::max(L.head_w, measure.measure(h, size).x);
    L.head_w = std::max(L.head_w, measure.measure("token", size * 0.9f).x);
    L.head_w += size;
    const std::string widest_number = std::to_string(std::max<std::int64_t>(s.total, s.resume + s.text_after));
    L.col_w = std::max({measure.measure("(" + std::to_string(s.rows - 1) + ", " + std::to_string(s.cols - 1) + ")", size).x,
                        measure.measure(widest_number, size).x, measure.measure("text", size).x}) +
              size * 0.9f;
    L.row_h = size * 1.7f;
    L.per_band = std::max(1, static_cast<int>((a.width() - L.head_w) / L.col_w));
    const float band_h = L.row_h * 5 + size * 0.8f;
    const int max_bands = std::max(1, static_cast<int>(a.height() / band_h));
    L.columns = shown_columns(s.text_before, s.rows, s.cols, s.text_after, L.per_band * std::min(max_bands, 3));
    L.bands = (static_cast<int>(L.columns.size()) + L.per_band - 1) / L.per_band;
    return L.bands <= max_bands;
}

// type and columns: the tick size (readable projected), smaller only down to the smallest text
Layout table_layout(BuildContext& ctx, const Sequence& s, const RowHeads& heads, plot::Rect a) {
    const plot::Style& st = ctx.request.style;
    Layout L;
    auto fit = [&](float size, const std::vector<std::string>& head_texts) { return fit_layout(L, ctx.measure, s, a, size, head_texts); };
    // the largest type (up to 1.5 x the axis labels') at which the table fits and keeps the image's first row
    const float big = st.px(st.label_font), small = std::max(st.px(st.min_text), st.px(st.tick_font) * 0.85f);
    const int first_row_end = s.text_before + std::min(s.cols, s.rows * s.cols) - 1;
    auto keeps_first_row = [&] { return std::find(L.columns.begin(), L.columns.end(), first_row_end) != L.columns.end(); };
    bool done = false;
    for (float f : {1.5f, 1.3f, 1.15f, 1.0f})
        if (!done && fit(big * f, heads.full) && keeps_first_row()) done = true;
    if (!done && !fit(big, heads.full) && !fit(st.px(st.tick_font), heads.full)) fit(small, heads.short_heads);
    if (L.head_w > a.width() * 0.35f) fit(L.size, heads.short_heads);
    return L;
}

// The heads of a band's rows (its top at y0): "token", then t, h, w and the 1D index.
void draw_row_heads(BuildContext& ctx, plot::Plot& p, const Layout& L, const RowHeads& heads, plot::Rect a, float y0) {
    const plot::Theme& th = ctx.request.style.theme;
    p.list().text({a.x0 + L.head_w - L.size * 0.5f, y0 + L.row_h / 2}, "token", L.size * 0.9f, th.muted, plot::HAlign::right, plot::VAlign::middle);
    const std::vector<std::string>& hs = L.head_w > ctx.measure.measure(heads.full[3], L.size).x ? heads.full : heads.short_heads;
    for (int r = 0; r < 4; ++r) {
        const Color c = r < 3 ? position_axis_color(th, static_cast<PositionAxis>(r)) : th.text;
        p.list().text({a.x0 + L.head_w - L.size * 0.5f, y0 + L.row_h * (static_cast<float>(r) + 1.5f)}, hs[static_cast<std::size_t>(r)], L.size, c,
                      plot::HAlign::right, plot::VAlign::middle);
    }
}

// One token's column (its left edge at x0): its patch or "text", then its t, h, w and index; "…"
// for the tokens left out.
void draw_token_column(BuildContext& ctx, plot::Plot& p, const Sequence& s, const Layout& L, int index, float x0, float y0) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const float xc = x0 + L.col_w / 2;
    if (index == kEllipsis) {
        p.list().text({xc, y0 + L.row_h * 2.5f}, "…", L.size * 1.3f, th.muted, plot::HAlign::center, plot::VAlign::middle);
        return;
    }
    const Color text_band = th.muted.with_alpha(0.14f), image_band = position_axis_color(th, PositionAxis::h).with_alpha(0.16f);
    const SequenceToken& tok = s.tokens[static_cast<std::size_t>(index)];
    const bool image = tok.kind == TokenKind::image;
    p.list().rect({x0 + st.px(1), y0 + st.px(1), x0 + L.col_w - st.px(1), y0 + L.row_h * 5 - st.px(1)}, image ? image_band : text_band);
    const std::string head = image ? "(" + std::to_string(tok.row) + ", " + std::to_string(tok.col) + ")" : "text";
    p.list().text({xc, y0 + L.row_h / 2}, head, L.size * 0.9f, th.text, plot::HAlign::center, plot::VAlign::middle);
    const std::int64_t values[4] = {tok.id.t, tok.id.h, tok.id.w, index};
    for (int r = 0; r < 4; ++r)
        p.list().text({xc, y0 + L.row_h * (static_cast<float>(r) + 1.5f)}, std::to_string(values[r]), L.size,
                      th.text, plot::HAlign::center, plot::VAlign::middle);
}

// Band b of the table, its top at y0: the row heads, then the band's share of the columns.
void draw_band(BuildContext& ctx, plot::Plot& p, const Sequence& s, const Layout& L, const RowHeads& heads, plot::Rect a, int b, float y0) {
    const plot::Style& st = ctx.request.style;
    draw_row_heads(ctx, p, L, heads, a, y0);
    const int from = b * L.per_band, to = std::min(static_cast<int>(L.columns.size()), from + L.per_band);
    for (int k = from; k < to; ++k) {
        const float x0 = a.x0 + L.head_w + L.col_w * static_cast<float>(k - from);
        draw_token_column(ctx, p, s, L, L.columns[static_cast<std::size_t>(k)], x0, y0);
    }
    // a line between the ids and the 1D row
    const float xr = a.x0 + L.head_w + L.col_w * static_cast<float>(to - from);
    p.list().segment({a.x0, y0 + L.row_h * 4}, {xr, y0 + L.row_h * 4}, st.theme.axis, st.px(1));
}

void build_position_ids(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const float W = ctx.request.width, H = ctx.request.height;
    const float top = why::title_space(ctx);
    const Sequence seq = sequence_of(ctx.params);
    if (ctx.request.with_table) fill_position_ids_table(ctx, seq);
    const TableNotes notes = table_notes(ctx, seq);

    const plot::Style sub = why::sub_style(st);
    const plot::Rect cell{0, top, W, H - notes.height - st.px(6)};
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, W,
                                 {"(t, h, w) of each token: " + std::to_string(seq.text_before) + " text, a " + std::to_string(seq.rows) +
                                      " × " + std::to_string(seq.cols) + " image, " + std::to_string(seq.text_after) +
                                      " text (get_rope_index)",
                                  "(t, h, w) of each token", "position ids"}));
    plot::AxisSetup ax{"", 0, 1}, ay{"", 1, 0};
    p.setup_x(ax);
    p.setup_y(ay);
    p.setup_no_axes();
    const plot::Rect a = p.area();
    const RowHeads heads;
    const Layout L = table_layout(ctx, seq, heads, a);

    const float band_h = L.row_h * 5 + L.size * 0.8f;
    // the table and its notes as one block, centred in what is left below the caption
    const float table_h = band_h * static_cast<float>(L.bands);
    const float y_start = a.y0 + st.px(4) + std::max(0.0f, (H - a.y0 - table_h - notes.height - st.px(16)) / 2);
    for (int b = 0; b < L.bands; ++b) draw_band(ctx, p, seq, L, heads, a, b, y_start + band_h * static_cast<float>(b));
    PlotGeometry g = detail::plot_geometry(ctx, IdsPlot::table);
    g.area = {a.x0, y_start, a.x1, y_start + band_h * static_cast<float>(L.bands)};
    g.frame = p.outer();
    ctx.result.plots.push_back(g);
    p.finish();
    // the notes right under the table
    draw_notes(ctx, notes, std::min(y_start + band_h * static_cast<float>(L.bands) + st.px(6), H - notes.height - st.px(4)));
}

}  // namespace

const FigureDescriptor& position_ids_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "position_ids";
        f.title = "M-RoPE position ids";
        f.page = 4;
        f.export_width = 1200;
        f.export_height = 560;
        f.csv_columns = "index,kind,row,col,t,h,w,index_1d";
        f.plots = {
            {"position_ids", "Position ids (t, h, w) of text, an image and text", "position ids", PlotRole::table, AxisRole::other, AxisRole::other, 0, {240, 120}, 0, true, 4.0f, {"position id"}},
        };
        f.reads = {P::text_before, P::text_after, P::grid_rows, P::grid_cols, P::rope_axes};
        f.build = build_position_ids;
        f.draws_nope = true;  // position ids are the same whatever the frequencies
        return f;
    }();
    return d;
}

}  // namespace rope::figures
