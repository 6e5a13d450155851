#include "cli/compute_command.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <future>
#include <iostream>
#include <optional>
#include <string>

#include "cli/axes_tables.hpp"
#include "cli/csv_writer.hpp"
#include "cli/help.hpp"
#include "figures/figure_cache.hpp"
#include "rope/bounds.hpp"
#include "rope/decay.hpp"
#include "rope/frequencies.hpp"
#include "rope/model_layers.hpp"
#include "rope/mla.hpp"
#include "rope/nope_temperature.hpp"
#include "rope/relative_biases.hpp"
#include "rope/number_format.hpp"
#include "rope/params.hpp"
#include "rope/phasor.hpp"
#include "rope/presets.hpp"
#include "rope/rotation.hpp"
#include "weights/trained_weights.hpp"

namespace rope::cli {

namespace {

constexpr double kMaxRows = 1e8;                            // ~2-4 GB of CSV

// A pair that does not turn (proportional RoPE's tail, a NoPE layer) has theta 0, no wavelength (an
// empty cell: the tables hold no inf or nan, and an empty cell reads back as missing, not as text),
// ratio 1 (scaling leaves it as it is; theta/original_theta would be 0/0), and rotates false.
void write_freqs(const FrequencyTable& f, CsvWriter& out) {
    out.header({"pair", "theta", "wavelength", "original_theta", "ratio", "rotates"});
    for (int i = 0; i < f.pairs(); ++i) {
        const bool turns = f.rotates(i) && f.theta[i] != 0.0;
        out.integer(i).number(f.theta[i]);
        if (turns) out.number(f.wavelength(i));
        else out.text("");
        out.number(f.original_theta[i]);
        out.number(turns && f.original_theta[i] != 0.0 ? f.theta[i] / f.original_theta[i] : 1.0);
        out.text(turns ? "true" : "false").end_row();
    }
}

// One row per layer of the loaded model, each with its kind's RoPE as every panel would load it.
void write_layers(const ParamSet& p, CsvWriter& out) {
    const ModelLayers model = p.model_layers();
    out.header({"layer", "kind", "attention", "window", "rope", "head_dim", "base", "scaling", "rotary_fraction",
                "rotated_dims", "rotating_pairs", "factor"});
    std::vector<ParamSet> per_kind;
    for (const LayerKind& kind : model.kinds) per_kind.push_back(p.with_kind(kind));
    for (int layer = 0; layer < model.layers(); ++layer) {
        const LayerKind& kind = model.kind(layer);
        const RopeConfig c = per_kind[static_cast<std::size_t>(model.kind_of_layer[static_cast<std::size_t>(layer)])].config();
        const FrequencyTable f = compute_frequencies(c);
        out.integer(layer).text(kind.name).text(to_string(kind.attention)).integer(kind.window);
        out.text(f.rotating_pairs > 0 ? "true" : "false").integer(c.dim).number(c.base).text(to_string(c.scaling));
        out.number(c.rotary_fraction).integer(f.rotated_dims).integer(f.rotating_pairs).number(c.factor).end_row();
    }
}

// Llama 4's query scale on NoPE layers, s(p) = 1 + attn_scale ln(1 + floor((p + 1) / floor_scale)), a
// step function: the rows are position 0, both sides of every step (the last position at the old
// value, the first at the new) and max_position - 1, so a line through them is the exact curve.
void write_temperature(const ParamSet& p, CsvWriter& out) {
    const std::int64_t end = p[P::max_position], floor_scale = p[P::floor_scale];
    const double strength = p[P::attn_scale];
    out.header({"position", "scale"});
    for (const auto& [position, scale] : nope_scale_corners(end, floor_scale, strength)) out.integer(position).number(scale).end_row();
}

// ALiBi's slope per head: head h adds -slope x distance to its scores.
void write_alibi(const ParamSet& p, CsvWriter& out) {
    out.header({"head", "slope"});
    const std::vector<double> slopes = alibi_slopes(static_cast<int>(p[P::heads]), p[P::alibi_layout], p[P::alibi_bias_max]);
    for (std::size_t h = 0; h < slopes.size(); ++h) out.integer(static_cast<std::int64_t>(h)).number(slopes[h]).end_row();
}

T5BucketSettings t5_settings(const ParamSet& p) {
    return {static_cast<int>(p[P::t5_num_buckets]), p[P::t5_max_distance], p[P::t5_bidirectional]};
}

// T5's bucket of every relative position (key - query) from -max_distance to max_distance.
void write_t5_buckets(const ParamSet& p, CsvWriter& out) {
    const T5BucketSettings s = t5_settings(p);
    const std::int64_t reach = p[P::max_distance];
    out.header({"relative_position", "bucket"});
    for (std::int64_t r = -reach; r <= reach; ++r) out.integer(r).integer(t5_bucket(r, s)).end_row();
}

void write_angles(const FrequencyTable& f, std::int64_t max_position, CsvWriter& out) {
    out.header({"position", "pair", "angle", "unwrapped"});
    for (std::int64_t m = 0; m < max_position; ++m) {
        const double md = static_cast<double>(m);
        for (int i = 0; i < f.pairs(); ++i) {
            const double unwrapped = position_angle(md, f.theta[i]);
            out.integer(m).integer(i).number(wrap_angle(unwrapped)).number(unwrapped).end_row();
        }
    }
}

void write_rotate(const FrequencyTable& f, const ParamSet& p, CsvWriter& out) {
    const std::vector<double> v = p.vector();
    const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
    const Eigen::VectorXd y = rotate(f, p.config().pairing, x, static_cast<double>(p[P::position]),
                                     f.attention_factor);
    out.header({"index", "value", "input"});
    for (Eigen::Index i = 0; i < y.size(); ++i) out.integer(i).number(y[i]).number(x[i]).end_row();
}

// Computing and formatting take about the same time, and each chunk of distances is independent:
// two threads each compute and format a chunk into text while this one writes them out in order.
constexpr std::int64_t kDecayChunk = 1 << 15;

void write_decay(const FrequencyTable& f, std::int64_t max_distance, CsvWriter& out) {
    out.header({"distance", "bound"});
    const std::int64_t total = max_distance + 1;
    auto rows = [&theta = f.theta, total](std::int64_t first) {
        const std::int64_t n = std::min(kDecayChunk, total - first);
        std::vector<double> bound(static_cast<std::size_t>(n));
        DecayBound(theta).compute(first, n, bound.data());
        std::string text(static_cast<std::size_t>(n) * (2 * kMaxNumberChars + 2), '\0');
        char* o = text.data();
        for (std::int64_t i = 0; i < n; ++i) {
            o = format_integer(o, first + i);
            *o++ = ',';
            o = format_number(o, bound[static_cast<std::size_t>(i)]);
            *o++ = '\n';
        }
        text.resize(static_cast<std::size_t>(o - text.data()));
        return text;
    };
    std::deque<std::future<std::string>> pending;
    for (std::int64_t first = 0; first < total || !pending.empty();) {
        while (first < total && pending.size() < 3) {
            pending.push_back(std::async(std::launch::async, rows, first));
            first += kDecayChunk;
        }
        out.rows(pending.front().get());
        pending.pop_front();
    }
}

void write_presets(CsvWriter& out) {
    out.header({"name", "head_dim", "rotated_dims", "base", "scaling", "context", "pairing", "model", "source"});
    for (const Preset& preset : presets()) {
        ParamSet p;
        p.set(P::preset, preset.name);
        const RopeConfig c = p.config();
        out.text(preset.name).integer(c.dim).integer(c.rotated_dims()).number(c.base).text(to_string(c.scaling));
        out.integer(p[P::max_position]).text(to_string(c.pairing));
        // free text: quoted for CSV
        std::string model = "\"" + std::string(preset.model) + "\"", source = "\"" + std::string(preset.source) + "\"";
        out.text(model).text(source).end_row();
    }
}

// Men et al. 2024 for the rotated dims: the smallest base per context length, powers of two from 64
// up to max_position, as far as the exact search stays tractable (base_lower_bound_tractable).
void write_base_bounds(const FrequencyTable& f, const RopeConfig& c, std::int64_t max_position, CsvWriter& out) {
    const int zero_pairs = f.pairs() - f.rotating_pairs;
    if (zero_pairs > 0) {
        // zero pairs add 1 each to sum cos(m theta_i): bound 1 when they outweigh the turning ones
        const double bound = zero_pair_base_lower_bound(c);
        out.header({"rotated_dims", "context", "base"});
        for (std::int64_t L = 64; L <= max_position; L *= 2) out.integer(f.rotated_dims).integer(L).number(bound).end_row();
        return;
    }
    out.header({"rotated_dims", "context", "base"});
    std::vector<std::int64_t> contexts;
    for (std::int64_t L = 64; L <= max_position && base_lower_bound_tractable(f.rotated_dims, L); L *= 2) contexts.push_back(L);
    const std::vector<double> bases = base_lower_bound_curve(f.rotated_dims, contexts);
    for (std::size_t i = 0; i < bases.size(); ++i) {
        out.integer(f.rotated_dims).integer(contexts[i]);
        if (std::isinf(bases[i])) out.text("none");  // as in the summary: no base up to 1e15 works
        else out.number(bases[i]);
        out.end_row();
    }
}

void write_summary(const FrequencyTable& f, const ParamSet& p, CsvWriter& out) {
    const RopeConfig c = p.config();
    out.header({"key", "value"});
    auto row_text = [&](std::string_view k, std::string_view v) { out.text(k).text(v).end_row(); };
    auto row_num = [&](std::string_view k, double v) { out.text(k).number(v).end_row(); };
    auto row_int = [&](std::string_view k, std::int64_t v) { out.text(k).integer(v).end_row(); };
    row_int("dim", c.dim);
    row_int("rotated_dims", f.rotated_dims);
    row_int("pairs", f.pairs());
    row_int("rotating_pairs", f.rotating_pairs);
    row_int("zero_frequency_pairs", f.pairs() - f.rotating_pairs);
    row_num("base", c.base);
    row_text("pairing", to_string(c.pairing));
    row_text("scaling", to_string(c.scaling));
    row_num("factor", c.factor);
    row_num("effective_base", f.effective_base);
    row_num("attention_factor", f.attention_factor);
    row_num("score_scale", f.attention_factor * f.attention_factor);
    if (const std::optional<std::int64_t> nope = p[P::qk_nope_head_dim]) {  // MLA: the head's two parts and its softmax scale
        row_int("qk_nope_head_dim", *nope);
        row_int("qk_rope_head_dim", c.dim);
        row_num("softmax_scale", mla_scales({static_cast<int>(*nope), c.dim}, c).softmax);
    }
    row_int("original_max_position", c.original_max_position);
    // wavelengths of the pairs that turn; "none" when no pair does (NoPE)
    const double longest = longest_rotating_wavelength(f);
    if (std::isnan(longest)) {
        row_text("shortest_wavelength", "none");
        row_text("longest_wavelength", "none");
    } else {
        row_num("shortest_wavelength", f.wavelength(0));
        row_num("longest_wavelength", longest);
    }
    if (c.scaling == Scaling::yarn) {
        row_num("yarn_low", f.yarn_low);
        row_num("yarn_high", f.yarn_high);
    }
    if (c.scaling == Scaling::longrope) row_text("longrope_factors", f.uses_long_factors ? "long" : "short");
    row_num("decay_bound_at_0", decay_bound(f.theta, 0)[0]);
    write_axes_summary(p, out);
    // published results (Liu et al. 2023; Men et al. 2024), for the unscaled frequencies
    const double train = static_cast<double>(c.original_max_position);
    // counted over the dims that turn (a zero-frequency pair carries no position); none for NoPE
    row_int("critical_dimension", critical_dimension(c, train));
    const double extrapolation = extrapolation_bound(c, train);
    if (std::isnan(extrapolation)) row_text("extrapolation_bound", "none");
    else if (std::isinf(extrapolation)) row_text("extrapolation_bound", "unlimited");
    else row_num("extrapolation_bound", extrapolation);
    // The search's work grows with pairs x max_position (d = 128 at 2^20 positions, the longest
    // context Men et al. tabulate: about a minute); beyond that it would take hours, so it says so.
    // When no base up to 1e15 keeps sum cos(m theta_i) >= 0 (one rotated pair: theta_0 = 1 whatever
    // the base), that is said in words, never an inf in the CSV.
    const std::int64_t context = p[P::max_position];
    if (f.rotating_pairs < f.pairs()) {
        // zero pairs add cos 0 = 1 each: 1 when they outweigh the turning ones, else not searched
        const double bound = zero_pair_base_lower_bound(c);
        if (std::isnan(bound)) row_text("base_lower_bound", "not_computed");
        else row_num("base_lower_bound", bound);
    } else if (!base_lower_bound_tractable(f.rotated_dims, context)) {
        row_text("base_lower_bound", "not_computed");
    } else {
        // the shipped table (assets/base_bounds.csv, the same search) holds every power-of-two context
        const std::optional<double> known = figures::tabulated_base_lower_bound(f.rotated_dims, context);
        const double bound = known ? *known : base_lower_bound(f.rotated_dims, context);
        if (std::isfinite(bound)) row_num("base_lower_bound", bound);
        else row_text("base_lower_bound", "none");
    }
}

// The trained model's usage table, read whole before a row is written (a bad tensor half-way would
// otherwise leave half a table): every layer, or the one --set layer=N names.
void write_weights(const ParamSet& p, bool one_layer, CsvWriter& out) {
    std::optional<int> only;
    if (one_layer && p[P::layer]) only = static_cast<int>(*p[P::layer]);
    weights::WeightUsage usage;
    try {
        usage = weights::read_weight_usage(*weights::open_model_folder(p[P::model]), p, only);
    } catch (const weights::WeightsError& e) {
        throw UsageError("--set model=" + p.value_text(P::model) + ": " + e.what());
    }
    out.header({"layer", "head", "kv_head", "pair", "dim_a", "dim_b", "original_wavelength", "q_norm", "k_norm", "usage", "share"});
    for (const LayerPairUsage& l : usage.layers) {
        const PairUsage& u = l.pairs;
        const std::vector<double> wavelength = pair_wavelengths(compute_frequencies(layer_params(p, l.layer).config()), u.pairs);
        for (int h = 0; h < u.heads; ++h)
            for (int i = 0; i < u.pairs; ++i) {
                const PairDims d = pair_dims(usage.architecture->pairing, l.rotated_dims, i);
                out.integer(l.layer).integer(h).integer(u.kv_head(h)).integer(i).integer(d.first).integer(d.second);
                const double w = wavelength[static_cast<std::size_t>(i)];
                if (std::isnan(w)) out.text("");
                else out.number(w);
                out.number(u.at(u.q_norm, h, i)).number(u.at(u.k_norm, h, i)).number(u.at(u.usage, h, i)).number(u.at(u.share, h, i)).end_row();
            }
    }
}

// Refusals of a table, made before any row is written (with compare_to, for A and for B): a table is
// streamed, so one found half-way would leave half a table on stdout. One of 10^12 rows would run for
// days and fill the disk: refused naming the key to lower.
void refuse_rows(const char* table, const ParamSet& params, ParamId key, double rows) {
    const std::string name(param_spec(key).name);
    if (rows > kMaxRows)
        throw UsageError("--set " + name + "=" + params.value_text(key) + ": compute " + table + " would write " + format_number(rows) +
                         " rows; at most " + format_number(kMaxRows) + " (lower " + name + ")");
}

void check_t5_buckets(const TableInput& in) {
    const T5BucketSettings s = t5_settings(in.params);
    const int exact = t5_exact_buckets(s);
    if (exact < 1)
        throw UsageError("--set t5_num_buckets=" + in.params.value_text(P::t5_num_buckets) + ": compute t5-buckets needs at least " +
                         (s.bidirectional ? "4 buckets in both directions" : "2 buckets when causal") +
                         " (T5 gives the first half of each direction's buckets one distance each)");
    if (s.max_distance <= exact)
        throw UsageError("--set t5_max_distance=" + in.params.value_text(P::t5_max_distance) + ": compute t5-buckets needs it above " +
                         std::to_string(exact) + ", the distances with a bucket of their own (t5_num_buckets=" +
                         in.params.value_text(P::t5_num_buckets) + (s.bidirectional ? ", bidirectional)" : ", causal)"));
    refuse_rows("t5-buckets", in.params, P::max_distance, 2 * static_cast<double>(in.params[P::max_distance]) + 1);
}

void check_layers(const TableInput& in) {
    if (in.params.model_layers().empty())
        throw UsageError("compute layers: no model with layers is loaded (set layer_kinds and model_layers, "
                         "a preset with layers, or config=PATH with layer_types)");
}

void check_temperature(const TableInput& in) {
    if (!in.params[P::attn_temperature_tuning])
        throw UsageError("compute temperature: attn_temperature_tuning is false (the queries are not scaled); "
                         "--set attn_temperature_tuning=true to see Llama 4's NoPE-layer scale");
    refuse_rows("temperature", in.params, P::max_position,
                2.0 * static_cast<double>(in.params[P::max_position]) / static_cast<double>(in.params[P::floor_scale]) + 2);
}

void check_base_bounds(const TableInput& in) {
    const int zero_pairs = in.freqs.pairs() - in.freqs.rotating_pairs;
    if (zero_pairs > 0 && std::isnan(zero_pair_base_lower_bound(in.params.config())))
        throw UsageError("compute base-bounds: " + std::to_string(zero_pairs) + " of " + std::to_string(in.freqs.pairs()) +
                         " pairs have frequency 0 and " + std::to_string(in.freqs.rotating_pairs) +
                         " turn; the search covers RoPE whose every pair turns (or with at least as many zero pairs as turning ones)");
}

void check_weights(const TableInput& in) {
    if (!in.params.has(P::model))
        throw UsageError("compute weights: no model folder; --set model=DIR (a folder with config.json and *.safetensors)");
}

void check_patches(const TableInput& in) {
    if (in.params[P::rope_axes] == RopeAxes::one_d)
        throw UsageError("compute patches: rope_axes=1d gives a patch no row or column position; "
                         "--set rope_axes=2d_axial or rope_axes=mrope");
}

void check_angles(const TableInput& in) {
    refuse_rows("angles", in.params, P::max_position, static_cast<double>(in.params[P::max_position]) * in.freqs.pairs());
}

void check_decay(const TableInput& in) { refuse_rows("decay", in.params, P::max_distance, static_cast<double>(in.params[P::max_distance]) + 1); }

}  // namespace

const std::vector<TableInfo>& compute_tables() {
    static const std::vector<TableInfo> tables = {
        {"freqs", "pair,theta,wavelength,original_theta,ratio,rotates",
         "one row per pair: frequency after scaling (rad/token), wavelength (tokens), unscaled frequency, their ratio, "
         "and whether the pair turns (false: frequency 0, proportional RoPE's tail or a NoPE layer; wavelength empty, ratio 1)",
         [](const TableInput& in, CsvWriter& out) { write_freqs(in.freqs, out); }},
        {"angles", "position,pair,angle,unwrapped",
         "every position 0..max_position-1 x every pair: m*theta_i wrapped to (-pi, pi] (radians), and unwrapped",
         [](const TableInput& in, CsvWriter& out) { write_angles(in.freqs, in.params[P::max_position], out); }, check_angles},
        {"rotate", "index,value,input", "`vector` rotated to `position`, times the attention factor (as the vectors CSV's rotated_*)",
         [](const TableInput& in, CsvWriter& out) { write_rotate(in.freqs, in.params, out); }},
        {"decay", "distance,bound", "RoFormer long-range decay bound for relative distance 0..max_distance",
         [](const TableInput& in, CsvWriter& out) { write_decay(in.freqs, in.params[P::max_distance], out); }, check_decay},
        {"base-bounds", "rotated_dims,context,base",
         "Men et al. 2024: smallest base keeping sum_i cos(m theta_i) >= 0 up to each context 64, 128, ... <= max_position (none: no base up to 1e15; "
         "1 when zero-frequency pairs are at least as many as turning ones, each adding cos 0 = 1)",
         [](const TableInput& in, CsvWriter& out) { write_base_bounds(in.freqs, in.params.config(), in.params[P::max_position], out); }, check_base_bounds},
        {"summary", "key,value",
         "dim, rotated dims, pairs, rotating_pairs and zero_frequency_pairs, base, scaling, attention factor and other derived numbers; "
         "for MLA (qk_nope_head_dim set) qk_nope_head_dim, qk_rope_head_dim and softmax_scale, the number that multiplies q.k; "
         "wavelengths, critical_dimension and extrapolation_bound count only the pairs that turn (none: no pair turns; "
         "extrapolation_bound unlimited: every turning dim completes a period within original_max_position)",
         [](const TableInput& in, CsvWriter& out) { write_summary(in.freqs, in.params, out); }},
        {"layers", "layer,kind,attention,window,rope,head_dim,base,scaling,rotary_fraction,rotated_dims,rotating_pairs,factor",
         "one row per layer of the loaded model (layer_kinds + model_layers): its kind, attention (full, sliding, chunked, linear), "
         "window (tokens, 0 = none), rope (false: NoPE, no pair turns) and the RoPE that --set layer=N loads for it",
         [](const TableInput& in, CsvWriter& out) { write_layers(in.params, out); }, check_layers},
        {"temperature", "position,scale",
         "Llama 4's query scale on NoPE layers, 1 + attn_scale*ln(1 + floor((p+1)/floor_scale)), for positions 0..max_position-1: "
         "a step function, so the rows are position 0, both sides of every step and the last position (a line through them is exact); "
         "refused when attn_temperature_tuning is false",
         [](const TableInput& in, CsvWriter& out) { write_temperature(in.params, out); }, check_temperature},
        {"alibi", "head,slope",
         "ALiBi (Press et al. 2022): each of `heads` heads adds -slope x distance to its scores; the slopes as BLOOM's "
         "build_alibi_tensor computes them, 2^(-8(h+1)/p) for the largest power of two p <= heads, then the odd steps of 2p heads' "
         "slopes for the heads left; with alibi_layout=mpt as MPT's build_mpt_alibi_tensor, 2^(-(j+1) alibi_bias_max/P) over the next "
         "power of two P, the odd j first",
         [](const TableInput& in, CsvWriter& out) { write_alibi(in.params, out); }},
        {"t5-buckets", "relative_position,bucket",
         "T5's relative-position bucket (T5Attention._relative_position_bucket) of every relative position, key minus query, "
         "-max_distance..max_distance, for t5_num_buckets, t5_max_distance and t5_bidirectional (causal: keys after the query "
         "are bucket 0)",
         [](const TableInput& in, CsvWriter& out) { write_t5_buckets(in.params, out); }, check_t5_buckets},
        {"presets", "name,head_dim,rotated_dims,base,scaling,context,pairing,model,source",
         "the real models --set preset=NAME loads, and where each number comes from",
         [](const TableInput&, CsvWriter& out) { write_presets(out); }},
        {"axes", "layout,pair,axis,theta,wavelength",
         "images and video: which position axis each rotated pair turns with (t, h or w) and how fast (rad/step, steps), for "
         "rope_axes' layout: 1d (every pair on t), axial (2d_axial with axial_frequencies' schedule) or, for mrope, "
         "chunked then interleaved (mrope_section and mrope_section_interleaved when given, else Qwen's shares), or videorope "
         "(VideoRoPE's allocation: the slowest mrope_section t pairs to t, h and w alternating over the rest), or ernie_3d "
         "(ERNIE-4.5-VL: the same allocation, with M-RoPE's ids)",
         [](const TableInput& in, CsvWriter& out) { write_axes(in.params, out); }},
        {"position-ids", "index,kind,row,col,t,h,w; media=video: index,kind,frame,row,col,t,h,w",
         "M-RoPE position ids (transformers' get_rope_index) of text_before text tokens, the image (grid_rows x grid_cols, "
         "row-major) or, with media=video, the video (video_frames frames in temporal patches of temporal_patch_size, "
         "time ids by video_time_ids), and text_after text tokens; kind is text, image, video or timestamp (the text "
         "Qwen3-VL writes before each frame), frame the temporal patch; row, col and frame empty where they do not apply; "
         "rope_axes=videorope lays the patches on VideoRoPE's diagonal, frames video_spacing apart",
         [](const TableInput& in, CsvWriter& out) { write_position_ids(in.params, out); }},
        {"patches", "row,col,similarity",
         "cosine similarity of the rotated query (vector) at the query patch (query_row, query_col) and the rotated key "
         "(key_vector) at every patch of the grid_rows x grid_cols image, for rope_axes (mrope: the layout mrope_interleaved "
         "says); refused for rope_axes=1d",
         [](const TableInput& in, CsvWriter& out) { write_patches(in.params, out); }, check_patches},
        {"weights", "layer,head,kv_head,pair,dim_a,dim_b,original_wavelength,q_norm,k_norm,usage,share",
         "the trained model of --set model=DIR: per layer (or the one --set layer=N names), query head, its key head and rotated "
         "pair (dims dim_a, dim_b of the head, as the checkpoint's layout pairs them), the pair's unscaled wavelength (tokens; compute freqs' wavelength is after scaling), "
         "q_norm = ||diag(g_a, g_b) W_q[a,b]||_F (g the head's q_norm scale, 1 without one), k_norm the same for W_k of the key "
         "head, usage = q_norm x k_norm and share = usage / the head's total; attention biases and RMSNorm's division by the "
         "input's norm are not in it",
         [](const TableInput& in, CsvWriter& out) { write_weights(in.params, in.one_layer, out); }, check_weights},
    };
    return tables;
}


int run_compute(ArgCursor& args) {
    std::string table;
    std::vector<std::string> sets;
    while (!args.done()) {
        std::string value;
        if (args.take_flag("--help") || args.take_flag("-h")) {
            std::cout << compute_help();
            return 0;
        }
        if (args.take_option("--set", value)) {
            sets.push_back(value);
            continue;
        }
        const std::string a = args.next();
        if (!a.empty() && a[0] == '-') throw UsageError("compute: unknown option '" + shorten_for_message(a) + "'");
        if (!table.empty()) throw UsageError("compute: one table at a time (got '" + table + "' and '" + shorten_for_message(a) + "')");
        table = a;
    }
    std::string names;
    for (const auto& t : compute_tables()) names += (names.empty() ? "" : ", ") + std::string(t.name);
    if (table.empty()) throw UsageError("compute: which table? one of: " + names);
    const auto known = std::find_if(compute_tables().begin(), compute_tables().end(),
                                    [&](const TableInfo& t) { return t.name == table; });
    if (known == compute_tables().end())
        throw UsageError("compute: unknown table '" + shorten_for_message(table) + "'; tables are: " + names);

    ParamSet params;
    apply_sets(params, sets);
    // compute weights reads every layer unless the command names one (a config's import selects one)
    const bool one_layer = std::any_of(sets.begin(), sets.end(), [](const std::string& s) { return s.rfind("layer=", 0) == 0; });
    // A and, with compare_to set, model B: each table for both, B's rows after A's, a first column
    // `model` saying whose (a, b). Both are checked before a row is written.
    struct Model {
        std::string name;
        ParamSet params;
        FrequencyTable freqs{};
    };
    std::vector<Model> models{{"a", params}};
    try {
        if (std::optional<ParamSet> b = params.compared_model()) {
            b->validate();
            models.push_back({"b", std::move(*b)});
        }
    } catch (const std::invalid_argument& e) {
        throw UsageError("--set compare_to=" + params.value_text(P::compare_to) + ": model B does not hold with the other keys: " + e.what());
    }
    for (Model& m : models) {
        try {
            m.freqs = compute_frequencies(m.params.config());
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--set: ") + e.what());
        }
        if (known->check) known->check({m.params, m.freqs, one_layer});
    }
    CsvWriter out;
    for (const Model& m : models) {
        if (models.size() > 1) out.lead_with("model", m.name);
        known->write({m.params, m.freqs, one_layer}, out);
    }
    out.flush();
    return 0;
}

}  // namespace rope::cli
