#include "rope/presets.hpp"

namespace rope {

namespace {

// Phi-3-mini-128k-instruct's per-pair LongRoPE rescale factors, as its config.json lists them (48 pairs
// of its 96-dim heads): the long list applies beyond original_max_position_embeddings, the short up to it.
constexpr const char* kPhi3Mini128kLong =
    "1.0299999713897705,1.0499999523162842,1.0499999523162842,1.0799999237060547,1.2299998998641968,1.2299998998641968,"
    "1.2999999523162842,1.4499999284744263,1.5999999046325684,1.6499998569488525,1.8999998569488525,2.859999895095825,"
    "3.68999981880188,5.419999599456787,5.489999771118164,5.489999771118164,9.09000015258789,11.579999923706055,"
    "15.65999984741211,15.769999504089355,15.789999961853027,18.360000610351562,21.989999771118164,23.079999923706055,"
    "30.009998321533203,32.35000228881836,32.590003967285156,35.56000518798828,39.95000457763672,53.840003967285156,"
    "56.20000457763672,57.95000457763672,59.29000473022461,59.77000427246094,59.920005798339844,61.190006256103516,"
    "61.96000671386719,62.50000762939453,63.3700065612793,63.48000717163086,63.48000717163086,63.66000747680664,"
    "63.850006103515625,64.08000946044922,64.760009765625,64.80001068115234,64.81001281738281,64.81001281738281";
constexpr const char* kPhi3Mini128kShort =
    "1.05,1.05,1.05,1.1,1.1,1.1500000000000001,"
    "1.2000000000000002,1.2500000000000002,1.3000000000000003,1.3500000000000003,1.5000000000000004,2.000000000000001,"
    "2.000000000000001,2.000000000000001,2.000000000000001,2.000000000000001,2.000000000000001,2.000000000000001,"
    "2.000000000000001,2.000000000000001,2.000000000000001,2.000000000000001,2.000000000000001,2.000000000000001,"
    "2.000000000000001,2.000000000000001,2.000000000000001,2.000000000000001,2.000000000000001,2.000000000000001,"
    "2.000000000000001,2.000000000000001,2.0500000000000007,2.0500000000000007,2.0500000000000007,2.1000000000000005,"
    "2.1000000000000005,2.1000000000000005,2.1500000000000004,2.1500000000000004,2.3499999999999996,2.549999999999999,"
    "2.5999999999999988,2.5999999999999988,2.7499999999999982,2.849999999999998,2.849999999999998,2.9499999999999975";

}  // namespace

const std::vector<Preset>& presets() {
    static const std::vector<Preset> list = {
        {"llama-2-7b", "Llama 2 7B",
         {{"dim", "128"}, {"base", "10000"}, {"pairing", "half"}, {"max_position", "4096"}, {"original_max_position", "4096"}},
         "config.json: hidden_size 4096 / num_attention_heads 32 = head dim 128, rope_theta 10000, max_position_embeddings 4096; HF rotate_half layout"},
        {"code-llama-7b", "Code Llama 7B",
         {{"dim", "128"}, {"base", "1000000"}, {"pairing", "half"}, {"max_position", "16384"}, {"original_max_position", "16384"}},
         "config.json: head dim 4096/32 = 128, rope_theta 1000000, max_position_embeddings 16384"},
        {"llama-3-8b", "Llama 3 8B",
         {{"dim", "128"}, {"base", "500000"}, {"pairing", "half"}, {"max_position", "8192"}, {"original_max_position", "8192"}},
         "config.json: head dim 4096/32 = 128, rope_theta 500000, max_position_embeddings 8192"},
        {"llama-3.1-8b", "Llama 3.1 8B",
         {{"dim", "128"}, {"base", "500000"}, {"pairing", "half"}, {"scaling", "llama3"}, {"factor", "8"},
          {"low_freq_factor", "1"}, {"high_freq_factor", "4"}, {"original_max_position", "8192"}, {"max_position", "131072"},
          {"sequence_length", "131072"}},
         "config.json: rope_theta 500000, rope_scaling {rope_type llama3, factor 8, low_freq_factor 1, high_freq_factor 4, original_max_position_embeddings 8192}, max_position_embeddings 131072"},
        {"llama-3.2-1b", "Llama 3.2 1B",
         {{"dim", "64"}, {"base", "500000"}, {"pairing", "half"}, {"scaling", "llama3"}, {"factor", "32"},
          {"low_freq_factor", "1"}, {"high_freq_factor", "4"}, {"original_max_position", "8192"}, {"max_position", "131072"},
          {"sequence_length", "131072"}},
         "config.json: head_dim 64, rope_theta 500000, rope_scaling {llama3, factor 32, low 1, high 4, original 8192}, max_position_embeddings 131072"},
        {"llama-3.2-3b", "Llama 3.2 3B",
         {{"dim", "128"}, {"base", "500000"}, {"pairing", "half"}, {"scaling", "llama3"}, {"factor", "32"},
          {"low_freq_factor", "1"}, {"high_freq_factor", "4"}, {"original_max_position", "8192"}, {"max_position", "131072"},
          {"sequence_length", "131072"}},
         "config.json: head_dim 128, rope_theta 500000, rope_scaling {llama3, factor 32, low 1, high 4, original 8192}, max_position_embeddings 131072"},
        {"mistral-7b-v0.1", "Mistral 7B v0.1",
         {{"dim", "128"}, {"base", "10000"}, {"pairing", "half"}, {"max_position", "32768"}, {"original_max_position", "32768"}},
         "config.json: head dim 4096/32 = 128, rope_theta 10000, max_position_embeddings 32768 (sliding_window 4096)"},
        {"qwen2.5-7b", "Qwen2.5 7B",
         {{"dim", "128"}, {"base", "1000000"}, {"pairing", "half"}, {"max_position", "32768"}, {"original_max_position", "32768"}},
         "config.json: head dim 3584/28 = 128, rope_theta 1000000, max_position_embeddings 32768"},
        {"qwen2.5-7b-yarn", "Qwen2.5 7B with YaRN",
         {{"dim", "128"}, {"base", "1000000"}, {"pairing", "half"}, {"scaling", "yarn"}, {"factor", "4"},
          {"original_max_position", "32768"}, {"max_position", "131072"}, {"sequence_length", "131072"}},
         "model card's opt-in rope_scaling {type yarn, factor 4.0, original_max_position_embeddings 32768}"},
        {"gemma-7b", "Gemma 7B",
         {{"dim", "256"}, {"base", "10000"}, {"pairing", "half"}, {"max_position", "8192"}, {"original_max_position", "8192"}},
         "config.json: head_dim 256, rope_theta 10000, max_position_embeddings 8192"},
        {"pythia-12b", "Pythia 12B (GPT-NeoX)",
         {{"dim", "128"}, {"base", "10000"}, {"pairing", "half"}, {"rotary_fraction", "0.25"}, {"max_position", "2048"},
          {"original_max_position", "2048"}},
         "config.json: hidden_size 5120 / num_attention_heads 40 = 128, rotary_pct 0.25, rotary_emb_base 10000; NeoX half-split"},
        {"phi-3-mini-4k", "Phi-3 mini 4k",
         {{"dim", "96"}, {"base", "10000"}, {"pairing", "half"}, {"max_position", "4096"}, {"original_max_position", "4096"}},
         "config.json: hidden_size 3072 / num_attention_heads 32 = 96, rope_theta 10000, max_position_embeddings 4096"},
        {"phi-3-mini-128k", "Phi-3 mini 128k",
         {{"dim", "96"}, {"base", "10000"}, {"pairing", "half"}, {"scaling", "longrope"}, {"factor", "32"},
          {"original_max_position", "4096"}, {"max_position", "131072"}, {"sequence_length", "131072"},
          {"long_factors", kPhi3Mini128kLong}, {"short_factors", kPhi3Mini128kShort}},
         "config.json (first release, transformers 4.39): hidden_size 3072 / num_attention_heads 32 = 96, rope_theta 10000, rope_scaling {type su (longrope), 48 long_factor + 48 short_factor}, original_max_position_embeddings 4096, max_position_embeddings 131072 (factor 131072/4096 = 32; attention factor 1.19024)"},
        {"gpt-j-6b", "GPT-J 6B",
         {{"dim", "256"}, {"base", "10000"}, {"pairing", "interleaved"}, {"rotary_fraction", "0.25"}, {"max_position", "2048"},
          {"original_max_position", "2048"}},
         "config.json: n_embd 4096 / n_head 16 = 256, rotary_dim 64 (fraction 0.25), interleaved pairs; n_positions 2048"},
        {"deepseek-v3", "DeepSeek-V3 (RoPE part)",
         {{"dim", "64"}, {"base", "10000"}, {"pairing", "interleaved"}, {"scaling", "yarn"}, {"factor", "40"},
          {"original_max_position", "4096"}, {"mscale", "1"}, {"mscale_all_dim", "1"}, {"beta_fast", "32"}, {"beta_slow", "1"},
          {"max_position", "163840"}, {"sequence_length", "163840"}},
         "config.json: qk_rope_head_dim 64, rope_theta 10000, rope_scaling {yarn, factor 40, original 4096, mscale 1, mscale_all_dim 1, beta_fast 32, beta_slow 1}, max_position_embeddings 163840"},
        {"gpt-oss", "gpt-oss",
         {{"dim", "64"}, {"base", "150000"}, {"pairing", "half"}, {"scaling", "yarn"}, {"factor", "32"},
          {"original_max_position", "4096"}, {"beta_fast", "32"}, {"beta_slow", "1"}, {"truncate", "false"},
          {"max_position", "131072"}, {"sequence_length", "131072"}},
         "config.json: head_dim 64, rope_theta 150000, rope_scaling {yarn, factor 32, original 4096, beta_fast 32, beta_slow 1, truncate false}"},
        {"gemma-3-4b-global", "Gemma 3 4B, global layers",
         {{"dim", "256"}, {"base", "1000000"}, {"pairing", "half"}, {"scaling", "linear"}, {"factor", "8"},
          {"original_max_position", "32768"}, {"max_position", "131072"}},
         "config.json: head_dim 256, rope_theta 1000000 with rope_scaling {linear, factor 8} on the global (full-attention) layers; pre-trained at 32k (Gemma 3 report)"},
        {"gemma-3-4b-local", "Gemma 3 4B, local layers",
         {{"dim", "256"}, {"base", "10000"}, {"pairing", "half"}, {"max_position", "1024"}, {"original_max_position", "1024"}},
         "config.json: head_dim 256, rope_local_base_freq 10000 on the sliding-window layers (sliding_window 1024), no scaling"},
    };
    return list;
}

const Preset* find_preset(std::string_view name) {
    for (const Preset& p : presets())
        if (p.name == name) return &p;
    return nullptr;
}

const std::vector<std::string_view>& preset_keys() {
    static const std::vector<std::string_view> keys = {
        "layer_kinds", "model_layers", "layer", "nope", "attn_temperature_tuning", "floor_scale", "attn_scale",
        "dim", "base", "rotary_fraction", "pairing", "max_position", "scaling", "factor", "original_max_position",
        "sequence_length", "low_freq_factor", "high_freq_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim",
        "truncate", "long_factors", "short_factors", "attention_factor", "vector", "key_vector", "pair", "position", "key_position",
        "heatmap_from", "heatmap_to"};
    return keys;
}

}  // namespace rope
