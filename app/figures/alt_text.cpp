#include "figures/alt_text.hpp"

#include <cmath>
#include <cstdio>

#include "figures/compared_build.hpp"
#include "figures/heatmap_cells.hpp"
#include "figures/video_layouts.hpp"
#include "rope/frequencies.hpp"
#include "rope/rotation.hpp"
#include "rope/partial_layouts.hpp"
#include "rope/model_layers.hpp"
#include "rope/presets.hpp"

namespace rope::figures {

namespace {

constexpr double kTwoPi = 6.283185307179586;

// A number as a reader says it: whole numbers whole, others to three significant digits.
std::string said(double v) {
    char buf[40];
    if (std::isinf(v)) return v > 0 ? "infinity" : "-infinity";
    if (std::fabs(v - std::round(v)) < 1e-9 && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}
std::string said(std::int64_t v) { return std::to_string(v); }

// "Llama 3 8B" (a preset's model), else the head dim and base of a model set by hand or read from a config.
std::string model_name(const ParamSet& p) {
    if (const Preset* preset = find_preset(p[P::preset]); preset && p[P::preset] != "none") return std::string(preset->model);
    if (p.has(P::model)) {  // a model folder: by its name ("Qwen3-8B"), as people call their download
        std::string folder = p[P::model];
        while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
        return "the model in folder " + folder.substr(folder.find_last_of('/') + 1);
    }
    return "a model with head dim " + said(p[P::dim]) + " and base " + said(p[P::base]);
}

FrequencyTable frequencies(const ParamSet& p) { return compute_frequencies(p.config()); }

// "pairs 0-20", "pair 0", or "" for an empty range.
std::string pair_range(int from, int to) {
    if (to < from) return "";
    return from == to ? "pair " + std::to_string(from) : "pairs " + std::to_string(from) + "-" + std::to_string(to);
}

const PlotGeometry* plot_named(const FigureResult& r, const char* name) {
    for (const PlotGeometry& g : r.plots)
        if (g.name == name && g.model == 0) return &g;
    return nullptr;
}

// The image of cells inside a plot's area (not its colour bar).
const plot::ImageCmd* image_in(const FigureResult& r, const PlotGeometry& g) {
    const plot::ImageCmd* best = nullptr;
    for (const plot::Command& c : r.list.commands)
        if (const auto* image = std::get_if<plot::ImageCmd>(&c))
            if (g.area.contains({(image->rect.x0 + image->rect.x1) / 2, (image->rect.y0 + image->rect.y1) / 2}) &&
                (!best || image->rect.width() * image->rect.height() > best->rect.width() * best->rect.height()))
                best = image;
    return best;
}

std::string scaling_words(const ParamSet& p) {
    const Scaling s = p[P::scaling];
    return s == Scaling::none ? "no scaling" : std::string(enum_name(s)) + " scaling by a factor of " + said(p[P::factor]);
}

std::string degrees(double radians) {
    double d = std::fmod(radians * 180 / M_PI, 360.0);
    if (d < 0) d += 360;
    d = std::round(d * 10) / 10;  // as printed, so that 359.96 reads 0.0, not 360.0
    if (d >= 360) d -= 360;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f°", d);
    return buf;
}

// The angle between two directions, 0-180°.
std::string angle_apart(double radians) {
    double d = std::fmod(std::fabs(radians) * 180 / M_PI, 360.0);
    if (d > 180) d = 360 - d;
    d = std::round(d * 10) / 10;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f°", d);
    return buf;
}

}  // namespace

std::string alt_text(const FigureDescriptor& figure, const ParamSet& params, const FigureResult& result) {
    std::string head = std::string(figure.title) + " of " + model_name(params);
    if (detail::model_b(params)) {  // B by its model's name when it is a preset, as A is
        const std::string b = detail::model_label(params, true);
        const Preset* preset = find_preset(b);
        head += " beside " + (preset ? std::string(preset->model) : b);
    }
    if (result.error) return head + ".";
    std::string body = figure.describe ? figure.describe(params, result) : "";
    return body.empty() ? head + "." : head + ": " + body + ".";
}

std::string describe_vectors(const ParamSet& p, const FigureResult&) {
    const FrequencyTable f = frequencies(p);
    const int pair = static_cast<int>(std::min<std::int64_t>(p[P::pair], f.pairs() - 1));
    const std::int64_t m = p[P::position], n = p[P::key_position];
    const double theta = f.theta[pair];
    // k's angle from q: (n - m)θ, plus the angle k starts at from q when a key vector is set (as the figure has it)
    double start = 0;
    if (p.has(P::key_vector)) {
        const PairDims dims = pair_dims(p.config().pairing, f.rotated_dims, pair);
        const std::vector<double> q = p.vector(), k = p.key_vector();
        start = std::atan2(k[dims.second], k[dims.first]) - std::atan2(q[dims.second], q[dims.first]);
    }
    return "pair " + std::to_string(pair) + " of " + std::to_string(f.pairs()) + " turned to position " + said(m) + " by " +
           degrees(static_cast<double>(m) * theta) + " (m·θ = " + said(m) + " × " + said(theta) + " rad), every pair's turn at m = " +
           said(m) + ", and q at m = " + said(m) + " beside k at n = " + said(n) + ", " +
           angle_apart(static_cast<double>(n - m) * theta + start) + " apart in this pair";
}

std::string describe_heatmap(const ParamSet& p, const FigureResult& r) {
    const FrequencyTable f = frequencies(p);
    const HeatmapSpan span = heatmap_span(p[P::max_position], p[P::heatmap_from], p[P::heatmap_to]);
    const std::int64_t from = span.from, to = span.to;
    const PlotGeometry* g = plot_named(r, "heatmap");
    const plot::ImageCmd* image = g ? image_in(r, *g) : nullptr;
    std::string s = std::to_string(f.pairs()) + " pairs over positions " + said(from) + "-" + said(to - 1);
    if (image) s += " in " + std::to_string(image->cols) + " columns";
    switch (p[P::heatmap_mode]) {
        case HeatmapMode::cos: return s + "; colour is each cell's mean cos(m·θ)";
        case HeatmapMode::sin: return s + "; colour is each cell's mean sin(m·θ)";
        case HeatmapMode::unwrapped: return s + "; colour is the angle m·θ unwrapped, in whole turns";
        case HeatmapMode::a_minus_b: return s + "; colour is the angle of this model minus model B's";
        case HeatmapMode::angle: break;
    }
    if (!image) return s;
    // a pair fades to grey where it turns a whole turn or more within one cell (its mean phasor is ~0)
    const double positions_per_cell = static_cast<double>(to - from) / std::max(1, image->cols);
    std::vector<int> fast;
    for (int i = 0; i < f.pairs(); ++i)
        if (f.theta[i] * positions_per_cell >= kTwoPi) fast.push_back(i);
    const int n = static_cast<int>(fast.size());
    if (n == 0) return s + "; every pair turns less than a whole turn within a cell, so every colour shows its angle";
    if (n == f.pairs()) return s + "; every pair turns a whole turn or more within a cell and fades to grey";
    const bool first_ones = fast.back() == n - 1;  // pairs 0..n-1, as θ falls with i
    return s + "; " + (first_ones ? pair_range(0, n - 1) : std::to_string(n) + " pairs") + " turn" + (n == 1 ? "s" : "") +
           " a whole turn or more within a cell and fade" + (n == 1 ? "s" : "") + " to grey, the other " +
           std::to_string(f.pairs() - n) + " show their angle as colour";
}

std::string describe_sweep(const ParamSet& p, const FigureResult& r) {
    const FrequencyTable f = frequencies(p);
    const std::int64_t context = p[P::max_position];
    int longer = 0;
    // the map's wavelengths are unscaled, base^(-2i/r) at each base, as the figure draws them
    for (int i = 0; i < f.pairs(); ++i) longer += f.rotates(i) && kTwoPi / f.original_theta[i] > static_cast<double>(context);
    std::string s = "each pair's wavelength over a context of " + said(context) + " tokens";
    if (const PlotGeometry* g = plot_named(r, "sweep")) s += " for bases " + said(g->x_min) + " to " + said(g->x_max);
    return s + "; at this model's base " + said(p[P::base]) + ", " + std::to_string(longer) + " of " + std::to_string(f.pairs()) +
           " pairs have a wavelength longer than the context";
}

std::string describe_decay(const ParamSet& p, const FigureResult&) {
    return "RoFormer's relative upper bound on the score against distance 0-" + said(p[P::max_distance]) + " for head dim " +
           said(p[P::dim]) + " and base " + said(p[P::base]) + " (" + std::string(enum_name(p[P::decay_scale])) + " scale)";
}

std::string describe_context(const ParamSet& p, const FigureResult&) {
    const FrequencyTable f = frequencies(p);
    int kept = 0, divided = 0;
    for (int i = 0; i < f.pairs(); ++i) {
        if (!f.rotates(i) || f.original_theta[i] == 0) continue;
        const double ratio = f.theta[i] / f.original_theta[i];
        kept += std::fabs(ratio - 1) < 1e-6;
        divided += ratio < 1 - 1e-6;
    }
    return scaling_words(p) + " from " +
           said(p[P::original_max_position]) + " to " + said(p[P::max_position]) + " positions; of " + std::to_string(f.pairs()) +
           " pairs, " + std::to_string(kept) + " keep their frequency and " + std::to_string(divided) + " turn slower";
}

std::string describe_scores(const ParamSet& p, const FigureResult&) {
    return "the score ⟨R(m)q, R(n)k⟩ for every query position m and key position n from 0 to " + said(p[P::max_position]) +
           ", constant along each diagonal because it depends only on m - n; beside it the same with the pairing layouts mixed up, which is not";
}

std::string describe_pairing(const ParamSet& p, const FigureResult&) {
    return "which dims form pair " + said(p[P::pair]) + " in the half (rotate_half) and interleaved layouts, and the score of q at m = " +
           said(p[P::position]) + " and k at n = " + said(p[P::key_position]) +
           " as both shift together: constant when the layouts match, drifting when they are mixed";
}

std::string describe_precision(const ParamSet& p, const FigureResult&) {
    return "the error of pair " + said(p[P::pair]) + "'s angle against position up to " + said(p[P::max_position]) +
           " when positions and angles are stored in bfloat16, float16 and float32, and every pair's error at m = " + said(p[P::position]);
}

std::string describe_sinusoidal(const ParamSet& p, const FigureResult&) {
    return "the additive sinusoidal encoding's dot products and scores for positions 0-" + said(p[P::max_position]) +
           " beside RoPE's score for the same query and key, which depends on the distance only";
}

std::string describe_partial_vs_proportional(const ParamSet& p, const FigureResult&) {
    const int dim = static_cast<int>(p[P::dim]);
    const double base = p[P::base], fraction = shown_rotary_fraction(dim, p[P::rotary_fraction]);
    const FrequencyTable partial = compute_frequencies(layout_config(RotaryLayout::partial, dim, fraction, base));
    const FrequencyTable proportional = compute_frequencies(layout_config(RotaryLayout::proportional, dim, fraction, base));
    std::string s = "head dim " + said(p[P::dim]) + ", base " + said(base) + ", rotary fraction " + said(fraction);
    if (fraction != p[P::rotary_fraction]) s += " (the whole head turns in this model; the figure shows Gemma 4's quarter)";
    return s + ": partial rotary turns " + std::to_string(partial.pairs()) + " pairs with base^(-2i/" + std::to_string(partial.rotated_dims) +
           "), proportional turns " + std::to_string(proportional.rotating_pairs) + " of " + std::to_string(proportional.pairs()) +
           " pairs with base^(-2i/" + std::to_string(dim) + ") and leaves the rest still";
}

std::string describe_model_anatomy(const ParamSet& p, const FigureResult&) {
    const std::string kinds = p[P::layer_kinds], layers = p[P::model_layers];
    if (kinds.empty() || layers.empty()) return "no model with layers is loaded, so it shows the layers of the presets that have them";
    std::size_t count = 0;
    try {
        count = parse_layer_list(layers).size();
    } catch (const std::exception&) {
        return "its layers by kind (" + kinds + ")";
    }
    std::string names;  // "chunked_attention and full_attention": each kind's name before its settings
    for (std::size_t at = 0; at < kinds.size();) {
        const std::size_t end = std::min(kinds.find(';', at), kinds.size());
        const std::string kind = kinds.substr(at, end - at);
        const std::size_t b = kind.find_first_not_of(' '), colon = kind.find(':');
        if (b != std::string::npos) names += (names.empty() ? "" : ", ") + kind.substr(b, std::min(colon, kind.size()) - b);
        at = end + 1;
    }
    return std::to_string(count) + " layers, one cell each, by kind (" + names + "), with each kind's RoPE base and turning dims";
}

std::string describe_model_card(const ParamSet& p, const FigureResult&) {
    const FrequencyTable f = frequencies(p);
    return "head dim " + said(p[P::dim]) + ", base " + said(p[P::base]) + ", " + std::to_string(f.rotating_pairs) + " turning pairs, " +
 scaling_words(p) + ", context " + said(p[P::max_position]) + " tokens";
}

std::string describe_patch_grid(const ParamSet& p, const FigureResult&) {
    const std::int64_t rows = p[P::grid_rows], cols = p[P::grid_cols];
    const std::int64_t qr = p[P::query_row].value_or(rows / 2), qc = p[P::query_col].value_or(cols / 2);
    return "the similarity of every patch of a " + said(rows) + "×" + said(cols) + " image to the query patch (" + said(qr) + ", " +
           said(qc) + ") under 2D axial RoPE and M-RoPE in sections and interleaved";
}

std::string describe_position_ids(const ParamSet& p, const FigureResult&) {
    return "the (t, h, w) ids of " + said(p[P::text_before]) + " text tokens, a " + said(p[P::grid_rows]) + "×" + said(p[P::grid_cols]) +
           " image of " + said(p[P::grid_rows] * p[P::grid_cols]) + " patches and " + said(p[P::text_after]) + " text tokens after it";
}

std::string describe_video(const ParamSet& p, const FigureResult&) {
    return said(p[P::video_frames]) + " frames of " + said(p[P::grid_rows]) + "×" + said(p[P::grid_cols]) +
           " patches at " + said(p[P::video_fps]) + " fps, grouped " + said(p[P::temporal_patch_size]) +
           " frames per temporal patch, and how similar each temporal patch is to frame " + said(p[P::query_frame]);
}

std::string describe_video_frames(const ParamSet& p, const FigureResult&) {
    return "every frame of " + said(p[P::video_frames]) + " as a " + said(p[P::grid_rows]) + "×" + said(p[P::grid_cols]) +
           " grid, coloured by similarity to the query patch in frame " + said(p[P::query_frame]);
}

std::string describe_video_ids(const ParamSet& p, const FigureResult&) {
    return "the (t, h, w) position ids of " + said(p[P::video_frames]) + " frames of " + said(p[P::grid_rows]) + "×" +
           said(p[P::grid_cols]) + " patches between text tokens, " +
           (p[P::rope_axes] == RopeAxes::videorope ? std::string("on VideoRoPE's diagonal") : detail::rule_words(p.video_spec(), detail::RuleWords::title));
}

}  // namespace rope::figures
