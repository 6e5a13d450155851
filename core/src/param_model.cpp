// What a ParamSet says about the model: the RopeConfig the core computes from, the model's layers
// (picking a layer or a preset loads its values), image axes, and the checks that involve several keys.
#include <algorithm>
#include <cmath>
#include <vector>

#include "rope/frequencies.hpp"
#include "rope/number_format.hpp"
#include "rope/params.hpp"
#include "rope/presets.hpp"

namespace rope {

namespace {

std::string layer_count_text(int layers) { return std::to_string(layers) + (layers == 1 ? " layer" : " layers"); }

std::string name_of(ParamId id) { return std::string(param_spec(id).name); }

// How many numbers a list parameter holds (0 when unset).
std::size_t list_length(const ParamValue& v) {
    const auto* list = std::get_if<std::vector<double>>(&v);
    return list ? list->size() : 0;
}

}  // namespace

double slider_top(const ParamSpec& spec, const ParamSet& p) {
    switch (spec.slider_top) {
        case SliderTop::last_position: return static_cast<double>(std::max<std::int64_t>(0, p[P::max_position] - 1));
        case SliderTop::last_pair: return std::max(0, p.config().rotated_pairs() - 1);
        case SliderTop::last_row: return static_cast<double>(p[P::grid_rows] - 1);
        case SliderTop::last_col: return static_cast<double>(p[P::grid_cols] - 1);
        case SliderTop::last_frame: return std::max(0, temporal_patches(p.video_spec()) - 1);
        case SliderTop::fixed: break;
    }
    return spec.slider_max;
}

double slider_value(const ParamSpec& spec, double lo, double hi, double t) {
    double v = spec.logarithmic && lo > 0 ? std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo))) : lo + t * (hi - lo);
    if (spec.type == ParamType::integer) v = std::round(v);
    if (spec.even) v = std::max(2.0, std::round(v / 2) * 2);
    return v;
}

RopeConfig ParamSet::config() const {
    const ParamSet& p = *this;
    RopeConfig c;
    c.dim = static_cast<int>(p[P::dim]);
    c.base = p[P::base];
    c.rotary_fraction = p[P::rotary_fraction];
    c.pairing = p[P::pairing];
    c.scaling = p[P::scaling];
    c.factor = p[P::factor];
    c.original_max_position = p[P::original_max_position];
    c.sequence_length = p[P::sequence_length];
    c.low_freq_factor = p[P::low_freq_factor];
    c.high_freq_factor = p[P::high_freq_factor];
    c.beta_fast = p[P::beta_fast];
    c.beta_slow = p[P::beta_slow];
    c.mscale = p[P::mscale];
    c.mscale_all_dim = p[P::mscale_all_dim];
    c.truncate = p[P::truncate];
    c.long_factors = p[P::long_factors];
    c.short_factors = p[P::short_factors];
    c.attention_factor = p[P::attention_factor];
    c.nope = p[P::nope];
    return c;
}

std::vector<double> ParamSet::vector() const {
    if (has(P::vector)) return (*this)[P::vector];
    return std::vector<double>(static_cast<std::size_t>((*this)[P::dim]), 1.0);
}

std::vector<double> ParamSet::key_vector() const {
    if (has(P::key_vector)) return (*this)[P::key_vector];
    return vector();
}

void ParamSet::validate() const {
    validate_one_config();
    validate_layers();
}

