#include "rope/params.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <limits>

#include "rope/frequencies.hpp"
#include "rope/number_format.hpp"
#include "rope/presets.hpp"

namespace rope {

namespace {

constexpr double kHuge = std::numeric_limits<double>::max();
// Upper limits that keep every derived number finite (wavelengths, effective bases, scores,
// attention factors) and still cover every real model by orders of magnitude: the largest real base
// is ~1e8, the largest factor ~40, attention factors ~1.2, LongRoPE factors ~1-60.
constexpr double kMaxBase = 1e12;
constexpr double kMaxFactor = 1000;
constexpr double kMaxShapeParameter = 1e6;  // beta_fast, beta_slow, low/high_freq_factor
constexpr double kMaxAttentionScale = 100;  // attention_factor, mscale, mscale_all_dim
constexpr double kListFactorMin = 1e-6, kListFactorMax = 1e6;
constexpr double kVectorLimit = 1e6;  // vector entries: scores (sums of products) stay far from overflow
constexpr double kMaxPosition = 1e12;
constexpr double kMaxGridSide = 128;  // patches per side: a 3584-pixel image in 14-pixel patches merged 2 x 2  // positions stay exact and m*theta keeps ~1e-4 rad resolution

ParamSpec integer_param(std::string_view name, std::string_view def, double lo, double hi, std::string_view help,
                        double slider_lo, double slider_hi, bool log) {
    ParamSpec s;
    s.name = name;
    s.type = ParamType::integer;
    s.default_text = def;
    s.min = lo;
    s.max = hi;
    s.help = help;
    s.slider_min = slider_lo;
    s.slider_max = slider_hi;
    s.logarithmic = log;
    return s;
}

ParamSpec real_param(std::string_view name, std::string_view def, double lo, bool lo_exclusive, double hi,
                     std::string_view help, double slider_lo, double slider_hi, bool log) {
    ParamSpec s;
    s.name = name;
    s.type = ParamType::real;
    s.default_text = def;
    s.min = lo;
    s.min_exclusive = lo_exclusive;
    s.max = hi;
    s.help = help;
    s.slider_min = slider_lo;
    s.slider_max = slider_hi;
    s.logarithmic = log;
    return s;
}

ParamSpec choice_param(std::string_view name, std::string_view def, std::vector<std::string_view> choices,
                       std::string_view help) {
    ParamSpec s;
    s.name = name;
    s.type = ParamType::choice;
    s.default_text = def;
    s.choices = std::move(choices);
    s.help = help;
    return s;
}

ParamSpec list_param(std::string_view name, double lo, bool lo_exclusive, double hi, std::string_view help) {
    ParamSpec s;
    s.name = name;
    s.type = ParamType::real_list;
    s.optional = true;
    s.min = lo;
    s.min_exclusive = lo_exclusive;
    s.max = hi;
    s.help = help;
    return s;
}

ParamSpec boolean_param(std::string_view name, std::string_view def, std::string_view help) {
    ParamSpec s;
    s.name = name;
    s.type = ParamType::boolean;
    s.default_text = def;
    s.help = help;
    return s;
}

ParamSpec optional_real(ParamSpec s) {
    s.optional = true;
    s.default_text = "";
    return s;
}

ParamSpec text_param(std::string_view name, std::string_view help) {
    ParamSpec s;
    s.name = name;
    s.type = ParamType::text;
    s.optional = true;
    s.help = help;
    return s;
}

std::vector<ParamSpec> build_table() {
    std::vector<ParamSpec> t;
    // first, so that replaying the table's keys in order applies a preset before the values that
    // refine it
    std::vector<std::string_view> preset_names = {"none"};
    for (const Preset& p : presets()) preset_names.push_back(p.name);
    t.push_back(choice_param("preset", "none", preset_names,
                             "A real model's RoPE settings (compute presets lists them); the keys it sets can be refined after it."));
    // the model's layers next, then the layer (which loads its kind), then the values that refine it
    t.push_back(text_param("layer_kinds",
                           "The loaded model's kinds of layer and each one's RoPE, as 'name: key=value ...; name: ...' "
                           "(keys: window, attention and the layer-level RoPE keys); set by presets and config import."));
    t.push_back(text_param("model_layers",
                           "The loaded model's layers in order, by kind of layer_kinds, e.g. '5*sliding_attention,full_attention'."));
    ParamSpec layer = integer_param("layer", "", 0, kMaxLayers - 1,
                                    "The layer (0-based) whose RoPE every panel shows: setting it loads that layer's kind.",
                                    0, 63, false);
    layer.optional = true;
    t.push_back(layer);
    ParamSpec dim = integer_param("dim", "128", 2, 4096,
                                  "Head dimension d: each attention head's vector has d dims, rotated in d/2 pairs.",
                                  2, 512, false);
    dim.even = true;
    t.push_back(dim);
    t.push_back(real_param("base", "10000", 1, true, kMaxBase,
                           "RoPE base b: pair i turns by theta_i = b^(-2i/d) radians per token.", 10, 1e9, true));
    t.push_back(real_param("rotary_fraction", "1", 0, true, 1,
                           "Share of the head's dims that rotate (partial rotary); the rest pass through unchanged.",
                           0.05, 1, false));
    t.push_back(choice_param("pairing", "interleaved", {"interleaved", "half"},
                             "Which dims form a pair: interleaved (2i, 2i+1) or half-split (i, i+d/2, rotate_half)."));
    t.push_back(integer_param("position", "0", 0, kMaxPosition,
                              "Token position m of the query: every pair turns by m * theta_i.", 0, 4095, false));
    t.push_back(integer_param("pair", "0", 0, 2047,
                              "Selected pair i (0-based) shown in detail; must be below the number of rotated pairs.",
                              0, 63, false));
    t.push_back(integer_param("max_position", "4096", 1, kMaxPosition,
                              "Context length shown: tables and heatmaps cover positions 0 .. max_position-1.", 16,
                              1048576, true));
    t.push_back(integer_param("max_distance", "4096", 0, kMaxPosition,
                              "Largest relative distance n - m on the long-range decay plots.", 16, 1048576, true));
    t.push_back(integer_param("key_position", "3", 0, kMaxPosition,
                              "Token position n of the key in the q-k view: the score depends on n - m only.", 0, 4095,
                              false));
    t.push_back(choice_param("heatmap_mode", "angle", {"angle", "cos", "sin", "unwrapped"},
                             "What the angle heatmap colours, per cell the mean over its positions and pairs: the angle m*theta_i (fading to grey where a pair turns within a cell), its cos or sin, or the unwrapped angle."));
    t.push_back(integer_param("heatmap_from", "0", 0, kMaxPosition,
                              "First position shown by the angle heatmap (zoom and pan change it); must be below max_position.", 0, 1048576, false));
    t.push_back(integer_param("heatmap_to", "0", 0, kMaxPosition,
                              "End (exclusive) of the positions shown by the angle heatmap, at most max_position; 0 means max_position.", 0,
                              1048576, false));
    t.push_back(choice_param("decay_scale", "log", {"log", "linear"},
                             "Horizontal scale of the long-range decay plots: linear or logarithmic distance."));
    ParamSpec vec = list_param("vector", -kVectorLimit, false, kVectorLimit,
                               "The vector rotated by the rotate table: exactly dim comma-separated numbers (default: all ones).");
    t.push_back(vec);
    t.push_back(list_param("key_vector", -kVectorLimit, false, kVectorLimit,
                           "The key k of the score views (q-k, score matrix, pairing, sinusoidal): exactly dim numbers "
                           "(default: the same as vector, so q = k)."));
    t.push_back(choice_param("scaling", "none", {"none", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "proportional"},
                             "RoPE type as transformers names it: a context-extension variant, or proportional (Gemma 4: "
                             "int(dim x rotary_fraction)/2 pairs turn at base^(-2i/dim), the rest have frequency 0; pairs span the whole head)."));
    t.push_back(real_param("factor", "1", 1, false, kMaxFactor,
                           "Context-extension factor: how many times longer than original_max_position the context gets.",
                           1, 64, true));
    t.push_back(integer_param("original_max_position", "4096", 1, kMaxPosition,
                              "L0: the context length the model was pre-trained on (original_max_position_embeddings).",
                              256, 131072, true));
    t.push_back(integer_param("sequence_length", "4096", 1, kMaxPosition,
                              "Current sequence length: sets dynamic NTK's base and longrope's choice of long or short factors.",
                              256, 1048576, true));
    t.push_back(real_param("low_freq_factor", "1", 0, true, kMaxShapeParameter,
                           "Llama 3 scaling: wavelengths above original_max_position / low_freq_factor are interpolated.",
                           0.5, 8, false));
    t.push_back(real_param("high_freq_factor", "4", 0, true, kMaxShapeParameter,
                           "Llama 3 scaling: wavelengths below original_max_position / high_freq_factor are left unchanged.",
                           1, 32, false));
    t.push_back(real_param("beta_fast", "32", 0, true, kMaxShapeParameter,
                           "YaRN: pairs turning more than beta_fast times within L0 keep their frequency.", 1, 128, true));
    t.push_back(real_param("beta_slow", "1", 0, true, kMaxShapeParameter,
                           "YaRN: pairs turning fewer than beta_slow times within L0 are fully interpolated.", 0.1, 8, true));
    t.push_back(optional_real(real_param("mscale", "", 0, false, kMaxAttentionScale,
                                         "YaRN (DeepSeek style): numerator mscale of the attention factor; with mscale_all_dim.",
                                         0, 4, false)));
    t.push_back(optional_real(real_param("mscale_all_dim", "", 0, false, kMaxAttentionScale,
                                         "YaRN (DeepSeek style): denominator mscale of the attention factor; with mscale.",
                                         0, 4, false)));
    t.push_back(boolean_param("truncate", "true",
                             "YaRN: round the ramp bounds to whole pairs (floor/ceil); false keeps them fractional (gpt-oss)."));
    t.push_back(list_param("long_factors", kListFactorMin, false, kListFactorMax,
                           "LongRoPE: per-pair rescale factors used when sequence_length > original_max_position (default: all 1)."));
    t.push_back(list_param("short_factors", kListFactorMin, false, kListFactorMax,
                           "LongRoPE: per-pair rescale factors used up to original_max_position (default: all 1)."));
    t.push_back(optional_real(real_param("attention_factor", "", 0, true, kMaxAttentionScale,
                                         "Overrides the attention factor that multiplies cos and sin (default: the variant's own).",
                                         0.5, 2, false)));
    t.push_back(boolean_param("nope", "false",
                             "NoPE layer: no rotary embedding at all (every frequency 0), as in every fourth layer of Llama 4 and SmolLM3."));
    t.push_back(boolean_param("attn_temperature_tuning", "false",
                             "Llama 4: NoPE layers scale their queries by 1 + attn_scale * ln(1 + floor((p+1) / floor_scale))."));
    t.push_back(integer_param("floor_scale", "8192", 1, kMaxPosition,
                              "Llama 4 temperature tuning: the query scale steps up every floor_scale tokens.", 256, 65536, true));
    t.push_back(real_param("attn_scale", "0.1", 0, false, kMaxShapeParameter,
                           "Llama 4 temperature tuning: strength of the query scale on NoPE layers.", 0, 1, false));
    // images and video: positions on several axes (the patch-grid panels)
    t.push_back(choice_param("rope_axes", "1d", {"1d", "2d_axial", "mrope"},
                             "How positions index the pairs: 1d (text, one position per token), 2d_axial (vision transformers: "
                             "half the pairs turn with a patch's column, half with its row) or mrope (Qwen VL: (t, h, w) ids, "
                             "pairs given to the axes by mrope_section)."));
    t.push_back(choice_param("axial_frequencies", "per_axis", {"per_axis", "split", "alternating"},
                             "2D axial RoPE's frequencies: per_axis (Heo et al. 2024, Qwen2-VL's vision tower: each axis "
                             "base^(-4i/d), the whole spread), split (the 1D schedule cut in two: columns fast, rows slow) or "
                             "alternating (Pixtral: the 1D schedule's even pairs to rows, odd ones to columns)."));
    ParamSpec section = list_param("mrope_section", 0, false, 2048,
                                   "M-RoPE: pairs per axis t,h,w, summing to the rotated pairs (Qwen2/2.5-VL 16,24,24; "
                                   "Qwen3-VL 24,20,20); none = Qwen's shares scaled to the head.");
    t.push_back(section);
    t.push_back(boolean_param("mrope_interleaved", "false",
                              "M-RoPE: interleave the axes pair by pair, t,h,w,t,h,w,... (Qwen3-VL) instead of contiguous "
                              "sections (Qwen2-VL, Qwen2.5-VL)."));
    t.push_back(integer_param("grid_rows", "12", 1, kMaxGridSide, "Image height in patches (after merging) on the patch-grid panel.",
                              1, 64, false));
    t.push_back(integer_param("grid_cols", "16", 1, kMaxGridSide, "Image width in patches (after merging) on the patch-grid panel.",
                              1, 64, false));
    ParamSpec query_row = integer_param("query_row", "", 0, kMaxGridSide - 1,
                                        "Row of the query patch (0 = top; none = the middle; kept inside the grid).", 0, 63, false);
    query_row.optional = true;
    t.push_back(query_row);
    ParamSpec query_col = integer_param("query_col", "", 0, kMaxGridSide - 1,
                                        "Column of the query patch (0 = left; none = the middle; kept inside the grid).", 0, 63, false);
    query_col.optional = true;
    t.push_back(query_col);
    t.push_back(integer_param("text_before", "3", 0, 64, "M-RoPE position ids: text tokens before the image.", 0, 16, false));
    t.push_back(integer_param("text_after", "2", 0, 64, "M-RoPE position ids: text tokens after the image.", 0, 16, false));
    // the context-extension panel's comparisons (they change no number of the current config)
    ParamSpec compare = choice_param("compare", "none", {"linear", "ntk", "dynamic", "yarn", "llama3", "longrope"},
                                     "Variants drawn beside the current one on the context-extension panel, with the same factor and L0.");
    compare.type = ParamType::choice_list;
    t.push_back(compare);
    std::vector<std::string_view> compare_to = {"unscaled"};
    for (const Preset& p : presets()) compare_to.push_back(p.name);
    t.push_back(choice_param("compare_to", "unscaled", compare_to,
                             "What the context-extension panel compares against: the same config unscaled, or a preset (A/B mode)."));
    return t;
}

std::string number_text(double v) { return format_number(v); }

std::string list_text(const std::vector<double>& values) {
    std::string s;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) s += ',';
        s += format_number(values[i]);
    }
    return s;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// Whole-string number parse; accepts what from_chars accepts (so "nan"/"inf" parse, then get refused
// by the range check with the right message).
bool parse_double(std::string_view s, double& out) {
    s = trim(s);
    if (s.empty()) return false;
    if (s.front() == '+') s.remove_prefix(1);
    if (s.empty() || s.front() == '+') return false;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec == std::errc::result_out_of_range) {
        out = (s.front() == '-') ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        return ptr == s.data() + s.size();
    }
    return ec == std::errc() && ptr == s.data() + s.size();
}

