#include "rope/presets.hpp"

#include <map>
#include <string_view>
#include <utility>
#include <mutex>

#include "rope/param_ids.hpp"

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


// The layer lists of the models with layers (model_layers), as their configs' layer_types or
// no_rope_layers give them (transformers' layer-type names; "/nope" marks NoPE layers of a type).
constexpr const char* kLlama4ScoutLayers = "3*chunked_attention,full_attention,3*chunked_attention,full_attention,3*chunked_attention,full_attention,3*chunked_attention,full_attention,3*chunked_attention,full_attention,3*chunked_attention,full_attention,3*chunked_attention,full_attention,3*chunked_attention,full_attention,3*chunked_attention,full_attention,3*chunked_attention,full_attention,3*chunked_attention,full_attention,3*chunked_attention,full_attention";
constexpr const char* kGemma3Layers = "5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention";
constexpr const char* kGemma4Layers31b = "5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention,5*sliding_attention,full_attention";
constexpr const char* kQwen3NextLayers = "3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention";
constexpr const char* kSmolLM3Layers = "3*full_attention,full_attention/nope,3*full_attention,full_attention/nope,3*full_attention,full_attention/nope,3*full_attention,full_attention/nope,3*full_attention,full_attention/nope,3*full_attention,full_attention/nope,3*full_attention,full_attention/nope,3*full_attention,full_attention/nope,3*full_attention,full_attention/nope";
constexpr const char* kGptOss20bLayers = "sliding_attention,full_attention,sliding_attention,full_attention,sliding_attention,full_attention,sliding_attention,full_attention,sliding_attention,full_attention,sliding_attention,full_attention,sliding_attention,full_attention,sliding_attention,full_attention,sliding_attention,full_attention,sliding_attention,full_attention,sliding_attention,full_attention,sliding_attention,full_attention";

// Phi-4-mini-instruct's LongRoPE factors as its config.json lists them: 48 per list (rotary dims
// int(128 x 0.75) = 96, 48 pairs); the short list is all 1.
constexpr const char* kPhi4MiniLong = "1,1.118320672,1.250641126,1.398617824,1.564103225,1.74916897,1.956131817,2.187582649,2.446418898,2.735880826,3.059592084,3.421605075,3.826451687,4.279200023,4.785517845,5.351743533,5.984965424,6.693110555,7.485043894,8.370679318,9.36110372,10.4687158,11.70738129,13.09260651,14.64173252,16.37415215,18.31155283,20.47818807,22.90118105,25.61086418,28.64115884,32.03,32.1,32.13,32.23,32.6,32.61,32.64,32.66,32.7,32.71,32.93,32.97,33.28,33.49,33.5,44.16,47.77";
constexpr const char* kPhi4MiniShort = "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1";

}  // namespace

