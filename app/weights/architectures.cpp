#include "weights/architectures.hpp"

#include <algorithm>

namespace rope::weights {

namespace {

constexpr std::string_view kHfQ = "layers.{L}.self_attn.q_proj.weight", kHfK = "layers.{L}.self_attn.k_proj.weight";

Architecture hf(std::string_view type, std::string_view reference, bool bias = false) {
    Architecture a;
    a.model_type = type;
    a.q_tensor = kHfQ;
    a.k_tensor = kHfK;
    a.attention_bias = bias;
    a.reference = reference;
    return a;
}

Architecture with_norm(Architecture a, NormScale norm) {
    a.norm = norm;
    a.q_norm = "layers.{L}.self_attn.q_norm.weight";
    a.k_norm = "layers.{L}.self_attn.k_norm.weight";
    return a;
}

Architecture fused(std::string_view type, QkLayout layout, std::string_view tensor, std::string_view reference, bool bias) {
    Architecture a;
    a.model_type = type;
    a.layout = layout;
    a.q_tensor = a.k_tensor = tensor;
    a.attention_bias = bias;
    a.reference = reference;
    return a;
}

std::vector<Architecture> make_table() {
    Architecture meta;
    meta.model_type = "meta";
    meta.q_tensor = "layers.{L}.attention.wq.weight";
    meta.k_tensor = "layers.{L}.attention.wk.weight";
    meta.pairing = Pairing::interleaved;
    meta.reference = "meta-llama/llama model.py (apply_rotary_emb: view_as_complex over pairs 2i, 2i+1)";
    return {
        hf("llama", "transformers models/llama/modeling_llama.py (rotate_half) and convert_llama_weights_to_hf.py (permute)"),
        hf("mistral", "transformers models/mistral/modeling_mistral.py"),
        hf("mixtral", "transformers models/mixtral/modeling_mixtral.py"),
        hf("granite", "transformers models/granite/modeling_granite.py"),
        hf("qwen2", "transformers models/qwen2/modeling_qwen2.py (q_proj, k_proj with bias)", true),
        hf("qwen2_moe", "transformers models/qwen2_moe/modeling_qwen2_moe.py (q_proj, k_proj with bias)", true),
        with_norm(hf("qwen3", "transformers models/qwen3/modeling_qwen3.py (q_norm, k_norm: Qwen3RMSNorm, weight * x)"), NormScale::w),
        with_norm(hf("qwen3_moe", "transformers models/qwen3_moe/modeling_qwen3_moe.py (q_norm, k_norm: weight * x)"), NormScale::w),
        hf("gemma", "transformers models/gemma/modeling_gemma.py"),
        hf("gemma2", "transformers models/gemma2/modeling_gemma2.py"),
        with_norm(hf("gemma3_text", "transformers models/gemma3/modeling_gemma3.py (q_norm, k_norm: Gemma3RMSNorm, (1 + weight) * x)"),
                  NormScale::one_plus_w),
        fused("phi3", QkLayout::q_then_k, "layers.{L}.self_attn.qkv_proj.weight",
              "transformers models/phi3/modeling_phi3.py (qkv_proj: q rows, then k, then v)", false),
        fused("gpt_neox", QkLayout::per_head_qkv, "layers.{L}.attention.query_key_value.weight",
              "transformers models/gpt_neox/modeling_gpt_neox.py (query_key_value: q, k, v per head)", true),
        // Falcon's layout depends on its config (multi_query, new_decoder_architecture): weights.cpp picks it
        fused("falcon", QkLayout::per_head_qkv, "{L}.self_attention.query_key_value.weight",
              "transformers models/falcon/modeling_falcon.py (_split_heads)", false),
        meta,
    };
}

}  // namespace

const std::vector<Architecture>& architectures() {
    static const std::vector<Architecture> table = make_table();
    return table;
}

const Architecture* find_architecture(std::string_view model_type) {
    for (const Architecture& a : architectures())
        if (a.model_type == model_type) return &a;
    return nullptr;
}

std::string architecture_names() {
    std::string s;
    for (const Architecture& a : architectures()) s += (s.empty() ? "" : ", ") + std::string(a.model_type);
    return s;
}

const char* to_string(QkLayout layout) {
    switch (layout) {
        case QkLayout::separate: return "separate q_proj and k_proj";
        case QkLayout::q_then_k: return "fused: all q rows, then k, then v";
        case QkLayout::per_head_qkv: return "fused: q, k, v rows per head";
        case QkLayout::grouped_qkv: return "fused: per key head, its query heads, then k, then v";
    }
    return "";
}

const char* to_string(NormScale norm) {
    switch (norm) {
        case NormScale::none: return "none";
        case NormScale::w: return "q_norm/k_norm weight w";
        case NormScale::one_plus_w: return "q_norm/k_norm 1 + w";
    }
    return "";
}

const std::vector<std::string_view>& tensor_prefixes() {
    static const std::vector<std::string_view> prefixes = {"model.", "", "language_model.model.", "model.language_model.",
                                                            "gpt_neox.", "transformer.h."};
    return prefixes;
}

}  // namespace rope::weights
