// Trained model: which rotated pairs a real model's q and k weights use (rope/pair_usage.hpp), read
// from a local folder (--set model=DIR) on a background thread. Three plots: the selected layer's
// heads x pairs (each head's share of its usage by pair: usage = the q.k weight-norm product, share =
// usage / the head's total, the names of the CSV and compute weights), the layers x pairs summary
// (the share averaged over a layer's heads), and that summary's selected layer against wavelength
// with the context-extension band shaded. Pairs run by wavelength, fastest first, as RoPE orders them.
// Without a layer set it shows the layer whose usage is most concentrated (rope::most_concentrated),
// and says which that is whatever layer it shows.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "figures/alt_text.hpp"
#include "figures/build_context.hpp"
#include "figures/subplot_fit.hpp"
#include "plot/text_wrap.hpp"
#include "plot/ticks.hpp"
#include "rope/bounds.hpp"
#include "rope/pair_usage.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;

enum class TrainedPlot { heads, layers, wavelength };

// The most concentrated layer's number (the layer the figure opens on).
int most_concentrated_layer(const TrainedModel& m) { return m.usage[most_concentrated(m.usage)].layer; }

// The layer set (layer=N), else the most concentrated: where a reader finds what the weights do.
int selected_layer(const ParamSet& p, const TrainedModel& m) {
    const int layer = p[P::layer] ? static_cast<int>(*p[P::layer]) : most_concentrated_layer(m);
    return std::clamp(layer, 0, static_cast<int>(m.usage.size()) - 1);
}

// "layer 3 (the most concentrated)" or "layer 0 (most concentrated: layer 3)": which layer a plot
// shows, and where the one whose heads lean most on one pair is.
std::string layer_words(const TrainedModel& m, int layer) {
    const int most = most_concentrated_layer(m);
    if (m.usage.size() < 2) return "layer " + std::to_string(layer);
    return "layer " + std::to_string(layer) + (layer == most ? " (the most concentrated)" : " (most concentrated: layer " + std::to_string(most) + ")");
}

// The share of each pair averaged over the layer's heads.
std::vector<double> mean_share(const LayerPairUsage& l) {
    std::vector<double> out(static_cast<std::size_t>(l.pairs.pairs), 0.0);
    for (int h = 0; h < l.pairs.heads; ++h)
        for (int i = 0; i < l.pairs.pairs; ++i) out[static_cast<std::size_t>(i)] += l.pairs.at(l.pairs.share, h, i) / l.pairs.heads;
    return out;
}

// Each pair's unscaled wavelength in layer l, from that layer's RoPE (the current keys for the
// selected layer): computed here, not read with the weights, so moving the base redraws and re-reads nothing.
std::vector<double> wavelengths(FigureCache& cache, const ParamSet& params, const LayerPairUsage& l) {
    return pair_wavelengths(*cache.frequencies(layer_params(params, l.layer)), l.pairs.pairs);
}

// The fractional pair index where the wavelength reaches `tokens` (between the two pairs around it).
double pair_at_wavelength(const std::vector<double>& wavelength, double tokens) {
    for (std::size_t i = 1; i < wavelength.size(); ++i)
        if (wavelength[i] >= tokens && wavelength[i - 1] < tokens)
            return static_cast<double>(i - 1) + std::log(tokens / wavelength[i - 1]) / std::log(wavelength[i] / wavelength[i - 1]);
    return -1;
}

// The heads map's two reference lines: where the wavelength reaches the context (a fractional pair)
// and the critical dimension (between two pairs); either may be absent (-1). Named in a legend above
// the map, not by tags: a tag sits over the cells, and the two lines are often a pair apart.
struct HeadMarks {
    double context_pair = -1, critical_pair = -1;
    std::string context_name, critical_name = "critical dim";
};
HeadMarks head_marks(BuildContext& ctx, const LayerPairUsage& l) {
    HeadMarks k;
    const double context = static_cast<double>(ctx.params[P::max_position]);
    k.context_pair = pair_at_wavelength(wavelengths(ctx.cache, ctx.params, l), context);
    k.context_name = "λ = context (" + plot::readout_number(context, 7) + ")";
    const RopeConfig c = ctx.params.config();
    const int critical = critical_dimension(c, static_cast<double>(c.original_max_position));
    if (critical > 0 && critical / 2 < l.pairs.pairs) k.critical_pair = critical / 2.0 - 0.5;
    return k;
}

