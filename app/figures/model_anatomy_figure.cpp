// Model anatomy: the loaded model's layers (layer_kinds + model_layers) as a strip, one cell per
// layer coloured by its kind, and a table with one row per kind (attention and window, RoPE or NoPE,
// base, turning dims, scaling, head dim), every number from the kind's own configuration. Clicking a
// layer (or a kind's row) sets `layer`, which loads that layer's RoPE into every other panel. With
// Llama 4's attn_temperature_tuning on, the NoPE layers' query scale s(p) against position below.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "figures/alt_text.hpp"
#include "figures/compared_build.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/why_common.hpp"
#include "plot/colormap.hpp"
#include "plot/ticks.hpp"
#include "rope/frequencies.hpp"
#include "rope/nope_temperature.hpp"
#include "rope/presets.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::SubplotFit;
namespace why = detail::why;
using plot::Color;

enum class AnatomyPlot { layers, kinds, temperature };

// One kind's row of the table, as text.
struct KindRow {
    std::string name, layers, attention, position, base, turning, scaling, head_dim;
    bool nope = false;
    int colour = 0;  // the kind's index in its model: its cells' colour
};


// "0–4, 6–10, 12" for the layers of one kind.
std::string layer_ranges(const ModelLayers& model, int kind) {
    std::string s;
    int n = model.layers();
    for (int i = 0; i < n; ++i) {
        if (model.kind_of_layer[static_cast<std::size_t>(i)] != kind) continue;
        int j = i;
        while (j + 1 < n && model.kind_of_layer[static_cast<std::size_t>(j + 1)] == kind) ++j;
        s += (s.empty() ? "" : ", ") + (i == j ? std::to_string(i) : std::to_string(i) + "–" + std::to_string(j));
        i = j;
    }
    return s;
}

KindRow kind_row(const ParamSet& params, const ModelLayers& model, int kind_index) {
    const LayerKind& kind = model.kinds[static_cast<std::size_t>(kind_index)];
    KindRow row;
    row.name = kind.name;
    row.colour = kind_index;
    const int count = static_cast<int>(std::count(model.kind_of_layer.begin(), model.kind_of_layer.end(), kind_index));
    row.layers = std::to_string(count) + ": " + layer_ranges(model, kind_index);
    const std::string window = kind.window > 0 ? plot::grouped_number(static_cast<double>(kind.window)) : "";
    switch (kind.attention) {
        case Attention::full: row.attention = "full"; break;
        case Attention::sliding: row.attention = "sliding " + (window.empty() ? std::string("(no limit)") : window); break;
        case Attention::chunked: row.attention = "chunked " + (window.empty() ? std::string("(no limit)") : window); break;
        case Attention::linear: row.attention = "linear"; break;
    }
    const RopeConfig c = params.with_kind(kind).config();
    const FrequencyTable f = compute_frequencies(c);
    row.nope = c.nope || kind.attention == Attention::linear;
    row.position = kind.attention == Attention::linear ? "none (linear)" : c.nope ? "NoPE" : "RoPE";
    row.base = row.nope ? "–" : plot::base_label(c.base);
    row.turning = row.nope ? "0" : std::to_string(2 * f.rotating_pairs) + " of " + std::to_string(c.dim);
    row.scaling = c.nope ? "–" : std::string(to_string(c.scaling));
    if (!row.nope && c.scaling != Scaling::none && c.scaling != Scaling::proportional) row.scaling += " ×" + plot::readout_number(c.factor, 3);
    if (!row.nope && c.scaling == Scaling::proportional) row.scaling += " " + plot::readout_number(c.rotary_fraction, 3);
    else if (!row.nope && c.rotary_fraction < 1) row.scaling += ", partial " + plot::readout_number(c.rotary_fraction, 3);
    row.head_dim = std::to_string(c.dim);
    return row;
}

using plot::ink_on;

Color kind_color(const plot::Theme& th, int kind) { return th.series[static_cast<std::size_t>(kind) % th.series.size()]; }

// `text` cut at the end with "…" to fit `width` at `size`.
std::string fit_text(const plot::TextMeasure& measure, std::string text, float size, float width) {
    if (measure.measure(text, size).x <= width) return text;
    while (!text.empty()) {
        do text.pop_back();
        while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80);
        if (!text.empty()) text.pop_back();
        if (measure.measure(text + "…", size).x <= width) return text + "…";
    }
    return "";
}

int selected_layer(const ParamSet& params, const ModelLayers& model) {
    if (!params.has(P::layer)) return -1;
    return static_cast<int>(std::clamp<std::int64_t>(*params[P::layer], 0, model.layers() - 1));
}

