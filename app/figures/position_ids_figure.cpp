// M-RoPE position ids: the table of (t, h, w) for text_before text tokens, one grid_rows x grid_cols
// image and text_after text tokens (rope::mrope_sequence, transformers' get_rope_index), one column
// per token, with a fourth row, the 1D RoPE position (the token's index), for contrast: the text
// after the image resumes at text_before + max(rows, cols), not at its index. Long images keep the
// first row of patches and the last patch, with "…" for the patches between; the table wraps into
// bands when the panel is narrow.
#include <algorithm>
#include <cmath>

#include "figures/alt_text.hpp"
#include "figures/position_axes.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/why_common.hpp"
#include "plot/ticks.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::position_axis_color;
namespace why = detail::why;
using plot::Color;

enum class IdsPlot { table, id_grid };
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
    bool keeps_first_row = false;  // at one of its preferred sizes, the image's first row whole
    float band_h() const { return row_h * 5 + size * 0.8f; }
    float height() const { return band_h() * static_cast<float>(bands); }
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
    t.words = {{}, {"text", "image"}};  // compute position-ids' words for them
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

// All of the notes, wrapped to a column [x0, x1].
float notes_height(BuildContext& ctx, const TableNotes& n, float x0, float x1) {
    const plot::Color c = ctx.request.style.theme.text;
    return why::wrapped_caption(ctx, n.cost, x0, x1, 0, c, false) + why::wrapped_caption(ctx, n.ranges, x0, x1, 0, c, false) +
           (n.model.empty() ? 0.0f : why::wrapped_caption(ctx, n.model, x0, x1, 0, c, false));
}

TableNotes table_notes(BuildContext& ctx, const Sequence& s) {
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
    if (axes == RopeAxes::flux)
        n.model = "This model does not use M-RoPE: FLUX.1 puts every text token at (0, 0, 0) and patch (r, c) at (0, r, c) "
                  "(compute position-ids lists them); these are the ids Qwen2-VL's M-RoPE gives this sequence.";
    else if (axes == RopeAxes::ernie_3d)
        n.model = "ERNIE-4.5-VL numbers an image as M-RoPE does (its get_rope_index); its pairs take the axes differently: "
                  "h and w alternate over the fast pairs, t has the slowest (compute axes lists them).";
    else if (axes != RopeAxes::mrope)
        n.model = std::string("This model does not use M-RoPE (") +  // in words, not rope_axes' code (2d_axial)
                  (axes == RopeAxes::axial_2d ? "2D axial positions: a patch turns with its row and column, no t"
                   : axes == RopeAxes::videorope ? "VideoRoPE's diagonal positions"
                                                 : "1D positions: one position per token") +
                  "): these are the ids Qwen2-VL's M-RoPE gives this sequence.";
    if (ctx.request.style.compact) n.ranges.clear();  // a phone's column: the table says them (and the readout)
    n.height = notes_height(ctx, n, 0, W);
    return n;
}

// The notes in a column [x0, x1], their top at notes_top: under the table across the figure, or
// beside the id grid. Those that would pass `bottom` are left out, the image's ranges first (the
// table above says them too), then the cost.
void draw_notes(BuildContext& ctx, const TableNotes& notes, float x0, float x1, float notes_top, float bottom) {
    const plot::Theme& th = ctx.request.style.theme;
    float y = notes_top;
    for (const auto& [text, colour] : {std::pair<const std::string*, plot::Color>{&notes.model, th.accent}, {&notes.cost, th.text},
                                       {&notes.ranges, th.muted}}) {
        if (text->empty()) continue;
        const float h = why::wrapped_caption(ctx, *text, x0, x1, 0, colour, false);
        if (y + h > bottom + 0.5f) return;
        why::wrapped_caption(ctx, *text, x0, x1, y + h, colour);
        y += h;
    }
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
    // one band at least must fit the height too: a band taller than the cell puts its last rows
    // below it (the lower half of model B's stacked tables)
    return L.bands <= max_bands && band_h <= a.height() + 0.5f;
}

