// ParamSet: values stored in table order, parsed and validated from text or numbers, read by key.
#include "rope/params.hpp"
#include "rope/presets.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "rope/number_format.hpp"
#include "rope/number_parse.hpp"

namespace rope {

namespace detail {

std::string ParamAccess<double>::text(double v) { return format_number(v); }

const std::string& ParamAccess<std::string>::get(const ParamValue& v, const ParamSpec&) {
    static const std::string unset;
    if (const auto* s = std::get_if<std::string>(&v)) return *s;
    return unset;
}

const std::vector<double>& ParamAccess<std::vector<double>>::get(const ParamValue& v, const ParamSpec&) {
    static const std::vector<double> unset;
    if (const auto* l = std::get_if<std::vector<double>>(&v)) return *l;
    return unset;
}

std::string ParamAccess<std::vector<double>>::text(const std::vector<double>& values) {
    if (values.empty()) return "none";
    std::string s;
    for (std::size_t i = 0; i < values.size(); ++i) s += (i ? "," : "") + format_number(values[i]);
    return s;
}

std::vector<Scaling> ParamAccess<std::vector<Scaling>>::get(const ParamValue& v, const ParamSpec&) {
    std::vector<Scaling> items;
    const std::string& text = std::get<std::string>(v);
    if (text == "none") return items;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        items.push_back(*enum_from_name<Scaling>(std::string_view(text).substr(start, comma - start)));
        start = comma + 1;
    }
    return items;
}

std::string ParamAccess<std::vector<Scaling>>::text(const std::vector<Scaling>& v) {
    if (v.empty()) return "none";
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::string(enum_name(v[i]));
    return s;
}

}  // namespace detail

namespace {

std::atomic<std::uint64_t> g_next_lineage{1};
thread_local ParamReadLog* t_read_log = nullptr;


std::string must_be(const ParamSpec& spec) { return std::string(spec.name) + " must be " + spec.allowed(); }

std::string as_typed(const ParamSpec& spec, std::string_view text) { return std::string(spec.name) + "=" + shorten_for_message(text); }

[[noreturn]] void refuse(const ParamSpec& spec, std::string_view text, const std::string& why) {
    throw ParamError(std::string(spec.name), as_typed(spec, text) + ": " + why);
}

ParamValue parse_list(const ParamSpec& spec, std::string_view raw, std::string_view text) {
    std::vector<double> values;
    const NumberRule rule = spec.number_rule();
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view item = trim_blanks(text.substr(0, comma));
        const std::optional<double> v = read_number(item, rule);
        if (!v)
            refuse(spec, raw, "item " + std::to_string(values.size() + 1) + " ('" + shorten_for_message(item) + "') is not allowed; " +
                                  must_be(spec));
        values.push_back(*v);
        if (comma == std::string_view::npos) return values;
        text.remove_prefix(comma + 1);
    }
}

ParamValue parse_choice_list(const ParamSpec& spec, std::string_view raw, std::string_view text) {
    if (text.empty() || text == "none") return std::string("none");
    std::vector<bool> picked(spec.choices.size(), false);
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view item = trim_blanks(text.substr(0, comma));
        const auto at = std::find(spec.choices.begin(), spec.choices.end(), item);
        if (at == spec.choices.end()) refuse(spec, raw, "'" + shorten_for_message(item) + "' is not allowed; " + must_be(spec));
        picked[static_cast<std::size_t>(at - spec.choices.begin())] = true;
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    std::string canonical;
    for (std::size_t i = 0; i < picked.size(); ++i)
        if (picked[i]) canonical += (canonical.empty() ? "" : ",") + std::string(spec.choices[i]);
    return canonical;
}

// model_name: one line a title can show (a folder's name), so no control characters and a length a
// title holds.
ParamValue model_name_text(const ParamSpec& spec, std::string_view raw, std::string_view text) {
    const std::string_view name = trim_blanks(text);
    const bool printable = std::all_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x20 && c != 0x7f; });
    if (name.empty() || name.size() > 80 || !printable) refuse(spec, raw, must_be(spec));
    return std::string(name);
}

// layer_kinds: each kind's values as the table takes them, written canonically.
ParamValue parse_layer_kinds_text(const ParamSpec& spec, std::string_view raw, std::string_view text) {
    std::vector<LayerKind> kinds = parse_layer_kinds(text);
    for (LayerKind& kind : kinds)
        for (auto& [id, v] : kind.values) {
            ParamSet probe;
            try {
                probe.set(id, v);
            } catch (const ParamError& e) {
                refuse(spec, raw, "kind '" + kind.name + "': " + e.what());
            }
            v = probe.value_text(id);
        }
    return format_layer_kinds(kinds);
}

}  // namespace

ParamSet::ParamSet() : lineage_(g_next_lineage++) {
    const auto& table = parameter_table();
    values_.resize(table.size());
    for (const ParamSpec& spec : table)
        values_[index_of(spec.id)] = spec.default_text.empty() ? ParamValue{} : parse(spec, spec.default_text);
}

void ParamSet::start_new_lineage() { lineage_ = g_next_lineage++; }