// One model's layers as a row of cells across `band`, coloured by kind, the NoPE layers saying so in
// their cells and the layer numbers below the band, as often as they fit.
void draw_cells(BuildContext& ctx, plot::Plot& p, const ModelLayers& model, const std::vector<KindRow>& rows, plot::Rect band) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const int n = model.layers();
    const float small = std::max(st.px(st.min_text), st.px(st.tick_font) * 0.85f);
    const float cell_w = band.width() / static_cast<float>(n);
    const float label_w = ctx.measure.measure(std::to_string(n - 1), small).x + st.px(8);
    int step = 1;
    for (int s : {1, 2, 4, 5, 8, 10, 12, 16, 20, 24, 32, 50, 100, 200})
        if ((step = s) * cell_w >= label_w) break;
    float labels_end = -1e30f;  // the right edge of the last number drawn: a number clamped into the band may not reach it
    for (int i = 0; i < n; ++i) {
        const int kind = model.kind_of_layer[static_cast<std::size_t>(i)];
        const plot::Rect r{band.x0 + cell_w * static_cast<float>(i), band.y0, band.x0 + cell_w * static_cast<float>(i + 1), band.y1};
        const Color fill = kind_color(th, kind);
        p.list().rect(r, fill, th.background, cell_w > st.px(6) ? st.px(1) : 0.0f);
        if (rows[static_cast<std::size_t>(kind)].nope) {
            const std::string word = rows[static_cast<std::size_t>(kind)].position == "NoPE" ? "NoPE" : "lin";
            for (const std::string& w : {word, word.substr(0, 1)})
                if (ctx.measure.measure(w, small).x <= cell_w - st.px(3)) {
                    p.list().text({(r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2}, w, small, ink_on(fill), plot::HAlign::center, plot::VAlign::middle);
                    break;
                }
        }
        if (i % step == 0 || i == n - 1) {
            const float x = std::clamp((r.x0 + r.x1) / 2, band.x0 + label_w / 2, band.x1 - label_w / 2);
            if (x - label_w / 2 < labels_end - 0.5f) continue;  // the last layer's number, pushed in from the edge
            p.list().text({x, band.y1 + st.px(3)}, std::to_string(i), small, th.muted, plot::HAlign::center, plot::VAlign::top);
            labels_end = x + label_w / 2;
        }
    }
}

// A frame around the selected layer's cell, and "layer N" above it where `tag`.
void outline_layer(BuildContext& ctx, plot::Plot& p, int layers, int selected, plot::Rect band, bool tag) {
    const plot::Style& st = ctx.request.style;
    const float cell_w = band.width() / static_cast<float>(layers), grow = st.px(3);
    const plot::Rect r{band.x0 + cell_w * static_cast<float>(selected), band.y0, band.x0 + cell_w * static_cast<float>(selected + 1), band.y1};
    p.list().rect({std::max(band.x0 + st.px(1.5f), r.x0 - grow), r.y0 - grow, std::min(band.x1 - st.px(1.5f), r.x1 + grow), r.y1 + grow},
                  Color{0, 0, 0, 0}, st.theme.text, st.px(3));
    if (!tag) return;
    const float small = std::max(st.px(st.min_text), st.px(st.tick_font) * 0.85f);
    const std::string text = "layer " + std::to_string(selected);
    const float w = ctx.measure.measure(text, small).x;
    const float x = std::clamp((r.x0 + r.x1) / 2, band.x0 + w / 2, band.x1 - w / 2);
    p.list().text({x, r.y0 - grow - st.px(2)}, text, small, st.theme.text, plot::HAlign::center, plot::VAlign::bottom);
}

// One model's layers and what the panel shows of them.
struct LayeredModel {
    ParamSet params;
    ModelLayers model;
    std::vector<KindRow> rows;
    int selected = -1;
    bool temperature = false;  // NoPE layers with attn_temperature_tuning on
    std::string label;         // "A: llama-4-scout" with model B, else empty
};

LayeredModel layered(const ParamSet& params, const std::string& label) {
    LayeredModel m{params, params.model_layers(), {}, -1, false, label};
    if (m.model.empty()) return m;
    m.selected = selected_layer(params, m.model);
    bool any_nope = false;
    for (int k = 0; k < static_cast<int>(m.model.kinds.size()); ++k) {
        m.rows.push_back(kind_row(params, m.model, k));
        any_nope = any_nope || (m.rows.back().nope && m.model.kinds[static_cast<std::size_t>(k)].attention != Attention::linear);
    }
    m.temperature = any_nope && params[P::attn_temperature_tuning];
    return m;
}

