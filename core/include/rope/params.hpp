// The one parameter vocabulary of the app. Every setting is one entry of params.def; from it come
// the typed keys code reads by (`params[P::base]`, O(1)), the table's rows below (type, default,
// range or choices, unit, help, scope, slider and control), and so the command line's `--set
// key=value` and --help, the sliders, session files, export metadata and the key lists. Values are
// validated in one place (ParamSet), whichever of these they come from.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "rope/config.hpp"
#include "rope/model_layers.hpp"
#include "rope/multi_axis.hpp"
#include "rope/video_positions.hpp"
#include "rope/number_parse.hpp"
#include "rope/param_ids.hpp"

namespace rope {

class ParamSet;

// choice: one of `choices` (an enum's words, or names such as the presets'), stored as its index.
// choice_list: a comma-separated subset of `choices` (stored in the choices' order, "none" if empty).
// text: a structured value with its own grammar (layer_kinds, model_layers), checked by the table.
enum class ParamType { integer, real, choice, real_list, boolean, choice_list, text };

// The lists a parameter belongs to (ParamSpec::scope, bits):
//  model:  a preset or a config.json replaces it (reset to its default before the model's values);
//  layer:  a layer kind may set it (layer_kinds), and picking a layer resets it first;
//  config: the math core reads it (ParamSet::config(), RopeConfig): the model's frequencies.
enum ParamScope : unsigned { kModelScope = 1u, kLayerScope = 2u, kConfigScope = 4u };

// The grammar of a text parameter.
enum class TextGrammar { none, layer_kinds, layer_list, path, name };

// Where the controls panel shows a parameter, in this order of sections.
enum class ControlSection { none, position, rope, ranges, context, images, relatives };

// A slider whose top follows other parameters: the last position (max_position - 1), the last
// rotated pair, the image's last row or column.
enum class SliderTop { fixed, last_position, last_pair, last_row, last_col, last_frame };

struct ParamControl {
    ControlSection section = ControlSection::none;
    int place = 0;               // order within the section
    std::string_view label;      // above the slider
    std::string_view format;     // printf format of a real slider's value ("%.3g"); integers print whole
};

struct ParamSpec {
    ParamId id{};
    std::string_view name;
    ParamType type = ParamType::integer;
    std::string_view default_text;  // as typed after `--set name=`; "" = unset (optional)
    double min = 0.0;               // numeric range (integer, real, list elements)
    double max = 0.0;
    bool min_exclusive = false;     // (min, max] instead of [min, max]
    bool even = false;              // integer must be even
    bool optional = false;          // may be unset ("none")
    std::vector<std::string_view> choices;  // choice and choice_list types
    TextGrammar grammar = TextGrammar::none;
    // A choice that also takes the path of a config.json (compare_to): kept as that text, the model
    // read through the app's importer (presets.hpp's imported_model).
    bool or_imported_model = false;
    std::string_view help;          // one sentence: tooltip and --help
    std::string_view unit;          // what a number counts ("tokens", "dims"); "" for plain numbers
    std::string_view unset_means;   // what an unset list stands for ("all ones"), for --help
    unsigned scope = 0;             // ParamScope bits
    // The slider: its usual span (the validation range above is the law), scale and moving top.
    double slider_min = 0.0;
    double slider_max = 0.0;
    bool logarithmic = false;
    SliderTop slider_top = SliderTop::fixed;
    ParamControl control;
    // The control shows only when this holds (null: always), e.g. beta_fast with scaling=yarn.
    bool (*relevant)(const ParamSet&) = nullptr;

