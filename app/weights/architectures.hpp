// How each architecture we read stores a layer's query and key weights: the one table that names the
// tensors, how a fused projection splits, how a head's rows pair up, what scales the dims before
// the rotation, and the reference code each rule follows (docs/user-guide.md's citations list the lines).
// An architecture not in the table is refused by name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rope/config.hpp"

namespace rope::weights {

// How q and k rows sit in the checkpoint.
enum class QkLayout {
    separate,        // q_proj [heads*hd, hidden], k_proj [kv*hd, hidden]
    q_then_k,        // one fused tensor: all q rows, then all k rows, then v (Phi-3 qkv_proj; Falcon multi-query)
    per_head_qkv,    // one fused tensor: per head hd q rows, hd k rows, hd v rows (GPT-NeoX; Falcon without multi-query)
    grouped_qkv,     // one fused tensor: per key head, its heads/kv query heads, then k, then v (Falcon's new decoder)
};

// What multiplies dim j of a head before the rotation (a per-head RMSNorm's weight w).
enum class NormScale { none, w, one_plus_w };

// A configuration class's defaults for the keys that shape q and k, used where config.json leaves a
// key out, as the class does (published configs omit what equals the default: Gemma 3 4B's
// text_config gives no heads). 0: kv_heads = heads; head_dim = hidden / heads.
struct ClassShape {
    int hidden = 0, heads = 0, kv_heads = 0, layers = 0, head_dim = 0;
};

struct Architecture {
    std::string_view model_type;  // config.json's model_type ("meta" for params.json folders)
    ClassShape defaults;          // the configuration class's __init__ defaults (transformers 155fd926)
    QkLayout layout = QkLayout::separate;
    // tensor names after the prefix, {L} the layer; fused layouts read q_tensor only
    std::string_view q_tensor, k_tensor;
    Pairing pairing = Pairing::half;  // rows i, i + r/2 (rotate_half) or 2i, 2i + 1 (Meta, GPT-J)
    NormScale norm = NormScale::none;
    std::string_view q_norm, k_norm;  // per-head norm weights ([head_dim]), when norm != none
    bool attention_bias = false;      // q/k biases exist; they are not in the weight product
};

const std::vector<Architecture>& architectures();
const Architecture* find_architecture(std::string_view model_type);
std::string architecture_names();  // "llama, mistral, ..."
const char* to_string(QkLayout layout);
const char* to_string(NormScale norm);

// Prefixes a model's layer tensors may carry (nested language models, Falcon's transformer.h.).
const std::vector<std::string_view>& tensor_prefixes();

}  // namespace rope::weights