// The strip: one model's layers (the selected one tagged above its cell), or with model B the two
// models' strips one above the other, each under its name, each model's loaded layer framed.
void draw_strip(BuildContext& ctx, const std::vector<LayeredModel>& models, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Style sub = why::sub_style(st);
    const bool both = models.size() == 2;
    const int n = models[0].model.layers();
    const std::string counts = both ? "A's and B's layers" : std::to_string(n) + " layers";
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 ctx.request.interactive
                                     ? std::vector<std::string>{counts + ", coloured by kind: click one" + (both ? " of A's" : "") +
                                                                    " to load its RoPE into every panel",
                                                                counts + ": click one to load it", "layers"}
                                     : std::vector<std::string>{counts + ", coloured by kind", "layers"}));
    // with B the x axis is the fraction of each model's depth (the strips may count different layers)
    plot::AxisSetup ax{"", 0, both ? 1.0 : static_cast<double>(n)}, ay{"", 0, 1};
    p.setup_x(ax);
    p.setup_y(ay);
    p.setup_no_axes();
    const plot::Rect a = p.area();
    const float small = std::max(st.px(st.min_text), st.px(st.tick_font) * 0.85f), numbers_h = small * 1.6f;
    if (!both) {
        const plot::Rect band{a.x0, a.y0 + st.px(st.tick_font) * 1.5f, a.x1, 0};
        const plot::Rect cells{band.x0, band.y0, band.x1, std::max(band.y0 + st.px(10), a.y1 - numbers_h)};
        draw_cells(ctx, p, models[0].model, models[0].rows, cells);
        if (models[0].selected >= 0) outline_layer(ctx, p, n, models[0].selected, cells, true);
    } else {
        // two equal bands, a gap between them: the panel's pointer tells them apart at the middle
        const float caption = st.px(st.tick_font), caption_h = caption * 1.5f, gap = small * 0.8f;
        const float cells_h = std::max(st.px(8), (a.height() - gap) / 2 - caption_h - numbers_h);
        for (std::size_t m = 0; m < 2; ++m) {
            const float top = a.y0 + static_cast<float>(m) * (caption_h + cells_h + numbers_h + gap);
            const LayeredModel& model = models[m];
            // each model's own loaded layer (a preset may load one of its own): what its pictures show
            std::string label = model.label + ", " + std::to_string(model.model.layers()) + " layers";
            if (model.selected >= 0) label += ", layer " + std::to_string(model.selected) + " loaded (framed)";
            p.list().text({a.x0, top}, fit_text(ctx.measure, label, caption, a.width()), caption, st.theme.text, plot::HAlign::left,
                          plot::VAlign::top);
            const plot::Rect cells{a.x0, top + caption_h, a.x1, top + caption_h + cells_h};
            draw_cells(ctx, p, model.model, model.rows, cells);
            if (model.selected >= 0) outline_layer(ctx, p, model.model.layers(), model.selected, cells, false);
        }
    }
    record_geometry(ctx, p, AnatomyPlot::layers);
    p.finish();
}

// The table's columns: header words (long, short) and each kind's cell.
struct TableColumns {
    std::vector<std::string> header{"kind", "layers", "attention / window", "position", "base", "turning dims", "scaling", "head dim"};
    std::vector<std::string> short_header{"kind", "layers", "window", "RoPE", "base", "turning", "scaling", "head dim"};
    static std::vector<std::string> cells(const KindRow& r) {
        return {r.name, r.layers, r.attention, r.position, r.base, r.turning, r.scaling, r.head_dim};
    }
};

// The widths of `columns` at type `size` (the kind's column with its swatch), and their sum with padding.
float column_widths(BuildContext& ctx, const std::vector<KindRow>& rows, const std::vector<std::string>& header,
                    const std::vector<std::size_t>& columns, float size, std::vector<float>& widths) {
    const float pad = size * 0.8f, swatch = size * 0.9f;
    widths.assign(columns.size(), 0);
    float total = 0;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        widths[c] = ctx.measure.measure(header[columns[c]], size).x;
        for (const KindRow& r : rows) widths[c] = std::max(widths[c], ctx.measure.measure(TableColumns::cells(r)[columns[c]], size).x);
        if (c == 0) widths[c] += swatch + size * 0.5f;
        total += widths[c] + pad;
    }
    return total;
}

// How the table goes into `width`: its type size, its headers and its blocks of columns (one block,
// or the kinds' RoPE wrapped into a second block below: every column stays).
struct TablePlan {
    float size = 0;
    std::vector<std::string> header;
    std::vector<std::vector<std::size_t>> blocks;
};

TablePlan plan_table(BuildContext& ctx, const std::vector<KindRow>& rows, float width, float row_room) {
    const plot::Style& st = ctx.request.style;
    const TableColumns columns;
    TablePlan plan;
    plan.size = std::max(st.px(st.min_text), std::min(st.px(st.label_font), row_room / 1.5f));
    std::vector<float> widths;
    const std::vector<std::size_t> all{0, 1, 2, 3, 4, 5, 6, 7}, rope_only{0, 2, 3, 4, 5, 6, 7};
    using Blocks = std::vector<std::vector<std::size_t>>;
    const Blocks wrapped{{0, 2, 3, 4}, {0, 5, 6, 7}}, wrapped_twice{{0, 2, 3}, {0, 4, 5}, {0, 6, 7}};
    for (const auto* header : {&columns.header, &columns.short_header})
        for (const Blocks& blocks : {Blocks{all}, Blocks{rope_only}, wrapped, wrapped_twice}) {
            float size = plan.size, widest = 0;
            for (const auto& b : blocks) widest = std::max(widest, column_widths(ctx, rows, *header, b, size, widths));
            if (widest > width) size = std::max(st.px(st.min_text), size * width / widest);
            widest = 0;
            for (const auto& b : blocks) widest = std::max(widest, column_widths(ctx, rows, *header, b, size, widths));
            if (widest <= width || (header == &columns.short_header && blocks.size() == 3)) {
                plan.size = size;
                plan.header = *header;
                plan.blocks = blocks;
                return plan;
            }
        }
    return plan;
}

