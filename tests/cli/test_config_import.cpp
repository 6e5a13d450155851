// `--set config=PATH` against an independent numpy reading of the same config.json (the way
// transformers' rope-init reads it), for a real-shaped config of every family; bad configs.
#include <gtest/gtest.h>
#include <dirent.h>
#include <unistd.h>

#include <cctype>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/app_cli.hpp"
#include "support/process.hpp"

using rope::test::ProcessResult;
using rope::test::run_process;
using rope::test::split;
using rope::test::split_lines;

namespace {

std::vector<std::string> config_files() {
    std::vector<std::string> files;
    DIR* d = opendir(ROPE_HF_CONFIGS);
    while (dirent* e = readdir(d)) {
        const std::string n = e->d_name;
        if (n.size() > 5 && n.substr(n.size() - 5) == ".json") files.push_back(std::string(ROPE_HF_CONFIGS) + "/" + n);
    }
    closedir(d);
    std::sort(files.begin(), files.end());
    return files;
}

using rope::test::app;

nlohmann::json reference(const nlohmann::json& cases) {
    const std::string path = "/tmp/rope-hf-cases-" + std::to_string(getpid()) + ".json";
    std::ofstream(path) << cases.dump();
    const ProcessResult r = run_process({"/usr/bin/python3", ROPE_REFERENCE_SCRIPT, path});
    std::remove(path.c_str());
    if (r.exit_code != 0) throw std::runtime_error(r.err);
    return nlohmann::json::parse(r.out);
}

// `compute freqs` output: its theta column equals the reference's to 1e-14 relative.
void expect_theta_column(const std::string& csv, const nlohmann::json& theta) {
    const auto lines = split_lines(csv);
    ASSERT_EQ(lines.size(), theta.size() + 1);
    for (std::size_t k = 0; k < theta.size(); ++k) {
        const double got = std::stod(split(lines[k + 1], ',')[1]);
        EXPECT_LE(std::abs(got - theta[k].get<double>()), 1e-14 * std::abs(theta[k].get<double>())) << k;
    }
}

}  // namespace

// Every config here, at the layer the import shows first (the first full-attention layer with RoPE,
// else layer 0: the reference reads the config's one RoPE setting, or its full_attention entry), and
// the other kinds of layer of the models with layers.
TEST(ConfigImport, EveryFamilyMatchesTheReference) {
    std::vector<std::pair<std::string, std::string>> cases;  // path, layer type ("" = the import's first)
    for (const std::string& f : config_files()) cases.push_back({f, ""});
    cases.push_back({std::string(ROPE_HF_CONFIGS) + "/gemma-3-rope-parameters.json", "sliding_attention"});
    cases.push_back({std::string(ROPE_HF_CONFIGS) + "/gemma-3-12b-it-text.json", "sliding_attention"});
    cases.push_back({std::string(ROPE_HF_CONFIGS) + "/gemma-4-31b-transcribed.json", "sliding_attention"});
    cases.push_back({std::string(ROPE_HF_CONFIGS) + "/gpt-oss-20b.json", "sliding_attention"});
    ASSERT_GE(cases.size(), 28u);
    nlohmann::json request = nlohmann::json::array();
    for (const auto& [path, layer] : cases)
        request.push_back({{"kind", "hf_config"}, {"path", path}, {"layer_type", layer.empty() ? "full_attention" : layer}});
    const nlohmann::json expected = reference(request);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const auto& [path, layer] = cases[i];
        SCOPED_TRACE(path + " " + layer);
        std::vector<std::string> sets = {"--set", "config=" + path};
        if (!layer.empty()) sets.insert(sets.begin(), {"--set", "layer_type=" + layer});
        std::vector<std::string> args = {"compute", "freqs"};
        args.insert(args.end(), sets.begin(), sets.end());
        const ProcessResult r = app(args);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        expect_theta_column(r.out, expected[i]["theta"]);
        args[1] = "summary";
        args.insert(args.end(), {"--set", "max_position=1024"});
        const ProcessResult s = app(args);
        const std::size_t at = s.out.find("\nattention_factor,");
        ASSERT_NE(at, std::string::npos);
        EXPECT_NEAR(std::stod(s.out.substr(at + 18)), expected[i]["attention_factor"].get<double>(), 1e-12);
    }
}

