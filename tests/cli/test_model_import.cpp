// A model's layers from its config.json: each real-shaped config of the new models imports to the
// published numbers (layer count, kinds, which layers are NoPE, head dims, bases, fractions,
// scaling); each preset agrees with the config of its model; a session or an exported PNG with a
// model and a layer reopens on that layer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "rope/frequencies.hpp"
#include "rope/params.hpp"
#include "session/hf_config.hpp"
#include "session/session.hpp"
#include "support/config_import.hpp"
#include "support/process.hpp"

namespace P = rope::P;

using rope::ModelLayers;
using rope::ParamSet;
using rope::RopeConfig;
using rope::test::ProcessResult;
using rope::test::run_process;

namespace {

using rope::test::has_warning;
using rope::test::Imported;
using rope::test::nope_layers;
using rope::test::published_config;

// A published config by its file name (the name is its label), as the layer type given.
Imported import_published(const std::string& file, const std::string& layer_type = "") {
    const rope::session::ConfigImport c = rope::session::import_hf_config(published_config(file), layer_type);
    return {rope::session::with_config(ParamSet(), c, file), c.warnings};
}

ParamSet preset(const std::string& name) {
    ParamSet p;
    p.set(P::preset, name);
    p.validate();
    return p;
}

// The layers (0-based) whose kind has no RoPE.
std::vector<int> every(int first, int step, int count) {
    std::vector<int> out;
    for (int i = first; i < count; i += step) out.push_back(i);
    return out;
}

// The RoPE one layer kind (or a model without layers) computes with, key by key.
void expect_same_rope(const RopeConfig& a, const RopeConfig& b, const std::string& what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(a.dim, b.dim);
    EXPECT_EQ(a.base, b.base);
    EXPECT_EQ(a.rotary_fraction, b.rotary_fraction);
    EXPECT_EQ(a.scaling, b.scaling);
    EXPECT_EQ(a.factor, b.factor);
    EXPECT_EQ(a.original_max_position, b.original_max_position);
    EXPECT_EQ(a.low_freq_factor, b.low_freq_factor);
    EXPECT_EQ(a.high_freq_factor, b.high_freq_factor);
    EXPECT_EQ(a.beta_fast, b.beta_fast);
    EXPECT_EQ(a.beta_slow, b.beta_slow);
    EXPECT_EQ(a.mscale, b.mscale);
    EXPECT_EQ(a.mscale_all_dim, b.mscale_all_dim);
    EXPECT_EQ(a.truncate, b.truncate);
    EXPECT_EQ(a.long_factors, b.long_factors);
    EXPECT_EQ(a.short_factors, b.short_factors);
    EXPECT_EQ(a.attention_factor, b.attention_factor);
    EXPECT_EQ(a.nope, b.nope);
    EXPECT_EQ(a.pairing, b.pairing);
}

// Same layers (names in order, each kind's attention, window and RoPE), same layer shown, same
// model-level keys. `same_numbers` false: the layout only (two models of one architecture).
void expect_same_model(const ParamSet& a, const ParamSet& b, bool same_numbers = true) {
    const ModelLayers ma = a.model_layers(), mb = b.model_layers();
    ASSERT_EQ(ma.layers(), mb.layers());
    for (int i = 0; i < ma.layers(); ++i) {
        SCOPED_TRACE("layer " + std::to_string(i));
        ASSERT_EQ(ma.kind(i).name, mb.kind(i).name);
        EXPECT_EQ(ma.kind(i).attention, mb.kind(i).attention);
        EXPECT_EQ(ma.kind(i).window, mb.kind(i).window);
        const RopeConfig ca = a.with_kind(ma.kind(i)).config(), cb = b.with_kind(mb.kind(i)).config();
        if (same_numbers) expect_same_rope(ca, cb, ma.kind(i).name);
        EXPECT_EQ(ca.nope, cb.nope);
        EXPECT_EQ(ca.dim, cb.dim);
        EXPECT_EQ(ca.rotary_fraction, cb.rotary_fraction);
    }
    EXPECT_EQ(a.value_text(P::layer), b.value_text(P::layer));
    if (!same_numbers) return;
    expect_same_rope(a.config(), b.config(), "the layer shown");
    for (rope::ParamId k : {rope::ParamId::pairing, rope::ParamId::max_position, rope::ParamId::attn_temperature_tuning,
                            rope::ParamId::floor_scale, rope::ParamId::attn_scale})
        EXPECT_EQ(a.value_text(k), b.value_text(k)) << rope::param_spec(k).name;
}

}  // namespace