void draw_table(BuildContext& ctx, const std::vector<KindRow>& rows, int selected_kind, const std::string& summary, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 ctx.request.interactive ? std::vector<std::string>{"kinds of layer (click a row for its first layer; turning dims: 2 × pairs with θ > 0)",
                                                                                    "kinds of layer (click a row)", "kinds"}
                                                         : std::vector<std::string>{"kinds of layer (turning dims: 2 × pairs with θ > 0)", "kinds of layer", "kinds"}));
    const int k = static_cast<int>(rows.size());
    plot::AxisSetup ax{"", 0, 1}, ay{"", static_cast<double>(k), 0};
    p.setup_x(ax);
    p.setup_y(ay);
    p.setup_no_axes();
    const plot::Rect a = p.area();
    TablePlan plan = plan_table(ctx, rows, a.width(), a.height() / static_cast<float>(k + 1));
    if (plan.blocks.size() > 1)  // the blocks of rows share the height
        plan = plan_table(ctx, rows, a.width(), a.height() / static_cast<float>(plan.blocks.size() * static_cast<std::size_t>(k + 1)));
    const float size = plan.size, pad = size * 0.8f, swatch = size * 0.9f;
    const int lines = static_cast<int>(plan.blocks.size()) * (k + 1);
    // the summary below only where the rows keep their height with it
    const float summary_h = summary.empty() ? 0.0f : why::wrapped_caption(ctx, summary, a.x0, a.x1, a.y1, th.text, false);
    const bool with_summary =
        summary_h > 0 && summary_h < a.height() * 0.4f && a.height() - summary_h - size >= size * 1.4f * static_cast<float>(lines);
    // (a little room below the last row: its underscores hang below the row at the smallest type)
    const float rows_h = a.height() - (with_summary ? summary_h + size : size * 0.25f);
    const float row_h = std::min(size * 2.0f, rows_h / static_cast<float>(lines));
    // the rows and the summary as one block, centred in the cell when they leave room
    const float block_h = row_h * static_cast<float>(lines) + (with_summary ? size * 0.6f + summary_h : 0.0f);
    const float block_y = a.y0 + std::max(0.0f, (a.height() - block_h) / 2);
    if (with_summary)
        why::wrapped_caption(ctx, summary, a.x0, a.x1, block_y + row_h * static_cast<float>(lines) + size * 0.6f + summary_h, th.text);
    plot::Rect rows_area{1e9f, 0, -1e9f, 0};
    float y_top = block_y;
    for (const std::vector<std::size_t>& block : plan.blocks) {
        std::vector<float> widths;
        const float total = column_widths(ctx, rows, plan.header, block, size, widths);
        const float x_start = a.x0 + std::max(0.0f, (a.width() - total) / 2);
        std::vector<float> xs{x_start + pad / 2};
        for (std::size_t c = 0; c + 1 < widths.size(); ++c) xs.push_back(xs.back() + widths[c] + pad);
        auto draw_row = [&](auto&& text_of, float y, Color ink, const Color* swatch_color) {
            for (std::size_t c = 0; c < block.size(); ++c) {
                float x = xs[c], room = widths[c];
                if (c == 0) {
                    if (swatch_color)
                        p.list().rect({x, y + (row_h - swatch) / 2, x + swatch, y + (row_h + swatch) / 2}, *swatch_color, th.axis, st.px(1));
                    x += swatch + size * 0.5f;
                    room -= swatch + size * 0.5f;
                }
                const std::string s = fit_text(ctx.measure, text_of(block[c]), size, room + 1);
                if (!s.empty()) p.list().text({x, y + row_h / 2}, s, size, ink, plot::HAlign::left, plot::VAlign::middle);
            }
        };
        draw_row([&](std::size_t c) { return plan.header[c]; }, y_top, th.muted, nullptr);
        p.list().segment({x_start, y_top + row_h}, {x_start + total, y_top + row_h}, th.axis, st.px(1));
        for (int r = 0; r < k; ++r) {
            const float y = y_top + row_h * static_cast<float>(r + 1);
            if (r == selected_kind) p.list().rect({x_start, y, x_start + total, y + row_h}, th.accent.with_alpha(0.18f), th.accent, st.px(2));
            const Color c = kind_color(th, rows[static_cast<std::size_t>(r)].colour);
            const std::vector<std::string> texts = TableColumns::cells(rows[static_cast<std::size_t>(r)]);
            draw_row([&](std::size_t col) { return texts[col]; }, y, th.text, &c);
        }
        if (rows_area.x0 > rows_area.x1) rows_area = {x_start, y_top + row_h, x_start + total, y_top + row_h * static_cast<float>(k + 1)};
        y_top += row_h * static_cast<float>(k + 1);
    }
    // rows for the pointer: the geometry spans the first block's body rows (y = row index from the top)
    PlotGeometry g = detail::plot_geometry(ctx, AnatomyPlot::kinds);
    g.area = rows_area;
    g.frame = p.outer();
    g.x_min = 0, g.x_max = 1, g.y_min = k, g.y_max = 0;
    ctx.result.plots.push_back(g);
    p.finish();
}