// type and columns: the tick size (readable projected), smaller only down to the smallest text
Layout table_layout(BuildContext& ctx, const Sequence& s, const RowHeads& heads, plot::Rect a) {
    const plot::Style& st = ctx.request.style;
    Layout L;
    auto fit = [&](float size, const std::vector<std::string>& head_texts) { return fit_layout(L, ctx.measure, s, a, size, head_texts); };
    // the largest type (up to 1.5 x the axis labels') at which the table fits and keeps the image's first row
    // (a phone's column: the token row's head, 0.9 of the type, no smaller than the smallest text either)
    const float big = st.px(st.label_font), small = std::max(st.px(st.min_text) / (st.compact ? 0.9f : 1.0f), st.px(st.tick_font) * 0.85f);
    const int first_row_end = s.text_before + std::min(s.cols, s.rows * s.cols) - 1;
    auto first_row_shown = [&] { return std::find(L.columns.begin(), L.columns.end(), first_row_end) != L.columns.end(); };
    bool done = false;
    // (a phone's column: the largest type that fits, its first row or not: the columns left out show as …)
    for (float f : {1.5f, 1.3f, 1.15f, 1.0f})
        if (!done && fit(big * f, heads.full) && (first_row_shown() || st.compact)) done = true;
    if (!done && !fit(big, heads.full) && !fit(st.px(st.tick_font), heads.full)) fit(small, heads.short_heads);
    if (L.head_w > a.width() * 0.35f) fit(L.size, heads.short_heads);
    L.keeps_first_row = done && first_row_shown();
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
    const double values[4] = {tok.id.t, tok.id.h, tok.id.w, static_cast<double>(index)};
    for (int r = 0; r < 4; ++r)
        p.list().text({xc, y0 + L.row_h * (static_cast<float>(r) + 1.5f)}, detail::id_text(values[r]), L.size,
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

// The height a bare plot's margins and caption take above and below its area.
float plot_chrome(const plot::Style& sub) {
    const bool titled = sub.draw_titles && sub.draw_captions;
    return sub.px(8) * 2 + sub.px(2) + (titled ? sub.px(sub.title_font) * 1.5f : 0);
}

// The table in `cell`, centred in it; returns its type and where it ends.
struct DrawnTable {
    float bottom = 0, type = 0;
};

DrawnTable draw_table(BuildContext& ctx, const Sequence& seq, const RowHeads& heads, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Style sub = why::sub_style(st);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"(t, h, w) of each token: " + std::to_string(seq.text_before) + " text, a " + std::to_string(seq.rows) +
                                      " × " + std::to_string(seq.cols) + " image, " + std::to_string(seq.text_after) +
                                      " text (get_rope_index)",
                                  "(t, h, w) of each token", "position ids"}));
    plot::AxisSetup ax{"", 0, 1}, ay{"", 1, 0};
    p.setup_x(ax);
    p.setup_y(ay);
    p.setup_no_axes();
    const plot::Rect a = p.area();
    const Layout L = table_layout(ctx, seq, heads, a);
    const float y_start = a.y0 + st.px(4) + std::max(0.0f, (cell.y1 - a.y0 - L.height() - st.px(10)) / 2);
    for (int b = 0; b < L.bands; ++b) draw_band(ctx, p, seq, L, heads, a, b, y_start + L.band_h() * static_cast<float>(b));
    PlotGeometry g = detail::plot_geometry(ctx, IdsPlot::table);
    g.area = {a.x0, y_start, a.x1, y_start + L.height()};
    g.frame = p.outer();
    ctx.result.plots.push_back(g);
    p.finish();
    return {y_start + L.height(), L.size};
}

// ---- the id grid: the image's patches as rows x cols cells with their (h, w) ids, the text tokens
// before and after it as a row of cells each, so that the ids are seen running along rows and
// columns and the text after resuming at the largest id + 1.

// Pieces of text in their own colours, one after another on a line.
struct Run {
    std::string text;
    Color color;
};

float runs_width(const plot::TextMeasure& measure, const std::vector<Run>& runs, float size) {
    float w = 0;
    for (const Run& r : runs) w += measure.measure(r.text, size).x;
    return w;
}