// Llama 4 Scout: 48 layers, every 4th NoPE with full attention, the rest chunked (8192) on llama3
// RoPE (factor 16, both band factors 1); the temperature keys at transformers' defaults, said.
TEST(ModelImport, Llama4ScoutLayersAndTemperature) {
    const Imported scout = import_published("llama-4-scout-17b-16e-instruct.json");
    const ParamSet& p = scout.params;
    const ModelLayers m = p.model_layers();
    ASSERT_EQ(m.layers(), 48);
    EXPECT_EQ(nope_layers(p), every(3, 4, 48));
    EXPECT_EQ(m.kind(0).name, "chunked_attention");
    EXPECT_EQ(m.kind(0).attention, rope::Attention::chunked);
    EXPECT_EQ(m.kind(0).window, 8192);
    EXPECT_EQ(m.kind(3).name, "full_attention");
    EXPECT_EQ(m.kind(3).window, 0);
    EXPECT_EQ(p[P::layer], 0);  // no full-attention layer has RoPE: the first layer
    const RopeConfig c = p.config();
    EXPECT_EQ(c.dim, 128);
    EXPECT_EQ(c.base, 500000);
    EXPECT_EQ(c.scaling, rope::Scaling::llama3);
    EXPECT_EQ(c.factor, 16);
    EXPECT_EQ(c.low_freq_factor, 1);
    EXPECT_EQ(c.high_freq_factor, 1);
    EXPECT_EQ(c.original_max_position, 8192);
    EXPECT_EQ(c.pairing, rope::Pairing::interleaved);
    EXPECT_EQ(p[P::max_position], 10485760);
    EXPECT_TRUE(p[P::attn_temperature_tuning]);
    EXPECT_EQ(p[P::floor_scale], 8192);
    EXPECT_EQ(p[P::attn_scale], 0.1);
    EXPECT_TRUE(has_warning(scout, "Llama4TextConfig defaults")) << scout.warnings.size();
    // the hard cut of equal band factors: wavelengths above L0 = 8192 divided by 16, the rest kept
    const rope::FrequencyTable f = rope::compute_frequencies(c);
    for (int i = 0; i < 64; ++i) {
        const double wavelength = 2 * M_PI / f.original_theta[static_cast<std::size_t>(i)];
        EXPECT_DOUBLE_EQ(f.theta[static_cast<std::size_t>(i)], f.original_theta[static_cast<std::size_t>(i)] / (wavelength > 8192 ? 16 : 1)) << i;
    }
    // layer_type names a type of the config: the first NoPE layer
    const Imported nope = import_published("llama-4-scout-17b-16e-instruct.json", "full_attention");
    EXPECT_EQ(nope.params[P::layer], 3);
    EXPECT_TRUE(nope.params.config().nope);
}

// Gemma 3 12B (older layout: rope_local_base_freq and sliding_window_pattern 6): 5 local layers
// (base 1e4, window 1024, no scaling), then 1 global (base 1e6, linear x8), eight times.
TEST(ModelImport, Gemma3TwelveBFromItsPattern) {
    const ParamSet p = import_published("gemma-3-12b-it-text.json").params;
    const ModelLayers m = p.model_layers();
    ASSERT_EQ(m.layers(), 48);
    for (int i = 0; i < 48; ++i) EXPECT_EQ(m.kind(i).name, i % 6 == 5 ? "full_attention" : "sliding_attention") << i;
    EXPECT_EQ(p[P::layer], 5);
    EXPECT_EQ(p.config().base, 1e6);
    EXPECT_EQ(p.config().scaling, rope::Scaling::linear);
    EXPECT_EQ(p.config().factor, 8);
    const RopeConfig local = p.with_kind(m.kind(0)).config();
    EXPECT_EQ(m.kind(0).window, 1024);
    EXPECT_EQ(local.base, 1e4);
    EXPECT_EQ(local.scaling, rope::Scaling::none);
    EXPECT_EQ(local.dim, 256);
    EXPECT_TRUE(nope_layers(p).empty());
}