void marks(BuildContext& ctx, plot::Plot& p, const HeadMarks& k) {
    const plot::Style& st = ctx.request.style;
    if (k.context_pair >= 0) p.vline(k.context_pair, st.theme.text.with_alpha(0.8f), k.context_name, 1.5f, 5);
    if (k.critical_pair >= 0) p.vline(k.critical_pair, st.theme.accent, k.critical_name, 2.0f);
    if (ctx.request.show_cursor) p.marker_x(static_cast<double>(ctx.params[P::pair]), st.theme.text.with_alpha(0.5f), "", 1.0f, 3);
}

void draw_heads(BuildContext& ctx, const TrainedModel& m, const plot::Style& sub, plot::Rect cell, bool key) {
    const LayerPairUsage& l = m.usage[static_cast<std::size_t>(selected_layer(ctx.params, m))];
    // what it shows first: a narrow plot's title leaves the aside on the most concentrated layer out
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell, "each head's share of usage by pair, " + layer_words(m, l.layer));
    const HeadMarks k = head_marks(ctx, l);
    std::vector<std::string> named;
    if (k.context_pair >= 0) named.push_back(k.context_name);
    if (k.critical_pair >= 0) named.push_back(k.critical_name);
    if (!named.empty()) p.setup_legend_above(named);
    p.setup_x({"pair i (by wavelength, fastest first)", -0.5, l.pairs.pairs - 0.5});
    plot::AxisSetup y{"query head", -0.5, l.pairs.heads - 0.5};
    y.integer_ticks = true;
    if (l.pairs.heads <= 4)
        for (int h = 0; h < l.pairs.heads; ++h) y.ticks.push_back({static_cast<double>(h), std::to_string(h)});
    p.setup_y(y);
    double top = 0;
    for (double s : l.pairs.share) top = std::max(top, s);
    top = std::max(top, 1e-9);
    if (key) p.setup_colorbar({"share", plot::ColormapId::sequential, 0, top});
    std::vector<float> values;  // the image's first row is its top: the last head
    for (int h = l.pairs.heads - 1; h >= 0; --h)
        for (int i = 0; i < l.pairs.pairs; ++i) values.push_back(static_cast<float>(l.pairs.at(l.pairs.share, h, i)));
    p.heatmap(std::move(values), l.pairs.pairs, l.pairs.heads, -0.5, l.pairs.pairs - 0.5, -0.5, l.pairs.heads - 0.5,
              plot::ColormapId::sequential, 0.0f, static_cast<float>(top));
    marks(ctx, p, k);
    record_geometry(ctx, p, TrainedPlot::heads);
    p.finish();
}

void draw_layers(BuildContext& ctx, const TrainedModel& m, const plot::Style& sub, plot::Rect cell, bool key) {
    const int pairs = m.usage.front().pairs.pairs, layers = static_cast<int>(m.usage.size());
    const std::string most = layers > 1 ? " (most concentrated: layer " + std::to_string(most_concentrated_layer(m)) + ")" : "";
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell, "mean share of each layer's heads" + most);
    p.setup_x({"pair i", -0.5, pairs - 0.5});
    plot::AxisSetup y{"layer", -0.5, layers - 0.5};
    y.integer_ticks = true;
    if (layers <= 4)
        for (int layer = 0; layer < layers; ++layer) y.ticks.push_back({static_cast<double>(layer), std::to_string(layer)});
    p.setup_y(y);
    std::vector<float> values(static_cast<std::size_t>(pairs * layers), 0.0f);
    double top = 1e-9;
    for (int layer = 0; layer < layers; ++layer) {
        const std::vector<double> s = mean_share(m.usage[static_cast<std::size_t>(layer)]);
        for (int i = 0; i < pairs && i < static_cast<int>(s.size()); ++i) {
            values[static_cast<std::size_t>((layers - 1 - layer) * pairs + i)] = static_cast<float>(s[static_cast<std::size_t>(i)]);  // top row: the last layer
            top = std::max(top, s[static_cast<std::size_t>(i)]);
        }
    }
    if (key) p.setup_colorbar({"mean share", plot::ColormapId::sequential, 0, top});
    p.heatmap(std::move(values), pairs, layers, -0.5, pairs - 0.5, -0.5, layers - 0.5, plot::ColormapId::sequential, 0.0f, static_cast<float>(top));
    p.marker_y(static_cast<double>(selected_layer(ctx.params, m)), ctx.request.style.theme.accent, "", 1.5f, 4);
    record_geometry(ctx, p, TrainedPlot::layers);
    p.finish();
}

