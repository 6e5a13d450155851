// Model card: a model's RoPE configuration as a table, one row per key of the parameter table that
// describes the model (its --set name, the word sessions and the command line use) and a few numbers
// the core derives from them; with model B (compare_to) set, B's column beside A's and the rows where
// they differ tinted. The CSV holds the same text cells: key,a (and b).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "figures/alt_text.hpp"
#include "figures/build_context.hpp"
#include "figures/compared_build.hpp"
#include "figures/subplot_fit.hpp"
#include "plot/text_wrap.hpp"
#include "plot/ticks.hpp"
#include "rope/frequencies.hpp"
#include "rope/mla.hpp"
#include "rope/model_layers.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;

enum class CardPlot { card };

struct CardKey {
    ParamId id;
    bool always;  // shown even where both models keep its default
};

// The keys a model card lists, in the parameter table's order of ideas: how positions enter (a model
// without RoPE names its bias first), the head, the frequencies,
// context extension, the layers' extras, the axes of images and video.
const std::vector<CardKey>& card_keys() {
    static const std::vector<CardKey> keys = {
        {P::position_encoding, false}, {P::heads, false},       {P::alibi_layout, false},
        {P::alibi_bias_max, false}, {P::t5_num_buckets, false}, {P::t5_max_distance, false},
        {P::t5_bidirectional, false},
        {P::dim, true},           {P::rotary_fraction, true},   {P::pairing, true},
        {P::qk_nope_head_dim, false}, {P::v_head_dim, false},   {P::kv_lora_rank, false},
        {P::base, true},          {P::max_position, true},      {P::scaling, true},
        {P::factor, false},       {P::original_max_position, false}, {P::low_freq_factor, false},
        {P::high_freq_factor, false}, {P::beta_fast, false},    {P::beta_slow, false},
        {P::mscale, false},       {P::mscale_all_dim, false},   {P::truncate, false},
        {P::long_factors, false}, {P::short_factors, false},    {P::attention_factor, false},
        {P::nope, false},         {P::attn_temperature_tuning, false}, {P::floor_scale, false},
        {P::attn_scale, false},   {P::rope_axes, true},         {P::axial_frequencies, false},
        {P::mrope_section, false}, {P::mrope_section_interleaved, false}, {P::mrope_interleaved, false},
        {P::temporal_patch_size, false}, {P::tokens_per_second, false}, {P::video_time_ids, false},
        {P::video_seconds_cast, false},
    };
    return keys;
}

struct CardRow {
    std::string key;  // the parameter's name (the --set word), or the derived number's name
    std::vector<std::string> values;  // A's, then B's
    bool differs = false;
};

// A list of more than six numbers as its length and ends, to 4 digits (longrope's per-pair factors).
std::string short_value(const std::string& text) {
    const auto commas = std::count(text.begin(), text.end(), ',');
    if (commas < 6) return text;
    auto number = [](const std::string& t) {
        try {
            return plot::readout_number(std::stod(t), 4);
        } catch (const std::exception&) {
            return t;
        }
    };
    const std::size_t first = text.find(','), last = text.rfind(',');
    return std::to_string(commas + 1) + " values, " + number(text.substr(0, first)) + " … " + number(text.substr(last + 1));
}

std::string layers_text(const ParamSet& p) {
    const ModelLayers m = p.model_layers();
    if (m.empty()) return "—";
    std::string s = std::to_string(m.layers()) + ":";
    for (std::size_t k = 0; k < m.kinds.size(); ++k) {
        const auto n = std::count(m.kind_of_layer.begin(), m.kind_of_layer.end(), static_cast<int>(k));
        s += (k ? ", " : " ") + std::to_string(n) + " " + m.kinds[k].name;
    }
    return s;
}

// The layer whose RoPE the panels show: "5 (full_attention)", or "—" for a model without layers.
std::string layer_text(const ParamSet& p) {
    const ModelLayers m = p.model_layers();
    const std::optional<std::int64_t> layer = p[P::layer];
    if (m.empty() || !layer || *layer >= m.layers()) return "—";
    return std::to_string(*layer) + " (" + m.kind(static_cast<int>(*layer)).name + ")";
}

