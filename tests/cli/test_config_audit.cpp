// Issue 29's audit of the config import against transformers' configuration classes: each rule on
// a config in the shape its model publishes (README, "How each key is read"). Published files are
// in tests/reference/hf_configs (SOURCES.md); the variants are written here, one key changed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rope/params.hpp"
#include "session/hf_config.hpp"
#include "session/session.hpp"
#include "support/config_import.hpp"
#include "support/process.hpp"

namespace P = rope::P;

using rope::ParamSet;
using rope::test::ProcessResult;
using rope::test::run_process;

namespace {

using rope::test::has_warning;
using rope::test::Imported;
using rope::test::nope_layers;
using rope::test::published_config;

// A config written for one test, removed with its directory when the test binary exits.
std::string write_config(const std::string& name, const std::string& content) {
    struct Directory {
        std::filesystem::path path = "/tmp/rope-config-audit-" + std::to_string(getpid());
        Directory() { std::filesystem::create_directories(path); }
        ~Directory() { std::filesystem::remove_all(path); }
    };
    static const Directory dir;
    const std::string path = (dir.path / name).string();
    std::ofstream(path) << content;
    return path;
}

// A config.json by its path (the path is its label).
Imported import_file(const std::string& path) {
    const rope::session::ConfigImport c = rope::session::import_hf_config(path);
    return {rope::session::with_config(ParamSet(), c, path), c.warnings};
}

std::vector<int> every_fourth(int layers) {
    std::vector<int> out;
    for (int i = 3; i < layers; i += 4) out.push_back(i);
    return out;
}

// The command line refuses the file: exit 2, one line on standard error naming the file and each
// of `names` (the key, the value, what is allowed), nothing on standard output.
void expect_refused(const std::string& path, const std::vector<std::string>& names) {
    const ProcessResult r = run_process({ROPE_EXPLORER_BINARY, "compute", "summary", "--set", "config=" + path});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
    EXPECT_TRUE(r.out.empty());
    for (const std::string& n : names) EXPECT_NE(r.err.find(n), std::string::npos) << n << " not in: " << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
}

// Llama 4 Scout's text_config with one key replaced (the published file, as text).
std::string scout_with(const std::string& key, const std::string& value) {
    std::ifstream in(published_config("llama-4-scout-17b-16e-published.json"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string from = "\"" + key + "\": ";
    const std::size_t at = text.find(from);
    const std::size_t end = text.find_first_of(",\n", at + from.size());
    return text.substr(0, at) + from + value + text.substr(end);
}

// A published file with one change made by `edit`, written for one test as `name`.
std::string published_with(const std::string& file, const std::string& name, const std::function<void(nlohmann::json&)>& edit) {
    std::ifstream in(published_config(file));
    nlohmann::json config = nlohmann::json::parse(in);
    edit(config);
    return write_config(name, config.dump(1));
}

// The import's frequencies (`compute freqs`, the layer shown) equal the numpy reading of the same
// file (rope_reference.py's hf_config, which applies the same class defaults) to 1e-14 relative.
void expect_reference_frequencies(const std::string& path) {
    SCOPED_TRACE(path);
    const std::string cases = write_config("cases.json", nlohmann::json::array({{{"kind", "hf_config"}, {"path", path}}}).dump());
    const ProcessResult ref = run_process({"/usr/bin/python3", ROPE_REFERENCE_SCRIPT, cases});
    ASSERT_EQ(ref.exit_code, 0) << ref.err;
    const nlohmann::json theta = nlohmann::json::parse(ref.out)[0]["theta"];
    const ProcessResult r = run_process({ROPE_EXPLORER_BINARY, "compute", "freqs", "--set", "config=" + path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = rope::test::split_lines(r.out);
    ASSERT_EQ(rows.size(), theta.size() + 1);
    for (std::size_t k = 0; k < theta.size(); ++k)
        EXPECT_NEAR(std::stod(rope::test::split(rows[k + 1], ',')[1]), theta[k].get<double>(), 1e-14 * theta[k].get<double>()) << k;
}

}  // namespace

// Llama4TextConfig: `no_rope_layers if no_rope_layers else default`: Scout's published [] means
// every no_rope_layer_interval-th layer (4) is NoPE, the rest chunked RoPE layers.
TEST(ConfigAudit, Llama4ScoutPublishedEmptyNoRopeListIsEveryFourthLayer) {
    const Imported scout = import_file(published_config("llama-4-scout-17b-16e-published.json"));
    const rope::ModelLayers m = scout.params.model_layers();
    ASSERT_EQ(m.layers(), 48);
    EXPECT_EQ(nope_layers(scout.params), every_fourth(48));
    EXPECT_EQ(m.kind(0).attention, rope::Attention::chunked);
    EXPECT_EQ(m.kind(0).window, 8192);
    EXPECT_EQ(m.kind(3).attention, rope::Attention::full);
    EXPECT_EQ(scout.params.config().scaling, rope::Scaling::llama3);
    EXPECT_TRUE(has_warning(scout, "no_rope_layer_interval 4")) << scout.warnings.size();
    // the command line: 48 rows, RoPE off on every fourth
    const ProcessResult r = run_process({ROPE_EXPLORER_BINARY, "compute", "layers", "--set",
                                         "config=" + published_config("llama-4-scout-17b-16e-published.json")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = rope::test::split_lines(r.out);
    ASSERT_EQ(rows.size(), 49u);
    for (int i = 0; i < 48; ++i) EXPECT_EQ(rope::test::split(rows[static_cast<std::size_t>(i) + 1], ',')[4], i % 4 == 3 ? "false" : "true") << i;
    // the interval is read when the list is empty or null
    EXPECT_EQ(nope_layers(import_file(write_config("scout-interval-2.json", scout_with("no_rope_layers", "[], \"no_rope_layer_interval\": 2"))).params).size(), 24u);
    EXPECT_EQ(nope_layers(import_file(write_config("scout-null.json", scout_with("no_rope_layers", "null"))).params), every_fourth(48));
}

// Llama4TextConfig's num_hidden_layers 48 and default_theta 500000 where the file leaves them out,
// said in a warning.
TEST(ConfigAudit, Llama4ClassDefaultsWhereTheFileIsSilent) {
    const Imported saved = import_file(published_config("llama-4-scout-finetune-saved-4-51.json"));
    EXPECT_EQ(saved.params.model_layers().layers(), 48);
    EXPECT_EQ(saved.params.config().base, 500000);
    EXPECT_TRUE(has_warning(saved, "Llama4TextConfig defaults are used: num_hidden_layers 48, rope_theta 500000")) << saved.warnings[0];
    EXPECT_FALSE(has_warning(saved, "no_rope_layer_interval"));  // the list is given: the interval is not used
    // a null layer count leaves the class nothing to derive the list from (range(None) fails)
    expect_refused(write_config("scout-no-count.json", scout_with("num_hidden_layers", "null")), {"\"no_rope_layers\"", "[]", "num_hidden_layers"});
}

// "attn_temperature_tuning": 4 (transformers 4.51's default, written into saved configs) is tested
// for truth by Llama4TextAttention: on. 0 is off; a string is refused.
TEST(ConfigAudit, Llama4TemperatureTuningNumberIsTruthiness) {
    const Imported four = import_file(published_config("llama-4-scout-finetune-saved-4-51.json"));
    EXPECT_TRUE(four.params[P::attn_temperature_tuning]);
    EXPECT_EQ(four.params[P::floor_scale], 8192);
    EXPECT_EQ(four.params[P::attn_scale], 0.1);
    EXPECT_FALSE(has_warning(four, "attn_temperature_tuning true"));  // read, not defaulted
    const Imported zero = import_file(write_config("scout-tuning-0.json", scout_with("no_rope_layers", "[], \"attn_temperature_tuning\": 0")));
    EXPECT_FALSE(zero.params[P::attn_temperature_tuning]);
    expect_refused(write_config("scout-tuning-word.json", scout_with("no_rope_layers", "[], \"attn_temperature_tuning\": \"yes\"")),
                   {"\"attn_temperature_tuning\"", "\"yes\"", "true or false"});
}

// SmolLM3Config derives no_rope_layers only when it is None (every 4th layer NoPE); an empty list
// is kept and fails on its first layer, so it is refused.
TEST(ConfigAudit, SmolLM3ListLeftOutIsEveryFourthEmptyIsRefused) {
    const std::string shape = R"({"model_type": "smollm3", "hidden_size": 2048, "num_attention_heads": 16,
        "num_hidden_layers": 36, "max_position_embeddings": 65536, "rope_theta": 5000000.0, NOPE})";
    auto with = [&](const std::string& nope) {
        std::string s = shape;
        return s.replace(s.find("NOPE"), 4, nope);
    };
    const Imported derived = import_file(write_config("smollm3-no-list.json", with("\"use_sliding_window\": false")));
    ASSERT_EQ(derived.params.model_layers().layers(), 36);
    EXPECT_EQ(nope_layers(derived.params), every_fourth(36));
    EXPECT_EQ(derived.params.config().dim, 128);
    expect_refused(write_config("smollm3-empty.json", with("\"no_rope_layers\": []")), {"\"no_rope_layers\"", "[]", "one entry per layer", "36"});
    // SmolLM3Config's default_theta where rope_theta is left out
    std::string no_theta = with("\"use_sliding_window\": false");
    no_theta.erase(no_theta.find("\"rope_theta\""), std::string("\"rope_theta\": 5000000.0, ").size());
    EXPECT_EQ(import_file(write_config("smollm3-no-theta.json", no_theta)).params.config().base, 2000000);
}

// Gemma3TextConfig's defaults for a text_config that gives only what differs from them: head_dim
// 256, base 1e6 on full layers, rope_local_base_freq 1e4 (unscaled) on the sliding ones, the 5:1 pattern.
TEST(ConfigAudit, Gemma3SparseTextConfigTakesTheClassDefaults) {
    const std::string path = write_config("gemma3-sparse.json", R"({"model_type": "gemma3", "text_config": {"hidden_size": 2560,
        "model_type": "gemma3_text", "num_hidden_layers": 34, "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024}})");
    const Imported gemma = import_file(path);
    const rope::ModelLayers m = gemma.params.model_layers();
    ASSERT_EQ(m.layers(), 34);
    for (int i = 0; i < 34; ++i) EXPECT_EQ(m.kind(i).attention, i % 6 == 5 ? rope::Attention::full : rope::Attention::sliding) << i;
    EXPECT_EQ(m.kind(0).window, 1024);
    const rope::RopeConfig full = gemma.params.config();  // the layer shown: the first full one
    EXPECT_EQ(gemma.params[P::layer], 5);
    EXPECT_EQ(full.dim, 256);
    EXPECT_EQ(full.base, 1e6);
    EXPECT_EQ(full.scaling, rope::Scaling::linear);
    const rope::RopeConfig sliding = gemma.params.with_kind(m.kind(0)).config();
    EXPECT_EQ(sliding.base, 10000);
    EXPECT_EQ(sliding.scaling, rope::Scaling::none);
    EXPECT_TRUE(has_warning(gemma, "Gemma3TextConfig defaults are used: head_dim 256, rope_theta 1000000"));
}

// Switches transformers tests for truth read 0 as false and other numbers as true: yarn's
// truncate, DeepSeek's rope_interleave. Anything else is refused.
TEST(ConfigAudit, NumberSwitchesAreTruthiness) {
    const std::string yarn = R"({"head_dim": 64, "max_position_embeddings": 16384, "rope_scaling": {"rope_type": "yarn", "factor": 4,
        "original_max_position_embeddings": 4096, "truncate": TRUNCATE}})";
    auto truncate = [&](const std::string& v) {
        std::string s = yarn;
        return s.replace(s.find("TRUNCATE"), 8, v);
    };
    EXPECT_FALSE(import_file(write_config("yarn-truncate-0.json", truncate("0"))).params[P::truncate]);
    EXPECT_TRUE(import_file(write_config("yarn-truncate-1.json", truncate("1"))).params[P::truncate]);
    expect_refused(write_config("yarn-truncate-word.json", truncate("\"no\"")), {"\"truncate\"", "\"no\"", "true or false"});
    const std::string deepseek = R"({"model_type": "deepseek_v3", "qk_rope_head_dim": 64, "rope_interleave": 0})";
    EXPECT_EQ(import_file(write_config("deepseek-interleave-0.json", deepseek)).params.config().pairing, rope::Pairing::half);
}

// Longrope's lists scale the rotated pairs one by one: int(head_dim x partial_rotary_factor) // 2 entries.
TEST(ConfigAudit, LongropeListsHaveOneEntryPerRotatedPair) {
    const std::string path = write_config("longrope-short-list.json", R"({"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
        "max_position_embeddings": 131072, "original_max_position_embeddings": 4096, "partial_rotary_factor": 0.5,
        "rope_scaling": {"type": "longrope", "short_factor": [1, 1, 1], "long_factor": [1, 2, 3]}})");
    expect_refused(path, {"\"rope_scaling.short_factor\"", "has 3 numbers", "24 (int(head_dim 96 x partial_rotary_factor 0.5) // 2)"});
}