// Each preset that has its model's config.json here gives the same numbers as importing that file
// (at the preset's sequence length: the whole extended context).
TEST(ConfigImport, PresetsAgreeWithTheirConfigFiles) {
    struct Case {
        const char* preset;
        const char* file;
        const char* sequence_length;  // the preset's: the whole extended context
    };
    const Case cases[] = {{"phi-3-mini-128k", "phi-3-mini-128k-instruct.json", "131072"},
                          {"llama-3.1-8b", "llama-3.1-8b.json", "131072"},
                          {"deepseek-v3", "deepseek-v3.json", "163840"},
                          {"gpt-oss", "gpt-oss.json", "131072"},
                          {"kimi-k2-0905", "kimi-k2-instruct-0905.json", "262144"},
                          {"deepseek-v2-lite", "deepseek-v2-lite.json", "163840"}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.preset);
        const ProcessResult from_preset = app({"compute", "freqs", "--set", std::string("preset=") + c.preset});
        ASSERT_EQ(from_preset.exit_code, 0) << from_preset.err;
        const ProcessResult from_config = app({"compute", "freqs", "--set", "config=" + std::string(ROPE_HF_CONFIGS) + "/" + c.file,
                                               "--set", std::string("sequence_length=") + c.sequence_length});
        ASSERT_EQ(from_config.exit_code, 0) << from_config.err;
        EXPECT_EQ(from_preset.out, from_config.out);
        EXPECT_GT(split_lines(from_preset.out).size(), 16u);
    }
}

// Models that bias the score instead of rotating (BLOOM, MPT, T5) read as their classes read them:
// BLOOM's two spellings (n_head / num_attention_heads, hidden_size / n_embed), MPT's attn_config dict,
// a T5 file without model_type or relative_attention_max_distance (128, T5Config's default); each gives
// what its preset gives, and nothing rotates.
TEST(ConfigImport, BiasModelsMatchTheirPresets) {
    for (const char* model : {"bloom-7b1", "bloom-176b", "mpt-7b", "t5-base"}) {
        SCOPED_TRACE(model);
        for (const char* table : {"summary", "alibi", "t5-buckets", "freqs"}) {
            const ProcessResult from_preset = app({"compute", table, "--set", std::string("preset=") + model});
            const ProcessResult from_config = app({"compute", table, "--set", "config=" + std::string(ROPE_HF_CONFIGS) + "/" + model + ".json"});
            ASSERT_EQ(from_config.exit_code, 0) << from_config.err;
            EXPECT_EQ(from_preset.out, from_config.out) << table;
        }
    }
    const ProcessResult t5 = app({"compute", "summary", "--set", "config=" + std::string(ROPE_HF_CONFIGS) + "/t5-base.json"});
    EXPECT_NE(t5.out.find("\ndim,64\n"), std::string::npos) << t5.out;
    const ProcessResult bloom = app({"compute", "freqs", "--set", "config=" + std::string(ROPE_HF_CONFIGS) + "/bloom-176b.json"});
    for (const std::string& row : split_lines(bloom.out)) {
        if (row.empty() || !std::isdigit(static_cast<unsigned char>(row[0]))) continue;
        EXPECT_NE(row.find(",0,"), std::string::npos) << row;  // theta 0
    }

    const std::string dir = "/tmp/rope-bias-configs-" + std::to_string(getpid());
    run_process({"/bin/mkdir", "-p", dir});
    std::ofstream(dir + "/mpt-off.json") << R"({"model_type": "mpt", "d_model": 4096, "n_heads": 32, "attn_config": {"alibi": 0}})";
    std::ofstream(dir + "/mpt-16.json") << R"({"model_type": "mpt", "d_model": 4096, "n_heads": 32, "max_seq_len": 65536, "attn_config": {"alibi": 1, "alibi_bias_max": 16}})";
    std::ofstream(dir + "/t5-one.json") << R"({"model_type": "t5", "relative_attention_num_buckets": 1})";
    const ProcessResult off = app({"compute", "alibi", "--set", "config=" + dir + "/mpt-off.json"});
    EXPECT_EQ(off.exit_code, 2);
    EXPECT_NE(off.err.find("\"attn_config.alibi\" is false"), std::string::npos) << off.err;
    const ProcessResult storywriter = app({"compute", "alibi", "--set", "config=" + dir + "/mpt-16.json"});
    ASSERT_EQ(storywriter.exit_code, 0) << storywriter.err;
    EXPECT_NE(storywriter.out.find("\n0,0.7071067811865476\n"), std::string::npos) << storywriter.out;  // 2^(-16/32)
    const ProcessResult one = app({"compute", "t5-buckets", "--set", "config=" + dir + "/t5-one.json"});
    EXPECT_EQ(one.exit_code, 2);
    EXPECT_NE(one.err.find("relative_attention_num_buckets"), std::string::npos) << one.err;
    run_process({"/bin/rm", "-rf", dir});
}