// The NoPE layers' query scale s(p) of each model that has them (with B: A solid, B dashed).
void draw_temperature(BuildContext& ctx, const std::vector<const LayeredModel*>& models, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const plot::Style sub = why::sub_style(st);
    struct Curve {
        std::vector<double> x, y;
        std::int64_t last, floor_scale;
        double attn_scale, top;
    };
    std::vector<Curve> curves;
    for (const LayeredModel* m : models) {
        Curve c{{}, {}, std::max<std::int64_t>(1, m->params[P::max_position] - 1), m->params[P::floor_scale], m->params[P::attn_scale], 0};
        // positions 0 .. max_position - 1
        if ((c.last + 1) / c.floor_scale <= 4000) {
            // the staircase exactly, through its corners (the log axis starts at position 1)
            for (const auto& [position, scale] : nope_scale_corners(c.last + 1, c.floor_scale, c.attn_scale))
                c.x.push_back(std::max(1.0, static_cast<double>(position))), c.y.push_back(scale);
        } else {
            for (int i = 0; i <= 2000; ++i) {
                const auto p = static_cast<std::int64_t>(std::pow(static_cast<double>(c.last), i / 2000.0));
                c.x.push_back(static_cast<double>(p)), c.y.push_back(nope_attention_scale(p, c.floor_scale, c.attn_scale));
            }
        }
        c.top = nope_attention_scale(c.last, c.floor_scale, c.attn_scale);
        curves.push_back(std::move(c));
    }
    const Curve& first = curves.front();
    std::int64_t last = 1;
    double top = 1;
    for (const Curve& c : curves) last = std::max(last, c.last), top = std::max(top, c.top);
    const std::string fs = plot::readout_number(static_cast<double>(first.floor_scale)), as = plot::readout_number(first.attn_scale, 3);
    const bool named = !models.front()->label.empty();
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 named ? std::vector<std::string>{"NoPE layers (attn_temperature_tuning): queries × s(p) = 1 + a ln(1 + ⌊(p + 1)/f⌋)",
                                                                  "NoPE layers: query scale s(p)", "NoPE query scale s(p)"}
                                       : std::vector<std::string>{"NoPE layers (attn_temperature_tuning): queries × s(p) = 1 + " + as +
                                                                      " ln(1 + ⌊(p + 1)/" + fs + "⌋), a step every " + fs + " tokens",
                                                                  "NoPE layers: query scale s(p), a step every " + fs + " tokens",
                                                                  "NoPE query scale s(p)"}));
    plot::AxisSetup ax{"position p (tokens, log)", 1, std::max(10.0, static_cast<double>(last)), true};
    plot::AxisSetup ay{"query scale s(p)", 0.98, std::max(1.1, top + (top - 1) * 0.15 + 0.02)};
    p.setup_x(ax);
    p.setup_y(ay);
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const bool b = named && models[i]->label.rfind("B", 0) == 0;
        const std::string legend = named ? models[i]->label + " (a = " + plot::readout_number(curves[i].attn_scale, 3) + ", f = " +
                                               plot::readout_number(static_cast<double>(curves[i].floor_scale)) + ")"
                                         : "";
        p.line(curves[i].x.data(), curves[i].y.data(), curves[i].x.size(), 1, th.series[b ? 1 : 0], legend, -1, b ? 6.0f : 0.0f);
    }
    // the markers: the first curve's (named by its model's letter where the curves are named)
    const std::string whose = named ? models.front()->label.substr(0, 1) + ": " : "";
    if (first.floor_scale - 1 >= 1 && first.floor_scale - 1 < last)
        p.marker_x(static_cast<double>(first.floor_scale - 1), th.muted,
                   whose + "first step: p = " + plot::readout_number(static_cast<double>(first.floor_scale - 1)), -1, 6);
    p.marker_y(first.top, th.accent,
               whose + "s = " + plot::readout_number(first.top, 4) + " at p = " + plot::grouped_number(static_cast<double>(first.last)), -1, 6);
    record_geometry(ctx, p, AnatomyPlot::temperature);
    p.finish();
}

// One sentence on the selected layer: what its RoPE does, in numbers.
std::string layer_summary(const ParamSet& params, const ModelLayers& model, int layer, bool temperature, bool interactive) {
    if (layer < 0) return interactive ? "No layer selected: click one above to load its RoPE into the other panels." : "No layer selected.";
    const LayerKind& kind = model.kind(layer);
    std::string s = "Layer " + std::to_string(layer) + " (" + kind.name + "), loaded in every panel: ";
    if (kind.attention == Attention::linear) return s + "linear attention, no softmax over positions and no RoPE.";
    const RopeConfig c = params.with_kind(kind).config();
    if (c.nope) {
        s += "NoPE, no pair turns; position reaches attention only through the causal mask";
        return s + (temperature ? ", and its queries are scaled with position by s(p) (attn_temperature_tuning)." : ".");
    }
    const FrequencyTable f = compute_frequencies(c);
    if (f.rotating_pairs == 0) return s + "no pair turns at this dim and fraction.";
    s += std::to_string(f.rotating_pairs) + " of " + std::to_string(f.pairs()) + " pairs turn, wavelengths " +
         plot::grouped_number(std::round(f.wavelength(0) * 10) / 10) + " to " + plot::grouped_number(std::round(f.wavelength(f.rotating_pairs - 1))) + " tokens";
    if (f.rotating_pairs < f.pairs()) s += "; the other " + std::to_string(f.pairs() - f.rotating_pairs) + " pairs pass through (θ = 0)";
    // a sliding window moves with the token; a chunk is fixed: a token sees its own chunk from its start
    const std::string window = plot::grouped_number(static_cast<double>(kind.window));
    if (kind.window > 0 && kind.attention == Attention::chunked)
        s += "; sees only the tokens of its own " + window + "-token chunk, from the chunk's start";
    else if (kind.window > 0) s += "; sees the last " + window + " tokens";
    return s + ".";
}