namespace {

// Text models with one RoPE for every layer, from Llama 2 to DeepSeek-V3 and Kimi K2.
std::vector<Preset> text_presets() {
    return {
        {"llama-2-7b", "Llama 2 7B",
         {{P::dim, "128"}, {P::base, "10000"}, {P::pairing, "half"}, {P::max_position, "4096"}, {P::original_max_position, "4096"}},
         "config.json: hidden_size 4096 / num_attention_heads 32 = head dim 128, rope_theta 10000, max_position_embeddings 4096; HF rotate_half layout"},
        {"code-llama-7b", "Code Llama 7B",
         {{P::dim, "128"}, {P::base, "1000000"}, {P::pairing, "half"}, {P::max_position, "16384"}, {P::original_max_position, "16384"}},
         "config.json: head dim 4096/32 = 128, rope_theta 1000000, max_position_embeddings 16384"},
        {"llama-3-8b", "Llama 3 8B",
         {{P::dim, "128"}, {P::base, "500000"}, {P::pairing, "half"}, {P::max_position, "8192"}, {P::original_max_position, "8192"}},
         "config.json: head dim 4096/32 = 128, rope_theta 500000, max_position_embeddings 8192"},
        {"llama-3.1-8b", "Llama 3.1 8B",
         {{P::dim, "128"}, {P::base, "500000"}, {P::pairing, "half"}, {P::scaling, "llama3"}, {P::factor, "8"},
          {P::low_freq_factor, "1"}, {P::high_freq_factor, "4"}, {P::original_max_position, "8192"}, {P::max_position, "131072"},
          {P::sequence_length, "131072"}},
         "config.json: rope_theta 500000, rope_scaling {rope_type llama3, factor 8, low_freq_factor 1, high_freq_factor 4, original_max_position_embeddings 8192}, max_position_embeddings 131072"},
        {"llama-3.2-1b", "Llama 3.2 1B",
         {{P::dim, "64"}, {P::base, "500000"}, {P::pairing, "half"}, {P::scaling, "llama3"}, {P::factor, "32"},
          {P::low_freq_factor, "1"}, {P::high_freq_factor, "4"}, {P::original_max_position, "8192"}, {P::max_position, "131072"},
          {P::sequence_length, "131072"}},
         "config.json: head_dim 64, rope_theta 500000, rope_scaling {llama3, factor 32, low 1, high 4, original 8192}, max_position_embeddings 131072"},
        {"llama-3.2-3b", "Llama 3.2 3B",
         {{P::dim, "128"}, {P::base, "500000"}, {P::pairing, "half"}, {P::scaling, "llama3"}, {P::factor, "32"},
          {P::low_freq_factor, "1"}, {P::high_freq_factor, "4"}, {P::original_max_position, "8192"}, {P::max_position, "131072"},
          {P::sequence_length, "131072"}},
         "config.json: head_dim 128, rope_theta 500000, rope_scaling {llama3, factor 32, low 1, high 4, original 8192}, max_position_embeddings 131072"},
        {"mistral-7b-v0.1", "Mistral 7B v0.1",
         {{P::dim, "128"}, {P::base, "10000"}, {P::pairing, "half"}, {P::max_position, "32768"}, {P::original_max_position, "32768"}},
         "config.json: head dim 4096/32 = 128, rope_theta 10000, max_position_embeddings 32768 (sliding_window 4096)"},
        {"qwen2.5-7b", "Qwen2.5 7B",
         {{P::dim, "128"}, {P::base, "1000000"}, {P::pairing, "half"}, {P::max_position, "32768"}, {P::original_max_position, "32768"}},
         "config.json: head dim 3584/28 = 128, rope_theta 1000000, max_position_embeddings 32768"},
        {"qwen2.5-7b-yarn", "Qwen2.5 7B with YaRN",
         {{P::dim, "128"}, {P::base, "1000000"}, {P::pairing, "half"}, {P::scaling, "yarn"}, {P::factor, "4"},
          {P::original_max_position, "32768"}, {P::max_position, "131072"}, {P::sequence_length, "131072"}},
         "model card's opt-in rope_scaling {type yarn, factor 4.0, original_max_position_embeddings 32768}"},
        {"gemma-7b", "Gemma 7B",
         {{P::dim, "256"}, {P::base, "10000"}, {P::pairing, "half"}, {P::max_position, "8192"}, {P::original_max_position, "8192"}},
         "config.json: head_dim 256, rope_theta 10000, max_position_embeddings 8192"},
        {"pythia-12b", "Pythia 12B (GPT-NeoX)",
         {{P::dim, "128"}, {P::base, "10000"}, {P::pairing, "half"}, {P::rotary_fraction, "0.25"}, {P::max_position, "2048"},
          {P::original_max_position, "2048"}},
         "config.json: hidden_size 5120 / num_attention_heads 40 = 128, rotary_pct 0.25, rotary_emb_base 10000; NeoX half-split"},
        {"phi-3-mini-4k", "Phi-3 mini 4k",
         {{P::dim, "96"}, {P::base, "10000"}, {P::pairing, "half"}, {P::max_position, "4096"}, {P::original_max_position, "4096"}},
         "config.json: hidden_size 3072 / num_attention_heads 32 = 96, rope_theta 10000, max_position_embeddings 4096"},
        {"phi-3-mini-128k", "Phi-3 mini 128k",
         {{P::dim, "96"}, {P::base, "10000"}, {P::pairing, "half"}, {P::scaling, "longrope"}, {P::factor, "32"},
          {P::original_max_position, "4096"}, {P::max_position, "131072"}, {P::sequence_length, "131072"},
          {P::long_factors, kPhi3Mini128kLong}, {P::short_factors, kPhi3Mini128kShort}},
         "config.json (first release, transformers 4.39): hidden_size 3072 / num_attention_heads 32 = 96, rope_theta 10000, rope_scaling {type su (longrope), 48 long_factor + 48 short_factor}, original_max_position_embeddings 4096, max_position_embeddings 131072 (factor 131072/4096 = 32; attention factor 1.19024)"},
        {"gpt-j-6b", "GPT-J 6B",
         {{P::dim, "256"}, {P::base, "10000"}, {P::pairing, "interleaved"}, {P::rotary_fraction, "0.25"}, {P::max_position, "2048"},
          {P::original_max_position, "2048"}},
         "config.json: n_embd 4096 / n_head 16 = 256, rotary_dim 64 (fraction 0.25), interleaved pairs; n_positions 2048"},
        {"deepseek-v3", "DeepSeek-V3 (RoPE part)",
         {{P::dim, "64"}, {P::base, "10000"}, {P::pairing, "interleaved"}, {P::scaling, "yarn"}, {P::factor, "40"},
          {P::original_max_position, "4096"}, {P::mscale, "1"}, {P::mscale_all_dim, "1"}, {P::beta_fast, "32"}, {P::beta_slow, "1"},
          {P::max_position, "163840"}, {P::sequence_length, "163840"}, {P::qk_nope_head_dim, "128"}, {P::v_head_dim, "128"},
          {P::kv_lora_rank, "512"}},
         "config.json: qk_rope_head_dim 64, qk_nope_head_dim 128, v_head_dim 128, kv_lora_rank 512 (MLA), rope_theta 10000, rope_scaling {yarn, factor 40, original 4096, mscale 1, mscale_all_dim 1, beta_fast 32, beta_slow 1}, max_position_embeddings 163840"},
        {"deepseek-v2-lite", "DeepSeek-V2-Lite (RoPE part)",
         {{P::dim, "64"}, {P::base, "10000"}, {P::pairing, "interleaved"}, {P::scaling, "yarn"}, {P::factor, "40"},
          {P::original_max_position, "4096"}, {P::mscale, "0.707"}, {P::mscale_all_dim, "0.707"}, {P::beta_fast, "32"}, {P::beta_slow, "1"},
          {P::max_position, "163840"}, {P::sequence_length, "163840"}, {P::qk_nope_head_dim, "128"}, {P::v_head_dim, "128"},
          {P::kv_lora_rank, "512"}, {P::heads, "16"}},
         "second-hand (mlc-ai/mlc-llm@79d603f0 python/mlc_llm/model/model_preset.py, deepseek_v2_lite, L1015-L1061; the same "
         "attention and RoPE keys in deepseek-ai/DeepSeek-Coder-V2-Lite-Base's own config.json): qk_rope_head_dim 64, "
         "qk_nope_head_dim 128, v_head_dim 128, kv_lora_rank 512, q_lora_rank null, 16 heads, rope_theta 10000, rope_scaling "
         "{yarn, factor 40, original 4096, mscale 0.707, mscale_all_dim 0.707, beta_fast 32, beta_slow 1}, max_position_embeddings 163840"},
        {"kimi-k2-0905", "Kimi K2 Instruct 0905 (RoPE part)",
         {{P::dim, "64"}, {P::base, "50000"}, {P::pairing, "interleaved"}, {P::scaling, "yarn"}, {P::factor, "64"},
          {P::original_max_position, "4096"}, {P::mscale, "1"}, {P::mscale_all_dim, "1"}, {P::beta_fast, "1"}, {P::beta_slow, "1"},
          {P::max_position, "262144"}, {P::sequence_length, "262144"}, {P::qk_nope_head_dim, "128"}, {P::v_head_dim, "128"},
          {P::kv_lora_rank, "512"}},
         "second-hand (moonshotai/Kimi-K2-Instruct-0905 config.json as read by ParagEkbote/hf-model-inspector's report): rope_theta 50000, rope_scaling {yarn, factor 64, original 4096, mscale 1, mscale_all_dim 1, beta_fast 1, beta_slow 1}; qk_rope_head_dim 64 with interleaved pairs, qk_nope_head_dim 128, v_head_dim 128, kv_lora_rank 512 (DeepSeek-V3's MLA layout); context 262144 = 64 x 4096"},
    };
}

// Models whose layers differ (sliding, chunked, NoPE, proportional) and the two halves of Gemma 3.
std::vector<Preset> layered_presets() {
    return {
        {"gpt-oss", "gpt-oss-20b",
         {{P::layer_kinds,
           "sliding_attention: window=128 dim=64 base=150000 scaling=yarn original_max_position=4096 factor=32 beta_fast=32 "
           "beta_slow=1 truncate=false; full_attention: dim=64 base=150000 scaling=yarn original_max_position=4096 factor=32 "
           "beta_fast=32 beta_slow=1 truncate=false"},
          {P::model_layers, kGptOss20bLayers}, {P::layer, "1"},
          {P::dim, "64"}, {P::base, "150000"}, {P::pairing, "half"}, {P::scaling, "yarn"}, {P::factor, "32"},
          {P::original_max_position, "4096"}, {P::beta_fast, "32"}, {P::beta_slow, "1"}, {P::truncate, "false"},
          {P::max_position, "131072"}, {P::sequence_length, "131072"}},
         "second-hand (openai/gpt-oss-20b config.json as in the fine-tune cryptonaut/AltiMind-sft and a tinygrad transcription): head_dim 64, rope_theta 150000, rope_scaling {yarn, factor 32, original 4096, beta_fast 32, beta_slow 1, truncate false}, 24 layer_types alternating sliding_attention (sliding_window 128) and full_attention"},
        {"gemma-3-4b-global", "Gemma 3 4B, global layers",
         {{P::dim, "256"}, {P::base, "1000000"}, {P::pairing, "half"}, {P::scaling, "linear"}, {P::factor, "8"},
          {P::original_max_position, "32768"}, {P::max_position, "131072"}},
         "config.json: head_dim 256, rope_theta 1000000 with rope_scaling {linear, factor 8} on the global (full-attention) layers; pre-trained at 32k (Gemma 3 report)"},
        {"gemma-3-4b-local", "Gemma 3 4B, local layers",
         {{P::dim, "256"}, {P::base, "10000"}, {P::pairing, "half"}, {P::max_position, "1024"}, {P::original_max_position, "1024"}},
         "config.json: head_dim 256, rope_local_base_freq 10000 on the sliding-window layers (sliding_window 1024), no scaling"},
        {"llama-4-scout", "Llama 4 Scout 17B-16E",
         {{P::layer_kinds,
           "chunked_attention: window=8192 dim=128 base=500000 scaling=llama3 original_max_position=8192 factor=16 "
           "low_freq_factor=1 high_freq_factor=1; full_attention: dim=128 base=500000 scaling=llama3 original_max_position=8192 "
           "factor=16 low_freq_factor=1 high_freq_factor=1 nope=true"},
          {P::model_layers, kLlama4ScoutLayers}, {P::layer, "0"},
          {P::pairing, "interleaved"}, {P::max_position, "10485760"}, {P::sequence_length, "10485760"},
          {P::attn_temperature_tuning, "true"}, {P::floor_scale, "8192"}, {P::attn_scale, "0.1"}},
         "second-hand (Llama-4-Scout-17B-16E-Instruct config.json as transcribed in third-party tests; factor 16 and high 1 also in Meta's llama-models args.py): head_dim 128, rope_theta 500000, rope_scaling {llama3, factor 16, low 1, high 1, original 8192}, no_rope_layers [1,1,1,0] x 12 (NoPE layers attend fully, the rest in chunks of attention_chunk_size 8192), max_position_embeddings 10485760; temperature keys: transformers' Llama4TextConfig defaults (not in the file)"},
        {"gemma-3-12b", "Gemma 3 12B",
         {{P::layer_kinds,
           "sliding_attention: window=1024 dim=256 base=10000 original_max_position=131072; full_attention: dim=256 base=1000000 "
           "scaling=linear original_max_position=131072 factor=8"},
          {P::model_layers, kGemma3Layers}, {P::layer, "5"},
          {P::pairing, "half"}, {P::max_position, "131072"}, {P::sequence_length, "131072"}},
         "second-hand, the official file not seen: gemma-3-12b-it config.json as in its text-only extract OpenPipe/gemma-3-12b-it-text-only: 48 layers, sliding_window_pattern 6; local layers rope_local_base_freq 10000, sliding_window 1024; global ones rope_theta 1000000, rope_scaling {linear, factor 8}; head_dim 256, max_position_embeddings 131072"},
        {"gemma-4-31b", "Gemma 4 31B",
         {{P::layer_kinds,
           "sliding_attention: window=1024 dim=256 base=10000 original_max_position=262144; full_attention: dim=512 base=1000000 "
           "rotary_fraction=0.25 scaling=proportional original_max_position=262144 factor=1"},
          {P::model_layers, kGemma4Layers31b}, {P::layer, "5"},
          {P::pairing, "half"}, {P::max_position, "262144"}, {P::sequence_length, "262144"}},
         "second-hand, no google/gemma-4-31B config.json seen (third-party transcriptions; rope dicts as quoted in pegainfer #820): 60 layers, every 6th full; sliding: head_dim 256, sliding_window 1024, rope_theta 10000; full: global_head_dim 512, rope_type proportional, partial_rotary_factor 0.25, rope_theta 1000000; max_position_embeddings 262144"},
    };
}

// Recent text models: Qwen3, GLM, Mistral Small, Ministral, Phi-4 mini, SmolLM3.
std::vector<Preset> recent_presets() {
    return {
        {"qwen3-8b", "Qwen3 8B",
         {{P::dim, "128"}, {P::base, "1000000"}, {P::pairing, "half"}, {P::max_position, "40960"}, {P::original_max_position, "40960"},
          {P::sequence_length, "40960"}},
         "Qwen/Qwen3-8B config.json as copied in thejaminator/qwen-hook-layer-9: head_dim 128, rope_theta 1000000, rope_scaling null, max_position_embeddings 40960"},
        {"qwen3-next-80b-a3b", "Qwen3-Next 80B-A3B",
         {{P::layer_kinds,
           "linear_attention: dim=256 base=10000000 rotary_fraction=0.25 original_max_position=262144 nope=true; "
           "full_attention: dim=256 base=10000000 rotary_fraction=0.25 original_max_position=262144"},
          {P::model_layers, kQwen3NextLayers}, {P::layer, "3"},
          {P::pairing, "half"}, {P::max_position, "262144"}, {P::sequence_length, "262144"}},
         "second-hand, no config.json seen: rope_theta 10000000, 64 rotary dims of head_dim 256 (partial_rotary_factor 0.25) and context 262144 from its GGUF metadata (llama.cpp #17578); 48 layers, full_attention_interval 4 (the others linear attention, no RoPE) from transcriptions"},
        {"glm-4.5-air", "GLM-4.5-Air",
         {{P::dim, "128"}, {P::base, "1000000"}, {P::pairing, "half"}, {P::rotary_fraction, "0.5"}, {P::max_position, "131072"},
          {P::original_max_position, "131072"}, {P::sequence_length, "131072"}},
         "second-hand, zai-org's file not seen: config.json of the GLM-4.5-Air-shaped PrimeIntellect/INTELLECT-3-Base: head_dim 128, partial_rotary_factor 0.5, rope_theta 1000000, max_position_embeddings 131072 (zai-org/GLM-4.7-FP8, same architecture: also 0.5, 1000000); NeoX half-split pairs"},
        {"mistral-small-3.1", "Mistral Small 3.1 24B",
         {{P::dim, "128"}, {P::base, "1000000000"}, {P::pairing, "half"}, {P::max_position, "131072"}, {P::original_max_position, "131072"},
          {P::sequence_length, "131072"}},
         "mistralai/Mistral-Small-3.1-24B-Instruct-2503 config.json, text_config: head_dim 128, rope_theta 1000000000, no rope_scaling, max_position_embeddings 131072"},
        {"ministral-3-3b", "Ministral 3 3B (derivative config)",
         {{P::dim, "128"}, {P::base, "1000000"}, {P::pairing, "half"}, {P::scaling, "yarn"}, {P::original_max_position, "16384"},
          {P::factor, "16"}, {P::beta_fast, "32"}, {P::beta_slow, "1"}, {P::mscale, "1"}, {P::mscale_all_dim, "1"},
          {P::max_position, "262144"}, {P::sequence_length, "262144"}},
         "second-hand: a Ministral3ForCausalLM config.json in rootlocalghost/ERNIE-Image (pe/; 3B-shaped, not confirmed to be mistralai's file): head_dim 128, rope_parameters {yarn, rope_theta 1000000, factor 16, original 16384, beta 32/1, mscale 1/1}, max_position_embeddings 262144; llama_4_scaling_beta 0.1 not shown"},
        {"phi-4-mini", "Phi-4-mini-instruct",
         {{P::dim, "128"}, {P::base, "10000"}, {P::pairing, "half"}, {P::rotary_fraction, "0.75"}, {P::scaling, "longrope"}, {P::factor, "32"},
          {P::original_max_position, "4096"}, {P::max_position, "131072"}, {P::sequence_length, "131072"},
          {P::long_factors, kPhi4MiniLong}, {P::short_factors, kPhi4MiniShort}},
         "second-hand (microsoft/Phi-4-mini-instruct config.json in two identical third-party dumps, and onnx-community's copy): hidden_size 3072 / 24 heads = 128, partial_rotary_factor 0.75, rope_theta 10000, rope_scaling {longrope, 48 long + 48 short factors}, original 4096, max_position_embeddings 131072 (factor 32)"},
        {"smollm3-3b", "SmolLM3 3B",
         {{P::layer_kinds,
           "full_attention: dim=128 base=5000000 original_max_position=65536; full_attention/nope: dim=128 base=5000000 "
           "original_max_position=65536 nope=true"},
          {P::model_layers, kSmolLM3Layers}, {P::layer, "0"},
          {P::pairing, "half"}, {P::max_position, "65536"}, {P::sequence_length, "65536"}},
         "second-hand (HuggingFaceTB/SmolLM3-3B config.json as transcribed in third-party code; fine-tunes show the same layers): hidden_size 2048 / 16 heads = 128, rope_theta 5000000, rope_scaling null, no_rope_layers [1,1,1,0] x 9 (every 4th of 36 layers NoPE), max_position_embeddings 65536"},
        // Images and video: M-RoPE (the text models of Qwen's VL families) and 2D axial RoPE (vision transformers).,
    };
}

// Images and video: M-RoPE (Qwen VL) and 2D axial RoPE (vision transformers).
std::vector<Preset> vision_presets() {
    return {
        {"qwen2-vl-7b", "Qwen2-VL 7B Instruct (M-RoPE, chunked)",
         {{P::rope_axes, "mrope"}, {P::mrope_section, "16,24,24"}, {P::mrope_interleaved, "false"}, {P::dim, "128"}, {P::base, "1000000"},
          {P::pairing, "half"}, {P::max_position, "32768"}, {P::original_max_position, "32768"}, {P::sequence_length, "32768"},
          {P::video_time_ids, "frame_index"}, {P::temporal_patch_size, "2"}, {P::video_fps, "2"}},
         "Qwen/Qwen2-VL-7B-Instruct-GPTQ-Int8 config.json (Qwen's own quantized copy; the original file not seen): hidden_size 3584 / num_attention_heads 28 = 128, rope_theta 1000000, rope_scaling {type mrope, mrope_section [16, 24, 24]}, max_position_embeddings 32768; transformers' apply_multimodal_rotary_pos_emb (rotate_half, sections in order t, h, w); video: Qwen2VLVideoProcessor temporal_patch_size 2 (transformers v4.57.6), frames sampled at 2 fps (qwen-vl-utils' FPS default), time id = temporal patch index (Qwen2VLModel.get_rope_index)"},
        {"qwen2.5-vl-7b", "Qwen2.5-VL 7B Instruct (M-RoPE, chunked)",
         {{P::rope_axes, "mrope"}, {P::mrope_section, "16,24,24"}, {P::mrope_interleaved, "false"}, {P::dim, "128"}, {P::base, "1000000"},
          {P::pairing, "half"}, {P::max_position, "128000"}, {P::original_max_position, "128000"}, {P::sequence_length, "128000"},
          {P::video_time_ids, "seconds"}, {P::temporal_patch_size, "2"}, {P::video_fps, "2"}, {P::tokens_per_second, "2"}},
         "Qwen/Qwen2.5-VL-7B-Instruct-AWQ config.json (Qwen's own quantized copy, _name_or_path Qwen/Qwen2.5-VL-7B-Instruct): hidden_size 3584 / 28 heads = 128, rope_theta 1000000, rope_scaling {mrope_section [16, 24, 24], rope_type default}, max_position_embeddings 128000 (unsloth's copy of the base model's file says 32768); same apply_multimodal_rotary_pos_emb as Qwen2-VL; video: temporal_patch_size 2 (Qwen2VLVideoProcessor, v4.57.6), fps 2.0 (processing_qwen2_5_vl.py v4.57.6 line 154: the fps kwarg default), vision_config.tokens_per_second 2 (the published config; the class default is 4), t = s + int(k x 2/fps x tokens_per_second) (Qwen's get_rope_index_25)"},
        {"qwen3-vl-8b", "Qwen3-VL 8B Instruct (M-RoPE, interleaved)",
         {{P::rope_axes, "mrope"}, {P::mrope_section_interleaved, "24,20,20"}, {P::mrope_interleaved, "true"}, {P::dim, "128"}, {P::base, "5000000"},
          {P::pairing, "half"}, {P::max_position, "262144"}, {P::original_max_position, "262144"}, {P::sequence_length, "262144"},
          {P::video_time_ids, "timestamps"}, {P::temporal_patch_size, "2"}, {P::video_fps, "2"}},
         "second-hand (Qwen/Qwen3-VL-8B-Instruct config.json text_config as mirrored in a third-party test, rev 0c351dd0, and a blog copy): head_dim 128, rope_theta 5000000, rope_scaling {mrope_interleaved true, mrope_section [24, 20, 20], rope_type default}, max_position_embeddings 262144; transformers' apply_interleaved_mrope, then rotate_half; video: Qwen3VLVideoProcessor temporal_patch_size 2 and fps 2 (transformers v4.57.6), a <t.1f seconds> timestamp before each temporal patch, each laid out as an image (processing_qwen3_vl.py, get_rope_index)"},
        {"flux.1-dev", "FLUX.1 [dev] (image generation)",
         {{P::rope_axes, "flux"}, {P::flux_axes_dim, "16,56,56"}, {P::dim, "128"}, {P::base, "10000"}, {P::pairing, "interleaved"},
          {P::grid_rows, "32"}, {P::grid_cols, "32"}, {P::max_position, "64"},
          {P::original_max_position, "64"}, {P::sequence_length, "64"}},
         "diffusers FluxTransformer2DModel: attention_head_dim 128, axes_dims_rope (16, 56, 56), FluxPosEmbed(theta=10000) with "
         "get_1d_rotary_pos_embed per axis (repeat_interleave_real: adjacent pairs); FluxPipeline: text_ids zeros (512 tokens, "
         "max_sequence_length), latent image ids (0, row, col); a 1024 x 1024 image: 1024 / 8 = 128 latent, packed 2 x 2 = 64 x 64 "
         "tokens, so max_position 64 (positions per axis); the grid shown is a 512 x 512 image's 32 x 32, which the panels draw legibly"},
        {"rope-vit-deit-b", "DeiT-B with RoPE-Axial (Heo et al. 2024)",
         {{P::rope_axes, "2d_axial"}, {P::axial_frequencies, "per_axis"}, {P::dim, "64"}, {P::base, "100"}, {P::pairing, "interleaved"},
          {P::grid_rows, "14"}, {P::grid_cols, "14"}, {P::max_position, "14"}, {P::original_max_position, "14"}, {P::sequence_length, "14"}},
         "naver-ai/rope-vit models/vit_rope.py: rope_axial_deit_base_patch16_LS (img_size 224, patch_size 16, embed_dim 768 / num_heads 12 = 64, rope_theta 100, rope_mixed False); compute_axial_cis: dim/4 frequencies 100^(-4k/64) per axis, the column's pairs first, then the row's; apply_rotary_emb pairs adjacent dims (view_as_complex); 224/16 = 14 x 14 patches (the CLS token is not rotated); max_position 14: positions per axis"},
        {"pixtral-12b-vision", "Pixtral 12B vision encoder (2D RoPE)",
         {{P::rope_axes, "2d_axial"}, {P::axial_frequencies, "alternating"}, {P::dim, "64"}, {P::base, "10000"}, {P::pairing, "half"},
          {P::grid_rows, "32"}, {P::grid_cols, "32"}, {P::max_position, "64"}, {P::original_max_position, "64"}, {P::sequence_length, "64"}},
         "mistralai/Pixtral-12B-2409 params.json vision_encoder: hidden_size 1024 / num_attention_heads 16 = 64 (head_dim 64 in the transformers-format configs), rope_theta 10000, image_size 1024, patch_size 16: at most 1024/16 = 64 patches per side (max_position 64); transformers' PixtralRotaryEmbedding: freqs[::2] with the row, freqs[1::2] with the column, rotate_half; the grid 32 x 32 is our choice, a 512-pixel square image"},
    };
}


// Models without RoPE that bias the score by the distance instead (the relatives panel): nothing
// turns (nope), the head's size is kept for the comparison curves.
std::vector<Preset> relative_bias_presets() {
    return {
        {"bloom-7b1", "BLOOM 7B1 (ALiBi, no RoPE)",
         {{P::position_encoding, "alibi"}, {P::alibi_layout, "bloom"}, {P::heads, "32"}, {P::nope, "true"}, {P::dim, "128"},
          {P::max_position, "2048"}, {P::original_max_position, "2048"}, {P::sequence_length, "2048"}},
         "second-hand (bigscience/bloom-7b1's config.json as re-saved in izhx/udever-bloom-7b1@085a6f18, _name_or_path "
         "bigscience/bloom-7b1: L13 hidden_size 4096, L18 n_head 32; the model card: 2048-token sequences): 4096 / 32 = 128; "
         "transformers' BloomConfig has no position key (ALiBi, build_alibi_tensor); bigscience/bloomz: seq_length 2048"},
        {"bloom-176b", "BLOOM 176B (ALiBi, no RoPE)",
         {{P::position_encoding, "alibi"}, {P::alibi_layout, "bloom"}, {P::heads, "112"}, {P::nope, "true"}, {P::dim, "128"},
          {P::max_position, "2048"}, {P::original_max_position, "2048"}, {P::sequence_length, "2048"}},
         "bigscience/bloom config.json (refs/pr/17): n_embed 14336, num_attention_heads 112 (14336 / 112 = 128); bigscience/bloomz@967618aa "
         "(the same model, fine-tuned): seq_length 2048; 112 is not a power of two: 64 slopes 2^(-8h/64), then 48 odd steps of 128's"},
        {"mpt-7b", "MPT-7B (ALiBi, no RoPE)",
         {{P::position_encoding, "alibi"}, {P::alibi_layout, "mpt"}, {P::alibi_bias_max, "8"}, {P::heads, "32"}, {P::nope, "true"},
          {P::dim, "128"}, {P::max_position, "2048"}, {P::original_max_position, "2048"}, {P::sequence_length, "2048"}},
         "second-hand (mosaicml/mpt-7b config.json as copied in cornuHGF/mpt-7b-instruct): d_model 4096, n_heads 32 (4096 / 32 = 128), "
         "max_seq_len 2048, attn_config {alibi true, alibi_bias_max 8}; mosaicml/mpt-30b-chat's own file has the same attn_config; "
         "transformers' build_mpt_alibi_tensor"},
        {"t5-base", "T5-base encoder (relative buckets, no RoPE)",
         {{P::position_encoding, "t5"}, {P::heads, "12"}, {P::t5_num_buckets, "32"}, {P::t5_max_distance, "128"}, {P::t5_bidirectional, "true"},
          {P::nope, "true"}, {P::dim, "64"}, {P::max_position, "512"}, {P::original_max_position, "512"}, {P::sequence_length, "512"}},
         "google-t5/t5-base@666f4ee1 config.json: num_heads 12, d_kv 64, relative_attention_num_buckets 32, n_positions 512 (no "
         "relative_attention_max_distance: T5Config's default 128, configuration_t5.py@038869d4 L90); the encoder's buckets go both ways"},
    };
}
// 2025-26's models, each read as its own code reads its config (app/session/hf_config.cpp cites the lines).
std::vector<Preset> models_2025_presets() {
    return {
        {"hunyuan-a13b", "Hunyuan-A13B Instruct (NTK-alpha)",
         {{P::dim, "128"}, {P::base, "10000"}, {P::rotary_fraction, "1"}, {P::pairing, "half"}, {P::scaling, "ntk"}, {P::factor, "1000"}, {P::original_max_position, "32768"}, {P::max_position, "32768"}, {P::sequence_length, "32768"}},
         "Tencent-Hunyuan/Hunyuan-A13B@2798f3c8 models/config.json (the owner's GitHub copy; the Hub file not seen): hidden_size 4096 / num_attention_heads 32 = 128 (Tencent's modeling_hunyuan.py line 544; attention_head_dim 128 is not read), rope_theta 10000, rope_scaling {type dynamic, alpha 1000, factor 1}, max_position_embeddings 32768; base = rope_theta x alpha^(128/126) = 11158839.9 (modeling_hunyuan.py line 358, transformers' HunYuanMoEV1RotaryEmbedding), shown as ntk with factor 1000; half-split pairs"},
        {"command-r7b", "Command R7B (12-2024)",
         {{P::layer_kinds,
           "sliding_attention: window=4096 dim=128 base=50000 scaling=none original_max_position=131072; full_attention: dim=128 base=50000 scaling=none original_max_position=131072 nope=true"}, {P::model_layers,
           "3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention"}, {P::layer, "0"}, {P::pairing, "interleaved"}, {P::max_position, "131072"}, {P::sequence_length, "131072"}},
         "second-hand, Cohere's config.json not seen: 32 layers, hidden_size 4096, 32 heads (head_dim 128), rope_theta 50000, sliding_window 4096, sliding_window_pattern 4 from third-party value tables; context 128K from the model card (the config's max_position_embeddings not seen); modeling_cohere2.py: RoPE only on sliding layers (every 4th layer full attention, no positions), GPT-J pairs (repeat_interleave, x[..., ::2])"},
        {"command-a", "Command A (03-2025)",
         {{P::layer_kinds,
           "sliding_attention: window=4096 dim=128 base=50000 scaling=none original_max_position=131072; full_attention: dim=128 base=50000 scaling=none original_max_position=131072 nope=true"}, {P::model_layers,
           "3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention,3*sliding_attention,full_attention"}, {P::layer, "0"}, {P::pairing, "interleaved"}, {P::max_position, "131072"}, {P::sequence_length, "131072"}},
         "second-hand, Cohere's config.json not seen: 64 layers, hidden_size 12288, 96 heads (head_dim 128), rope_theta 50000, sliding_window 4096, sliding_window_pattern 4 from third-party value tables; context: configured for 128K in Hugging Face (a mirrored model card); every 4th layer full attention without positions, GPT-J pairs"},
        {"glm-4.5v", "GLM-4.5V (M-RoPE, chunked)",
         {{P::dim, "128"}, {P::base, "10000"}, {P::rotary_fraction, "0.5"}, {P::pairing, "half"}, {P::factor, "1"}, {P::original_max_position, "65536"}, {P::max_position, "65536"}, {P::sequence_length, "65536"}, {P::rope_axes, "mrope"}, {P::mrope_section, "8,12,12"}, {P::mrope_interleaved, "false"}},
         "second-hand, zai-org's config.json not seen: text_config head_dim 128, partial_rotary_factor 0.5 (Glm4vMoeTextConfig's default too), rope_theta 10000, mrope_section [8, 12, 12], max_position_embeddings 65536 from third-party fixtures; transformers' modeling_glm4v_moe.py (def9a7ef lines 168-218): sections in order t, h, w over the 32 frequencies, rotate_half on the first 64 dims (half-split pairs)"},
        {"glm-4.1v-9b", "GLM-4.1V 9B Thinking (M-RoPE, chunked)",
         {{P::dim, "128"}, {P::base, "10000"}, {P::rotary_fraction, "0.5"}, {P::pairing, "interleaved"}, {P::factor, "1"}, {P::original_max_position, "32768"}, {P::max_position, "32768"}, {P::sequence_length, "32768"}, {P::rope_axes, "mrope"}, {P::mrope_section, "8,12,12"}, {P::mrope_interleaved, "false"}},
         "second-hand, THUDM's config.json not seen: text_config hidden_size 4096 / 32 heads = 128, partial_rotary_factor 0.5, rope_theta 10000, mrope_section [8, 12, 12] from a third-party fixture, max_position_embeddings Glm4vTextConfig's 32768; modeling_glm4v.py (def9a7ef line 472): repeat_interleave and rotate_half_llm, so neighbouring dims pair (interleaved)"},
        {"kimi-linear-48b-a3b", "Kimi Linear 48B-A3B Instruct (no RoPE)",
         {{P::layer_kinds,
           "linear_attention: dim=64 base=10000 scaling=none original_max_position=1048576 nope=true; full_attention: dim=64 base=10000 scaling=none original_max_position=1048576 nope=true"}, {P::model_layers,
           "3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,2*linear_attention,full_attention"}, {P::layer, "0"}, {P::pairing, "half"}, {P::max_position, "1048576"}, {P::sequence_length, "1048576"}, {P::qk_nope_head_dim, "128"}, {P::v_head_dim, "128"}, {P::kv_lora_rank, "512"}},
         "moonshotai/Kimi-Linear-48B-A3B-Instruct config.json as copied in troy12x/quasar-kimi@e5b65d3f: 27 layers, linear_attn_config full_attn_layers [4, 8, 12, 16, 20, 24, 27] (MLA, 1-based) and kda_layers the other 20 (linear attention), mla_use_nope true (modeling_kimi.py asserts it; vLLM kimi_linear.py lines 215, 254: no rotary_emb), qk_nope_head_dim 128 + qk_rope_head_dim 64 (softmax scale 192^-0.5), kv_lora_rank 512, v_head_dim 128, model_max_length 1048576; rope_theta 10000 read, no layer turns"},
        {"deepseek-v4", "DeepSeek-V4-Flash (two RoPEs)",
         {{P::layer_kinds,
           "sliding_attention: window=128 dim=64 base=10000 scaling=none original_max_position=1048576; compressed_sparse_attention: dim=64 base=160000 scaling=yarn original_max_position=65536 factor=16 beta_fast=32 beta_slow=1 attention_factor=1; heavily_compressed_attention: dim=64 base=160000 scaling=yarn original_max_position=65536 factor=16 beta_fast=32 beta_slow=1 attention_factor=1"}, {P::model_layers,
           "2*sliding_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention"}, {P::layer, "2"}, {P::pairing, "interleaved"}, {P::max_position, "1048576"}, {P::sequence_length, "65536"}},
         "deepseek-ai/DeepSeek-V4-Flash config.json as copied in Mockingjay1316/deepseek-v4-flash-spark@135f0266: 43 layers by compress_ratios (0: sliding_attention, window 128; 4: compressed_sparse; 128: heavily_compressed), head_dim 512 with the last qk_rope_head_dim 64 rotating in neighbouring pairs; sliding layers rope_theta 10000 without YaRN, compressed layers compress_rope_theta 160000 with rope_scaling {yarn, factor 16, original 65536, beta_fast 32, beta_slow 1} and no mscale (DeepSeek's inference/model.py lines 199-244, 475-481); max_position_embeddings 1048576"},
        {"deepseek-v4-pro", "DeepSeek-V4-Pro (compressed layers only)",
         {{P::layer_kinds,
           "heavily_compressed_attention: dim=64 base=160000 scaling=yarn original_max_position=65536 factor=16 beta_fast=32 beta_slow=1 attention_factor=1; compressed_sparse_attention: dim=64 base=160000 scaling=yarn original_max_position=65536 factor=16 beta_fast=32 beta_slow=1 attention_factor=1"}, {P::model_layers,
           "2*heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention,heavily_compressed_attention,compressed_sparse_attention"}, {P::layer, "0"}, {P::pairing, "interleaved"}, {P::max_position, "1048576"}, {P::sequence_length, "65536"}},
         "second-hand (deepseek-ai/DeepSeek-V4-Pro config.json as transcribed in a model-info report): 61 layers, compress_ratios [128, 128, 4, 128, ...]: every layer compressed (its one sliding-only block is the MTP layer, not shown), compress_rope_theta 160000 with YaRN {factor 16, original 65536, beta_fast 32, beta_slow 1}, the last 64 of head_dim 512 in neighbouring pairs, max_position_embeddings 1048576"},
        {"ernie-4.5-vl-28b-a3b", "ERNIE-4.5-VL 28B-A3B (3D RoPE)",
         {{P::dim, "128"}, {P::base, "500000"}, {P::pairing, "interleaved"}, {P::original_max_position, "131072"}, {P::max_position, "131072"},
          {P::sequence_length, "131072"}, {P::rope_axes, "ernie_3d"}, {P::mrope_section, "20,22,22"}, {P::video_time_ids, "frame_index"},
          {P::temporal_patch_size, "2"}},
         "second-hand, baidu's config.json not seen: hidden_size 2560 / 20 heads = 128, rope_theta 500000, max_position_embeddings 131072 "
         "(transformers' Ernie4_5_VL_MoeTextConfig defaults, 147b7aa0 lines 170-205; its converter writes mrope_section [22, 22, 20] "
         "as [h, w, t]), freq_allocation 20 (vLLM's default); pairs 0-43 alternate h and w, the 20 slowest turn with t "
         "(modeling_ernie4_5_vl_moe.py lines 102-136), neighbouring dims paired; ids as M-RoPE's get_rope_index, a video's t the index "
         "of its temporal patch of 2 frames"},
        {"qwen3.5-0.8b", "Qwen3.5 0.8B (text layers, interleaved M-RoPE)",
         {{P::layer_kinds,
           "linear_attention: dim=256 base=10000000 rotary_fraction=0.25 scaling=none original_max_position=262144 nope=true; full_attention: dim=256 base=10000000 rotary_fraction=0.25 scaling=none original_max_position=262144"}, {P::model_layers,
           "3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention,3*linear_attention,full_attention"}, {P::layer, "3"}, {P::pairing, "half"}, {P::max_position, "262144"}, {P::sequence_length, "262144"}, {P::rope_axes, "mrope"}, {P::mrope_section_interleaved, "11,11,10"}, {P::mrope_interleaved, "true"}},
         "Qwen/Qwen3.5-0.8B config.json as transcribed (a session log of the Hub file): text_config 24 layer_types, every 4th full_attention, the rest linear_attention (Gated DeltaNet, no RoPE); head_dim 256, rope_parameters {rope_theta 10000000, partial_rotary_factor 0.25, mrope_section [11, 11, 10], mrope_interleaved true}, max_position_embeddings 262144; Qwen3_5TextRotaryEmbedding always interleaves the axes, rotate_half on the first 64 dims"},
    };
}
}  // namespace