void draw_wavelength(BuildContext& ctx, const TrainedModel& m, const plot::Style& sub, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const LayerPairUsage& l = m.usage[static_cast<std::size_t>(selected_layer(ctx.params, m))];
    const std::vector<double> share = mean_share(l), wavelength = wavelengths(ctx.cache, ctx.params, l);
    std::vector<double> x, y;
    double top = 0;
    for (std::size_t i = 0; i < share.size(); ++i)
        if (std::isfinite(wavelength[i])) {
            x.push_back(wavelength[i]);
            y.push_back(share[i]);
            top = std::max(top, share[i]);
        }
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell, "layer " + std::to_string(l.layer) + ": mean usage share against wavelength");
    const double lo = x.empty() ? 1 : x.front() * 0.8, hi = x.empty() ? 10 : x.back() * 1.25;
    p.setup_x({"wavelength 2π/θᵢ (tokens, log)", lo, hi, true});
    p.setup_y({"mean share", 0, std::max(top * 1.1, 1e-6)});
    // the extension band: pairs the scaling moves by other than 1 or 1/factor (YaRN's ramp, Llama 3's band)
    const ParamSet layer = layer_params(ctx.params, l.layer);
    const std::shared_ptr<const FrequencyTable> f = ctx.cache.frequencies(layer);
    const double factor = layer.config().factor;
    double band_lo = HUGE_VAL, band_hi = 0;
    for (int i = 0; i < f->rotating_pairs && i < static_cast<int>(wavelength.size()); ++i) {
        const double r = f->theta[i] / f->original_theta[i];
        const double w = wavelength[static_cast<std::size_t>(i)];
        if (std::abs(r - 1) > 1e-9 && std::abs(r * factor - 1) > 1e-9 && std::isfinite(w)) band_lo = std::min(band_lo, w), band_hi = std::max(band_hi, w);
    }
    if (band_hi > 0) {
        p.band_x(band_lo, band_hi, st.theme.accent.with_alpha(0.18f));
        p.text(std::sqrt(band_lo * band_hi), top * 1.05, "extension band", st.theme.text, plot::HAlign::center, plot::VAlign::bottom, st.label_font);
    }
    p.line(x.data(), y.data(), x.size(), 1, st.theme.accent, "", 2.5f);
    const double context = static_cast<double>(ctx.params[P::max_position]);
    if (context > lo && context < hi) p.marker_x(context, st.theme.text.with_alpha(0.8f), "context " + std::to_string(ctx.params[P::max_position]), 1.5f, 5);
    record_geometry(ctx, p, TrainedPlot::wavelength);
    p.finish();
}

// The CSV: every layer, head and pair of the loaded model (without one, the header alone).
void trained_table(DataTable& t, FigureCache& cache, const ParamSet& params, const TrainedModel* m) {
    t.columns = {"layer", "head", "kv_head", "pair", "original_wavelength", "q_norm", "k_norm", "usage", "share"};
    t.values.assign(t.columns.size(), {});
    if (!m) return;
    for (const LayerPairUsage& l : m->usage) {
        const std::vector<double> wavelength = wavelengths(cache, params, l);
        for (int h = 0; h < l.pairs.heads; ++h)
            for (int i = 0; i < l.pairs.pairs; ++i) {
                const double row[9] = {static_cast<double>(l.layer), static_cast<double>(h), static_cast<double>(l.pairs.kv_head(h)),
                                       static_cast<double>(i), wavelength[static_cast<std::size_t>(i)], l.pairs.at(l.pairs.q_norm, h, i),
                                       l.pairs.at(l.pairs.k_norm, h, i), l.pairs.at(l.pairs.usage, h, i), l.pairs.at(l.pairs.share, h, i)};
                for (int c = 0; c < 9; ++c) t.values[static_cast<std::size_t>(c)].push_back(row[c]);
            }
    }
}