// ---- no model loaded: the presets' layers, side by side ----

// What a layer does with position, the same for every model: the gallery colours by this, not by
// each model's own kinds, so that the models compare.
enum class LayerClass { windowed, full, no_rope };

LayerClass class_of(const ParamSet& params, const LayerKind& kind) {
    if (kind.attention == Attention::linear || params.with_kind(kind).config().nope) return LayerClass::no_rope;
    return kind.attention == Attention::sliding || kind.attention == Attention::chunked ? LayerClass::windowed : LayerClass::full;
}

Color class_color(const plot::Theme& th, LayerClass c) {
    switch (c) {
        case LayerClass::windowed: return th.series[0];
        case LayerClass::full: return th.series[1];
        case LayerClass::no_rope: return plot::fade_color();
    }
    return th.series[0];
}

// One preset with layers: its names and each layer's class.
struct GalleryModel {
    std::string name, model;
    std::vector<LayerClass> layers;
};

std::vector<GalleryModel> layered_models() {
    std::vector<GalleryModel> out;
    for (const Preset& preset : presets()) {
        const bool has_layers = std::any_of(preset.values.begin(), preset.values.end(), [](const auto& v) { return v.first == P::model_layers; });
        if (!has_layers) continue;
        ParamSet params;
        params.set(P::preset, std::string(preset.name));
        const ModelLayers m = params.model_layers();
        GalleryModel g{std::string(preset.name), std::string(preset.model), {}};
        for (int i = 0; i < m.layers(); ++i) g.layers.push_back(class_of(params, m.kind(i)));
        out.push_back(std::move(g));
    }
    return out;
}

// One model's row: its name and layer count over a strip of its layers, one cell each.
void draw_gallery_row(BuildContext& ctx, const GalleryModel& m, plot::Rect row, float text_size) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const int n = static_cast<int>(m.layers.size());
    const auto count = [&](LayerClass c) { return static_cast<int>(std::count(m.layers.begin(), m.layers.end(), c)); };
    std::string counts = std::to_string(n) + " layers";
    for (auto [c, word] : {std::pair{LayerClass::windowed, "windowed"}, std::pair{LayerClass::full, "full"}, std::pair{LayerClass::no_rope, "no RoPE"}})
        if (count(c) > 0) counts += (counts.back() == 's' ? ": " : ", ") + std::to_string(count(c)) + " " + word;
    std::string label = m.model + " (" + m.name + "), " + counts;
    for (const std::string& l : {label, m.model + ", " + counts, m.model + ", " + std::to_string(n) + " layers", m.model})
        if (ctx.measure.measure(l, text_size).x <= row.width()) {
            label = l;
            break;
        }
    const float label_h = text_size * 1.4f;
    ctx.result.list.text({row.x0, row.y0}, label, text_size, th.text, plot::HAlign::left, plot::VAlign::top);
    const float cell_w = row.width() / static_cast<float>(n);
    const float y0 = row.y0 + label_h, y1 = row.y1;
    for (int i = 0; i < n; ++i)
        ctx.result.list.rect({row.x0 + cell_w * static_cast<float>(i), y0, row.x0 + cell_w * static_cast<float>(i + 1), y1},
                             class_color(th, m.layers[static_cast<std::size_t>(i)]), th.background, cell_w > st.px(6) ? st.px(1) : 0.0f);
}

// No model with layers loaded: what to do, over the layers of the presets that have them (the
// picture this panel would show is a strip like these, for the model loaded).
void draw_gallery(BuildContext& ctx, plot::Rect area) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    // a named model without layers (a preset of one kind of layer, gemma-3-4b-global) is named: beside
    // a model B with layers, "no model" would read as if neither were loaded
    const std::string name = detail::named_model(ctx.params);
    const std::string none = name.empty() ? "No model with layers is loaded"
                                          : name + " has no list of layers (it gives one kind of layer's RoPE)";
    const std::string message =
        st.presenting ? none + ". These presets' layers are what this panel draws for a model that has them."
        : ctx.request.interactive
            ? none + ". Choose one of these presets, open a model's config.json (--set config=PATH, or drop "
              "it on the window), or set layer_kinds and model_layers: its layers and their RoPE show here."
            : none + ": export with one of these presets (--set preset=NAME), with --set config=PATH, or with "
              "layer_kinds and model_layers set.";
    const float message_h = why::wrapped_caption(ctx, message, area.x0, area.x1, 0, th.text, false);
    why::wrapped_caption(ctx, message, area.x0, area.x1, area.y0 + message_h, th.text);
    const std::vector<plot::LegendEntry> key{{"windowed (sliding, chunked)", class_color(th, LayerClass::windowed), 10},
                                             {"full attention, RoPE", class_color(th, LayerClass::full), 10},
                                             {"no RoPE (NoPE, linear)", class_color(th, LayerClass::no_rope), 10}};
    const float key_h = why::legend_row(ctx, key, area.x0, area.x1, area.y1 - st.px(2)) + st.px(6);
    const std::vector<GalleryModel> models = layered_models();
    const float margin = st.px(12), gap = st.px(10);
    const float top = area.y0 + message_h + gap, bottom = area.y1 - key_h;
    const float row_h = (bottom - top) / static_cast<float>(std::max<std::size_t>(1, models.size()));
    const float text_size = st.px(st.tick_font);
    for (std::size_t i = 0; i < models.size(); ++i) {
        const float y = top + row_h * static_cast<float>(i);
        draw_gallery_row(ctx, models[i], {area.x0 + margin, y, area.x1 - margin, y + row_h - gap}, text_size);
    }
}