// Gemma4TextConfig where Gemma 4 31B's text config leaves a key out: layer_types derived (every 6th
// layer full), rope_parameters (left out or null) proportional RoPE on a quarter of the full layers'
// pairs at base 1e6 and default RoPE at 1e4 on the sliding ones, global_head_dim 512, sliding_window 512.
TEST(ConfigAudit, Gemma4LeftOutKeysTakeTheClassDefaults) {
    const std::string file = "gemma-4-31b-transcribed.json";
    const std::string no_types = published_with(file, "g4-no-types.json", [](auto& c) { c.erase("layer_types"); });
    const rope::ModelLayers m = import_file(no_types).params.model_layers();
    ASSERT_EQ(m.layers(), 60);
    for (int i = 0; i < 60; ++i) EXPECT_EQ(m.kind(i).attention, i % 6 == 5 ? rope::Attention::full : rope::Attention::sliding) << i;
    const std::string null_types = published_with(file, "g4-null-types.json", [](auto& c) { c["layer_types"] = nullptr; });
    EXPECT_EQ(import_file(null_types).params.value_text(P::model_layers), import_file(no_types).params.value_text(P::model_layers));
    for (const char* name : {"g4-no-rope.json", "g4-null-rope.json"}) {
        const bool null = std::string(name) == "g4-null-rope.json";
        const std::string path = published_with(file, name, [&](auto& c) {
            if (null) c["rope_parameters"] = nullptr;
            else c.erase("rope_parameters");
        });
        const Imported gemma = import_file(path);
        const rope::RopeConfig full = gemma.params.config();  // the layer shown: layer 5, full attention
        EXPECT_EQ(full.scaling, rope::Scaling::proportional);
        EXPECT_EQ(full.rotary_fraction, 0.25);
        EXPECT_EQ(full.base, 1e6);
        EXPECT_EQ(full.dim, 512);
        const rope::RopeConfig sliding = gemma.params.with_kind(gemma.params.model_layers().kind(0)).config();
        EXPECT_EQ(sliding.scaling, rope::Scaling::none);
        EXPECT_EQ(sliding.base, 1e4);
        EXPECT_EQ(sliding.dim, 256);
        EXPECT_TRUE(has_warning(gemma, "Gemma4TextConfig defaults are used: rope_parameters")) << name;
        expect_reference_frequencies(path);
    }
    const Imported no_global = import_file(published_with(file, "g4-no-global.json", [](auto& c) { c.erase("global_head_dim"); }));
    EXPECT_EQ(no_global.params.config().dim, 512);
    const Imported no_window = import_file(published_with(file, "g4-no-window.json", [](auto& c) { c.erase("sliding_window"); }));
    EXPECT_EQ(no_window.params.model_layers().kind(0).window, 512);
    EXPECT_EQ(import_file(published_config(file)).params.model_layers().kind(0).window, 1024);  // as published
}

