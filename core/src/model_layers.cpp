#include "rope/model_layers.hpp"

#include <algorithm>

#include "rope/number_parse.hpp"
#include "rope/params.hpp"

namespace rope {

namespace {

std::string_view trim_blank_lines(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.remove_suffix(1);
    return s;
}

bool valid_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '/' || c == '-' || c == '.';
    });
}

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> parts;
    while (true) {
        const std::size_t at = text.find(sep);
        parts.push_back(text.substr(0, at));
        if (at == std::string_view::npos) break;
        text.remove_prefix(at + 1);
    }
    return parts;
}

bool parse_count(std::string_view s, std::int64_t& out) {
    const std::optional<std::int64_t> v = parse_integer(s);
    if (v) out = *v;
    return v.has_value();
}

// "sliding_attention" -> sliding; names without a known prefix attend fully
Attention attention_from_name(std::string_view name) {
    if (name.rfind("sliding", 0) == 0) return Attention::sliding;
    if (name.rfind("chunked", 0) == 0) return Attention::chunked;
    if (name.rfind("linear", 0) == 0) return Attention::linear;
    return Attention::full;
}

}  // namespace


const std::string* LayerKind::value(ParamId key) const {
    for (const auto& [k, v] : values)
        if (k == key) return &v;
    return nullptr;
}

int ModelLayers::find_kind(std::string_view name) const {
    for (std::size_t i = 0; i < kinds.size(); ++i)
        if (kinds[i].name == name) return static_cast<int>(i);
    return -1;
}

int ModelLayers::first_layer_of(int kind_index) const {
    for (std::size_t i = 0; i < kind_of_layer.size(); ++i)
        if (kind_of_layer[i] == kind_index) return static_cast<int>(i);
    return -1;
}


std::vector<LayerKind> parse_layer_kinds(std::string_view text) {
    std::vector<LayerKind> kinds;
    for (std::string_view item : split(text, ';')) {
        item = trim_blank_lines(item);
        if (item.empty()) continue;
        const std::size_t colon = item.find(':');
        LayerKind kind;
        kind.name = std::string(trim_blank_lines(item.substr(0, colon)));
        if (!valid_name(kind.name))
            throw LayerSyntaxError("kind '" + kind.name.substr(0, 40) +
                                   "': a kind is 'name: key=value ...' with a name of a-z, 0-9, _ / - .");
        for (const LayerKind& k : kinds)
            if (k.name == kind.name) throw LayerSyntaxError("kind '" + kind.name + "' is given twice");
        kind.attention = attention_from_name(kind.name);
        std::string_view rest = colon == std::string_view::npos ? std::string_view() : item.substr(colon + 1);
        for (std::string_view word : split(trim_blank_lines(rest), ' ')) {
            word = trim_blank_lines(word);
            if (word.empty()) continue;
            const std::size_t eq = word.find('=');
            if (eq == std::string_view::npos || eq == 0)
                throw LayerSyntaxError("kind '" + kind.name + "': '" + std::string(word.substr(0, 40)) + "' is not key=value");
            const std::string key(word.substr(0, eq));
            const std::string value(word.substr(eq + 1));
            if (key == "window") {
                std::int64_t w = 0;
                if (!parse_count(value, w) || w < 0)
                    throw LayerSyntaxError("kind '" + kind.name + "': window=" + value.substr(0, 20) +
                                           ": window must be a whole number of tokens >= 0 (0: no window)");
                kind.window = w;
            } else if (key == "attention") {
                const std::optional<Attention> a = enum_from_name<Attention>(value);
                if (a) kind.attention = *a;
                else
                    throw LayerSyntaxError("kind '" + kind.name + "': attention=" + value.substr(0, 20) +
                                           ": attention must be one of: full, sliding, chunked, linear");
            } else if (const ParamSpec* spec = find_param(key); spec && spec->in(kLayerScope)) {
                for (const auto& kv : kind.values)
                    if (kv.first == spec->id) throw LayerSyntaxError("kind '" + kind.name + "': " + key + " is given twice");
                kind.values.emplace_back(spec->id, value);
            } else {
                std::string allowed = "window, attention";
                for (ParamId k : params_in(kLayerScope)) allowed += ", " + std::string(param_spec(k).name);
                throw LayerSyntaxError("kind '" + kind.name + "': '" + key.substr(0, 30) + "' is not a layer key; allowed: " + allowed);
            }
        }
        kinds.push_back(std::move(kind));
    }
    if (kinds.empty()) throw LayerSyntaxError("no layer kind given ('name: key=value ...; name: ...')");
    return kinds;
}

std::string format_layer_kinds(const std::vector<LayerKind>& kinds) {
    std::string s;
    for (const LayerKind& k : kinds) {
        if (!s.empty()) s += "; ";
        s += k.name + ":";
        if (k.attention != attention_from_name(k.name)) s += " attention=" + std::string(to_string(k.attention));
        if (k.window > 0) s += " window=" + std::to_string(k.window);
        for (const auto& [key, value] : k.values) s += " " + std::string(param_spec(key).name) + "=" + value;
    }
    return s;
}

std::vector<std::string> parse_layer_list(std::string_view text) {
    std::vector<std::string> names;
    for (std::string_view item : split(text, ',')) {
        item = trim_blank_lines(item);
        std::int64_t count = 1;
        const std::size_t star = item.find('*');
        if (star != std::string_view::npos) {
            if (!parse_count(trim_blank_lines(item.substr(0, star)), count) || count < 1)
                throw LayerSyntaxError("'" + std::string(item.substr(0, 40)) + "': a repeat is COUNT*kind with COUNT >= 1");
            item = trim_blank_lines(item.substr(star + 1));
        }
        if (!valid_name(item))
            throw LayerSyntaxError("'" + std::string(item.substr(0, 40)) + "' is not a kind name (a-z, 0-9, _ / - .)");
        if (static_cast<std::int64_t>(names.size()) + count > kMaxLayers)
            throw LayerSyntaxError("more than " + std::to_string(kMaxLayers) + " layers");
        for (std::int64_t i = 0; i < count; ++i) names.emplace_back(item);
    }
    return names;
}

std::string format_layer_list(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size();) {
        std::size_t run = 1;
        while (i + run < names.size() && names[i + run] == names[i]) ++run;
        if (!s.empty()) s += ",";
        if (run > 1) s += std::to_string(run) + "*";
        s += names[i];
        i += run;
    }
    return s;
}

}  // namespace rope