// The numbers the core derives from the keys, as rows of the card.
std::vector<std::pair<std::string, std::string>> derived(const ParamSet& p) {
    const RopeConfig c = p.config();
    const FrequencyTable f = compute_frequencies(c);
    std::string slowest = "—";
    if (f.rotating_pairs > 0) slowest = plot::readout_number(std::round(f.wavelength(f.rotating_pairs - 1)), 12);
    std::vector<std::pair<std::string, std::string>> rows;
    // MLA: what multiplies q.k, YaRN's correction in it (first: rows that do not fit are left out from the end)
    if (const std::optional<std::int64_t> nope = p[P::qk_nope_head_dim])
        rows.push_back({"softmax scale (MLA)", plot::readout_number(mla_scales({static_cast<int>(*nope), c.dim}, c).softmax, 6)});
    rows.push_back({"rotated dims", std::to_string(c.rotated_dims())});
    rows.push_back({"turning dims", std::to_string(2 * f.rotating_pairs)});
    rows.push_back({"slowest wavelength (tokens)", slowest});
    rows.push_back({"attention factor applied", plot::readout_number(f.attention_factor, 6)});
    rows.push_back({"layers", layers_text(p)});
    rows.push_back({"layer shown", layer_text(p)});
    return rows;
}

// Whether a key says how a model without RoPE biases its scores: shown for such a model even where
// it keeps the default (BLOOM-7B1's 32 heads, T5-base's 32 buckets).
bool bias_key_of(ParamId id, const ParamSet& m) {
    const PositionEncoding e = m[P::position_encoding];
    if (e == PositionEncoding::rope) return false;
    if (id == P::heads.id) return true;
    if (id == P::alibi_layout.id || id == P::alibi_bias_max.id) return e == PositionEncoding::alibi;
    if (id == P::t5_num_buckets.id || id == P::t5_max_distance.id || id == P::t5_bidirectional.id) return e == PositionEncoding::t5;
    return false;
}

std::vector<CardRow> card_rows(const std::vector<const ParamSet*>& models) {
    static const ParamSet defaults;
    std::vector<CardRow> rows;
    CardRow name{"model", {}, false};
    for (std::size_t i = 0; i < models.size(); ++i) name.values.push_back(detail::model_label(*models.front(), i == 1));
    rows.push_back(name);
    for (const CardKey& k : card_keys()) {
        const ParamSpec& spec = param_spec(k.id);
        CardRow r{std::string(spec.name), {}, false};
        bool shown = k.always;
        for (const ParamSet* m : models) {
            const std::string v = m->value_text(k.id);
            shown = shown || v != defaults.value_text(k.id) || bias_key_of(k.id, *m);
            r.values.push_back(short_value(v));  // as the model has it, also where a panel's control hides it
        }
        if (shown) rows.push_back(r);
    }
    // the derived rows by name: a row only one model has (MLA's softmax scale) reads "—" for the other
    std::vector<std::vector<std::pair<std::string, std::string>>> d;
    for (const ParamSet* m : models) d.push_back(derived(*m));
    std::vector<std::string> derived_names;
    for (const auto& per : d)
        for (const auto& row : per)
            if (std::find(derived_names.begin(), derived_names.end(), row.first) == derived_names.end()) derived_names.push_back(row.first);
    for (const std::string& derived_name : derived_names) {
        CardRow r{derived_name, {}, false};
        for (const auto& per : d) {
            const auto at = std::find_if(per.begin(), per.end(), [&](const auto& row) { return row.first == derived_name; });
            r.values.push_back(at == per.end() ? "—" : at->second);
        }
        rows.push_back(r);
    }
    for (CardRow& r : rows) r.differs = r.values.size() > 1 && r.values[0] != r.values[1];
    rows.front().differs = false;
    return rows;
}

// The rows that fit `room` rows: all, else (in the card's order) the model's name, then the rows
// where A and B differ, then the ones always shown, then the rest.
std::vector<CardRow> fitting_rows(const std::vector<CardRow>& rows, std::size_t room, std::size_t& left_out) {
    left_out = 0;
    if (rows.size() <= room) return rows;
    auto rank = [&](std::size_t i) {
        if (i == 0) return 0;
        if (rows[i].differs) return 1;
        const bool always = std::any_of(card_keys().begin(), card_keys().end(),
                                        [&](const CardKey& k) { return k.always && param_spec(k.id).name == rows[i].key; });
        return always ? 2 : 3;
    };
    std::vector<std::size_t> order(rows.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return rank(x) < rank(y); });
    order.resize(room);
    std::sort(order.begin(), order.end());
    std::vector<CardRow> kept;
    for (const std::size_t i : order) kept.push_back(rows[i]);
    left_out = rows.size() - kept.size();
    return kept;
}