// Gemma 4 31B (transcribed): sliding layers default RoPE on 256-dim heads, full layers proportional
// RoPE on 512-dim heads (global_head_dim), a quarter of the pairs turning.
TEST(ModelImport, Gemma4ThirtyOneBProportionalGlobalLayers) {
    const ParamSet p = import_published("gemma-4-31b-transcribed.json").params;
    const ModelLayers m = p.model_layers();
    ASSERT_EQ(m.layers(), 60);
    EXPECT_EQ(p[P::layer], 5);
    const RopeConfig full = p.config();
    EXPECT_EQ(full.dim, 512);
    EXPECT_EQ(full.scaling, rope::Scaling::proportional);
    EXPECT_EQ(full.rotary_fraction, 0.25);
    EXPECT_EQ(full.base, 1e6);
    EXPECT_EQ(full.rotating_pairs(), 64);  // int(0.25 * 512 // 2); the other 192 of 256 at frequency 0
    const RopeConfig sliding = p.with_kind(m.kind(0)).config();
    EXPECT_EQ(sliding.dim, 256);
    EXPECT_EQ(sliding.base, 1e4);
    EXPECT_EQ(sliding.scaling, rope::Scaling::none);
    EXPECT_EQ(m.kind(0).window, 1024);
    EXPECT_EQ(p[P::max_position], 262144);
}

TEST(ModelImport, GptOssAlternatesSlidingAndFull) {
    const ParamSet p = import_published("gpt-oss-20b.json").params;
    const ModelLayers m = p.model_layers();
    ASSERT_EQ(m.layers(), 24);
    for (int i = 0; i < 24; ++i) EXPECT_EQ(m.kind(i).name, i % 2 ? "full_attention" : "sliding_attention") << i;
    EXPECT_EQ(m.kind(0).window, 128);
    EXPECT_EQ(m.kind(1).window, 0);
    EXPECT_EQ(p[P::layer], 1);
    EXPECT_EQ(p.config().scaling, rope::Scaling::yarn);
    EXPECT_EQ(p.config().factor, 32);
    EXPECT_FALSE(p.config().truncate);
}

// SmolLM3: every layer attends fully, every 4th without RoPE: a kind of its own.
TEST(ModelImport, SmolLM3EveryFourthLayerNoPE) {
    const ParamSet p = import_published("smollm3-3b.json").params;
    const ModelLayers m = p.model_layers();
    ASSERT_EQ(m.layers(), 36);
    EXPECT_EQ(nope_layers(p), every(3, 4, 36));
    EXPECT_EQ(m.kind(3).name, "full_attention/nope");
    EXPECT_EQ(m.kind(3).attention, rope::Attention::full);
    EXPECT_EQ(p[P::layer], 0);
    EXPECT_EQ(p.config().base, 5e6);
    EXPECT_EQ(p.config().dim, 128);  // hidden_size 2048 / 16 heads
    EXPECT_EQ(import_published("smollm3-3b.json", "full_attention/nope").params[P::layer], 3);
}

// The qwen3_next architecture: linear attention (no RoPE) with full attention every 4th layer,
// partial rotary 0.25 of 256-dim heads there.
TEST(ModelImport, Qwen3NextFullAttentionEveryFourthLayer) {
    const ParamSet p = import_published("qwen3-coder-next-quanttrio.json").params;
    const ModelLayers m = p.model_layers();
    ASSERT_EQ(m.layers(), 48);
    for (int i = 0; i < 48; ++i) {
        EXPECT_EQ(m.kind(i).name, i % 4 == 3 ? "full_attention" : "linear_attention") << i;
        EXPECT_EQ(m.kind(i).attention, i % 4 == 3 ? rope::Attention::full : rope::Attention::linear) << i;
    }
    EXPECT_EQ(nope_layers(p).size(), 36u);
    EXPECT_EQ(p[P::layer], 3);
    EXPECT_EQ(p.config().dim, 256);
    EXPECT_EQ(p.config().rotary_fraction, 0.25);
    EXPECT_EQ(p.config().rotated_dims(), 64);
    EXPECT_EQ(p.config().base, 5e6);
}