const std::vector<Preset>& presets() {
    static const std::vector<Preset> list = [] {
        std::vector<Preset> all;
        for (auto group : {text_presets, layered_presets, recent_presets, models_2025_presets, vision_presets, relative_bias_presets}) {
            std::vector<Preset> g = group();
            all.insert(all.end(), g.begin(), g.end());
        }
        return all;
    }();
    return list;
}

namespace {

struct ImportedModels {
    std::mutex mutex;
    ModelImporter importer;
    std::map<std::string, std::shared_ptr<const ImportedModel>, std::less<>> read;
};

ImportedModels& imported_models() {
    static ImportedModels models;
    return models;
}

}  // namespace

void set_model_importer(ModelImporter importer) {
    ImportedModels& m = imported_models();
    const std::lock_guard<std::mutex> lock(m.mutex);
    m.importer = std::move(importer);
}

std::shared_ptr<const ImportedModel> imported_model(const std::string& source) {
    ImportedModels& m = imported_models();
    ModelImporter importer;
    {
        const std::lock_guard<std::mutex> lock(m.mutex);
        if (const auto it = m.read.find(source); it != m.read.end()) return it->second;
        importer = m.importer;
    }
    if (!importer) return nullptr;
    std::optional<ImportedModel> model = importer(source);  // outside the lock: it reads a file
    if (!model) return nullptr;
    model->source = source;
    const std::lock_guard<std::mutex> lock(m.mutex);
    return m.read.emplace(source, std::make_shared<const ImportedModel>(std::move(*model))).first->second;
}