// The card's shape at one type size: wide (key, A and B in columns, a line per key), narrow (the
// key on one line, the values side by side under it) or tall (the key, then each value on a line).
enum class CardShape { wide, narrow, tall };
struct CardLayout {
    float size = 0, row_h = 0, pad = 0, width = 0;
    CardShape shape = CardShape::wide;
    int lines = 1;               // per row
    std::vector<float> columns;  // each column's width (tall: the indent, then the widest value)
    float height(std::size_t rows) const { return row_h * static_cast<float>(lines * static_cast<int>(rows) + 1); }
    float value_x(std::size_t m, float x0) const {  // where value m of a row starts
        if (shape == CardShape::tall) return x0 + columns[0];
        float x = x0;
        for (std::size_t k = 0; k <= m; ++k) x += columns[k] + pad;
        return x;
    }
    float value_y(std::size_t m, float row_top) const {
        const float line = shape == CardShape::wide ? 0.0f : shape == CardShape::narrow ? 1.0f : static_cast<float>(m + 1);
        return row_top + row_h * (line + 0.5f);
    }
};

CardLayout card_layout(const BuildContext& ctx, const std::vector<std::string>& header, const std::vector<CardRow>& rows, float size,
                       CardShape shape) {
    CardLayout l;
    l.size = size;
    l.row_h = size * 1.65f;
    l.pad = size * 1.2f;
    l.shape = shape;
    const std::size_t values = header.size() - 1;
    l.lines = shape == CardShape::wide ? 1 : shape == CardShape::narrow ? 2 : 1 + static_cast<int>(values);
    l.columns.assign(header.size(), 0);
    for (std::size_t c = 0; c < header.size(); ++c) l.columns[c] = ctx.measure.measure(header[c], size).x;
    float keys = 0;
    for (const CardRow& r : rows) {
        keys = std::max(keys, ctx.measure.measure(r.key, size).x);
        for (std::size_t m = 0; m < r.values.size(); ++m)
            l.columns[m + 1] = std::max(l.columns[m + 1], ctx.measure.measure(r.values[m], size).x);
    }
    if (shape == CardShape::wide) {
        l.columns[0] = std::max(l.columns[0], keys);
        l.width = l.pad * static_cast<float>(l.columns.size() - 1);
        for (float w : l.columns) l.width += w;
    } else if (shape == CardShape::narrow) {
        l.columns[0] = size - l.pad;  // the values indented by one type size under their key
        l.width = size;
        for (std::size_t c = 1; c < l.columns.size(); ++c) l.width += l.columns[c] + (c > 1 ? l.pad : 0.0f);
        l.width = std::max(l.width, keys);
    } else {
        const float widest = *std::max_element(l.columns.begin() + 1, l.columns.end());
        l.columns = {size * 2.2f, widest};  // "A  value": the indent holds the model's letter
        l.width = std::max(keys, l.columns[0] + widest);
    }
    return l;
}

// The card's layout in `area`: the largest type (up to twice the axis labels': a card with room reads
// from the back of a room) at which it fits wide, else narrow, else tall, in one group of rows or, where
// the area is wide, two or three groups side by side; rows are left out (those A and B share first)
// only at the smallest type.
struct CardFit {
    CardLayout layout;
    int groups = 1;
    std::vector<CardRow> rows;
    std::size_t left_out = 0;
    std::size_t per_group() const { return (rows.size() + static_cast<std::size_t>(groups) - 1) / static_cast<std::size_t>(groups); }
};

CardFit fit_card(const BuildContext& ctx, const std::vector<std::string>& header, const std::vector<CardRow>& all, plot::Rect area,
                 float smallest) {
    const plot::Style& st = ctx.request.style;
    CardFit f;
    f.rows = all;
    const float gap = st.px(24);
    for (float size = std::max(smallest, st.px(st.label_font) * 2.5f);; size = std::max(smallest, size - 1)) {
        for (const CardShape shape : {CardShape::wide, CardShape::narrow, CardShape::tall}) {
            f.layout = card_layout(ctx, header, all, size, shape);
            if (f.layout.width <= area.width()) break;
        }
        f.groups = f.layout.shape == CardShape::wide
                       ? std::clamp(static_cast<int>((area.width() + gap) / (f.layout.width + gap)), 1, std::min<int>(3, static_cast<int>(all.size())))
                       : 1;
        if ((f.layout.width <= area.width() && f.layout.height(f.per_group()) <= area.height()) || size <= smallest) break;
    }
    if (f.layout.height(f.per_group()) > area.height()) {
        const float per_row = f.layout.row_h * static_cast<float>(f.layout.lines);
        const auto room = static_cast<std::size_t>(std::max(2.0f, std::floor((area.height() - f.layout.row_h) / per_row)));
        f.rows = fitting_rows(all, room * static_cast<std::size_t>(f.groups), f.left_out);
    }
    // the card spans its room: the spare width goes between the columns, the spare height between the
    // rows (up to a point: a card on a wall-sized picture stays a card)
    CardLayout& l = f.layout;
    if (l.shape == CardShape::wide && l.columns.size() > 1) {
        const float group_w = (area.width() - gap * static_cast<float>(f.groups - 1)) / static_cast<float>(f.groups);
        const float extra = std::max(0.0f, group_w - l.width) * 0.9f / static_cast<float>(l.columns.size() - 1);
        l.pad += extra;
        l.width += extra * static_cast<float>(l.columns.size() - 1);
    }
    const float lines = static_cast<float>(l.lines * static_cast<int>(f.per_group()) + 1);
    l.row_h = std::clamp((area.height() - l.size * 1.5f) / lines, l.row_h, l.size * 3.0f);
    return f;
}