void ParamSet::validate_one_config() const {
    const ParamSet& p = *this;
    const RopeConfig c = config();
    const int dim = c.dim;
    const int rotated = c.rotated_dims();
    auto fail = [&](ParamId id, const std::string& why) {
        throw ParamError(name_of(id), name_of(id) + "=" + shorten_for_message(value_text(id)) + ": " + why);
    };
    if (rotated < 2)
        fail(P::rotary_fraction, "rotary_fraction must leave at least 2 rotated dims (dim " + std::to_string(dim) + " x " +
                                     value_text(P::rotary_fraction) + " leaves " + std::to_string(rotated) + ")");
    for (ParamId id : {ParamId::vector, ParamId::key_vector}) {
        const std::size_t n = list_length(value(id));
        if (has(id) && static_cast<int>(n) != dim)
            fail(id, name_of(id) + " must have exactly " + std::to_string(dim) + " comma-separated numbers (one per dim, dim=" +
                         std::to_string(dim) + "), got " + std::to_string(n));
    }
    for (ParamId id : {ParamId::long_factors, ParamId::short_factors}) {
        const std::size_t n = list_length(value(id));
        if (has(id) && static_cast<int>(n) != rotated / 2)
            fail(id, name_of(id) + " must have exactly " + std::to_string(rotated / 2) + " numbers (one per rotated pair, rotated dims " +
                         std::to_string(rotated) + "), got " + std::to_string(n));
    }
    if ((c.scaling == Scaling::ntk || c.scaling == Scaling::dynamic) && rotated < 4)
        fail(P::scaling, "scaling=" + std::string(to_string(c.scaling)) +
                             " needs at least 4 rotated dims (its base exponent is d/(d-2)); this config rotates " + std::to_string(rotated));
    // equal factors are a hard cut at L0 / factor, no smooth band (Llama 4 Scout's published config)
    if (c.scaling == Scaling::llama3 && !(c.high_freq_factor >= c.low_freq_factor))
        fail(P::high_freq_factor,
             "with scaling=llama3, high_freq_factor must be at least low_freq_factor (" + value_text(P::low_freq_factor) + ")");
    // longrope's attention factor sqrt(1 + ln(factor) / ln(L0)) divides by ln L0 (transformers raises
    // ZeroDivisionError there): refuse L0 = 1 rather than show an infinite factor
    if (c.scaling == Scaling::longrope && c.factor > 1 && !has(P::attention_factor) && c.original_max_position < 2)
        fail(P::original_max_position, "with scaling=longrope and factor > 1, original_max_position must be at least 2 "
                                       "(the attention factor divides by ln original_max_position)");
    const std::int64_t from = p[P::heatmap_from], to = p[P::heatmap_to];
    if (to != 0 && to <= from)
        fail(P::heatmap_to, "heatmap_to must be 0 (= max_position) or greater than heatmap_from (" + std::to_string(from) + ")");
    // the heatmap shows positions below max_position only: a window past it is refused, not clamped
    const std::int64_t max_position = p[P::max_position];
    if (from >= max_position) fail(P::heatmap_from, "heatmap_from must be below max_position (" + std::to_string(max_position) + ")");
    if (to > max_position)
        fail(P::heatmap_to, "heatmap_to must be at most max_position (" + std::to_string(max_position) + "), or 0 for max_position");
    if (p[P::pair] >= rotated / 2) fail(P::pair, "pair must be below the number of rotated pairs (" + std::to_string(rotated / 2) + ")");
    if (c.scaling == Scaling::proportional && c.rotating_pairs() < 1)
        fail(P::rotary_fraction, "with scaling=proportional, rotary_fraction must make at least one pair turn (int(dim " +
                                     std::to_string(dim) + " x " + value_text(P::rotary_fraction) + ") // 2 = 0)");
    validate_axes();
}

void ParamSet::validate_axes() const {
    const ParamSet& p = *this;
    auto fail = [&](ParamId id, const std::string& why) {
        throw ParamError(name_of(id), name_of(id) + "=" + shorten_for_message(value_text(id)) + ": " + why);
    };
    const int pairs = config().rotated_pairs();
    // each layout's section against its own rules, whichever layout is shown
    auto check_section = [&](ParamId id, const std::vector<double>& s, bool interleaved) {
        const std::string name(name_of(id));
        const bool whole = std::all_of(s.begin(), s.end(), [](double v) { return v == std::floor(v); });
        if (s.size() != 3 || !whole)
            fail(id, name + " must be three whole numbers t,h,w (pairs per axis), e.g. " + (interleaved ? "24,20,20" : "16,24,24"));
        const MropeSection section = {static_cast<int>(s[0]), static_cast<int>(s[1]), static_cast<int>(s[2])};
        const std::string problem = mrope_section_problem(section, pairs, interleaved);
        if (!problem.empty()) fail(id, name + " must give the " + std::to_string(pairs) + " rotated pairs to t, h and w: " + problem);
    };
    if (has(P::flux_axes_dim)) {
        const std::vector<double>& s = p[P::flux_axes_dim];
        const bool whole = std::all_of(s.begin(), s.end(), [](double v) { return v == std::floor(v); });
        if (s.size() != 3 || !whole) fail(P::flux_axes_dim, "flux_axes_dim must be three whole numbers, dims per axis, e.g. 16,56,56");
        const FluxAxesDims dims = {static_cast<int>(s[0]), static_cast<int>(s[1]), static_cast<int>(s[2])};
        if (const std::string problem = flux_axes_dims_problem(dims, 2 * pairs); !problem.empty())
            fail(P::flux_axes_dim, "flux_axes_dim must give the " + std::to_string(2 * pairs) + " rotated dims to the three axes: " + problem);
    }
    if (p[P::rope_axes] == RopeAxes::flux && p[P::scaling] != Scaling::none)
        fail(P::scaling, "with rope_axes=flux, scaling must be none (FLUX's axes have no context-extension variant)");
    if (has(P::mrope_section)) check_section(ParamId::mrope_section, p[P::mrope_section], false);
    if (has(P::mrope_section_interleaved)) check_section(ParamId::mrope_section_interleaved, p[P::mrope_section_interleaved], true);
    if (p[P::rope_axes] == RopeAxes::axial_2d) {
        if (pairs % 2 != 0)
            fail(P::rope_axes, "rope_axes=2d_axial needs a multiple of 4 rotated dims (half the pairs per axis); this config rotates " +
                                   std::to_string(2 * pairs));
        if (p[P::scaling] != Scaling::none)
            fail(P::scaling, "with rope_axes=2d_axial, scaling must be none (2D axial RoPE has no context-extension variant here)");
    }
}

