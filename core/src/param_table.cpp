// The parameter table: params.def's rows built into ParamSpecs, looked up by id, name and scope.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <unordered_map>

#include "params_dsl.hpp"
#include "rope/presets.hpp"

namespace rope {

namespace param_dsl {

std::vector<std::string_view> preset_choices() {
    std::vector<std::string_view> names = {"none"};
    for (const Preset& p : presets()) names.push_back(p.name);
    return names;
}

std::vector<std::string_view> compare_to_choices() {
    std::vector<std::string_view> names = {"unscaled"};
    for (const Preset& p : presets()) names.push_back(p.name);
    return names;
}

bool scaling_or_comparison(const ParamSet& p) { return p[P::scaling] != Scaling::none || !p[P::compare].empty(); }
bool scaling_reads_sequence_length(const ParamSet& p) {
    return p[P::scaling] == Scaling::dynamic || p[P::scaling] == Scaling::longrope;
}
bool scaling_is_llama3(const ParamSet& p) { return p[P::scaling] == Scaling::llama3; }
bool scaling_is_yarn(const ParamSet& p) { return p[P::scaling] == Scaling::yarn; }
bool media_is_video(const ParamSet& p) { return p[P::media] == Media::video; }
bool multi_axis_rope(const ParamSet& p) {
    return p[P::rope_axes] == RopeAxes::mrope || p[P::rope_axes] == RopeAxes::videorope || p[P::rope_axes] == RopeAxes::ernie_3d;
}
bool alibi_is_mpt(const ParamSet& p) { return p[P::alibi_layout] == AlibiLayout::mpt; }

}  // namespace param_dsl

namespace {

// The ParamType a C++ type is stored as (a row of params.def must agree with its type column).
template <typename T>
constexpr ParamType stored_as() {
    if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::optional<std::int64_t>>) return ParamType::integer;
    else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::optional<double>>) return ParamType::real;
    else if constexpr (std::is_same_v<T, bool>) return ParamType::boolean;
    else if constexpr (std::is_same_v<T, std::string>) return ParamType::text;
    else if constexpr (std::is_same_v<T, std::vector<double>>) return ParamType::real_list;
    else if constexpr (std::is_same_v<T, std::vector<Scaling>>) return ParamType::choice_list;
    else return ParamType::choice;  // an enum, or std::string_view (a name)
}

template <typename T>
ParamSpec row(ParamId id, std::string_view name, const param_dsl::Spec& spec) {
    ParamSpec s = spec.done(id, name);
    const bool optional_type = std::is_same_v<T, std::optional<double>> || std::is_same_v<T, std::optional<std::int64_t>>;
    if (s.type != stored_as<T>() || (optional_type && !s.optional))
        throw std::logic_error("params.def: '" + std::string(name) + "' has a spec that does not match its C++ type");
    if constexpr (std::is_enum_v<T>)
        if (s.choices.size() != enum_count<T>)
            throw std::logic_error("params.def: '" + std::string(name) + "' lists other choices than its enum");
    return s;
}

std::vector<ParamSpec> build_table() {
    using namespace param_dsl;
    std::vector<ParamSpec> t;
#define ROPE_PARAM(name, type, ...) t.push_back(row<type>(ParamId::name, #name, __VA_ARGS__));
#include "rope/params.def"
#undef ROPE_PARAM
    return t;
}

}  // namespace

const std::vector<ParamSpec>& parameter_table() {
    static const std::vector<ParamSpec> table = build_table();
    return table;
}

const ParamSpec& param_spec(ParamId id) { return parameter_table()[index_of(id)]; }

const ParamSpec* find_param(std::string_view name) {
    static const std::unordered_map<std::string_view, const ParamSpec*> by_name = [] {
        std::unordered_map<std::string_view, const ParamSpec*> m;
        for (const ParamSpec& s : parameter_table()) m.emplace(s.name, &s);
        return m;
    }();
    const auto at = by_name.find(name);
    return at == by_name.end() ? nullptr : at->second;
}

const std::vector<ParamId>& params_in(ParamScope scope) {
    static const std::array<std::vector<ParamId>, 3> lists = [] {
        std::array<std::vector<ParamId>, 3> l;
        for (const ParamSpec& s : parameter_table()) {
            if (s.in(kModelScope)) l[0].push_back(s.id);
            if (s.in(kLayerScope)) l[1].push_back(s.id);
            if (s.in(kConfigScope)) l[2].push_back(s.id);
        }
        return l;
    }();
    return lists[scope == kModelScope ? 0 : scope == kLayerScope ? 1 : 2];
}

NumberRule ParamSpec::number_rule() const {
    NumberRule r;
    r.min = min;
    r.max = max >= std::numeric_limits<double>::max() ? std::numeric_limits<double>::infinity() : max;
    r.min_exclusive = min_exclusive;
    r.whole = type == ParamType::integer;
    r.even = even;
    return r;
}

namespace {

std::string joined(const std::vector<std::string_view>& words) {
    std::string s;
    for (std::size_t i = 0; i < words.size(); ++i) s += (i ? ", " : "") + std::string(words[i]);
    return s;
}

}  // namespace

std::string ParamSpec::allowed() const {
    std::string s;
    switch (type) {
        case ParamType::integer:
        case ParamType::real: s = number_rule().describe(); break;
        case ParamType::choice: s = "one of: " + joined(choices); break;
        case ParamType::real_list: s = "a comma-separated list of numbers " + number_rule().range_text(); break;
        case ParamType::boolean: s = "true or false"; break;
        case ParamType::text:
            s = grammar == TextGrammar::layer_kinds ? "'name: key=value ...; name: ...'"
                : grammar == TextGrammar::path      ? "the path of a model folder"
                : grammar == TextGrammar::name      ? "a name of 1 to 80 printable characters"
                                                    : "a comma-separated list of kinds, each may be COUNT*kind";
            break;
        case ParamType::choice_list: s = "none or a comma-separated list of: " + joined(choices); break;
    }
    if (or_imported_model) s += ", or the path of a Hugging Face config.json";
    if (optional) s += ", or none";
    return s;
}

}  // namespace rope