    bool in(ParamScope s) const { return (scope & s) != 0; }
    bool numeric() const { return type == ParamType::integer || type == ParamType::real; }
    NumberRule number_rule() const;  // integer, real and list elements
    std::string allowed() const;     // "an even integer from 2 to 4096", "one of: none, linear, ..."
};

// The table, in ParamId order (the order of params.def).
const std::vector<ParamSpec>& parameter_table();
const ParamSpec& param_spec(ParamId id);
const ParamSpec* find_param(std::string_view name);  // null if no parameter has that name
// The parameters of a scope, in table order.
const std::vector<ParamId>& params_in(ParamScope scope);
// The top of a parameter's slider for these parameters: slider_max, or what slider_top follows.
double slider_top(const ParamSpec& spec, const ParamSet& params);
// The value a fraction t (0..1) along [lo, hi] of a parameter's slider: by equal ratios on a
// logarithmic slider (lo > 0), else evenly; whole for integers, even where the table says.
double slider_value(const ParamSpec& spec, double lo, double hi, double t);

// One line for people: names the key, the value given and what is allowed.
class ParamError : public std::runtime_error {
public:
    ParamError(std::string key, std::string message)
        : std::runtime_error(std::move(message)), key_(std::move(key)) {}
    const std::string& key() const { return key_; }

private:
    std::string key_;
};

// A stored value: integers, reals and booleans as such, a choice as its index into the choices,
// lists and texts as they read; unset optionals hold monostate.
using ParamValue = std::variant<std::monostate, std::int64_t, double, std::string, std::vector<double>, bool>;

namespace detail {

template <typename T>
struct type_identity {
    using type = T;
};

// How a parameter of C++ type T is read from its stored value and written as --set text.
template <typename T, typename = void>
struct ParamAccess;

template <>
struct ParamAccess<std::int64_t> {
    static std::int64_t get(const ParamValue& v, const ParamSpec&) { return std::get<std::int64_t>(v); }
    static std::string text(std::int64_t v) { return std::to_string(v); }
};
template <>
struct ParamAccess<std::optional<std::int64_t>> {
    static std::optional<std::int64_t> get(const ParamValue& v, const ParamSpec&) {
        if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
        return std::nullopt;
    }
    static std::string text(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "none"; }
};
template <>
struct ParamAccess<double> {
    static double get(const ParamValue& v, const ParamSpec&) { return std::get<double>(v); }
    static std::string text(double v);
};
template <>
struct ParamAccess<std::optional<double>> {
    static std::optional<double> get(const ParamValue& v, const ParamSpec&) {
        if (const auto* d = std::get_if<double>(&v)) return *d;
        return std::nullopt;
    }
    static std::string text(const std::optional<double>& v) { return v ? ParamAccess<double>::text(*v) : "none"; }
};
template <>
struct ParamAccess<bool> {
    static bool get(const ParamValue& v, const ParamSpec&) { return std::get<bool>(v); }
    static std::string text(bool v) { return v ? "true" : "false"; }
};
template <>
struct ParamAccess<std::string> {  // text parameters; unset reads as ""
    static const std::string& get(const ParamValue& v, const ParamSpec&);
    static std::string text(const std::string& v) { return v.empty() ? "none" : v; }
};
template <>
struct ParamAccess<std::string_view> {  // a choice among names (presets): the chosen name, or an imported model's path
    static std::string_view get(const ParamValue& v, const ParamSpec& spec) {
        if (const auto* path = std::get_if<std::string>(&v)) return *path;
        return spec.choices[static_cast<std::size_t>(std::get<std::int64_t>(v))];
    }
    static std::string text(std::string_view v) { return std::string(v); }
};
template <>
struct ParamAccess<std::vector<double>> {  // lists; unset reads as empty
    static const std::vector<double>& get(const ParamValue& v, const ParamSpec&);
    static std::string text(const std::vector<double>& v);
};
template <>
struct ParamAccess<std::vector<Scaling>> {  // a choice list of scaling variants, in table order
    static std::vector<Scaling> get(const ParamValue& v, const ParamSpec&);
    static std::string text(const std::vector<Scaling>& v);
};
template <typename E>
struct ParamAccess<E, std::enable_if_t<std::is_enum_v<E>>> {  // a choice of an enum's words
    static E get(const ParamValue& v, const ParamSpec&) { return static_cast<E>(std::get<std::int64_t>(v)); }
    static std::string text(E v) { return std::string(enum_name(v)); }
};

}  // namespace detail

class ParamSet {
public:
    ParamSet();  // every key at its default

    // The value of a parameter, as its C++ type: params[P::base] is a double.
    template <ParamId Id, typename T>
    decltype(auto) operator[](ParamKey<Id, T>) const {
        return detail::ParamAccess<T>::get(read(Id), param_spec(Id));
    }
    bool has(ParamId id) const;  // false for an unset optional
    // The stored value (caches key their results by the values of their inputs).
    const ParamValue& value(ParamId id) const;
    std::string value_text(ParamId id) const;  // as `--set` text; "none" when unset

    // Validated like --set; throws ParamError and changes nothing if the value is not allowed.
    template <ParamId Id, typename T>
    void set(ParamKey<Id, T>, const typename detail::type_identity<T>::type& value) {
        set(Id, detail::ParamAccess<T>::text(value));
    }
    // Parses and validates one value given as text (command line, session, lesson, typed input).
    void set(ParamId id, std::string_view text);
    // A key given by name (command line, files): an unknown name is refused with the known ones.
    void set(std::string_view key, std::string_view text);
    // Numeric value (sliders, JSON numbers): validated the same way as text.
    void set_number(ParamId id, double value);
    void reset(ParamId id);  // back to its default

    // Checks that involve several keys (vector length vs dim, longrope lists vs rotated pairs,
    // ntk/dynamic need 4 rotated dims, llama3's factor order, pair < rotated pairs). Throws ParamError.
    void validate() const;

    // The configuration the math core takes (call validate() first).
    RopeConfig config() const;