// Gemma4TextConfig forces the last layer to full_attention (with a warning); an empty
// rope_parameters has no entry for any layer type (the rope init's rope_parameters[layer_type] fails).
TEST(ConfigAudit, Gemma4LastLayerIsFullAndEmptyRopeParametersRefused) {
    const std::string file = "gemma-4-31b-transcribed.json";
    const Imported last_sliding = import_file(published_with(file, "g4-last-sliding.json", [](auto& c) { c["layer_types"][59] = "sliding_attention"; }));
    EXPECT_EQ(last_sliding.params.model_layers().kind(59).attention, rope::Attention::full);
    EXPECT_TRUE(has_warning(last_sliding, "makes the last layer full_attention"));
    expect_refused(published_with(file, "g4-empty-rope.json", [](auto& c) { c["rope_parameters"] = nlohmann::json::object(); }),
                   {"\"rope_parameters\"", "{}", "an entry per layer type"});
}

// Qwen2VLTextConfig / Qwen2_5_VLTextConfig: kwargs.get("rope_theta", 1000000.0), and sliding_window
// kept only if use_sliding_window (default false): no sliding layers, nothing to warn about.
TEST(ConfigAudit, Qwen2VlBaseDefaultsToAMillion) {
    for (const char* file : {"qwen2-vl-7b-instruct.json", "qwen2.5-vl-7b-instruct.json"}) {
        SCOPED_TRACE(file);
        const std::string path = published_with(file, std::string("no-theta-") + file, [](auto& c) { c.erase("rope_theta"); });
        const Imported qwen = import_file(path);
        EXPECT_EQ(qwen.params.config().base, 1e6);
        EXPECT_TRUE(has_warning(qwen, "rope_theta 1000000, use_sliding_window false"));
        EXPECT_FALSE(has_warning(qwen, "\"sliding_window\""));
        EXPECT_FALSE(has_warning(qwen, "\"max_window_layers\""));
        expect_reference_frequencies(path);
    }
}