// The runs with their left end at x (centred on x when `centred`), their middle at y.
void draw_runs(BuildContext& ctx, const std::vector<Run>& runs, float x, float y, float size, bool centred) {
    if (centred) x -= runs_width(ctx.measure, runs, size) / 2;
    for (const Run& r : runs) {
        ctx.result.list.text({x, y}, r.text, size, r.color, plot::HAlign::left, plot::VAlign::middle);
        x += ctx.measure.measure(r.text, size).x;
    }
}

// The text tokens a row of cells shows, from token `first` on, `count` of them (kEllipsis for the
// ones left out): up to four; else the first, "…" and the last two before an image (the ones next
// to it), the first two, "…" and the last after it.
std::vector<int> text_cells(int first, int count, bool before_image) {
    std::vector<int> v;
    if (count <= 4) {
        for (int i = 0; i < count; ++i) v.push_back(first + i);
        return v;
    }
    const int last = first + count - 1;
    if (before_image) return {first, kEllipsis, last - 1, last};
    return {first, first + 1, kEllipsis, last};
}

// 1, 2, 5, 10, 20, 50 ...: the first at least `n`
int nice_step(int n) {
    for (int base = 1;; base *= 10)
        for (int m : {1, 2, 5})
            if (m * base >= n) return m * base;
}

struct IdGridLayout {
    float cell = 0;             // a patch's side; 0: the grid has no room
    float text_cell = 0;        // a text token's side: the patches' or, when they are small, its number's room
    float size = 0;             // the type of the ids along the edges and in the text cells
    float cell_type = 0;        // the ids' type inside a patch; 0: patches are coloured by h and w instead, with a key
    int h_step = 1, w_step = 1;  // an id every h_step rows and w_step columns along the grid's edges
    std::vector<int> before, after;  // the text tokens shown (kEllipsis for "…")
    float head_w = 0, head_h = 0;    // the column of h ids left of the grid, the row of w ids above it
    float gap = 0;                   // between the text cells and the grid
    float before_w = 0;              // the text before and its gap
    float above = 0;                 // how far the label of the text after rises above the w ids' row
    float key_h = 0;
    std::string after_label;
    std::vector<Run> key;
    plot::Vec2 extent;  // the whole drawing
    bool ids_in_cells() const { return cell_type > 0; }
};

// The largest type (up to `largest`, not below `smallest`) at which "h, w" fits in a patch; 0 if none.
float type_in_patch(const plot::TextMeasure& measure, const std::string& widest_ids, float cell, float smallest, float largest) {
    const float at_smallest = measure.measure(widest_ids, smallest).x;
    const float size = std::min({largest * 1.5f, cell / 1.7f, smallest * cell * 0.82f / std::max(1.0f, at_smallest)});
    return size >= smallest ? size : 0.0f;
}

// The drawing's width and height with patches `cell` wide (and the layout's other parts set for it).
plot::Vec2 id_grid_extent(IdGridLayout& G, const plot::TextMeasure& measure, const Sequence& s, float cell, float largest_type,
                          const std::string& widest_ids) {
    G.cell = cell;
    G.cell_type = type_in_patch(measure, widest_ids, cell, G.size, largest_type);
    const float number_room = measure.measure(std::to_string(s.resume + s.text_after), G.size).x + G.size * 0.8f;
    G.text_cell = std::max({cell, number_room, G.size * 1.6f});
    G.key_h = G.ids_in_cells() ? 0.0f : G.size * 2.0f;
    const float key_w = G.ids_in_cells() ? 0.0f : G.size * 1.6f + runs_width(measure, G.key, G.size);
    const float label_h = G.size * 1.5f, tc = G.text_cell, rows_h = cell * static_cast<float>(s.rows);
    G.before_w = G.before.empty() ? 0.0f : tc * static_cast<float>(G.before.size()) + G.gap;
    const float after_w = G.after.empty() ? 0.0f : G.gap + std::max(tc * static_cast<float>(G.after.size()), measure.measure(G.after_label, G.size).x);
    const float grid_w = G.head_w + cell * static_cast<float>(s.cols);
    G.above = G.after.empty() ? 0.0f : std::max(0.0f, label_h + tc - rows_h - G.head_h);
    const float below = std::max({rows_h, G.before.empty() ? 0.0f : tc}) + G.key_h;
    // the key goes along under everything, from the drawing's left edge
    return {std::max(G.before_w + grid_w + after_w, key_w), G.above + G.head_h + below};
}

