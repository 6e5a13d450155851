// Internal: the small vocabulary params.def writes its rows in. A row starts with its kind and
// default (integer, real, choice<Enum>, names, text, list, flag, choice_list) and adds what applies:
//   integer("128", 2, 4096).even().scope(kModelScope).slider(2, 512).control(...).help("...")
#pragma once

#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include "rope/params.hpp"

namespace rope::param_dsl {

// Upper limits that keep every derived number finite (wavelengths, effective bases, scores,
// attention factors) and still cover every real model by orders of magnitude: the largest real base
// is ~1e8, the largest factor ~40, attention factors ~1.2, LongRoPE factors ~1-60.
inline constexpr double kMaxBase = 1e12;
inline constexpr double kMaxFactor = 1000;
inline constexpr double kMaxShapeParameter = 1e6;  // beta_fast, beta_slow, low/high_freq_factor
inline constexpr double kMaxAttentionScale = 100;  // attention_factor, mscale, mscale_all_dim
inline constexpr double kListFactorMin = 1e-6, kListFactorMax = 1e6;
inline constexpr double kVectorLimit = 1e6;  // vector entries: scores (sums of products) stay far from overflow
// Positions stay exact in a double and m*theta keeps ~1e-4 rad resolution up to here.
inline constexpr double kMaxPosition = 1e12;
// Patches per side: a 3584-pixel image in 14-pixel patches, merged 2 x 2.
inline constexpr double kMaxGridSide = 128;

// A row of the table under construction.
class Spec {
public:
    explicit Spec(ParamType type) { s_.type = type; }
    Spec& even() { return s_.even = true, *this; }
    Spec& optional() { return s_.optional = true, s_.default_text = "", *this; }
    Spec& above_min() { return s_.min_exclusive = true, *this; }  // (min, max]
    Spec& scope(unsigned bits) { return s_.scope = bits, *this; }
    Spec& slider(double lo, double hi) { return s_.slider_min = lo, s_.slider_max = hi, *this; }
    Spec& log() { return s_.logarithmic = true, *this; }
    Spec& slider_top(SliderTop top) { return s_.slider_top = top, *this; }
    Spec& control(ControlSection section, int place, std::string_view label, std::string_view format = "") {
        s_.control = {section, place, label, format};
        return *this;
    }
    Spec& relevant_when(bool (*shown)(const ParamSet&)) { return s_.relevant = shown, *this; }
    Spec& unit(std::string_view u) { return s_.unit = u, *this; }
    Spec& unset_means(std::string_view text) { return s_.unset_means = text, *this; }
    Spec& help(std::string_view text) { return s_.help = text, *this; }
    Spec& default_text(std::string_view text) { return s_.default_text = text, *this; }
    Spec& range(double lo, double hi) { return s_.min = lo, s_.max = hi, *this; }
    Spec& choices(std::vector<std::string_view> words) { return s_.choices = std::move(words), *this; }
    Spec& grammar(TextGrammar g) { return s_.grammar = g, *this; }
    Spec& or_imported_model() { return s_.or_imported_model = true, *this; }
    ParamSpec done(ParamId id, std::string_view name) const {
        ParamSpec s = s_;
        s.id = id;
        s.name = name;
        return s;
    }

private:
    ParamSpec s_;
};

inline Spec integer(std::string_view def, double lo, double hi) { return Spec(ParamType::integer).default_text(def).range(lo, hi); }
inline Spec real(std::string_view def, double lo, double hi) { return Spec(ParamType::real).default_text(def).range(lo, hi); }
inline Spec flag(std::string_view def) { return Spec(ParamType::boolean).default_text(def); }
// A list of numbers in [lo, hi]; unset (all its default) unless given.
inline Spec list(double lo, double hi) { return Spec(ParamType::real_list).range(lo, hi).optional(); }
inline Spec text(TextGrammar g) { return Spec(ParamType::text).grammar(g).optional(); }
// One of a list of names (the presets), stored as its index.
inline Spec names(std::string_view def, std::vector<std::string_view> words) {
    return Spec(ParamType::choice).default_text(def).choices(std::move(words));
}
// One of an enum's words (EnumNames<E>).
template <typename E>
Spec choice(std::string_view def) {
    return names(def, std::vector<std::string_view>(EnumNames<E>::names.begin(), EnumNames<E>::names.end()));
}
inline Spec choice_list(std::vector<std::string_view> words) {
    return Spec(ParamType::choice_list).default_text("none").choices(std::move(words));
}

// The choices that name presets: "none" or a preset; "unscaled" or a preset (compare_to).
std::vector<std::string_view> preset_choices();
std::vector<std::string_view> compare_to_choices();

// When the context-extension controls apply (ParamSpec::relevant).
bool scaling_or_comparison(const ParamSet& p);
bool scaling_reads_sequence_length(const ParamSet& p);
bool scaling_is_llama3(const ParamSet& p);
bool scaling_is_yarn(const ParamSet& p);
bool media_is_video(const ParamSet& p);
bool multi_axis_rope(const ParamSet& p);
bool alibi_is_mpt(const ParamSet& p);

}  // namespace rope::param_dsl
