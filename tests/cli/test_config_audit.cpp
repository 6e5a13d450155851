// Issue 29's audit of the config import against transformers' configuration classes: each rule on
// a config in the shape its model publishes (README, "How each key is read"). Published files are
// in tests/reference/hf_configs (SOURCES.md); the variants are written here, one key changed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "rope/params.hpp"
#include "session/hf_config.hpp"
#include "session/session.hpp"
#include "support/process.hpp"

namespace P = rope::P;

using rope::ParamSet;
using rope::test::ProcessResult;
using rope::test::run_process;

namespace {

std::string published(const std::string& file) { return std::string(ROPE_HF_CONFIGS) + "/" + file; }

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

struct Imported {
    ParamSet params;
    std::vector<std::string> warnings;
};

Imported import(const std::string& path) {
    const rope::session::ConfigImport c = rope::session::import_hf_config(path);
    return {rope::session::with_config(ParamSet(), c, path), c.warnings};
}

std::vector<int> nope_layers(const ParamSet& p) {
    const rope::ModelLayers m = p.model_layers();
    std::vector<int> out;
    for (int i = 0; i < m.layers(); ++i)
        if (p.with_kind(m.kind(i)).config().nope) out.push_back(i);
    return out;
}

std::vector<int> every_fourth(int layers) {
    std::vector<int> out;
    for (int i = 3; i < layers; i += 4) out.push_back(i);
    return out;
}

bool has_warning(const Imported& imported, const std::string& text) {
    for (const std::string& w : imported.warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
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
    std::ifstream in(published("llama-4-scout-17b-16e-published.json"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string from = "\"" + key + "\": ";
    const std::size_t at = text.find(from);
    const std::size_t end = text.find_first_of(",\n", at + from.size());
    return text.substr(0, at) + from + value + text.substr(end);
}

}  // namespace

// Llama4TextConfig: `no_rope_layers if no_rope_layers else default`: Scout's published [] means
// every no_rope_layer_interval-th layer (4) is NoPE, the rest chunked RoPE layers.
TEST(ConfigAudit, Llama4ScoutPublishedEmptyNoRopeListIsEveryFourthLayer) {
    const Imported scout = import(published("llama-4-scout-17b-16e-published.json"));
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
                                         "config=" + published("llama-4-scout-17b-16e-published.json")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows = rope::test::split_lines(r.out);
    ASSERT_EQ(rows.size(), 49u);
    for (int i = 0; i < 48; ++i) EXPECT_EQ(rope::test::split(rows[static_cast<std::size_t>(i) + 1], ',')[4], i % 4 == 3 ? "false" : "true") << i;
    // the interval is read when the list is empty or null
    EXPECT_EQ(nope_layers(import(write_config("scout-interval-2.json", scout_with("no_rope_layers", "[], \"no_rope_layer_interval\": 2"))).params).size(), 24u);
    EXPECT_EQ(nope_layers(import(write_config("scout-null.json", scout_with("no_rope_layers", "null"))).params), every_fourth(48));
}

// Llama4TextConfig's num_hidden_layers 48 and default_theta 500000 where the file leaves them out,
// said in a warning.
TEST(ConfigAudit, Llama4ClassDefaultsWhereTheFileIsSilent) {
    const Imported saved = import(published("llama-4-scout-finetune-saved-4-51.json"));
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
    const Imported four = import(published("llama-4-scout-finetune-saved-4-51.json"));
    EXPECT_TRUE(four.params[P::attn_temperature_tuning]);
    EXPECT_EQ(four.params[P::floor_scale], 8192);
    EXPECT_EQ(four.params[P::attn_scale], 0.1);
    EXPECT_FALSE(has_warning(four, "attn_temperature_tuning true"));  // read, not defaulted
    const Imported zero = import(write_config("scout-tuning-0.json", scout_with("no_rope_layers", "[], \"attn_temperature_tuning\": 0")));
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
    const Imported derived = import(write_config("smollm3-no-list.json", with("\"use_sliding_window\": false")));
    ASSERT_EQ(derived.params.model_layers().layers(), 36);
    EXPECT_EQ(nope_layers(derived.params), every_fourth(36));
    EXPECT_EQ(derived.params.config().dim, 128);
    expect_refused(write_config("smollm3-empty.json", with("\"no_rope_layers\": []")), {"\"no_rope_layers\"", "[]", "one entry per layer", "36"});
    // SmolLM3Config's default_theta where rope_theta is left out
    std::string no_theta = with("\"use_sliding_window\": false");
    no_theta.erase(no_theta.find("\"rope_theta\""), std::string("\"rope_theta\": 5000000.0, ").size());
    EXPECT_EQ(import(write_config("smollm3-no-theta.json", no_theta)).params.config().base, 2000000);
}

// Gemma3TextConfig's defaults for a text_config that gives only what differs from them: head_dim
// 256, base 1e6 on full layers, rope_local_base_freq 1e4 (unscaled) on the sliding ones, the 5:1 pattern.
TEST(ConfigAudit, Gemma3SparseTextConfigTakesTheClassDefaults) {
    const std::string path = write_config("gemma3-sparse.json", R"({"model_type": "gemma3", "text_config": {"hidden_size": 2560,
        "model_type": "gemma3_text", "num_hidden_layers": 34, "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024}})");
    const Imported gemma = import(path);
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
    EXPECT_FALSE(import(write_config("yarn-truncate-0.json", truncate("0"))).params[P::truncate]);
    EXPECT_TRUE(import(write_config("yarn-truncate-1.json", truncate("1"))).params[P::truncate]);
    expect_refused(write_config("yarn-truncate-word.json", truncate("\"no\"")), {"\"truncate\"", "\"no\"", "true or false"});
    const std::string deepseek = R"({"model_type": "deepseek_v3", "qk_rope_head_dim": 64, "rope_interleave": 0})";
    EXPECT_EQ(import(write_config("deepseek-interleave-0.json", deepseek)).params.config().pairing, rope::Pairing::half);
}

// Longrope's lists scale the rotated pairs one by one: int(head_dim x partial_rotary_factor) // 2 entries.
TEST(ConfigAudit, LongropeListsHaveOneEntryPerRotatedPair) {
    const std::string path = write_config("longrope-short-list.json", R"({"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
        "max_position_embeddings": 131072, "original_max_position_embeddings": 4096, "partial_rotary_factor": 0.5,
        "rope_scaling": {"type": "longrope", "short_factor": [1, 1, 1], "long_factor": [1, 2, 3]}})");
    expect_refused(path, {"\"rope_scaling.short_factor\"", "has 3 numbers", "24 (int(head_dim 96 x partial_rotary_factor 0.5) // 2)"});
}