// The id grid's layout in `room` (its plot's area): the largest patches (up to a few lines of the
// table's type `largest_type`) with which the drawing fits; cell 0 when even 3-pixel patches do not.
IdGridLayout id_grid_layout(const BuildContext& ctx, const Sequence& s, plot::Vec2 room, float largest_type) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::TextMeasure& m = ctx.measure;
    IdGridLayout G;
    G.size = st.px(st.tick_font);
    G.before = text_cells(0, s.text_before, true);
    G.after = text_cells(s.text_before + s.rows * s.cols, s.text_after, false);
    const std::int64_t t0 = s.text_before;
    const std::string widest_h = std::to_string(t0 + s.rows - 1), widest_w = std::to_string(t0 + s.cols - 1);
    G.head_w = m.measure(widest_h, G.size).x + G.size * 0.7f;
    G.head_h = G.size * 1.5f;
    G.gap = G.size * 1.2f;
    const Color h_color = position_axis_color(th, PositionAxis::h), w_color = position_axis_color(th, PositionAxis::w);
    const std::vector<std::vector<Run>> keys{
        {{"upper half: ", th.text}, {"h", h_color}, {", lower half: ", th.text}, {"w", w_color}, {"; darker: a larger id", th.text}},
        {{"upper: ", th.text}, {"h", h_color}, {", lower: ", th.text}, {"w", w_color}, {"; darker: larger", th.text}}};
    const std::string resume = std::to_string(s.resume);
    float cell = std::min((room.y - G.head_h) / static_cast<float>(s.rows), largest_type * 7);
    const std::vector<std::string> labels{"text after: resumes at " + resume + " = largest id + 1", "resumes at " + resume + " = largest id + 1",
                                          "resumes at " + resume};
    for (float c = cell; c >= st.px(3); c *= 0.96f) {
        for (std::size_t k = 0; k < labels.size() * keys.size(); ++k) {  // the longest words that leave the patches this large
            G.after_label = labels[k % labels.size()];
            G.key = keys[k / labels.size()];
            const plot::Vec2 e = id_grid_extent(G, m, s, c, largest_type, widest_h + ", " + widest_w);
            if (e.x <= room.x && e.y <= room.y) {
                G.extent = e;
                G.h_step = nice_step(static_cast<int>(std::ceil(G.size * 1.15f / c)));
                G.w_step = nice_step(static_cast<int>(std::ceil((m.measure(widest_w, G.size).x + G.size * 0.6f) / c)));
                return G;
            }
        }
    }
    G.cell = 0;
    return G;
}

// A row of text tokens' cells from (x, y), each `side` square: its number (t = h = w), or "…".
void draw_text_cells(BuildContext& ctx, const Sequence& s, const std::vector<int>& tokens, float x, float y, float side, float size) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const float x0 = x + side * static_cast<float>(i);
        if (tokens[i] == kEllipsis) {
            ctx.result.list.text({x0 + side / 2, y + side / 2}, "…", size * 1.3f, th.muted, plot::HAlign::center, plot::VAlign::middle);
            continue;
        }
        ctx.result.list.rect({x0 + st.px(1), y + st.px(1), x0 + side - st.px(1), y + side - st.px(1)}, th.muted.with_alpha(0.14f));
        const double id = s.tokens[static_cast<std::size_t>(tokens[i])].id.t;
        ctx.result.list.text({x0 + side / 2, y + side / 2}, detail::id_text(id), size, th.text, plot::HAlign::center, plot::VAlign::middle);
    }
}