// Qwen2-VL's and Qwen2.5-VL's apply_multimodal_rotary_pos_emb split the pairs in chunks
// (cos.split(mrope_section * 2)) and never read mrope_interleaved: a true one is warned, not followed.
TEST(ConfigAudit, Qwen2VlChunksWhateverMropeInterleavedSays) {
    const Imported qwen = import_file(published_with("qwen2-vl-7b-instruct.json", "q2vl-interleaved.json",
                                                [](auto& c) { c["rope_scaling"]["mrope_interleaved"] = true; }));
    EXPECT_FALSE(qwen.params[P::mrope_interleaved]);
    EXPECT_EQ(qwen.params.value_text(P::mrope_section), "16,24,24");
    EXPECT_TRUE(has_warning(qwen, "split the pairs in chunks whatever it says"));
}

// Qwen3VLTextConfig: head_dim 128 and default_theta 500000 where text_config leaves them out
// (Qwen3-VL 4B's heads are 128 wide though hidden_size / num_attention_heads is 80); Qwen3-VL MoE's.
TEST(ConfigAudit, Qwen3VlTextConfigDefaults) {
    const Imported no_head = import_file(published_with("qwen3-vl-4b-instruct.json", "q3vl4-no-head-dim.json",
                                                   [](auto& c) { c["text_config"].erase("head_dim"); }));
    EXPECT_EQ(no_head.params.config().dim, 128);
    EXPECT_EQ(no_head.params.value_text(P::mrope_section_interleaved), "24,20,20");
    const std::string no_theta = published_with("qwen3-vl-8b-instruct.json", "q3vl8-no-theta.json",
                                                [](auto& c) { c["text_config"].erase("rope_theta"); });
    EXPECT_EQ(import_file(no_theta).params.config().base, 500000);
    expect_reference_frequencies(no_theta);
    // Qwen3VLMoeTextConfig: the same default_theta; no head_dim default (hidden_size // num_attention_heads:
    // 64, whose 32 pairs the published section [24, 20, 20] does not fit)
    const std::string moe = published_with("qwen3-vl-30b-a3b-instruct-shaped.json", "q3vl-moe-no-theta.json",
                                           [](auto& c) { c["text_config"].erase("rope_theta"); });
    EXPECT_EQ(import_file(moe).params.config().base, 500000);
    expect_reference_frequencies(moe);
    expect_refused(published_with("qwen3-vl-30b-a3b-instruct-shaped.json", "q3vl-moe-no-head-dim.json",
                                  [](auto& c) { c["text_config"].erase("head_dim"); }),
                   {"\"rope_scaling.mrope_section\"", "[24, 20, 20]", "32 rotated pairs (head dim 64 / 2)"});
    // apply_interleaved_mrope reads mrope_section[1] and [2]: a 2-number section is refused
    expect_refused(published_with("qwen3-vl-8b-instruct.json", "q3vl8-section-2.json",
                                  [](auto& c) { c["text_config"]["rope_scaling"]["mrope_section"] = {24, 40}; }),
                   {"\"rope_scaling.mrope_section\"", "[24,40]", "3 whole numbers"});
}

