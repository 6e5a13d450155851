// The one parameter vocabulary of the app: every setting is a row of parameter_table() (name,
// type, default, allowed range or values, one-line help, slider hints). The command line's
// `--set key=value`, the sliders, session files and export metadata all go through ParamSet, so a
// key means the same everywhere and is validated in one place.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "rope/config.hpp"
#include "rope/model_layers.hpp"
#include "rope/multi_axis.hpp"

namespace rope {

// choice_list: a comma-separated subset of `choices` (stored in the choices' order, "none" if empty).
// text: a structured value with its own grammar (layer_kinds, model_layers), checked by the table.
enum class ParamType { integer, real, choice, real_list, boolean, choice_list, text };

struct ParamSpec {
    std::string_view name;
    ParamType type;
    std::string_view default_text;  // as typed after `--set name=`; "" = unset (optional)
    double min = 0.0;               // numeric range (integer, real, list elements)
    double max = 0.0;
    bool min_exclusive = false;     // (min, max] instead of [min, max]
    bool even = false;              // integer must be even
    bool optional = false;          // may be unset ("none")
    std::vector<std::string_view> choices;  // choice type
    std::string_view help;          // one sentence
    // Slider hints for the UI (the validation range above is the law; this is the usual span).
    double slider_min = 0.0;
    double slider_max = 0.0;
    bool logarithmic = false;

    std::string allowed() const;  // "an even integer from 2 to 4096", "one of: none, linear, ..."
};

const std::vector<ParamSpec>& parameter_table();
const ParamSpec* find_param(std::string_view name);

// One line for people: names the key, the value given and what is allowed.
class ParamError : public std::runtime_error {
public:
    ParamError(std::string key, std::string message)
        : std::runtime_error(std::move(message)), key_(std::move(key)) {}
    const std::string& key() const { return key_; }

private:
    std::string key_;
};

using ParamValue = std::variant<std::monostate, std::int64_t, double, std::string, std::vector<double>, bool>;

class ParamSet {
public:
    ParamSet();  // every key at its default

    // Parses and validates one value given as text (command line, session, UI text field).
    // Throws ParamError; on error nothing changes.
    void set(std::string_view key, std::string_view text);
    // Numeric value (sliders, JSON numbers): validated the same way as text.
    void set_number(std::string_view key, double value);
    void reset(std::string_view key);  // back to its default

    // Checks that involve several keys (vector length vs dim, longrope lists vs rotated pairs,
    // ntk/dynamic need 4 rotated dims, llama3's factor order, pair < rotated pairs). Throws ParamError.
    void validate() const;

    std::int64_t integer(std::string_view key) const;
    double real(std::string_view key) const;  // also reads integers; optional unset -> NaN
    bool has(std::string_view key) const;     // false for an unset optional
    const std::string& text(std::string_view key) const;  // choice values
    const std::vector<double>& list(std::string_view key) const;
    std::vector<std::string> choice_list(std::string_view key) const;  // a choice_list's items
    bool boolean(std::string_view key) const;

    // The configuration the math core takes (call validate() first).
    RopeConfig config() const;

    // The loaded model's layers (layer_kinds + model_layers; empty when none are set).
    ModelLayers model_layers() const;
    // This set with one layer kind's RoPE: the layer-level keys back to their defaults, then the
    // kind's values; `pair` is clamped and vectors of another length dropped so the result validates.
    ParamSet with_kind(const LayerKind& kind) const;
    // Images and video (rope_axes and the keys after it).
    RopeAxes rope_axes() const;
    // The M-RoPE section of one layout: mrope_section when it is given for that layout
    // (mrope_interleaved), else Qwen's shares scaled to the rotated pairs.
    MropeSection mrope_section(bool interleaved) const;
    // The pairs' axes and frequencies of `axes` for this config (mrope: the layout `interleaved`
    // says; 1d: every pair on t). None for 2d_axial when the rotated dims are not a multiple of 4.
    std::optional<AxisLayout> axis_layout(RopeAxes axes, bool interleaved) const;
    // The query patch (row, col): query_row / query_col, the middle when unset, kept inside the grid.
    std::pair<int, int> query_patch() const;
    // The vector to rotate: `vector` if given, else all ones of length dim.
    std::vector<double> vector() const;
    // The key of the score views: `key_vector` if given, else vector() (q = k).
    std::vector<double> key_vector() const;

    // Every key with its value as `--set` text, table order; unset optionals are left out.
    std::vector<std::pair<std::string, std::string>> to_key_values() const;
    std::string value_text(std::string_view key) const;

    // The stored value of one key (caches key their results by the values of their inputs).
    const ParamValue& value(std::string_view key) const;

    // Two sets are equal when every key has the same value (however each was built).
    bool operator==(const ParamSet& other) const { return values_ == other.values_; }
    bool operator!=(const ParamSet& other) const { return !(*this == other); }

private:
    std::size_t index_of(std::string_view key) const;
    ParamValue parse(const ParamSpec& spec, std::string_view text) const;
    void check_number(const ParamSpec& spec, std::string_view given, double value) const;
    void select_layer(std::string_view text);  // set("layer"): loads that layer's kind
    void validate_one_config() const;          // the checks of validate() for the current keys
    void validate_layers() const;              // every kind and the layer list
    void validate_axes() const;                // rope_axes, mrope_section against the rotated pairs

    std::vector<ParamValue> values_;
    // Which set this is a copy of (a new set starts its own): ParamReadLog follows copies.
    std::uint64_t lineage_;
    friend class ParamReadLog;
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

// The keys ParamSet::config() reads: everything that defines the model's frequencies, scaling and layout.
const std::vector<std::string_view>& config_keys();

// "dim=130" style text of one value, shortened for an error message.
std::string shorten_for_message(std::string_view text);

}  // namespace rope