std::string with_article(const ParamSpec& spec, const std::string& allowed) {
    return std::string(spec.name) + " must be " + allowed;
}

}  // namespace

std::string shorten_for_message(std::string_view text) {
    constexpr std::size_t kMax = 48;
    std::string out;
    for (char c : text) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    if (out.size() > kMax) out = out.substr(0, kMax - 3) + "...";
    return out;
}

std::string ParamSpec::allowed() const {
    std::string s;
    auto num = [](double v) { return format_number(v); };
    switch (type) {
        case ParamType::integer:
            if (even)
                s = "an even integer from " + num(min) + " to " + num(max);
            else if (max >= kHuge)
                s = "an integer >= " + num(min);
            else
                s = "an integer from " + num(min) + " to " + num(max);
            break;
        case ParamType::real:
            if (max >= kHuge)
                s = std::string("a finite number ") + (min_exclusive ? "> " : ">= ") + num(min);
            else
                s = std::string("a number in ") + (min_exclusive ? "(" : "[") + num(min) + ", " + num(max) + "]";
            break;
        case ParamType::choice:
            s = "one of: ";
            for (std::size_t i = 0; i < choices.size(); ++i) {
                if (i) s += ", ";
                s += choices[i];
            }
            break;
        case ParamType::real_list:
            if (min <= -kHuge && max >= kHuge)
                s = "a comma-separated list of finite numbers";
            else if (max >= kHuge)
                s = std::string("a comma-separated list of finite numbers ") + (min_exclusive ? "> " : ">= ") + num(min);
            else
                s = std::string("a comma-separated list of numbers in ") + (min_exclusive ? "(" : "[") + num(min) + ", " +
                    num(max) + "]";
            break;
        case ParamType::boolean:
            s = "true or false";
            break;
        case ParamType::text:
            s = name == "layer_kinds" ? "'name: key=value ...; name: ...'" : "a comma-separated list of kinds, each may be COUNT*kind";
            break;
        case ParamType::choice_list:
            s = "none or a comma-separated list of: ";
            for (std::size_t i = 0; i < choices.size(); ++i) {
                if (i) s += ", ";
                s += choices[i];
            }
            break;
    }
    if (optional) s += ", or none";
    return s;
}