// Qwen3NextConfig.__post_init__: full_attention_interval 4 and partial_rotary_factor 0.25 when left out.
TEST(ConfigAudit, Qwen3NextIntervalAndPartialRotaryDefaults) {
    const std::string file = "qwen3-coder-next-quanttrio.json";
    const Imported no_interval = import_file(published_with(file, "q3n-no-interval.json", [](auto& c) { c.erase("full_attention_interval"); }));
    const rope::ModelLayers m = no_interval.params.model_layers();
    ASSERT_EQ(m.layers(), 48);
    for (int i = 0; i < 48; ++i) EXPECT_EQ(m.kind(i).attention, i % 4 == 3 ? rope::Attention::full : rope::Attention::linear) << i;
    EXPECT_EQ(nope_layers(no_interval.params).size(), 36u);  // the linear-attention layers have no RoPE
    const std::string no_fraction = published_with(file, "q3n-no-fraction.json", [](auto& c) { c.erase("partial_rotary_factor"); });
    EXPECT_EQ(import_file(no_fraction).params.config().rotary_fraction, 0.25);
    expect_reference_frequencies(no_fraction);
}

// Phi3Config: original_max_position_embeddings 4096 when left out (longrope's factor is then
// max_position_embeddings / 4096); its validate_rope raises for rope types other than longrope
// (su and yarn are its aliases) and default.
TEST(ConfigAudit, Phi3OriginalContextDefaultAndRopeTypes) {
    const std::string file = "phi-3-mini-128k-instruct.json";
    const std::string no_original = published_with(file, "phi3-no-original.json", [](auto& c) { c.erase("original_max_position_embeddings"); });
    const rope::RopeConfig phi = import_file(no_original).params.config();
    EXPECT_EQ(phi.original_max_position, 4096);
    EXPECT_EQ(phi.factor, 32);
    expect_reference_frequencies(no_original);
    const rope::RopeConfig as_published = import_file(published_config(file)).params.config();
    const rope::RopeConfig yarn = import_file(published_with(file, "phi3-yarn.json", [](auto& c) { c["rope_scaling"]["type"] = "yarn"; })).params.config();
    EXPECT_EQ(yarn.scaling, rope::Scaling::longrope);
    EXPECT_EQ(yarn.short_factors, as_published.short_factors);
    expect_refused(published_with(file, "phi3-linear.json", [](auto& c) { c["rope_scaling"] = {{"type", "linear"}, {"factor", 2.0}}; }),
                   {"\"rope_scaling\"", "\"linear\"", "only longrope"});
}