MropeSection ParamSet::mrope_section(bool interleaved) const {
    const ParamSet& p = *this;
    const int pairs = config().rotated_pairs();
    const bool given = interleaved ? has(P::mrope_section_interleaved) : has(P::mrope_section);
    if (given) {
        const std::vector<double>& s = interleaved ? p[P::mrope_section_interleaved] : p[P::mrope_section];
        if (s.size() == 3) {
            const MropeSection section = {static_cast<int>(s[0]), static_cast<int>(s[1]), static_cast<int>(s[2])};
            if (mrope_section_problem(section, pairs, interleaved).empty()) return section;
        }
    }
    return default_mrope_section(pairs, interleaved);
}

FluxAxesDims ParamSet::flux_axes_dims() const {
    const int rotated = config().rotated_dims();
    if (has(P::flux_axes_dim)) {
        const std::vector<double>& s = (*this)[P::flux_axes_dim];
        if (s.size() == 3) {
            const FluxAxesDims dims = {static_cast<int>(s[0]), static_cast<int>(s[1]), static_cast<int>(s[2])};
            if (flux_axes_dims_problem(dims, rotated).empty()) return dims;
        }
    }
    return default_flux_axes_dims(rotated);
}

std::optional<AxisLayout> ParamSet::axis_layout(RopeAxes axes, bool interleaved) const {
    const RopeConfig c = config();
    if (axes == RopeAxes::flux) return flux_layout(c.base, flux_axes_dims());
    if (axes == RopeAxes::axial_2d) {
        if (c.rotated_dims() % 4 != 0) return std::nullopt;
        return axial_layout((*this)[P::axial_frequencies], c.base, c.rotated_dims());
    }
    const FrequencyTable f = compute_frequencies(c);
    if (axes == RopeAxes::mrope) return mrope_layout(f.theta, mrope_section(interleaved), interleaved);
    // ERNIE-4.5-VL (modeling_ernie4_5_vl_moe.py, transformers 147b7aa0, lines 102-136): pairs 0 .. h+w-1
    // alternate h (even) and w (odd), the last t (the slowest, freq_allocation) turn with t: VideoRoPE's table
    if (axes == RopeAxes::videorope || axes == RopeAxes::ernie_3d) return videorope_layout(f.theta, mrope_section(false));
    AxisLayout one_d;  // text: every pair turns with the one position (t = h = w)
    one_d.theta = f.theta;
    one_d.axis.assign(static_cast<std::size_t>(f.pairs()), PositionAxis::t);
    return one_d;
}

VideoSpec ParamSet::video_spec() const {
    const ParamSet& p = *this;
    VideoSpec v;
    v.text_before = static_cast<int>(p[P::text_before]);
    v.text_after = static_cast<int>(p[P::text_after]);
    v.rows = static_cast<int>(p[P::grid_rows]);
    v.cols = static_cast<int>(p[P::grid_cols]);
    v.frames = static_cast<int>(p[P::video_frames]);
    v.temporal_patch_size = static_cast<int>(p[P::temporal_patch_size]);
    v.fps = p[P::video_fps];
    v.tokens_per_second = p[P::tokens_per_second];
    v.rule = p[P::video_time_ids];
    v.diagonal = p[P::rope_axes] == RopeAxes::videorope;
    v.spacing = p[P::video_spacing];
    v.integer_seconds_bug = p[P::video_seconds_cast];
    return v;
}

