#include "weights/architectures.hpp"

#include <algorithm>

namespace rope::weights {

namespace {

constexpr std::string_view kHfQ = "layers.{L}.self_attn.q_proj.weight", kHfK = "layers.{L}.self_attn.k_proj.weight";

// The rules each follow the model's transformers code (docs/models-and-config.md and docs/user-guide.md cite the lines).
Architecture hf(std::string_view type, ClassShape defaults, bool bias = false) {
    Architecture a;
    a.model_type = type;
    a.defaults = defaults;
    a.q_tensor = kHfQ;
    a.k_tensor = kHfK;
    a.attention_bias = bias;
    return a;
}

Architecture with_norm(Architecture a, NormScale norm) {
    a.norm = norm;
    a.q_norm = "layers.{L}.self_attn.q_norm.weight";
    a.k_norm = "layers.{L}.self_attn.k_norm.weight";
    return a;
}

Architecture fused(std::string_view type, ClassShape defaults, QkLayout layout, std::string_view tensor, bool bias) {
    Architecture a = hf(type, defaults, bias);
    a.layout = layout;
    a.q_tensor = a.k_tensor = tensor;
    return a;
}

std::vector<Architecture> make_table() {
    Architecture meta;
    meta.model_type = "meta";
    meta.q_tensor = "layers.{L}.attention.wq.weight";
    meta.k_tensor = "layers.{L}.attention.wk.weight";
    meta.pairing = Pairing::interleaved;  // apply_rotary_emb: view_as_complex over dims 2i, 2i+1
    // defaults: {hidden, heads, kv_heads, layers, head_dim} of each configuration class's __init__
    return {
        hf("llama", {4096, 32, 0, 32, 0}),
        hf("mistral", {4096, 32, 8, 32, 0}),
        hf("mixtral", {4096, 32, 8, 32, 0}),
        hf("granite", {4096, 32, 0, 32, 0}),
        hf("qwen2", {4096, 32, 32, 32, 0}, true),  // q/k/v biases always
        hf("qwen2_moe", {2048, 16, 16, 24, 0}, true),
        with_norm(hf("qwen3", {4096, 32, 32, 32, 128}), NormScale::w),  // Qwen3RMSNorm: weight * x
        with_norm(hf("qwen3_moe", {2048, 32, 4, 24, 0}), NormScale::w),
        hf("gemma", {3072, 16, 16, 28, 256}),
        hf("gemma2", {2304, 8, 4, 26, 256}),
        with_norm(hf("gemma3_text", {2304, 8, 4, 26, 256}), NormScale::one_plus_w),  // Gemma3RMSNorm: (1 + weight) * x
        fused("phi3", {3072, 32, 0, 32, 0}, QkLayout::q_then_k, "layers.{L}.self_attn.qkv_proj.weight", false),
        fused("gpt_neox", {6144, 64, 0, 44, 0}, QkLayout::per_head_qkv, "layers.{L}.attention.query_key_value.weight", true),
        // Falcon's layout depends on its config (multi_query, new_decoder_architecture): trained_weights.cpp picks it
        fused("falcon", {4544, 71, 0, 32, 0}, QkLayout::per_head_qkv, "{L}.self_attention.query_key_value.weight", false),
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