const ParamValue& ParamSet::read(ParamId id) const {
    const std::size_t i = index_of(id);
    for (ParamReadLog* log = t_read_log; log; log = log->outer_)
        if (log->lineage_ == lineage_) log->note(i);
    return values_[i];
}

const ParamValue& ParamSet::value(ParamId id) const { return read(id); }

bool ParamSet::has(ParamId id) const { return !std::holds_alternative<std::monostate>(read(id)); }

std::string ParamSet::value_text(ParamId id) const {
    const ParamValue& v = read(id);
    const ParamSpec& spec = param_spec(id);
    if (std::holds_alternative<std::monostate>(v)) return "none";
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return spec.type == ParamType::choice ? std::string(spec.choices[static_cast<std::size_t>(*i)]) : std::to_string(*i);
    if (const auto* d = std::get_if<double>(&v)) return format_number(*d);
    if (const auto* s = std::get_if<std::string>(&v)) return *s;
    if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
    return detail::ParamAccess<std::vector<double>>::text(std::get<std::vector<double>>(v));
}

void ParamSet::check_number(const ParamSpec& spec, std::string_view given, double v) const {
    if (!spec.number_rule().allows(v)) refuse(spec, given, must_be(spec));
}

ParamValue ParamSet::parse(const ParamSpec& spec, std::string_view raw) const {
    const std::string_view text = trim_blanks(raw);
    if (spec.optional && (text == "none" || text.empty())) return ParamValue{};
    switch (spec.type) {
        case ParamType::integer:
        case ParamType::real: {
            const std::optional<double> v = parse_number(text);
            if (!v) refuse(spec, raw, "not a number; " + must_be(spec));
            check_number(spec, raw, *v);
            if (spec.type == ParamType::integer) return static_cast<std::int64_t>(*v);
            return *v;
        }
        case ParamType::choice:
            for (std::size_t i = 0; i < spec.choices.size(); ++i)
                if (spec.choices[i] == text) return static_cast<std::int64_t>(i);
            if (spec.or_imported_model) {
                try {
                    if (imported_model(std::string(text))) return std::string(text);
                } catch (const std::exception& e) {
                    refuse(spec, raw, e.what());
                }
                refuse(spec, raw, "no preset of that name and no file there; " + must_be(spec));
            }
            refuse(spec, raw, must_be(spec));
        case ParamType::boolean:
            if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
            if (text == "false" || text == "0" || text == "no" || text == "off") return false;
            refuse(spec, raw, must_be(spec));
        case ParamType::choice_list: return parse_choice_list(spec, raw, text);
        case ParamType::real_list: return parse_list(spec, raw, text);
        case ParamType::text:
            try {
                if (spec.grammar == TextGrammar::layer_kinds) return parse_layer_kinds_text(spec, raw, text);
                if (spec.grammar == TextGrammar::path) return std::string(text);
                if (spec.grammar == TextGrammar::name) return model_name_text(spec, raw, text);
                return format_layer_list(parse_layer_list(text));
            } catch (const LayerSyntaxError& e) {
                refuse(spec, raw, e.what());
            }
    }
    return ParamValue{};
}

void ParamSet::set(ParamId id, std::string_view text) {
    if (id == ParamId::layer) return select_layer(text);
    if (id == ParamId::preset) return select_preset(text);
    values_[index_of(id)] = parse(param_spec(id), text);
}

void ParamSet::set(std::string_view key, std::string_view text) {
    if (const ParamSpec* spec = find_param(key)) return set(spec->id, text);
    std::string known;
    for (const ParamSpec& s : parameter_table()) known += (known.empty() ? "" : ", ") + std::string(s.name);
    throw ParamError(std::string(key), shorten_for_message(key) + "=" + shorten_for_message(text) + ": unknown key '" +
                                           shorten_for_message(key) + "'; known keys: " + known);
}

void ParamSet::set_number(ParamId id, double value) {
    if (id == ParamId::layer) return select_layer(format_number(value));
    const ParamSpec& spec = param_spec(id);
    const std::string given = format_number(value);
    ParamValue& slot = values_[index_of(id)];
    if (spec.type == ParamType::integer) {
        check_number(spec, given, value);
        slot = static_cast<std::int64_t>(value);
    } else if (spec.type == ParamType::real) {
        check_number(spec, given, value);
        slot = value;
    } else if (spec.type == ParamType::boolean && (value == 0.0 || value == 1.0)) {
        slot = value != 0.0;
    } else {
        refuse(spec, given, must_be(spec));
    }
}

void ParamSet::reset(ParamId id) {
    const ParamSpec& spec = param_spec(id);
    values_[index_of(id)] = spec.default_text.empty() ? ParamValue{} : parse(spec, spec.default_text);
}

std::vector<std::pair<std::string, std::string>> ParamSet::to_key_values() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const ParamSpec& spec : parameter_table())
        if (!std::holds_alternative<std::monostate>(values_[index_of(spec.id)])) out.emplace_back(spec.name, value_text(spec.id));
    return out;
}

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

}  // namespace rope