// DeepseekV3Config: qk_rope_head_dim 64 when left out (not hidden_size / heads = 56); yarn's
// attention factor is mscale(factor, mscale) / mscale(factor, mscale_all_dim) only `if mscale and
// mscale_all_dim`, so an mscale of 0 gives 0.1 ln(factor) + 1; beta_fast 0 means 32 (`or 32`).
TEST(ConfigAudit, DeepseekV3RopeHeadDimAndYarnZeros) {
    const std::string file = "deepseek-v3.json";
    const Imported no_dim = import_file(published_with(file, "ds-no-rope-dim.json", [](auto& c) {
        c.erase("qk_rope_head_dim");
        c.erase("head_dim");
    }));
    EXPECT_EQ(no_dim.params.config().dim, 64);
    const ProcessResult r = run_process({ROPE_EXPLORER_BINARY, "compute", "summary", "--set",
                                         "config=" + published_with(file, "ds-mscale-0.json", [](auto& c) { c["rope_scaling"]["mscale"] = 0; })});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::size_t at = r.out.find("\nattention_factor,");
    ASSERT_NE(at, std::string::npos);
    EXPECT_NEAR(std::stod(r.out.substr(at + 18)), 0.1 * std::log(40.0) + 1, 1e-12);
    EXPECT_EQ(import_file(published_config(file)).params.config().attention_factor.value_or(0), 0);  // mscale 1 / 1: not an override
    const rope::RopeConfig zero_beta = import_file(published_with(file, "ds-beta-0.json", [](auto& c) { c["rope_scaling"]["beta_fast"] = 0; })).params.config();
    EXPECT_EQ(zero_beta.beta_fast, 32);
}