// "layer 1 (8 query heads, 2 key heads, 8 pairs): the heaviest pair on average is 6 (wavelength
// 6283 tokens), 49.1% of a head's share; the lightest 5, 6.9%"
std::string heaviest_pair_words(BuildContext& ctx, const TrainedModel& m) {
    const LayerPairUsage& l = m.usage[static_cast<std::size_t>(selected_layer(ctx.params, m))];
    const std::vector<double> share = mean_share(l), wavelength = wavelengths(ctx.cache, ctx.params, l);
    const auto most = std::max_element(share.begin(), share.end()), least = std::min_element(share.begin(), share.end());
    const auto percent = [](double v) {
        char b[32];
        std::snprintf(b, sizeof b, "%.1f%%", 100 * v);
        return std::string(b);
    };
    const std::size_t i = static_cast<std::size_t>(most - share.begin()), j = static_cast<std::size_t>(least - share.begin());
    const int concentrated = most_concentrated_layer(m);
    const std::string where = m.usage.size() < 2 ? ""
                              : concentrated == l.layer ? "; the most concentrated layer"
                                                        : "; the most concentrated layer is " + std::to_string(concentrated);
    return "layer " + std::to_string(l.layer) + " (" + std::to_string(l.pairs.heads) + " query heads, " + std::to_string(l.pairs.kv_heads) +
           " key heads, " + std::to_string(l.pairs.pairs) + " pairs): the heaviest pair on average is " + std::to_string(i) + " (wavelength " +
           plot::readout_number(wavelength[i], 4) + " tokens), " + percent(*most) + " of a head's usage; the lightest " + std::to_string(j) +
           ", " + percent(*least) + where;
}

// The folder the weights came from, by its name ("Qwen3-8B"), as people call their download.
std::string folder_name(const ParamSet& p) {
    std::string folder = p[P::model];
    while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
    return folder.substr(folder.find_last_of('/') + 1);
}

// Under the plots: whose weights these are, and what the numbers are and are not: one line where it
// fits the width, else the folder and heads, then the formulas (on as many lines as they need).
std::vector<std::string> caption_lines(BuildContext& ctx, const TrainedModel& m, float width) {
    const plot::Style& st = ctx.request.style;
    const std::string whose = "weights of folder " + folder_name(ctx.params) + " (" + m.architecture + ", " + std::to_string(m.heads) +
                              " heads / " + std::to_string(m.kv_heads) + " key heads)";
    std::string what = "usage = ‖q pair‖·‖k pair‖ of the weights, share = usage ÷ the head's total; RMSNorm's input scale left out";
    if (m.attention_bias) what += "; q/k biases not included";
    if (ctx.params.compared_model()) what += "; model B has no weights here";
    const std::string one = whose + ": " + what;
    const float size = st.px(st.tick_font), room = width - st.px(16);
    if (ctx.measure.measure(one, size).x <= room) return {one};
    std::vector<std::string> lines = plot::wrap_words(ctx.measure, whose, size, room);
    for (std::string& l : plot::wrap_words(ctx.measure, what, size, room)) lines.push_back(std::move(l));
    return lines;
}