// The corners of transformers' rules, each against the numpy reading: DeepSeek's rotary head part,
// dynamic NTK against max_position_embeddings, short contexts, Phi-3's yarn alias, beta 0, Gemma 3's
// local base in the older layout, attention_factor only where transformers reads it.
TEST(ConfigImport, TransformersRulesInTheCorners) {
    const std::string dir = "/tmp/rope-corner-configs-" + std::to_string(getpid());
    run_process({"/bin/mkdir", "-p", dir});
    struct Case {
        const char* file;
        const char* content;
        const char* layer_type;
        const char* sequence_length;  // "" = as imported (max_position_embeddings)
    };
    const Case cases[] = {
        {"deepseek-official.json", R"({"model_type": "deepseek_v3", "hidden_size": 7168, "num_attention_heads": 128, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "max_position_embeddings": 163840, "rope_theta": 10000, "rope_scaling": {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096, "beta_fast": 32, "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0}})", "full_attention", ""},
        {"dynamic-inner-original.json", R"({"head_dim": 128, "max_position_embeddings": 4096, "rope_scaling": {"rope_type": "dynamic", "factor": 2, "original_max_position_embeddings": 2048}})", "full_attention", "8192"},
        {"dynamic-short.json", R"({"head_dim": 64, "max_position_embeddings": 2048, "rope_scaling": {"type": "dynamic", "factor": 2}})", "full_attention", ""},
        {"longrope-short.json", R"({"head_dim": 8, "max_position_embeddings": 2048, "rope_scaling": {"type": "longrope", "factor": 4, "long_factor": [1, 2, 3, 4], "short_factor": [1, 1.5, 1, 1]}})", "full_attention", ""},
        {"phi3-yarn-alias.json", R"({"model_type": "phi3", "head_dim": 8, "max_position_embeddings": 131072, "original_max_position_embeddings": 4096, "rope_scaling": {"type": "yarn", "long_factor": [1, 2, 3, 4], "short_factor": [1, 1.5, 1, 1]}})", "full_attention", ""},
        {"linear-attention.json", R"({"head_dim": 128, "max_position_embeddings": 16384, "rope_scaling": {"rope_type": "linear", "factor": 4, "attention_factor": 0.5}})", "full_attention", ""},
        {"yarn-beta-zero.json", R"({"head_dim": 128, "max_position_embeddings": 16384, "rope_scaling": {"rope_type": "yarn", "factor": 4, "beta_fast": 0, "beta_slow": 0, "original_max_position_embeddings": 4096}})", "full_attention", ""},
        {"gemma3-legacy.json", R"({"head_dim": 256, "rope_theta": 1000000, "rope_local_base_freq": 10000, "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "linear", "factor": 8}})", "sliding_attention", ""},
    };
    nlohmann::json request = nlohmann::json::array();
    for (const Case& c : cases) {
        std::ofstream(dir + "/" + c.file) << c.content;
        nlohmann::json q = {{"kind", "hf_config"}, {"path", dir + "/" + c.file}, {"layer_type", c.layer_type}};
        if (*c.sequence_length) q["sequence_length"] = std::stoi(c.sequence_length);
        request.push_back(q);
    }
    const nlohmann::json expected = reference(request);
    for (std::size_t i = 0; i < std::size(cases); ++i) {
        const Case& c = cases[i];
        SCOPED_TRACE(c.file);
        std::vector<std::string> args = {"compute", "freqs", "--set", std::string("layer_type=") + c.layer_type, "--set",
                                         "config=" + dir + "/" + c.file};
        if (*c.sequence_length) args.insert(args.end(), {"--set", std::string("sequence_length=") + c.sequence_length});
        const ProcessResult r = app(args);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        expect_theta_column(r.out, expected[i]["theta"]);
        args[1] = "summary";
        const ProcessResult s = app(args);
        const std::size_t at = s.out.find("\nattention_factor,");
        ASSERT_NE(at, std::string::npos);
        EXPECT_NEAR(std::stod(s.out.substr(at + 18)), expected[i]["attention_factor"].get<double>(), 1e-12);
    }
    // the details the numbers above do not show
    const ProcessResult deepseek = app({"compute", "summary", "--set", "config=" + dir + "/deepseek-official.json"});
    EXPECT_NE(deepseek.out.find("\ndim,64\n"), std::string::npos) << deepseek.out;
    EXPECT_NE(deepseek.out.find("\npairing,interleaved\n"), std::string::npos) << deepseek.out;
    const ProcessResult linear = app({"compute", "summary", "--set", "config=" + dir + "/linear-attention.json"});
    EXPECT_NE(linear.err.find("\"attention_factor\" is ignored for rope type linear"), std::string::npos) << linear.err;
    const ProcessResult gemma = app({"compute", "summary", "--set", "layer_type=sliding_attention", "--set", "config=" + dir + "/gemma3-legacy.json"});
    EXPECT_NE(gemma.out.find("\nbase,10000\n"), std::string::npos) << gemma.out;
    EXPECT_NE(gemma.out.find("\nscaling,none\n"), std::string::npos) << gemma.out;
    run_process({"/bin/rm", "-rf", dir});
}