// Models whose layers all share one RoPE: no layer list, the published numbers.
TEST(ModelImport, ModelsWithoutLayerDifferences) {
    const ParamSet phi = import_published("phi-4-mini-instruct.json").params;
    EXPECT_FALSE(phi.has(P::model_layers));
    EXPECT_EQ(phi.config().dim, 128);
    EXPECT_EQ(phi.config().rotary_fraction, 0.75);
    EXPECT_EQ(phi.config().rotated_dims(), 96);
    EXPECT_EQ(phi.config().scaling, rope::Scaling::longrope);
    EXPECT_EQ(phi.config().factor, 32);
    EXPECT_EQ(phi.config().long_factors.size(), 48u);
    EXPECT_EQ(phi.config().long_factors.back(), 47.77);
    EXPECT_EQ(phi.config().base, 1e4);
    const ParamSet glm = import_published("glm-4.5-air-intellect3-base.json").params;
    EXPECT_EQ(glm.config().rotary_fraction, 0.5);
    EXPECT_EQ(glm.config().rotated_dims(), 64);
    EXPECT_EQ(glm.config().base, 1e6);
    EXPECT_EQ(import_published("glm-4.7.json").params.config().rotary_fraction, 0.5);
    const ParamSet mistral = import_published("mistral-small-3.1-24b-instruct-2503.json").params;
    EXPECT_EQ(mistral.config().base, 1e9);
    EXPECT_EQ(mistral[P::max_position], 131072);
    const ParamSet ministral = import_published("ministral-3-3b-shaped-ernie-image-pe.json").params;
    EXPECT_EQ(ministral.config().scaling, rope::Scaling::yarn);
    EXPECT_EQ(ministral.config().factor, 16);
    EXPECT_EQ(ministral.config().original_max_position, 16384);
    const ParamSet qwen = import_published("qwen3-8b.json").params;
    EXPECT_EQ(qwen.config().base, 1e6);
    EXPECT_EQ(qwen[P::max_position], 40960);
    EXPECT_FALSE(qwen.has(P::model_layers));
}

// Each new preset against the config of its model: the same layers, kinds and numbers.
TEST(ModelImport, PresetsAgreeWithTheImportedConfigs) {
    const std::pair<const char*, const char*> same[] = {
        {"llama-4-scout", "llama-4-scout-17b-16e-instruct.json"}, {"gemma-3-12b", "gemma-3-12b-it-text.json"},
        {"gemma-4-31b", "gemma-4-31b-transcribed.json"},         {"gpt-oss", "gpt-oss-20b.json"},
        {"smollm3-3b", "smollm3-3b.json"},                       {"phi-4-mini", "phi-4-mini-instruct.json"},
        {"glm-4.5-air", "glm-4.5-air-intellect3-base.json"},     {"mistral-small-3.1", "mistral-small-3.1-24b-instruct-2503.json"},
        {"ministral-3-3b", "ministral-3-3b-shaped-ernie-image-pe.json"}, {"qwen3-8b", "qwen3-8b.json"}};
    for (const auto& [name, file] : same) {
        SCOPED_TRACE(name);
        expect_same_model(preset(name), import_published(file).params);
    }
    // Qwen3-Next 80B-A3B has no config here; Qwen3-Coder-Next shares its layout (not its base)
    expect_same_model(preset("qwen3-next-80b-a3b"), import_published("qwen3-coder-next-quanttrio.json").params, false);
}