void build_trained(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const float W = ctx.request.width, H = ctx.request.height;
    const TrainedState state = ctx.cache.trained_model(ctx.params, ctx.request.wait_for_background);
    if (ctx.request.with_table) trained_table(ctx.result.table, ctx.cache, ctx.params, state.model.get());
    const float th = st.draw_titles ? st.px(st.title_font) * 1.4f : 0;
    if (st.draw_titles)
        ctx.result.list.text({W / 2, st.px(6)}, ctx.title(), st.px(st.title_font), st.theme.text, plot::HAlign::center, plot::VAlign::top);
    const plot::Rect all{0, th, W, H};
    if (!ctx.cache.trained_reader()) {  // the browser's page: it cannot open a folder of weights
        detail::centred_note(ctx, all, std::vector<std::string>{
            "This page reads no model folders: the desktop app (rope-explorer) reads a model's q and k weights "
            "from its config.json and *.safetensors and shows here which rotated pairs they use.",
            "Model folders: in the desktop app (rope-explorer)", "Desktop app only"});
        return;
    }
    if (!ctx.params.has(P::model) && st.presenting) {  // the room is told what the panel shows, not how to open a folder
        detail::centred_note(ctx, all, std::vector<std::string>{
            "No trained model loaded: this panel shows which rotated pairs a model's q and k weights use.", "No trained model loaded"});
        return;
    }
    if (!ctx.params.has(P::model)) {
        detail::centred_note(ctx, all, std::vector<std::string>{
            "No trained model loaded. Open a model folder (config.json and *.safetensors) with Open (Ctrl+O), "
            "drop it on the window, or start with --set model=DIR: this panel then shows which rotated pairs its q and k weights use.",
            "No model folder: Ctrl+O a folder, or --set model=DIR", "No model folder"});
        return;
    }
    if (state.loading || (!state.model && state.error.empty())) {
        ctx.result.incomplete = true;  // redrawn when the read publishes
        char pct[16];
        std::snprintf(pct, sizeof pct, "%.0f %%", state.progress * 100);
        detail::centred_note(ctx, all, "Reading the weights of " + ctx.params.value_text(P::model) + " … " + pct +
                                                 (st.presenting ? "" : " (Cancel in the header)"));
        return;
    }
    if (!state.model) {
        // a file (it waits for the read) says nothing with a note in it: refused with the reader's line
        if (ctx.request.wait_for_background && !ctx.request.interactive)
            throw std::invalid_argument("--set model=" + ctx.params.value_text(P::model) + ": " + state.error);
        detail::centred_note(ctx, all, "Could not read the model: " + state.error);
        return;
    }
    const TrainedModel& m = *state.model;
    ctx.result.data_words = heaviest_pair_words(ctx, m);
    plot::Style sub = st;
    sub.title_font = st.title_font * 0.8f;
    sub.draw_titles = true;
    const std::vector<std::string> notes = caption_lines(ctx, m, W);
    // heads x pairs large at the top left, the layers beside it, share against wavelength below
    const float line = st.px(st.tick_font) * 1.3f;
    const float bottom = H - line * static_cast<float>(notes.size()) - st.px(st.tick_font) * 0.3f, split_x = W * 0.58f,
                split_y = th + (bottom - th) * 0.58f;
    const std::vector<plot::Rect> own = {{0, th, split_x, split_y}, {split_x, th, W, split_y}, {0, split_y, W, bottom}};
    const detail::SubplotFit fit = detail::fit_plots(ctx, {0, th, W, bottom}, own);
    if (fit.shows(TrainedPlot::heads)) draw_heads(ctx, m, sub, fit.cell(TrainedPlot::heads), fit.draws_key_of(TrainedPlot::heads));
    if (fit.shows(TrainedPlot::layers)) draw_layers(ctx, m, sub, fit.cell(TrainedPlot::layers), fit.draws_key_of(TrainedPlot::layers));
    if (fit.shows(TrainedPlot::wavelength)) draw_wavelength(ctx, m, sub, fit.cell(TrainedPlot::wavelength));
    for (std::size_t i = 0; i < notes.size(); ++i)
        ctx.result.list.text({W / 2, H - st.px(2) - line * static_cast<float>(notes.size() - 1 - i)}, notes[i], st.px(st.tick_font), st.theme.text,
                             plot::HAlign::center, plot::VAlign::bottom);
}

void trained_header(PanelContext& panel, HeaderControls& ui) {
    const TrainedState state = panel.cache.trained_model(panel.params, false);
    if (state.loading) {
        if (ui.button("Cancel", "Stop reading the model's weights")) panel.cache.cancel_trained();
    } else if (panel.params.has(P::model) && ui.button("Read again", "Read the model folder again (after its files changed, or a cancelled read)")) {
        panel.cache.cancel_trained(true);
    }
}

std::string number(double v) { return plot::readout_number(v, 5); }

std::string trained_readout(PanelContext& panel, const PlotGeometry& g, double x, double y) {
    const TrainedState state = panel.cache.trained_model(panel.params, false);
    if (!state.model) return "";
    const TrainedModel& m = *state.model;
    const int layer_index = g.is(TrainedPlot::layers) ? static_cast<int>(std::lround(y)) : selected_layer(panel.params, m);
    if (layer_index < 0 || layer_index >= static_cast<int>(m.usage.size())) return "";
    const LayerPairUsage& l = m.usage[static_cast<std::size_t>(layer_index)];
    const auto& u = l.pairs;
    const std::vector<double> wavelength = wavelengths(panel.cache, panel.params, l);
    if (g.is(TrainedPlot::wavelength)) {
        int best = -1;
        for (int i = 0; i < u.pairs; ++i)
            if (std::isfinite(wavelength[static_cast<std::size_t>(i)]) &&
                (best < 0 || std::abs(std::log(wavelength[static_cast<std::size_t>(i)] / x)) <
                                 std::abs(std::log(wavelength[static_cast<std::size_t>(best)] / x))))
                best = i;
        if (best < 0) return "";
        x = best;
    }
    const int pair = static_cast<int>(std::lround(x));
    if (pair < 0 || pair >= u.pairs) return "";
    std::string s = "layer " + std::to_string(l.layer) + ", pair i = " + std::to_string(pair) + "\nwavelength = " +
                    number(wavelength[static_cast<std::size_t>(pair)]) + " tokens";
    if (g.is(TrainedPlot::heads)) {
        const int h = static_cast<int>(std::lround(y));
        if (h < 0 || h >= u.heads) return "";
        s += "\nquery head " + std::to_string(h) + " (key head " + std::to_string(u.kv_head(h)) + ")" + "\nq_norm = " + number(u.at(u.q_norm, h, pair)) +
             "\nk_norm = " + number(u.at(u.k_norm, h, pair)) + "\nusage = " + number(u.at(u.usage, h, pair)) +
             "\nshare of the head = " + number(u.at(u.share, h, pair));
    } else {
        s += "\nmean share of the heads = " + number(mean_share(l)[static_cast<std::size_t>(pair)]);
    }
    return s + "\n(click: select this pair everywhere)";
}