// A config replaces the whole model, as a preset does: nothing of the one before survives.
TEST(ConfigImport, ImportReplacesThePreviousModel) {
    const std::string configs = ROPE_HF_CONFIGS;
    for (const char* preset : {"deepseek-v3", "phi-3-mini-128k", "gpt-oss", "llama-3.1-8b"}) {
        for (const char* file : {"gpt-oss.json", "llama-2-7b.json", "mistral-7b.json", "qwen2.5-7b-yarn.json"}) {
            SCOPED_TRACE(std::string(preset) + " then " + file);
            const ProcessResult alone = app({"compute", "summary", "--set", "config=" + configs + "/" + file});
            const ProcessResult after = app({"compute", "summary", "--set", std::string("preset=") + preset, "--set", "config=" + configs + "/" + file});
            ASSERT_EQ(alone.exit_code, 0) << alone.err;
            ASSERT_EQ(after.exit_code, 0) << after.err;
            EXPECT_EQ(after.out, alone.out);
        }
    }
    // an unscaled config's context is its training length, as in its preset (critical dimension 120)
    const ProcessResult mistral = app({"compute", "summary", "--set", "config=" + configs + "/mistral-7b.json"});
    const ProcessResult preset = app({"compute", "summary", "--set", "preset=mistral-7b-v0.1"});
    EXPECT_NE(mistral.out.find("\ncritical_dimension,120\n"), std::string::npos) << mistral.out;
    EXPECT_NE(preset.out.find("\ncritical_dimension,120\n"), std::string::npos) << preset.out;
}