const std::vector<ParamSpec>& parameter_table() {
    static const std::vector<ParamSpec> table = build_table();
    return table;
}

const ParamSpec* find_param(std::string_view name) {
    for (const ParamSpec& s : parameter_table())
        if (s.name == name) return &s;
    return nullptr;
}

namespace {
std::atomic<std::uint64_t> g_next_lineage{1};
}  // namespace

ParamSet::ParamSet() : lineage_(g_next_lineage++) {
    const auto& table = parameter_table();
    values_.resize(table.size());
    for (std::size_t i = 0; i < table.size(); ++i)
        values_[i] = table[i].default_text.empty() ? ParamValue{} : parse(table[i], table[i].default_text);
}

namespace {
thread_local ParamReadLog* t_read_log = nullptr;
}  // namespace

ParamReadLog::ParamReadLog(const ParamSet& params)
    : read_(parameter_table().size(), false), lineage_(params.lineage_), outer_(t_read_log) {
    t_read_log = this;
}
ParamReadLog::~ParamReadLog() { t_read_log = outer_; }

std::vector<std::string> ParamReadLog::keys() const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < read_.size(); ++i)
        if (read_[i]) out.emplace_back(parameter_table()[i].name);
    return out;
}

std::size_t ParamSet::index_of(std::string_view key) const {
    const auto& table = parameter_table();
    for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i].name == key) {
            for (ParamReadLog* log = t_read_log; log; log = log->outer_)
                if (log->lineage_ == lineage_) log->note(i);
            return i;
        }
    std::string known;
    for (const auto& s : table) known += (known.empty() ? "" : ", ") + std::string(s.name);
    throw ParamError(std::string(key), "unknown key '" + shorten_for_message(key) + "'; known keys: " + known);
}