// A click on a pair selects it in every panel (and, on the layers map, that layer).
void trained_pointer(PanelContext& panel, const PointerInput& in) {
    if (!in.pressed) return;
    for (TrainedPlot which : {TrainedPlot::heads, TrainedPlot::layers}) {
        const PlotGeometry* g = panel.figure.find(which);
        if (!g || !g->area.contains(in.local)) continue;
        const long pair = std::lround(g->x_at(in.local.x));
        const long layer = std::lround(g->y_at(in.local.y));
        panel.edit("select pair " + std::to_string(pair), [&](ParamSet& p) {
            const RopeConfig c = p.config();
            if (pair >= 0 && pair < c.rotated_pairs()) p.set_number(P::pair, static_cast<double>(pair));
            if (which == TrainedPlot::layers && layer >= 0 && !p.model_layers().empty() && layer < p.model_layers().layers())
                p.set(P::layer, std::to_string(layer));
        });
        return;
    }
}

}  // namespace

std::string describe_trained(const ParamSet& p, const FigureResult& result) {
    const int pairs = p.config().rotated_pairs();
    if (!p.has(P::model))
        return "no model folder is loaded; opening one shows which of its " + std::to_string(pairs) +
               " rotated pairs each query head's trained q and k weights use";
    if (result.data_words.empty()) return "the weights of " + p.value_text(P::model) + " (" + std::to_string(pairs) + " rotated pairs) are being read";
    return "each query head's share of its q·k weight norms by rotated pair, " + result.data_words;
}

const FigureDescriptor& trained_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "trained";
        f.title = "Trained model";
        f.page = 6;  // its own page: three plots that read best large
        f.export_width = 1000;
        f.export_height = 640;
        f.csv_columns = "layer,head,kv_head,pair,original_wavelength,q_norm,k_norm,usage,share";
        f.plots = tagged_plots<TrainedPlot>({
            {TrainedPlot::heads, {"trained_heads", "Each head's share by pair, selected layer", "heads × pairs", PlotRole::main, AxisRole::pair, AxisRole::other, 0, {260, 200}, 90, false, 1.6f, {"heads", "head"}}},
            {TrainedPlot::layers, {"trained_layers", "Every layer's mean share by pair", "layers × pairs", PlotRole::supporting, AxisRole::pair, AxisRole::other, 1, {220, 180}, 80, false, 1.4f, {"layers", "layer"}}},
            {TrainedPlot::wavelength, {"trained_wavelength", "Mean share against wavelength", "share vs wavelength", PlotRole::supporting, AxisRole::other, AxisRole::other, 2, {240, 180}, 0, false, 1.8f, {"wavelength", "extension band"}}},
        });
        f.reads = model_and({P::model, P::layer, P::layer_kinds, P::model_layers, P::max_position, P::pair});
        f.describe = describe_trained;
        f.file_problem = [](const ParamSet& p) {
            return p.has(P::model) ? std::string()
                                   : std::string("export trained: no model folder; --set model=DIR (a folder with config.json and *.safetensors)");
        };
        f.build = build_trained;
        f.model_b = ModelBView::itself;
        f.shows_b = false;  // B's weights are not read: its note says so
        f.header_width_em = 8;
        f.header = trained_header;
        f.readout = trained_readout;
        f.pointer = trained_pointer;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