// The plain types' classes where a key is left out: GPTNeoXConfig's rotary_pct 0.25, GPTJConfig's
// rotary_dim 64, Glm4MoeConfig's partial_rotary_factor 0.5, Qwen3Config's and GemmaConfig's
// head_dim 128 and 256, GptOssConfig's base 150000, alternating layers and yarn.
TEST(ConfigAudit, PlainTypesClassDefaults) {
    struct Case {
        const char* file;
        std::function<void(nlohmann::json&)> edit;
        int dim;
        int rotated;
    };
    const std::vector<Case> cases = {
        {"pythia-12b.json", [](auto& c) { c.erase("rotary_pct"); }, 128, 32},
        {"gpt-j-6b.json", [](auto& c) { c.erase("rotary_dim"); }, 256, 64},
        {"glm-4.7.json", [](auto& c) { c.erase("partial_rotary_factor"); }, 128, 64},
        {"qwen3-8b.json", [](auto& c) { c.erase("head_dim"), c["hidden_size"] = 2560; }, 128, 128},
        {"gemma-7b.json", [](auto& c) { c.erase("head_dim"); }, 256, 256},
    };
    for (const Case& k : cases) {
        const std::string path = published_with(k.file, std::string("left-out-") + k.file, k.edit);
        const rope::RopeConfig c = import_file(path).params.config();
        EXPECT_EQ(c.dim, k.dim) << k.file;
        EXPECT_EQ(static_cast<int>(c.dim * c.rotary_fraction), k.rotated) << k.file;
        expect_reference_frequencies(path);
    }
    const std::string oss = published_with("gpt-oss-20b.json", "oss-left-out.json", [](auto& c) {
        for (const char* k : {"rope_scaling", "rope_theta", "layer_types"}) c.erase(k);
    });
    const Imported gpt_oss = import_file(oss);
    const rope::RopeConfig c = gpt_oss.params.config();
    EXPECT_EQ(c.base, 150000);
    EXPECT_EQ(c.scaling, rope::Scaling::yarn);
    EXPECT_EQ(c.factor, 32);
    EXPECT_FALSE(c.truncate);
    EXPECT_EQ(c.original_max_position, 4096);
    const rope::ModelLayers m = gpt_oss.params.model_layers();
    ASSERT_EQ(m.layers(), 24);
    for (int i = 0; i < 24; ++i) EXPECT_EQ(m.kind(i).attention, i % 2 ? rope::Attention::full : rope::Attention::sliding) << i;
    expect_reference_frequencies(oss);
}