void ParamSet::check_number(const ParamSpec& spec, std::string_view given, double v) const {
    const std::string prefix = std::string(spec.name) + "=" + shorten_for_message(given) + ": ";
    bool ok = std::isfinite(v) && v <= spec.max && (spec.min_exclusive ? v > spec.min : v >= spec.min);
    if (spec.type == ParamType::integer) ok = ok && std::floor(v) == v && (!spec.even || std::fmod(v, 2.0) == 0.0);
    if (!ok) throw ParamError(std::string(spec.name), prefix + with_article(spec, spec.allowed()));
}

ParamValue ParamSet::parse(const ParamSpec& spec, std::string_view raw) const {
    const std::string_view text = trim(raw);
    const std::string prefix = std::string(spec.name) + "=" + shorten_for_message(raw) + ": ";
    if (spec.optional && (text == "none" || text.empty())) return ParamValue{};
    switch (spec.type) {
        case ParamType::integer:
        case ParamType::real: {
            double v = 0;
            if (!parse_double(text, v))
                throw ParamError(std::string(spec.name), prefix + "not a number; " + with_article(spec, spec.allowed()));
            check_number(spec, raw, v);
            if (spec.type == ParamType::integer) return static_cast<std::int64_t>(v);
            return v;
        }
        case ParamType::choice:
            for (std::string_view c : spec.choices)
                if (c == text) return std::string(c);
            throw ParamError(std::string(spec.name), prefix + with_article(spec, spec.allowed()));
        case ParamType::boolean:
            if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
            if (text == "false" || text == "0" || text == "no" || text == "off") return false;
            throw ParamError(std::string(spec.name), prefix + with_article(spec, spec.allowed()));
        case ParamType::choice_list: {
            if (text.empty() || text == "none") return std::string("none");
            std::vector<bool> picked(spec.choices.size(), false);
            std::string_view rest = text;
            while (true) {
                const std::size_t comma = rest.find(',');
                const std::string_view item = trim(rest.substr(0, comma));
                const auto at = std::find(spec.choices.begin(), spec.choices.end(), item);
                if (at == spec.choices.end())
                    throw ParamError(std::string(spec.name), prefix + "'" + shorten_for_message(item) + "' is not allowed; " +
                                                                 with_article(spec, spec.allowed()));
                picked[static_cast<std::size_t>(at - spec.choices.begin())] = true;
                if (comma == std::string_view::npos) break;
                rest.remove_prefix(comma + 1);
            }
            std::string canonical;
            for (std::size_t i = 0; i < picked.size(); ++i)
                if (picked[i]) canonical += (canonical.empty() ? "" : ",") + std::string(spec.choices[i]);
            return canonical;
        }
        case ParamType::text:
            try {
                if (spec.name == "layer_kinds") {
                    std::vector<LayerKind> kinds = parse_layer_kinds(text);
                    for (LayerKind& kind : kinds)
                        for (auto& [k, v] : kind.values) {  // each value as the table takes it, canonical
                            ParamSet probe;
                            try {
                                probe.set(k, v);
                            } catch (const ParamError& e) {
                                throw ParamError(std::string(spec.name), prefix + "kind '" + kind.name + "': " + e.what());
                            }
                            v = probe.value_text(k);
                        }
                    return format_layer_kinds(kinds);
                }
                return format_layer_list(parse_layer_list(text));
            } catch (const LayerSyntaxError& e) {
                throw ParamError(std::string(spec.name), prefix + e.what());
            }
        case ParamType::real_list: {
            std::vector<double> values;
            std::string_view rest = text;
            while (true) {
                const std::size_t comma = rest.find(',');
                const std::string_view item = trim(rest.substr(0, comma));
                double v = 0;
                const bool in_range =
                    parse_double(item, v) && std::isfinite(v) && (spec.min_exclusive ? v > spec.min : v >= spec.min) && v <= spec.max;
                if (!in_range)
                    throw ParamError(std::string(spec.name),
                                     prefix + "item " + std::to_string(values.size() + 1) + " ('" +
                                         shorten_for_message(item) + "') is not allowed; " +
                                         with_article(spec, spec.allowed()));
                values.push_back(v);
                if (comma == std::string_view::npos) break;
                rest.remove_prefix(comma + 1);
            }
            return values;
        }
    }
    return ParamValue{};
}