// One group of rows with its header, its top left at (x0, y0); returns its bottom.
float draw_card_rows(BuildContext& ctx, const CardLayout& l, const std::vector<std::string>& header, const CardRow* rows, std::size_t count,
                     float x0, float y0, bool two_models) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    plot::DisplayList& list = ctx.result.list;
    // the header: over the columns when wide or narrow; tall rows name each value's model on its line
    if (l.shape != CardShape::tall)
        for (std::size_t c = l.shape == CardShape::wide ? 0 : 1; c < header.size(); ++c)
            list.text({c == 0 ? x0 : l.value_x(c - 1, x0), y0 + l.row_h / 2}, header[c], l.size, c == 0 ? th.muted : th.text,
                      plot::HAlign::left, plot::VAlign::middle);
    else
        list.text({x0, y0 + l.row_h / 2}, "key, then " + std::string(two_models ? "A and B" : "its value"), l.size, th.muted,
                  plot::HAlign::left, plot::VAlign::middle);
    list.segment({x0, y0 + l.row_h}, {x0 + l.width, y0 + l.row_h}, th.axis, st.px(1));
    float y = y0 + l.row_h;
    const float edge = std::min(l.pad / 3, l.size), h = l.row_h * static_cast<float>(l.lines);
    for (std::size_t i = 0; i < count; ++i, y += h) {
        const CardRow& r = rows[i];
        // the differing rows tinted; the others striped in turn, which leads the eye across wide gaps
        if (r.differs) list.rect({x0 - edge, y, x0 + l.width + edge, y + h}, th.accent.with_alpha(0.16f));
        else if (i % 2 == 1) list.rect({x0 - edge, y, x0 + l.width + edge, y + h}, th.grid.with_alpha(0.12f));
        list.text({x0, y + l.row_h / 2}, r.key, l.size, th.muted, plot::HAlign::left, plot::VAlign::middle);
        for (std::size_t m = 0; m < r.values.size(); ++m) {
            if (l.shape == CardShape::tall && two_models)
                list.text({x0 + l.size * 0.6f, l.value_y(m, y)}, m == 0 ? "A" : "B", l.size, th.muted, plot::HAlign::left, plot::VAlign::middle);
            list.text({l.value_x(m, x0), l.value_y(m, y)}, r.values[m], l.size, th.text, plot::HAlign::left, plot::VAlign::middle);
        }
    }
    return y;
}