// With model B and layers in both models, the panel draws B itself: the strips one above the other,
// one table of both models' kinds, both NoPE curves (two pictures would not fit a stacked half).
bool compares_layers(const ParamSet& params) {
    const std::optional<ParamSet> b = detail::model_b(params);
    return b && !params.model_layers().empty() && !b->model_layers().empty();
}

// One row per layer: its kind (index into layer_kinds) and that kind's RoPE.
DataTable layers_table(const LayeredModel& m) {
    DataTable t;
    t.columns = {"layer", "kind", "window", "nope", "base", "head_dim", "rotating_pairs", "selected"};
    t.values.assign(t.columns.size(), {});
    std::vector<RopeConfig> configs;
    std::vector<int> turning;
    for (const LayerKind& kind : m.model.kinds) {
        configs.push_back(m.params.with_kind(kind).config());
        turning.push_back(compute_frequencies(configs.back()).rotating_pairs);
    }
    for (int i = 0; i < m.model.layers(); ++i) {
        const auto k = static_cast<std::size_t>(m.model.kind_of_layer[static_cast<std::size_t>(i)]);
        const bool no_rope = configs[k].nope || m.model.kinds[k].attention == Attention::linear;
        t.values[0].push_back(i);
        t.values[1].push_back(static_cast<double>(k));
        t.values[2].push_back(static_cast<double>(m.model.kinds[k].window));
        t.values[3].push_back(no_rope ? 1 : 0);
        t.values[4].push_back(configs[k].base);
        t.values[5].push_back(configs[k].dim);
        t.values[6].push_back(no_rope ? 0 : turning[k]);
        t.values[7].push_back(i == m.selected ? 1 : 0);
    }
    return t;
}

void build_model_anatomy(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const float W = ctx.request.width, H = ctx.request.height;
    const float top = why::title_space(ctx);
    const bool both = compares_layers(ctx.params);
    std::vector<LayeredModel> models{layered(ctx.params, both ? "A: " + detail::model_label(ctx.params) : "")};
    if (both) models.push_back(layered(*detail::model_b(ctx.params), "B: " + detail::model_label(ctx.params, true)));
    const LayeredModel& a = models.front();
    if (ctx.request.with_table && a.model.empty())
        throw std::invalid_argument("model_anatomy: no model with layers is loaded, so there is no table of layers; set layer_kinds and "
                                    "model_layers (or load a preset with layers, or config=PATH)");
    if (ctx.request.with_table)
        ctx.result.table = both ? detail::long_form(layers_table(a), layers_table(models[1])) : layers_table(a);
    if (a.model.empty()) {
        draw_gallery(ctx, {0, top, W, H});
        return;
    }
    // the table: A's kinds (then B's, named by model)
    std::vector<KindRow> rows;
    for (const LayeredModel& m : models)
        for (KindRow r : m.rows) {
            if (both) r.name = m.label.substr(0, 1) + ": " + r.name;
            rows.push_back(std::move(r));
        }
    const int selected_kind = a.selected >= 0 ? a.model.kind_of_layer[static_cast<std::size_t>(a.selected)] : -1;
    std::vector<const LayeredModel*> tuned;
    for (const LayeredModel& m : models)
        if (m.temperature) tuned.push_back(&m);
    const bool temperature = !tuned.empty();

    const float body = H - top;
    const float table_need = st.px(st.title_font) * 2 + st.px(st.label_font) * (2.0f * static_cast<float>(rows.size() + 1) + 4.5f);
    // the strip takes the room the table does not need (up to 60% of a tall panel): no empty band below
    // (two strips take more of a tall panel, and little more than the legible least of a short one: the
    // table has both models' rows)
    const float strip_min = st.px(both ? 185.0f : 160.0f), strip_max = st.px(both ? 280.0f : 200.0f);
    const float strip_h = temperature ? std::clamp(body * (both ? 0.36f : 0.28f), strip_min, strip_max)
                                      : std::clamp(body - table_need, strip_min, std::max(strip_min, body * 0.6f));
    const float table_h = temperature ? std::min((body - strip_h) * 0.55f, table_need) : std::min(body - strip_h, table_need);
    // without the temperature plot the strip and the table sit in the middle of the panel
    const float y0 = temperature ? top : top + std::max(0.0f, (body - strip_h - table_h) / 2);
    const std::vector<plot::Rect> own = temperature ? std::vector<plot::Rect>{{0, y0, W, y0 + strip_h},
                                                                              {0, y0 + strip_h, W, y0 + strip_h + table_h},
                                                                              {0, y0 + strip_h + table_h, W, H}}
                                                    : std::vector<plot::Rect>{{0, y0, W, y0 + strip_h}, {0, y0 + strip_h, W, y0 + strip_h + table_h}};
    const SubplotFit fit = fit_plots(ctx, {0, top, W, H}, own);
    if (fit.shows(AnatomyPlot::layers)) draw_strip(ctx, models, fit.cell(AnatomyPlot::layers));
    if (fit.shows(AnatomyPlot::kinds))
        draw_table(ctx, rows, selected_kind, layer_summary(a.params, a.model, a.selected, a.temperature, ctx.request.interactive),
                   fit.cell(AnatomyPlot::kinds));
    if (temperature && fit.shows(AnatomyPlot::temperature)) draw_temperature(ctx, tuned, fit.cell(AnatomyPlot::temperature));
}