// A session with a model and a layer, refined after the layer, reopens exactly (keys applied in the
// table's order whatever the file's); so does a hand-written one with the layer before its model.
TEST(ModelImport, SessionReopensOnItsLayer) {
    for (const char* name : {"gemma-4-31b", "llama-4-scout", "smollm3-3b"}) {
        SCOPED_TRACE(name);
        rope::session::Session s;
        s.params.set(P::preset, name);
        s.params.set(P::layer, "2");
        s.params.set(P::position, "9");
        s.params.validate();
        const rope::session::Session back = rope::session::parse_session_json(rope::session::session_json(s), "s.json");
        EXPECT_TRUE(back.params == s.params);
        EXPECT_EQ(back.params[P::layer], 2);
    }
    rope::session::Session s;
    s.params = import_published("gemma-3-12b-it-text.json").params;
    s.params.set(P::layer, "11");
    s.params.set(P::base, "2000000");  // refined after the layer is loaded: kept
    const rope::session::Session back = rope::session::parse_session_json(rope::session::session_json(s), "s.json");
    EXPECT_TRUE(back.params == s.params);
    EXPECT_EQ(back.params[P::base], 2e6);
    const std::string by_hand = R"({"parameters": {"layer": 1, "model_layers": "a,b", "dim": 64,
        "layer_kinds": "a: dim=32 base=500; b: dim=16 base=900 nope=true"}})";
    const rope::session::Session hand = rope::session::parse_session_json(by_hand, "hand.json");
    EXPECT_EQ(hand.params[P::layer], 1);
    EXPECT_TRUE(hand.params[P::nope]);
    EXPECT_EQ(hand.params[P::dim], 64);  // the file's dim refines the loaded layer
    EXPECT_EQ(hand.params[P::base], 900);
}

// An exported PNG carries the model and the layer in its text chunks: opening it gives them back.
TEST(ModelImport, ExportedPngCarriesTheModelAndLayer) {
    const std::string dir = "/tmp/rope-model-png-" + std::to_string(getpid());
    run_process({"/bin/mkdir", "-p", dir});
    const std::string png = dir + "/pairing.png";
    const ProcessResult r = run_process({ROPE_EXPLORER_BINARY, "export", "pairing", "--out", png, "--set", "preset=smollm3-3b",
                                         "--set", "layer=7", "--set", "position=12"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const rope::session::Session opened = rope::session::load_session(png);
    ParamSet expected;
    expected.set(P::preset, "smollm3-3b");
    expected.set(P::layer, "7");
    expected.set(P::position, "12");
    EXPECT_TRUE(opened.params == expected);
    EXPECT_EQ(opened.params[P::layer], 7);
    EXPECT_TRUE(opened.params[P::nope]);
    EXPECT_EQ(opened.params.value_text(P::model_layers), expected.value_text(P::model_layers));
    // a bad config on the export: refused in one line, no file
    const std::string bad = dir + "/bad.json";
    std::ofstream(bad) << R"({"head_dim": 64, "num_hidden_layers": 3, "layer_types": ["full_attention"]})";
    const std::string out = dir + "/never.png";
    const ProcessResult refused = run_process({ROPE_EXPLORER_BINARY, "export", "pairing", "--out", out, "--set", "config=" + bad});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_EQ(rope::test::count_lines(refused.err), 1) << refused.err;
    EXPECT_NE(refused.err.find(bad), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("\"layer_types\" has 1 entries"), std::string::npos) << refused.err;
    EXPECT_NE(access(out.c_str(), F_OK), 0);
    run_process({"/bin/rm", "-rf", dir});
}

// layer_type names a layer type of the loaded model, or is refused with the ones it has.
TEST(ModelImport, LayerTypeIsAnyTypeOfTheModel) {
    const auto summary = [](std::vector<std::string> sets) {
        std::vector<std::string> args = {ROPE_EXPLORER_BINARY, "compute", "summary"};
        for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
        return run_process(args);
    };
    const ProcessResult sliding = summary({"layer_type=sliding_attention", "preset=gemma-4-31b"});
    ASSERT_EQ(sliding.exit_code, 0) << sliding.err;
    EXPECT_NE(sliding.out.find("\ndim,256\n"), std::string::npos) << sliding.out;
    const ProcessResult linear = summary({"config=" + published_config("qwen3-coder-next-quanttrio.json"), "layer_type=linear_attention"});
    ASSERT_EQ(linear.exit_code, 0) << linear.err;
    EXPECT_NE(linear.out.find("\nrotated_dims,64\n"), std::string::npos) << linear.out;
    for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
             {"layer_type=global", "config=" + published_config("gemma-3-12b-it-text.json")},
             {"layer_type=global", "preset=gemma-3-12b"},
             {"layer_type=full_attention"}}) {
        const ProcessResult r = summary(bad);
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find("layer_type="), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty());
    }
}