void build_model_card(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const std::optional<ParamSet> b = detail::model_b(ctx.params);
    std::vector<const ParamSet*> models{&ctx.params};
    if (b) models.push_back(&*b);
    const std::vector<CardRow> all = card_rows(models);

    float top = st.px(6);
    if (st.draw_titles) {
        ctx.result.list.text({ctx.request.width / 2, top}, ctx.title(), st.px(st.title_font), th.text, plot::HAlign::center, plot::VAlign::top);
        top += st.px(st.title_font) * 1.5f;
    }
    // presenting, no smaller than the tick labels (a 36th of the screen's height): rows are left out first
    const float smallest = std::max(st.px(st.min_text), st.presenting ? std::max(plot::kPresentingSmallestText, st.px(st.tick_font)) : 0.0f);
    // the line under the card: what the tint means, or how to see B, or how many rows are left out
    // (room kept for the longest of them)
    const std::string left_out_note = " rows not shown: a larger panel or export shows all.";
    std::string note = b ? "Tinted: the rows where A and B differ." : "";
    if (!b && ctx.request.interactive) note = "Set 'compare with (model B)' to put a second model beside this one.";
    const float note_size = std::max(smallest, st.px(st.tick_font) * 0.9f), margin = st.px(10);
    const float note_w = ctx.request.width - 2 * margin;
    auto note_height = [&](const std::string& n) {
        const std::size_t lines = n.empty() ? 0 : plot::wrap_words(ctx.measure, n, note_size, note_w).size();
        return lines ? static_cast<float>(lines) * note_size * 1.3f + note_size * 0.5f : 0.0f;
    };
    auto area_above = [&](float note_h) { return plot::Rect{margin, top, ctx.request.width - margin, ctx.request.height - note_h - st.px(4)}; };
    std::vector<std::string> header{"key", b ? "A" : "value"};
    if (b) header.push_back("B");
    CardFit fit = fit_card(ctx, header, all, area_above(note_height(note)), smallest);
    if (fit.left_out > 0 && !st.presenting)  // room for the line that says so (presenting, the presenter view says it)
        fit = fit_card(ctx, header, all, area_above(std::max(note_height(note), note_height("99" + left_out_note))), smallest);
    const plot::Rect area = area_above(0);
    const CardLayout& l = fit.layout;

    const float gap = st.px(24);
    const float total = l.width * static_cast<float>(fit.groups) + gap * static_cast<float>(fit.groups - 1);
    const float x0 = area.x0 + std::max(0.0f, (area.width() - total) / 2), y0 = area.y0;
    float bottom = y0;
    for (int g = 0; g < fit.groups; ++g) {
        const std::size_t first = fit.per_group() * static_cast<std::size_t>(g);
        if (first >= fit.rows.size()) break;
        const std::size_t count = std::min(fit.per_group(), fit.rows.size() - first);
        bottom = std::max(bottom, draw_card_rows(ctx, l, header, fit.rows.data() + first, count, x0 + (l.width + gap) * static_cast<float>(g), y0, b.has_value()));
    }
    if (fit.left_out > 0 && st.presenting) ctx.result.left_out = std::to_string(fit.left_out) + " of " + std::to_string(all.size()) + " rows";
    else if (fit.left_out > 0) note = std::to_string(fit.left_out) + (fit.left_out == 1 ? " row" + left_out_note.substr(5) : left_out_note);
    float ny = bottom + note_size * 0.5f;
    for (const std::string& line : plot::wrap_words(ctx.measure, note, note_size, note_w)) {
        ctx.result.list.text({margin, ny}, line, note_size, th.muted, plot::HAlign::left, plot::VAlign::top);
        ny += note_size * 1.3f;
    }

    PlotGeometry g = detail::plot_geometry(ctx, CardPlot::card);
    g.area = {x0, y0, x0 + total, bottom};
    g.frame = g.area;
    ctx.result.plots.push_back(g);

    if (ctx.request.with_table) {
        DataTable& t = ctx.result.table;
        t.columns = b ? std::vector<std::string>{"key", "a", "b"} : std::vector<std::string>{"key", "value"};
        for (const CardRow& r : all) {
            std::vector<std::string> cells{r.key};
            cells.insert(cells.end(), r.values.begin(), r.values.end());
            t.text_rows.push_back(cells);
        }
    }
}

std::vector<std::pair<int, plot::Vec2>> card_needs(const ParamSet& params, const plot::Style& st) {
    const std::optional<ParamSet> b = detail::model_b(params);
    std::vector<const ParamSet*> models{&params};
    if (b) models.push_back(&*b);
    const float rows = static_cast<float>(card_rows(models).size() + 2);
    return {{0, {st.px(b ? 420.0f : 300.0f), rows * st.px(st.min_text) * 1.65f}}};
}

}  // namespace

const FigureDescriptor& model_card_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "model_card";
        f.title = "Model card";
        f.page = 3;
        f.export_width = 800;
        f.export_height = 640;
        f.csv_columns = "key,value";
        f.plots = tagged_plots<CardPlot>({
            {CardPlot::card, {"card", "The model's RoPE configuration, key by key", "model card", PlotRole::table, AxisRole::other, AxisRole::other, 0, {300, 240}, 0, false, 1.2f, {"card", "model card"}}},
        });
        std::vector<ParamId> reads;
        for (const CardKey& k : card_keys()) reads.push_back(k.id);
        reads.insert(reads.end(), {P::preset, P::compare_to, P::layer_kinds, P::model_layers, P::layer, P::sequence_length});
        f.reads = model_and({});
        for (const ParamId id : reads)
            if (std::find(f.reads.begin(), f.reads.end(), id) == f.reads.end()) f.reads.push_back(id);
        f.describe = describe_model_card;
        f.build = build_model_card;
        f.plot_needs = card_needs;
        f.model_b = ModelBView::itself;  // B's column beside A's
        f.draws_nope = true;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