void ParamSet::set(std::string_view key, std::string_view text) {
    if (key == "layer") return select_layer(text);
    if (key == "preset") {
        const std::size_t i = index_of(key);
        ParamValue v = parse(parameter_table()[i], text);  // validates the name
        const std::string name = std::get<std::string>(v);
        if (name != "none") {
            ParamSet next = *this;
            for (std::string_view k : preset_keys()) next.reset(k);
            for (const auto& [k, value] : find_preset(name)->values) next.set(k, value);
            *this = next;
        }
        values_[i] = std::move(v);
        return;
    }
    if (!find_param(key)) {
        try {
            index_of(key);
        } catch (const ParamError& e) {
            throw ParamError(std::string(key), shorten_for_message(key) + "=" + shorten_for_message(text) + ": " + e.what());
        }
    }
    const std::size_t i = index_of(key);
    values_[i] = parse(parameter_table()[i], text);
}

void ParamSet::set_number(std::string_view key, double value) {
    if (key == "layer") return select_layer(format_number(value));
    const std::size_t i = index_of(key);
    const ParamSpec& spec = parameter_table()[i];
    const std::string given = format_number(value);
    if (spec.type == ParamType::integer) {
        check_number(spec, given, value);
        values_[i] = static_cast<std::int64_t>(value);
    } else if (spec.type == ParamType::real) {
        check_number(spec, given, value);
        values_[i] = value;
    } else if (spec.type == ParamType::boolean && (value == 0.0 || value == 1.0)) {
        values_[i] = value != 0.0;
    } else {
        throw ParamError(std::string(spec.name), std::string(spec.name) + "=" + given + ": " +
                                                     with_article(spec, spec.allowed()));
    }
}