std::vector<SequenceToken> ParamSet::sequence_tokens() const {
    const ParamSet& p = *this;
    VideoSpec v = video_spec();
    if (p[P::media] == Media::video) return video_sequence(v);
    if (p[P::rope_axes] == RopeAxes::flux) return flux_sequence(v.text_before, v.rows, v.cols, v.text_after);
    if (!v.diagonal) return mrope_sequence(v.text_before, v.rows, v.cols, v.text_after);
    v.frames = 1;  // an image on VideoRoPE's diagonal: one frame
    v.temporal_patch_size = 1;
    std::vector<SequenceToken> tokens = video_sequence(v);
    for (SequenceToken& t : tokens)
        if (t.kind == TokenKind::video) t.kind = TokenKind::image, t.frame = -1;
    return tokens;
}

std::pair<int, int> ParamSet::query_patch() const {
    const ParamSet& p = *this;
    const int rows = static_cast<int>(p[P::grid_rows]), cols = static_cast<int>(p[P::grid_cols]);
    const int r = p[P::query_row] ? static_cast<int>(*p[P::query_row]) : rows / 2;
    const int c = p[P::query_col] ? static_cast<int>(*p[P::query_col]) : cols / 2;
    return {std::min(r, rows - 1), std::min(c, cols - 1)};
}

void ParamSet::validate_layers() const {
    const bool has_kinds = has(P::layer_kinds), has_list = has(P::model_layers);
    auto fail = [&](ParamId id, const std::string& why) {
        throw ParamError(name_of(id), name_of(id) + "=" + shorten_for_message(value_text(id)) + ": " + why);
    };
    if (has_kinds != has_list)
        fail(has_kinds ? ParamId::layer_kinds : ParamId::model_layers, "layer_kinds and model_layers go together: set both (or neither)");
    if (!has_kinds) {
        if (has(P::layer)) fail(P::layer, "the current model has no layer list (model_layers is none); load a preset or config with layers");
        return;
    }
    const ModelLayers model = model_layers();
    for (const std::string& name : parse_layer_list((*this)[P::model_layers]))
        if (model.find_kind(name) < 0) fail(P::model_layers, "kind '" + name + "' has no entry in layer_kinds");
    for (const LayerKind& kind : model.kinds) {
        try {
            with_kind(kind).validate_one_config();
        } catch (const ParamError& e) {
            fail(P::layer_kinds, "kind '" + kind.name + "': " + e.what());
        }
    }
    if (has(P::layer) && *(*this)[P::layer] >= model.layers())
        fail(P::layer, "layer must be an integer from 0 to " + std::to_string(model.layers() - 1) + " (the model has " +
                           layer_count_text(model.layers()) + ")");
}

ModelLayers ParamSet::model_layers() const {
    ModelLayers m;
    if (!has(P::layer_kinds) || !has(P::model_layers)) return m;
    m.kinds = parse_layer_kinds((*this)[P::layer_kinds]);
    for (const std::string& name : parse_layer_list((*this)[P::model_layers])) {
        const int k = m.find_kind(name);
        if (k < 0) return ModelLayers{m.kinds, {}};  // validate() names the missing kind
        m.kind_of_layer.push_back(k);
    }
    return m;
}

ParamSet ParamSet::with_kind_keys(const LayerKind& kind) const {
    ParamSet next = *this;
    for (ParamId id : params_in(kLayerScope)) next.reset(id);
    for (const auto& [id, v] : kind.values) next.set(id, v);
    return next;
}

ParamSet ParamSet::with_kind(const LayerKind& kind) const {
    ParamSet next = with_kind_keys(kind);
    const RopeConfig c = next.config();
    if (next[P::pair] >= c.rotated_pairs()) next.set_number(P::pair, std::max(0, c.rotated_pairs() - 1));
    for (ParamId id : {ParamId::vector, ParamId::key_vector}) {
        if (next.has(id) && static_cast<int>(list_length(next.value(id))) != c.dim) next.reset(id);
    }
    return next;
}