// A patch's cell: its ids written in it, or its upper-left half coloured by h and lower-right by w
// (the paler, the smaller the id).
void draw_patch(BuildContext& ctx, const Sequence& s, const IdGridLayout& G, int row, int col, plot::Rect r) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const Color h_color = position_axis_color(th, PositionAxis::h), w_color = position_axis_color(th, PositionAxis::w);
    const SequenceToken& tok = s.tokens[static_cast<std::size_t>(s.text_before + row * s.cols + col)];
    if (G.ids_in_cells()) {
        ctx.result.list.rect(r, h_color.with_alpha(0.16f));
        draw_runs(ctx, {{detail::id_text(tok.id.h), h_color}, {", ", th.muted}, {detail::id_text(tok.id.w), w_color}}, (r.x0 + r.x1) / 2,
                  (r.y0 + r.y1) / 2, G.cell_type, true);
        return;
    }
    auto shade = [](int i, int n) { return 0.12f + 0.78f * static_cast<float>(i) / static_cast<float>(std::max(1, n - 1)); };
    ctx.result.list.add(plot::PolygonCmd{{{r.x0, r.y0}, {r.x1, r.y0}, {r.x0, r.y1}}, h_color.with_alpha(shade(row, s.rows))});
    ctx.result.list.add(plot::PolygonCmd{{{r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}}, w_color.with_alpha(shade(col, s.cols))});
}

// The h ids down the grid's left edge and the w ids along its top, every h_step and w_step.
void draw_grid_edges(BuildContext& ctx, const Sequence& s, const IdGridLayout& G, float x0, float y0) {
    const plot::Theme& th = ctx.request.style.theme;
    const Color h_color = position_axis_color(th, PositionAxis::h), w_color = position_axis_color(th, PositionAxis::w);
    const float h_room = G.size * 1.15f, w_room = ctx.measure.measure(std::to_string(s.text_before + s.cols - 1), G.size).x + G.size * 0.6f;
    // every step-th id and the last one where it keeps clear of the one before
    auto shown = [](int i, int n, int step, float cell, float room) {
        return i % step == 0 || (i == n - 1 && static_cast<float>(i - (i / step) * step) * cell >= room);
    };
    for (int r = 0; r < s.rows; ++r)
        if (shown(r, s.rows, G.h_step, G.cell, h_room))
            ctx.result.list.text({x0 - G.size * 0.35f, y0 + G.cell * (static_cast<float>(r) + 0.5f)}, std::to_string(s.text_before + r), G.size,
                                 h_color, plot::HAlign::right, plot::VAlign::middle);
    for (int c = 0; c < s.cols; ++c)
        if (shown(c, s.cols, G.w_step, G.cell, w_room))
            ctx.result.list.text({x0 + G.cell * (static_cast<float>(c) + 0.5f), y0 - G.size * 0.25f}, std::to_string(s.text_before + c), G.size,
                                 w_color, plot::HAlign::center, plot::VAlign::bottom);
}