TEST(ConfigImport, BadConfigsAreOneLineNamingTheFile) {
    const std::string dir = "/tmp/rope-bad-configs-" + std::to_string(getpid());
    run_process({"/bin/mkdir", "-p", dir});
    const std::pair<const char*, const char*> bad[] = {
        {"not-json.json", "this is not json"},
        {"truncated.json", R"({"hidden_size": 4096, "num_attention_heads": )"},
        {"no-head.json", R"({"rope_theta": 10000})"},
        {"wrong-type.json", R"({"hidden_size": "big", "num_attention_heads": 32})"},
        {"bad-type.json", R"({"head_dim": 128, "rope_scaling": {"rope_type": "quantum", "factor": 2}})"},
        {"no-factor.json", R"({"head_dim": 128, "rope_scaling": {"rope_type": "linear"}})"},
        {"llama3-missing.json", R"({"head_dim": 128, "rope_scaling": {"rope_type": "llama3", "factor": 8}})"},
        {"list-length.json", R"({"head_dim": 96, "max_position_embeddings": 131072, "original_max_position_embeddings": 4096, "rope_scaling": {"type": "longrope", "long_factor": [1, 2], "short_factor": [1, 2]}})"},
        {"odd-head.json", R"({"head_dim": 7})"},
        {"factor-below-one.json", R"({"head_dim": 128, "rope_scaling": {"rope_type": "linear", "factor": 0.5}})"},
        {"layer-not-object.json", R"({"head_dim": 128, "rope_parameters": {"full_attention": "x", "sliding_attention": {}}})"},
        // a model's layers that do not add up, and fractions out of range
        {"layer-types-length.json", R"({"head_dim": 64, "num_hidden_layers": 4, "layer_types": ["sliding_attention", "full_attention", "sliding_attention"]})"},
        {"layer-type-without-rope.json", R"({"head_dim": 64, "num_hidden_layers": 2, "layer_types": ["chunked_attention", "full_attention"], "rope_parameters": {"full_attention": {"rope_theta": 10000.0}}})"},
        {"no-rope-length.json", R"({"head_dim": 64, "num_hidden_layers": 4, "no_rope_layers": [1, 1, 0]})"},
        {"no-rope-value.json", R"({"head_dim": 64, "num_hidden_layers": 4, "no_rope_layers": [1, 1, 2, 0]})"},
        {"fraction-outside.json", R"({"head_dim": 64, "partial_rotary_factor": 1.5})"},
        {"fraction-inside.json", R"({"head_dim": 64, "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0}})"},
        {"proportional-no-pair.json", R"({"head_dim": 256, "global_head_dim": 512, "num_hidden_layers": 2, "layer_types": ["sliding_attention", "full_attention"], "rope_parameters": {"full_attention": {"partial_rotary_factor": 0.003, "rope_theta": 1000000.0, "rope_type": "proportional"}, "sliding_attention": {"rope_theta": 10000.0, "rope_type": "default"}}})"},
    };
    for (const auto& [name, content] : bad) {
        const std::string path = dir + "/" + name;
        std::ofstream(path) << content;
        const ProcessResult r = app({"compute", "summary", "--set", "config=" + path});
        EXPECT_EQ(r.exit_code, 2) << name;
        EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty());
    }
    const ProcessResult missing = app({"compute", "summary", "--set", "config=" + dir + "/none.json"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("no such file"), std::string::npos);
    // unsupported keys: a one-line warning each, never a silent wrong picture
    const std::string mm = dir + "/multimodal.json";
    std::ofstream(mm) << R"({"head_dim": 128, "rope_theta": 1000000, "vision_config": {}, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}})";
    const ProcessResult w = app({"compute", "summary", "--set", "config=" + mm});
    EXPECT_EQ(w.exit_code, 0) << w.err;
    EXPECT_NE(w.err.find("vision_config"), std::string::npos) << w.err;
    EXPECT_EQ(w.err.find("mrope_section"), std::string::npos) << w.err;  // read: M-RoPE (test_multi_axis_import.cpp)
    EXPECT_NE(w.out.find("\nrope_axes,mrope\n"), std::string::npos) << w.out;
    const std::string top = dir + "/top-level.json";
    std::ofstream(top) << R"({"head_dim": 128, "rope_interleaved": true, "no_rope_layers": [1, 0], "qk_nope_head_dim": 64,
                             "max_window_layers": 28, "attention_chunk_size": 8192, "use_qk_norm": true})";
    const ProcessResult t = app({"compute", "summary", "--set", "config=" + top});
    EXPECT_EQ(t.exit_code, 0) << t.err;
    EXPECT_NE(t.err.find("\"rope_interleaved\" is not supported"), std::string::npos) << t.err;
    EXPECT_NE(t.err.find("\"max_window_layers\" is not supported"), std::string::npos) << t.err;
    EXPECT_NE(t.err.find("\"attention_chunk_size\" is not supported"), std::string::npos) << t.err;  // no chunked layer
    EXPECT_EQ(t.err.find("no_rope_layers"), std::string::npos) << t.err;  // read: two layers, the second NoPE
    EXPECT_EQ(t.err.find("qk_nope_head_dim"), std::string::npos) << t.err;
    EXPECT_EQ(t.err.find("use_qk_norm"), std::string::npos) << t.err;
    EXPECT_EQ(rope::test::count_lines(t.err), 3) << t.err;
    run_process({"/bin/rm", "-rf", dir});
}