void ParamSet::select_layer(std::string_view text) {
    const std::size_t i = index_of(ParamId::layer);
    ParamValue v = parse(param_spec(ParamId::layer), text);
    if (std::holds_alternative<std::monostate>(v)) {
        values_[i] = v;
        return;
    }
    const ModelLayers model = model_layers();
    const std::string prefix = "layer=" + shorten_for_message(text) + ": ";
    if (model.empty())
        throw ParamError(name_of(P::layer), prefix + "the current model has no layer list (model_layers is none); load a preset or config with layers");
    const std::int64_t layer = std::get<std::int64_t>(v);
    if (layer >= model.layers())
        throw ParamError(name_of(P::layer), prefix + "layer must be an integer from 0 to " + std::to_string(model.layers() - 1) + " (the model has " +
                                      layer_count_text(model.layers()) + ")");
    ParamSet next = with_kind(model.kind(static_cast<int>(layer)));
    next.values_[i] = v;
    *this = next;
}

void ParamSet::select_preset(std::string_view text) {
    const std::size_t i = index_of(ParamId::preset);
    ParamValue v = parse(param_spec(ParamId::preset), text);  // validates the name
    const std::string_view name = param_spec(ParamId::preset).choices[static_cast<std::size_t>(std::get<std::int64_t>(v))];
    if (name != "none") {
        ParamSet next = *this;
        for (ParamId id : params_in(kModelScope)) next.reset(id);
        for (const auto& [id, value] : find_preset(name)->values) next.set(id, value);
        *this = next;
    }
    values_[i] = std::move(v);
}

std::string ParamSet::compared_model_name() const {
    const std::string to((*this)[P::compare_to]);
    if (find_preset(to) || to == "unscaled") return to;
    const std::shared_ptr<const ImportedModel> imported = find_imported_model(to);
    return imported ? imported->label : to;
}

std::optional<ParamSet> ParamSet::compared_model() const {
    const std::string to((*this)[P::compare_to]);
    if (to == "unscaled") return std::nullopt;
    ParamSet b = *this;
    b.start_new_lineage();
    const ParamSet a = b;  // A's values, read without a log: what B takes of them is what A's own builds read
    b.set(ParamId::compare_to, "unscaled");
    const Preset* preset = find_preset(to);
    const std::shared_ptr<const ImportedModel> imported = preset ? nullptr : find_imported_model(to);
    if (preset) {
        b.set(ParamId::preset, to);
    } else {  // a config.json, as with_config applies one: the model's keys reset, then its values
        if (!imported) throw ParamError("compare_to", "compare_to=" + to + ": no model was read from that path");
        b.set(ParamId::preset, "none");
        for (ParamId id : params_in(kModelScope)) b.reset(id);
        for (const auto& [id, value] : imported->values) b.set(id, value);
    }
    auto b_sets = [&](ParamId id) {
        if (preset) return std::any_of(preset->values.begin(), preset->values.end(), [&](const auto& kv) { return kv.first == id; });
        return std::any_of(imported->values.begin(), imported->values.end(), [&](const auto& kv) { return kv.first == id; });
    };
    // What the sliders point at and the input are shared by both models (the same token, pair, query
    // and image or video in either), where B takes them: not where B's preset sets the key itself (a
    // vision encoder's grid), the pair within B's pairs, the vectors where B's head has their length,
    // the query patch where B's grid holds it.
    std::vector<ParamId> shared;
    for (const ParamId id : {ParamId::position, ParamId::key_position, ParamId::heatmap_from, ParamId::heatmap_to, ParamId::vector,
                             ParamId::key_vector, ParamId::media, ParamId::grid_rows, ParamId::grid_cols, ParamId::text_before,
                             ParamId::text_after, ParamId::video_frames, ParamId::query_row, ParamId::query_col, ParamId::query_frame})
        if (!b_sets(id)) shared.push_back(id);
    // all at once (B usually takes every one: one check of the whole set), else one by one
    auto take = [&](ParamSet& into, const std::vector<ParamId>& ids) {
        ParamSet trial = into;
        try {
            for (const ParamId id : ids) trial.set(id, a.value_text(id));
            trial.validate();
            into = trial;
            return true;
        } catch (const ParamError&) {  // B's own value stays (a vector of A's length, a patch outside B's grid)
            return false;
        }
    };
    if (!take(b, shared))
        for (const ParamId id : shared) take(b, {id});
    const std::int64_t pairs = b[P::dim] / 2;
    b.set(P::pair, std::min<std::int64_t>(a[P::pair], pairs - 1));
    return b;
}

}  // namespace rope