// The id grid in `cell`; returns the drawing's bottom.
float draw_id_grid(BuildContext& ctx, const Sequence& s, plot::Rect cell, float largest_type) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"The same ids on the image: h = " + std::to_string(s.text_before) + " + row down its rows, w = " +
                                      std::to_string(s.text_before) + " + column along them; text has t = h = w",
                                  "The ids on the image: h down its rows, w along them", "h down the rows, w along them", "id grid"}));
    plot::AxisSetup ax{"", 0, 1}, ay{"", 1, 0};
    p.setup_x(ax);
    p.setup_y(ay);
    p.setup_no_axes();
    const plot::Rect a = p.area();
    const IdGridLayout G = id_grid_layout(ctx, s, {a.width(), a.height()}, largest_type);
    const float x0 = a.x0 + (a.width() - G.extent.x) / 2, y0 = a.y0 + (a.height() - G.extent.y) / 2;
    const float grid_x = x0 + G.before_w + G.head_w, grid_y = y0 + G.above + G.head_h;
    const float grid_bottom = grid_y + G.cell * static_cast<float>(s.rows);
    const float inset = G.cell >= st.px(8) ? st.px(1) : 0.0f;  // patches apart where they are large enough
    for (int r = 0; r < s.rows; ++r)
        for (int c = 0; c < s.cols; ++c) {
            const float px0 = grid_x + G.cell * static_cast<float>(c), py0 = grid_y + G.cell * static_cast<float>(r);
            draw_patch(ctx, s, G, r, c, {px0 + inset, py0 + inset, px0 + G.cell - inset, py0 + G.cell - inset});
        }
    draw_grid_edges(ctx, s, G, grid_x, grid_y);
    // a text token's id in the type of the patches' ids where they are written (its cell is as large)
    const float text_type = G.ids_in_cells() ? G.cell_type : G.size;
    if (!G.before.empty()) {
        ctx.result.list.text({x0, grid_y - G.size * 0.25f}, "text", G.size, th.muted, plot::HAlign::left, plot::VAlign::bottom);
        draw_text_cells(ctx, s, G.before, x0, grid_y, G.text_cell, text_type);
    }
    if (!G.after.empty()) {
        const float ax0 = grid_x + G.cell * static_cast<float>(s.cols) + G.gap, ay0 = grid_bottom - G.text_cell;
        ctx.result.list.text({ax0, ay0 - G.size * 0.25f}, G.after_label, G.size, th.accent, plot::HAlign::left, plot::VAlign::bottom);
        draw_text_cells(ctx, s, G.after, ax0, ay0, G.text_cell, text_type);
    }
    if (!G.ids_in_cells()) {  // the key: a sample patch, then what its halves say
        const float side = G.size * 1.1f, ky = std::max(grid_bottom, grid_y + G.text_cell) + G.key_h / 2;
        draw_patch(ctx, s, G, s.rows / 2, s.cols / 2, {x0, ky - side / 2, x0 + side, ky + side / 2});
        draw_runs(ctx, G.key, x0 + side + G.size * 0.5f, ky, G.size, false);
    }
    PlotGeometry g = detail::plot_geometry(ctx, IdsPlot::id_grid);
    g.area = {x0, y0, x0 + G.extent.x, y0 + G.extent.y};
    g.frame = p.outer();
    ctx.result.plots.push_back(g);
    p.finish();
    return y0 + G.extent.y;
}

// The table's cell, the id grid's and the notes' (grid empty when it has no room). With the grid:
// the table across the top at the height it needs in half the room (else in what the grid's minimum
// leaves), if it keeps the image's first row there or shows all it would without the grid; under it
// the grid, and the notes in a column beside it or across under it, whichever leaves the larger
// patches. Without: the table, its notes under it across the figure.
struct IdsCells {
    plot::Rect table, grid, notes;
};

IdsCells ids_cells(BuildContext& ctx, const Sequence& seq, const RowHeads& heads, const TableNotes& notes, float top) {
    const plot::Style& st = ctx.request.style;
    const plot::Style sub = why::sub_style(st);
    const float W = ctx.request.width, H = ctx.request.height;
    const float chrome = plot_chrome(sub), pad = sub.px(8);
    const plot::Rect body{0, top, W, H - notes.height - st.px(6)};
    const IdsCells without{body, {}, {0, body.y1, W, H}};
    const PlotDescriptor& grid_d = ctx.figure().plots[static_cast<std::size_t>(IdsPlot::id_grid)];
    const plot::Vec2 grid_min{st.px(grid_d.min_size.x), st.px(grid_d.min_size.y)};
    const Layout whole = table_layout(ctx, seq, heads, {pad, 0, W - pad, body.height() - chrome - st.px(4)});
    IdsCells best = without;
    float best_cell = 0;
    // the notes in a column right of the grid (two widths), or across under it
    for (const float notes_x0 : {W * 0.6f, W * 0.5f, W}) {
        const bool beside = notes_x0 < W;
        const float column_h = beside ? notes_height(ctx, notes, notes_x0, W) + st.px(12) : 0.0f;
        const float under = beside ? 0.0f : notes.height + st.px(6);  // the notes' height under the grid
        for (float table_room : {(H - top - under) * 0.5f, H - top - under - std::max(grid_min.y, column_h)}) {
            const plot::Rect trial{pad, 0, W - pad, table_room - chrome - st.px(4)};
            if (trial.height() <= 0) continue;
            const Layout L = table_layout(ctx, seq, heads, trial);
            const bool as_in_body = L.size >= whole.size && L.columns.size() >= whole.columns.size();
            if (!(L.keeps_first_row || as_in_body) || L.height() > trial.height()) continue;
            const float table_bottom = top + chrome + st.px(4) + L.height();
            const plot::Rect grid{0, table_bottom, notes_x0, H - under};
            if (grid.height() < std::max(grid_min.y, column_h) || grid.width() < grid_min.x) continue;
            const IdGridLayout G = id_grid_layout(ctx, seq, {grid.width() - pad * 2, grid.height() - chrome}, L.size);
            if (G.cell > best_cell) {
                best_cell = G.cell;
                best = {{0, top, W, table_bottom}, grid, beside ? plot::Rect{notes_x0, table_bottom, W, H} : plot::Rect{0, grid.y1, W, H}};
            }
        }
    }
    return best;
}