void ParamSet::reset(std::string_view key) {
    const std::size_t i = index_of(key);
    const ParamSpec& spec = parameter_table()[i];
    values_[i] = spec.default_text.empty() ? ParamValue{} : parse(spec, spec.default_text);
}

std::int64_t ParamSet::integer(std::string_view key) const { return std::get<std::int64_t>(values_[index_of(key)]); }

double ParamSet::real(std::string_view key) const {
    const ParamValue& v = values_[index_of(key)];
    if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
    if (std::holds_alternative<std::monostate>(v)) return std::numeric_limits<double>::quiet_NaN();
    return std::get<double>(v);
}

bool ParamSet::has(std::string_view key) const {
    return !std::holds_alternative<std::monostate>(values_[index_of(key)]);
}

const ParamValue& ParamSet::value(std::string_view key) const { return values_[index_of(key)]; }

const std::string& ParamSet::text(std::string_view key) const { return std::get<std::string>(values_[index_of(key)]); }

std::vector<std::string> ParamSet::choice_list(std::string_view key) const {
    std::vector<std::string> items;
    const std::string& t = text(key);
    if (t == "none") return items;
    std::size_t start = 0;
    while (start <= t.size()) {
        const std::size_t comma = t.find(',', start);
        items.push_back(t.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return items;
}

const std::vector<double>& ParamSet::list(std::string_view key) const {
    static const std::vector<double> empty;
    const ParamValue& v = values_[index_of(key)];
    if (std::holds_alternative<std::monostate>(v)) return empty;
    return std::get<std::vector<double>>(v);
}

bool ParamSet::boolean(std::string_view key) const { return std::get<bool>(values_[index_of(key)]); }

void ParamSet::validate() const {
    validate_one_config();
    validate_layers();
}

void ParamSet::validate_one_config() const {
    const RopeConfig c = config();
    const int dim = c.dim;
    const int rotated = c.rotated_dims();
    auto fail = [&](std::string_view key, const std::string& why) {
        throw ParamError(std::string(key), std::string(key) + "=" + shorten_for_message(value_text(key)) + ": " + why);
    };
    if (rotated < 2)
        fail("rotary_fraction", "rotary_fraction must leave at least 2 rotated dims (dim " + std::to_string(dim) +
                                    " x " + value_text("rotary_fraction") + " leaves " + std::to_string(rotated) + ")");
    for (std::string_view key : {std::string_view("vector"), std::string_view("key_vector")})
        if (has(key) && static_cast<int>(list(key).size()) != dim)
            fail(key, std::string(key) + " must have exactly " + std::to_string(dim) + " comma-separated numbers (one per dim, dim=" +
                          std::to_string(dim) + "), got " + std::to_string(list(key).size()));
    for (std::string_view key : {std::string_view("long_factors"), std::string_view("short_factors")}) {
        if (has(key) && static_cast<int>(list(key).size()) != rotated / 2)
            fail(key, std::string(key) + " must have exactly " + std::to_string(rotated / 2) +
                          " numbers (one per rotated pair, rotated dims " + std::to_string(rotated) + "), got " +
                          std::to_string(list(key).size()));
    }
    if ((c.scaling == Scaling::ntk || c.scaling == Scaling::dynamic) && rotated < 4)
        fail("scaling", "scaling=" + std::string(to_string(c.scaling)) +
                            " needs at least 4 rotated dims (its base exponent is d/(d-2)); this config rotates " +
                            std::to_string(rotated));
    // equal factors are a hard cut at L0 / factor, no smooth band (Llama 4 Scout's published config)
    if (c.scaling == Scaling::llama3 && !(c.high_freq_factor >= c.low_freq_factor))
        fail("high_freq_factor", "with scaling=llama3, high_freq_factor must be at least low_freq_factor (" +
                                     value_text("low_freq_factor") + ")");
    // longrope's attention factor sqrt(1 + ln(factor) / ln(L0)) divides by ln L0 (transformers raises
    // ZeroDivisionError there): refuse L0 = 1 rather than show an infinite factor
    if (c.scaling == Scaling::longrope && c.factor > 1 && !has("attention_factor") && c.original_max_position < 2)
        fail("original_max_position", "with scaling=longrope and factor > 1, original_max_position must be at least 2 "
                                      "(the attention factor divides by ln original_max_position)");
    const std::int64_t from = integer("heatmap_from"), to = integer("heatmap_to");
    if (to != 0 && to <= from)
        fail("heatmap_to", "heatmap_to must be 0 (= max_position) or greater than heatmap_from (" +
                               std::to_string(from) + ")");
    // the heatmap shows positions below max_position only: a window past it is refused, not clamped
    const std::int64_t max_position = integer("max_position");
    if (from >= max_position)
        fail("heatmap_from", "heatmap_from must be below max_position (" + std::to_string(max_position) + ")");
    if (to > max_position)
        fail("heatmap_to", "heatmap_to must be at most max_position (" + std::to_string(max_position) + "), or 0 for max_position");
    if (integer("pair") >= rotated / 2)
        fail("pair", "pair must be below the number of rotated pairs (" + std::to_string(rotated / 2) + ")");
    if (c.scaling == Scaling::proportional && c.rotating_pairs() < 1)
        fail("rotary_fraction", "with scaling=proportional, rotary_fraction must make at least one pair turn (int(dim " +
                                    std::to_string(dim) + " x " + value_text("rotary_fraction") + ") // 2 = 0)");
    validate_axes();
}

void ParamSet::validate_axes() const {
    auto fail = [&](std::string_view key, const std::string& why) {
        throw ParamError(std::string(key), std::string(key) + "=" + shorten_for_message(value_text(key)) + ": " + why);
    };
    const int pairs = config().rotated_pairs();
    if (has("mrope_section")) {
        const std::vector<double>& s = list("mrope_section");
        const bool whole = std::all_of(s.begin(), s.end(), [](double v) { return v == std::floor(v); });
        if (s.size() != 3 || !whole)
            fail("mrope_section", "mrope_section must be three whole numbers t,h,w (pairs per axis), e.g. 16,24,24");
        const MropeSection section = {static_cast<int>(s[0]), static_cast<int>(s[1]), static_cast<int>(s[2])};
        const std::string problem = mrope_section_problem(section, pairs, boolean("mrope_interleaved"));
        if (!problem.empty())
            fail("mrope_section", "mrope_section must give the " + std::to_string(pairs) + " rotated pairs to t, h and w: " + problem);
    }
    if (rope_axes() == RopeAxes::axial_2d) {
        if (pairs % 2 != 0)
            fail("rope_axes", "rope_axes=2d_axial needs a multiple of 4 rotated dims (half the pairs per axis); this config rotates " +
                                  std::to_string(2 * pairs));
        if (config().scaling != Scaling::none)
            fail("scaling", "with rope_axes=2d_axial, scaling must be none (2D axial RoPE has no context-extension variant here)");
    }
}

RopeAxes ParamSet::rope_axes() const { return *rope_axes_from_string(text("rope_axes")); }

MropeSection ParamSet::mrope_section(bool interleaved) const {
    const int pairs = config().rotated_pairs();
    if (has("mrope_section") && boolean("mrope_interleaved") == interleaved) {
        const std::vector<double>& s = list("mrope_section");
        if (s.size() == 3) {
            const MropeSection given = {static_cast<int>(s[0]), static_cast<int>(s[1]), static_cast<int>(s[2])};
            if (mrope_section_problem(given, pairs, interleaved).empty()) return given;
        }
    }
    return default_mrope_section(pairs, interleaved);
}

std::optional<AxisLayout> ParamSet::axis_layout(RopeAxes axes, bool interleaved) const {
    const RopeConfig c = config();
    if (axes == RopeAxes::axial_2d) {
        if (c.rotated_dims() % 4 != 0) return std::nullopt;
        return axial_layout(*axial_frequencies_from_string(text("axial_frequencies")), c.base, c.rotated_dims());
    }
    const FrequencyTable f = compute_frequencies(c);
    if (axes == RopeAxes::mrope) return mrope_layout(f.theta, mrope_section(interleaved), interleaved);
    AxisLayout one_d;  // text: every pair turns with the one position (t = h = w)
    one_d.theta = f.theta;
    one_d.axis.assign(static_cast<std::size_t>(f.pairs()), PositionAxis::t);
    return one_d;
}

std::pair<int, int> ParamSet::query_patch() const {
    const int rows = static_cast<int>(integer("grid_rows")), cols = static_cast<int>(integer("grid_cols"));
    const int r = has("query_row") ? static_cast<int>(integer("query_row")) : rows / 2;
    const int c = has("query_col") ? static_cast<int>(integer("query_col")) : cols / 2;
    return {std::min(r, rows - 1), std::min(c, cols - 1)};
}

namespace {

std::string layer_count_text(int layers) { return std::to_string(layers) + (layers == 1 ? " layer" : " layers"); }

}  // namespace

void ParamSet::validate_layers() const {
    const bool has_kinds = has("layer_kinds"), has_list = has("model_layers");
    auto fail = [&](std::string_view key, const std::string& why) {
        throw ParamError(std::string(key), std::string(key) + "=" + shorten_for_message(value_text(key)) + ": " + why);
    };
    if (has_kinds != has_list)
        fail(has_kinds ? "layer_kinds" : "model_layers",
             "layer_kinds and model_layers go together: set both (or neither)");
    if (!has_kinds) {
        if (has("layer")) fail("layer", "the current model has no layer list (model_layers is none); load a preset or config with layers");
        return;
    }
    const ModelLayers model = model_layers();
    for (const std::string& name : parse_layer_list(text("model_layers")))
        if (model.find_kind(name) < 0)
            fail("model_layers", "kind '" + name + "' has no entry in layer_kinds");
    for (const LayerKind& kind : model.kinds) {
        try {
            with_kind(kind).validate_one_config();
        } catch (const ParamError& e) {
            fail("layer_kinds", "kind '" + kind.name + "': " + e.what());
        }
    }
    if (has("layer") && integer("layer") >= model.layers())
        fail("layer", "layer must be an integer from 0 to " + std::to_string(model.layers() - 1) + " (the model has " +
                          layer_count_text(model.layers()) + ")");
}

ModelLayers ParamSet::model_layers() const {
    ModelLayers m;
    if (!has("layer_kinds") || !has("model_layers")) return m;
    m.kinds = parse_layer_kinds(text("layer_kinds"));
    for (const std::string& name : parse_layer_list(text("model_layers"))) {
        const int k = m.find_kind(name);
        if (k < 0) return ModelLayers{m.kinds, {}};  // validate() names the missing kind
        m.kind_of_layer.push_back(k);
    }
    return m;
}

ParamSet ParamSet::with_kind(const LayerKind& kind) const {
    ParamSet next = *this;
    for (std::string_view k : layer_level_keys()) next.reset(k);
    for (const auto& [k, v] : kind.values) next.set(k, v);
    const RopeConfig c = next.config();
    if (next.integer("pair") >= c.rotated_pairs()) next.set_number("pair", std::max(0, c.rotated_pairs() - 1));
    for (std::string_view k : {std::string_view("vector"), std::string_view("key_vector")})
        if (next.has(k) && static_cast<int>(next.list(k).size()) != c.dim) next.reset(k);
    return next;
}

void ParamSet::select_layer(std::string_view text) {
    const std::size_t i = index_of("layer");
    const ParamSpec& spec = parameter_table()[i];
    ParamValue v = parse(spec, text);
    if (std::holds_alternative<std::monostate>(v)) {
        values_[i] = v;
        return;
    }
    const ModelLayers model = model_layers();
    const std::string prefix = "layer=" + shorten_for_message(text) + ": ";
    if (model.empty())
        throw ParamError("layer", prefix + "the current model has no layer list (model_layers is none); load a preset or config with layers");
    const std::int64_t layer = std::get<std::int64_t>(v);
    if (layer >= model.layers())
        throw ParamError("layer", prefix + "layer must be an integer from 0 to " + std::to_string(model.layers() - 1) +
                                      " (the model has " + layer_count_text(model.layers()) + ")");
    ParamSet next = with_kind(model.kind(static_cast<int>(layer)));
    next.values_[i] = v;
    *this = next;
}

const std::vector<std::string_view>& config_keys() {
    static const std::vector<std::string_view> keys = {
        "dim",          "base",           "rotary_fraction", "pairing",   "scaling",      "factor",
        "original_max_position", "sequence_length", "low_freq_factor", "high_freq_factor", "beta_fast", "beta_slow",
        "mscale",       "mscale_all_dim", "truncate",        "long_factors", "short_factors", "attention_factor", "nope"};
    return keys;
}

RopeConfig ParamSet::config() const {
    RopeConfig c;
    c.dim = static_cast<int>(integer("dim"));
    c.base = real("base");
    c.rotary_fraction = real("rotary_fraction");
    c.pairing = *pairing_from_string(text("pairing"));
    c.scaling = *scaling_from_string(text("scaling"));
    c.factor = real("factor");
    c.original_max_position = integer("original_max_position");
    c.sequence_length = integer("sequence_length");
    c.low_freq_factor = real("low_freq_factor");
    c.high_freq_factor = real("high_freq_factor");
    c.beta_fast = real("beta_fast");
    c.beta_slow = real("beta_slow");
    if (has("mscale")) c.mscale = real("mscale");
    if (has("mscale_all_dim")) c.mscale_all_dim = real("mscale_all_dim");
    c.truncate = boolean("truncate");
    c.long_factors = list("long_factors");
    c.short_factors = list("short_factors");
    if (has("attention_factor")) c.attention_factor = real("attention_factor");
    c.nope = boolean("nope");
    return c;
}

std::vector<double> ParamSet::vector() const {
    if (has("vector")) return list("vector");
    return std::vector<double>(static_cast<std::size_t>(integer("dim")), 1.0);
}

std::vector<double> ParamSet::key_vector() const {
    if (has("key_vector")) return list("key_vector");
    return vector();
}

std::string ParamSet::value_text(std::string_view key) const {
    const ParamValue& v = values_[index_of(key)];
    if (std::holds_alternative<std::monostate>(v)) return "none";
    if (std::holds_alternative<std::int64_t>(v)) return std::to_string(std::get<std::int64_t>(v));
    if (std::holds_alternative<double>(v)) return number_text(std::get<double>(v));
    if (std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
    if (std::holds_alternative<bool>(v)) return std::get<bool>(v) ? "true" : "false";
    return list_text(std::get<std::vector<double>>(v));
}

std::vector<std::pair<std::string, std::string>> ParamSet::to_key_values() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t i = 0; i < values_.size(); ++i) {
        if (std::holds_alternative<std::monostate>(values_[i])) continue;
        const std::string name(parameter_table()[i].name);
        out.emplace_back(name, value_text(name));
    }
    return out;
}

}  // namespace rope
