// A model's layers as the parameter table writes them: `layer_kinds` names each kind of layer with its
// attention and its RoPE (transformers v5's rope_parameters nested by layer type), `model_layers`
// lists the layers in order by kind. Text in, structures out; the values are checked by params.cpp.
//
//   layer_kinds  = "sliding_attention: window=1024 base=10000; full_attention: base=1000000 scaling=linear factor=8"
//   model_layers = "5*sliding_attention,full_attention,5*sliding_attention,full_attention"
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rope/param_ids.hpp"

namespace rope {

// How a layer attends: to every earlier token, to a sliding window, to its chunk, or with linear
// attention (no softmax over positions, no RoPE).
enum class Attention { full, sliding, chunked, linear };
template <>
struct EnumNames<Attention> {
    static constexpr std::array<std::string_view, 4> names = {"full", "sliding", "chunked", "linear"};
};
constexpr std::string_view to_string(Attention a) { return enum_name(a); }

struct LayerKind {
    std::string name;                // as in the config's layer_types, e.g. "sliding_attention"
    Attention attention = Attention::full;
    std::int64_t window = 0;         // sliding window or chunk, in tokens; 0 = no limit
    // the kind's RoPE as --set text (only parameters of the layer scope); the rest stay at defaults
    std::vector<std::pair<ParamId, std::string>> values;

    const std::string* value(ParamId key) const;  // nullptr if the kind leaves it at its default
};

struct ModelLayers {
    std::vector<LayerKind> kinds;
    std::vector<int> kind_of_layer;  // per layer: index into kinds

    int layers() const { return static_cast<int>(kind_of_layer.size()); }
    bool empty() const { return kind_of_layer.empty(); }
    const LayerKind& kind(int layer) const { return kinds.at(static_cast<std::size_t>(kind_of_layer.at(static_cast<std::size_t>(layer)))); }
    int find_kind(std::string_view name) const;  // -1 if none
    int first_layer_of(int kind_index) const;    // -1 if no layer has it
};

// Syntax errors, one line naming the item (params.cpp prefixes the key and value).
class LayerSyntaxError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The keys a kind may set are the parameters of the layer scope (params.hpp's kLayerScope): what can
// differ between layers of one model. Picking a layer resets them to their defaults, then applies the
// kind's values.
std::vector<LayerKind> parse_layer_kinds(std::string_view text);
std::string format_layer_kinds(const std::vector<LayerKind>& kinds);
// "5*a,b" -> a a a a a b (at most kMaxLayers)
std::vector<std::string> parse_layer_list(std::string_view text);
std::string format_layer_list(const std::vector<std::string>& names);  // runs merged: "5*a,b"

inline constexpr int kMaxLayers = 1024;

}  // namespace rope