std::shared_ptr<const ImportedModel> find_imported_model(std::string_view source) {
    ImportedModels& m = imported_models();
    const std::lock_guard<std::mutex> lock(m.mutex);
    const auto it = m.read.find(source);
    return it == m.read.end() ? nullptr : it->second;
}

const Preset* find_preset(std::string_view name) {
    for (const Preset& p : presets())
        if (p.name == name) return &p;
    return nullptr;
}


}  // namespace rope

namespace rope {

std::string_view preset_family(const Preset& preset) {
    // the start of a preset's name -> its model's family (its maker's name where it has no family of its own)
    static constexpr std::pair<std::string_view, std::string_view> kFamilies[] = {
        {"llama", "Llama"},     {"code-llama", "Llama"}, {"mistral", "Mistral"}, {"ministral", "Mistral"}, {"pixtral", "Mistral"},
        {"qwen", "Qwen"},       {"gemma", "Gemma"},      {"phi", "Phi"},         {"deepseek", "DeepSeek"}, {"kimi", "Kimi"},
        {"glm", "GLM"},         {"gpt-oss", "gpt-oss"},  {"gpt-j", "EleutherAI"}, {"pythia", "EleutherAI"}, {"smollm", "SmolLM"},
        {"rope-vit", "Vision research"}, {"bloom", "BigScience"}, {"mpt", "MosaicML"}, {"t5", "T5"},
    };
    for (const auto& [start, family] : kFamilies)
        if (preset.name.substr(0, start.size()) == start) return family;
    return "Other";
}

}  // namespace rope