void anatomy_pointer(PanelContext& panel, const PointerInput& in) {
    if (!in.pressed) return;
    const ModelLayers model = panel.params.model_layers();
    if (model.empty()) return;
    int layer = -1;
    const bool both = compares_layers(panel.params);  // B's strip in the lower half, B's kinds below A's: shown, not loaded
    if (const PlotGeometry* g = panel.figure.find(AnatomyPlot::layers); g && g->area.contains(in.local) && (!both || g->y_at(in.local.y) > 0.5)) {
        const double x = both ? g->x_at(in.local.x) * model.layers() : g->x_at(in.local.x);
        layer = std::clamp(static_cast<int>(std::floor(x)), 0, model.layers() - 1);
    }
    if (const PlotGeometry* g = panel.figure.find(AnatomyPlot::kinds); g && g->area.contains(in.local)) {
        const int rows = static_cast<int>(g->y_min), kinds = static_cast<int>(model.kinds.size());
        const int row = std::clamp(static_cast<int>((in.local.y - g->area.y0) / g->area.height() * static_cast<float>(rows)), 0, rows - 1);
        if (row >= kinds) return;
        const int current = selected_layer(panel.params, model);
        layer = current >= 0 && model.kind_of_layer[static_cast<std::size_t>(current)] == row ? current : model.first_layer_of(row);
    }
    if (layer < 0 || (panel.params.has(P::layer) && panel.params[P::layer] == layer)) return;
    panel.edit("layer " + std::to_string(layer), [&](ParamSet& next) { next.set(P::layer, std::to_string(layer)); });
}

std::string anatomy_readout(PanelContext& panel, const PlotGeometry& g, double x, double y) {
    if (!g.is(AnatomyPlot::layers)) return "";
    if (compares_layers(panel.params)) {  // x: the fraction of each model's depth; A's strip above
        const bool a = y > 0.5;
        const ParamSet params = a ? panel.params : *detail::model_b(panel.params);
        const ModelLayers model = params.model_layers();
        const int layer = std::clamp(static_cast<int>(std::floor(x * model.layers())), 0, model.layers() - 1);
        return std::string(a ? "A" : "B") + "'s layer " + std::to_string(layer) + ": " + model.kind(layer).name + (a ? " (click to load)" : "");
    }
    const ModelLayers model = panel.params.model_layers();
    if (model.empty()) return "";
    const int layer = std::clamp(static_cast<int>(std::floor(x)), 0, model.layers() - 1);
    return "layer " + std::to_string(layer) + ": " + model.kind(layer).name + " (click to load)";
}

}  // namespace

const FigureDescriptor& model_anatomy_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "model_anatomy";
        f.title = "Model anatomy";
        f.page = 3;
        f.export_width = 1100;
        f.export_height = 900;  // the strip, the table with all its columns and the NoPE curve at a blog's type
        f.csv_columns = "layer,kind,window,nope,base,head_dim,rotating_pairs,selected";
        f.plots = tagged_plots<AnatomyPlot>({
            {AnatomyPlot::layers, {"anatomy_layers", "The model's layers, one cell each, by kind", "layers", PlotRole::strip, AxisRole::other, AxisRole::other, 0, {240, 160}, 0, true, 6.0f, {"Click a layer", "every fourth layer"}}},
            {AnatomyPlot::kinds, {"anatomy_kinds", "The kinds of layer and their RoPE", "kinds", PlotRole::table, AxisRole::other, AxisRole::other, 1, {240, 160}, 0, true, 3.0f, {"sliding-window"}}},
            {AnatomyPlot::temperature, {"anatomy_temperature", "The NoPE layers' query scale against position", "query scale", PlotRole::supporting, AxisRole::position, AxisRole::other, 2, {240, 160}, 0, true, 3.0f, {"the curve"}}},
        });
        f.reads = model_and({P::layer_kinds, P::model_layers, P::layer, P::max_position, P::attn_temperature_tuning, P::floor_scale,
                             P::attn_scale, P::pair, P::vector, P::key_vector});
        // it draws NoPE layers itself, so no note names a model's bias (model_and's position_encoding)
        f.reads.erase(std::remove(f.reads.begin(), f.reads.end(), P::position_encoding.id), f.reads.end());
        f.describe = describe_model_anatomy;
        f.build = build_model_anatomy;
        f.model_b = ModelBView::stacked;  // where only one model has layers: its strip over the other's gallery
        f.draws_b_itself = compares_layers;  // both with layers: B's strip under A's, one table of both
        f.readout = anatomy_readout;
        f.pointer = anatomy_pointer;
        f.draws_nope = true;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