void build_position_ids(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const float W = ctx.request.width, H = ctx.request.height;
    const float top = why::title_space(ctx);
    const Sequence seq = sequence_of(ctx.params);
    if (ctx.request.with_table) fill_position_ids_table(ctx, seq);
    const TableNotes notes = table_notes(ctx, seq);
    const RowHeads heads;
    const IdsCells own = ids_cells(ctx, seq, heads, notes, top);
    detail::FitOptions options;
    if (own.grid.width() <= 0) options.absent = {static_cast<int>(IdsPlot::id_grid)};
    const bool beside = own.grid.width() > 0 && own.notes.x0 > 0;
    const plot::Rect plots_area{0, top, beside ? own.notes.x0 : W, beside ? H : own.notes.y0};
    const detail::SubplotFit fit = detail::fit_plots(ctx, plots_area, {own.table, own.grid}, options);
    const bool grid = fit.shows(IdsPlot::id_grid) && own.grid.width() > 0;
    const DrawnTable table = draw_table(ctx, seq, heads, fit.cell(IdsPlot::table));
    const float bottom = grid ? draw_id_grid(ctx, seq, fit.cell(IdsPlot::id_grid), table.type) : table.bottom;
    if (!beside) {  // the notes right under the table or the grid
        draw_notes(ctx, notes, 0, W, std::min(bottom + st.px(6), std::max(bottom, H - notes.height - st.px(4))), H);
        return;
    }
    // the notes beside the grid, centred in their column
    const plot::Rect n = own.notes;
    const float h = notes_height(ctx, notes, n.x0, n.x1);
    draw_notes(ctx, notes, n.x0, n.x1, n.y0 + std::max(0.0f, (n.height() - h) / 2), H);
}

}  // namespace

const FigureDescriptor& position_ids_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "position_ids";
        f.title = "M-RoPE position ids";
        f.page = 4;
        f.export_width = 1200;
        f.export_height = 675;  // room for the id grid under the table at a blog's type
        f.csv_columns = "index,kind,row,col,t,h,w,index_1d";
        f.plots = tagged_plots<IdsPlot>({
            {IdsPlot::table, {"position_ids", "Position ids (t, h, w) of text, an image and text", "position ids", PlotRole::table, AxisRole::other, AxisRole::other, 0, {240, 120}, 0, true, 4.0f, {"position id"}}},
            {IdsPlot::id_grid, {"id_grid", "The image's patches as a grid of their (h, w) ids, between the text tokens", "id grid", PlotRole::supporting, AxisRole::other, AxisRole::other, 1, {320, 150}, 0, true, 4.0f, {"h = 3 + row", "+ row"}}},
        });
        f.reads = {P::text_before, P::text_after, P::grid_rows, P::grid_cols, P::rope_axes, P::preset, P::model_name};
        f.describe = describe_position_ids;
        f.build = build_position_ids;
        f.model_b = ModelBView::stacked;  // the id tables one above the other
        f.draws_nope = true;  // position ids are the same whatever the frequencies
        return f;
    }();
    return d;
}

}  // namespace rope::figures