    // The loaded model's layers (layer_kinds + model_layers; empty when none are set).
    ModelLayers model_layers() const;
    // This set with one layer kind's RoPE: the layer-level keys back to their defaults, then the
    // kind's values; `pair` is clamped and vectors of another length dropped so the result validates.
    ParamSet with_kind(const LayerKind& kind) const;
    // Only the kind's RoPE keys (the layer-scope keys reset, then the kind's): what that layer's
    // frequencies read, without with_kind's care for the selected pair and the vectors.
    ParamSet with_kind_keys(const LayerKind& kind) const;
    // The M-RoPE section of one layout: mrope_section when it is given for that layout
    // (mrope_interleaved), else Qwen's shares scaled to the rotated pairs.
    MropeSection mrope_section(bool interleaved) const;
    // FLUX's dims per axis: flux_axes_dim where it is valid for the head, else the default for it.
    FluxAxesDims flux_axes_dims() const;
    // The pairs' axes and frequencies of `axes` for this config (mrope: the layout `interleaved`
    // says; 1d: every pair on t). None for 2d_axial when the rotated dims are not a multiple of 4.
    std::optional<AxisLayout> axis_layout(RopeAxes axes, bool interleaved) const;
    // The video these parameters describe (video_frames, temporal_patch_size, video_fps, ...; the
    // grid and the texts around it; VideoRoPE's diagonal when rope_axes=videorope).
    VideoSpec video_spec() const;
    // The position ids of text_before text tokens, the image or video (media) and text_after text
    // tokens, as the model's get_rope_index lays them out (an image under videorope: one frame on its
    // diagonal).
    std::vector<SequenceToken> sequence_tokens() const;
    // The query patch (row, col): query_row / query_col, the middle when unset, kept inside the grid.
    std::pair<int, int> query_patch() const;
    // The vector to rotate: `vector` if given, else all ones of length dim.
    std::vector<double> vector() const;
    // The key of the score views: `key_vector` if given, else vector() (q = k).
    std::vector<double> key_vector() const;
    // Model B of an A/B comparison: these parameters with the model of the preset `compare_to` names
    // in place of this one's (every model key reset, then the preset's values; compare_to itself
    // "unscaled"), as `--set preset=B` after the same keys gives, except that what the sliders point at
    // and the input stay shared where B takes them (and B's preset does not set them): position,
    // key_position, heatmap_from/to, vector and key_vector (when B's head has their length), media,
    // grid_rows/cols, text_before/after, video_frames, query_row/col/frame (when B's grid holds them),
    // and pair (at most B's last pair). None when compare_to is "unscaled". Not validated as a whole.
    // B is another model: a ParamReadLog of this set does not record what is read of B (its model
    // keys are the preset's; the rest are this set's values, which A's own builds read).
    // A config.json as B (compare_to a path) applies its values as `--set config=PATH` would.
    std::optional<ParamSet> compared_model() const;
    // B's name for captions and legends: the preset, or the imported config's label ("unscaled" for none).
    std::string compared_model_name() const;

    // Every key with its value as `--set` text, table order; unset optionals are left out.
    std::vector<std::pair<std::string, std::string>> to_key_values() const;

    // Two sets are equal when every key has the same value (however each was built).
    bool operator==(const ParamSet& other) const { return values_ == other.values_; }
    bool operator!=(const ParamSet& other) const { return !(*this == other); }

private:
    const ParamValue& read(ParamId id) const;  // the stored value, noted by a ParamReadLog
    ParamValue parse(const ParamSpec& spec, std::string_view text) const;
    void check_number(const ParamSpec& spec, std::string_view given, double value) const;
    void select_layer(std::string_view text);   // set(layer): loads that layer's kind
    void select_preset(std::string_view text);  // set(preset): resets the model, then the preset's values
    void validate_one_config() const;           // the checks of validate() for the current keys
    void validate_layers() const;               // every kind and the layer list
    void validate_axes() const;                 // rope_axes, mrope_section against the rotated pairs

    std::vector<ParamValue> values_;  // in ParamId order
    // Which set this is a copy of (a new set starts its own): ParamReadLog follows copies.
    std::uint64_t lineage_;
    friend class ParamReadLog;
    void start_new_lineage();  // reads of this set are no longer those of the set it was copied from
};

// While one exists, every key read on this thread from `params` or from a copy of it is recorded
// (tests check that a figure reads only the parameters its descriptor declares).
class ParamReadLog {
public:
    explicit ParamReadLog(const ParamSet& params);
    ~ParamReadLog();
    ParamReadLog(const ParamReadLog&) = delete;
    ParamReadLog& operator=(const ParamReadLog&) = delete;
    std::vector<std::string> keys() const;  // table order
    void note(std::size_t index) { read_.at(index) = true; }

private:
    friend class ParamSet;
    std::vector<bool> read_;
    std::uint64_t lineage_;
    ParamReadLog* outer_;
};

}  // namespace rope