// Qwen2-VL, Qwen2.5-VL and Qwen3 keep sliding_window only with use_sliding_window true; then the
// layers from max_window_layers on (default 80 for the VL classes, 28 for Qwen3) slide.
TEST(ConfigAudit, QwenSlidingLayersFromMaxWindowLayers) {
    const Imported vl = import_file(published_with("qwen2.5-vl-7b-instruct.json", "q25-sliding.json", [](auto& c) {
        c["use_sliding_window"] = true;
        c["max_window_layers"] = 20;
    }));
    const rope::ModelLayers m = vl.params.model_layers();
    ASSERT_EQ(m.layers(), 28);
    for (int i = 0; i < 28; ++i) EXPECT_EQ(m.kind(i).attention, i >= 20 ? rope::Attention::sliding : rope::Attention::full) << i;
    EXPECT_EQ(m.kind(20).window, 32768);
    EXPECT_FALSE(has_warning(vl, "\"use_sliding_window\""));
    const Imported qwen3 = import_file(published_with("qwen3-8b.json", "q3-sliding.json", [](auto& c) {
        c["use_sliding_window"] = true;
        c["sliding_window"] = 4096;
        c.erase("max_window_layers");
    }));
    ASSERT_EQ(qwen3.params.model_layers().layers(), 36);
    EXPECT_EQ(qwen3.params.model_layers().kind(27).attention, rope::Attention::full);
    EXPECT_EQ(qwen3.params.model_layers().kind(28).window, 4096);
    EXPECT_TRUE(has_warning(qwen3, "Qwen3Config defaults are used: max_window_layers 28"));
    // as published (use_sliding_window false): no layers, the window unused and not warned about
    const Imported published_vl = import_file(published_config("qwen2.5-vl-7b-instruct.json"));
    EXPECT_EQ(published_vl.params.model_layers().layers(), 0);
    EXPECT_FALSE(has_warning(published_vl, "\"sliding_window\""));
}

// Gemma4TextConfig: use_bidirectional_attention "all" sets the window to sliding_window // 2 + 1;
// an empty layer_types is kept and leaves the layers without a type (refused).
TEST(ConfigAudit, Gemma4BidirectionalWindowAndEmptyLayerTypes) {
    const std::string file = "gemma-4-31b-transcribed.json";
    const Imported all = import_file(published_with(file, "g4-bidirectional.json", [](auto& c) { c["use_bidirectional_attention"] = "all"; }));
    EXPECT_EQ(all.params.model_layers().kind(0).window, 513);
    const Imported vision = import_file(published_with(file, "g4-vision.json", [](auto& c) { c["use_bidirectional_attention"] = "vision"; }));
    EXPECT_EQ(vision.params.model_layers().kind(0).window, 1024);
    expect_refused(published_with(file, "g4-empty-types.json", [](auto& c) { c["layer_types"] = nlohmann::json::array(); }),
                   {"\"layer_types\" is []", "a list of layer type names, one per layer"});
}
