// 2025-26's models (Hunyuan-A13B, Command R7B and A, GLM-4.1V and 4.5V, Kimi Linear, DeepSeek-V4 Flash and
// Pro, Qwen3.5) from their config files and from their presets, against an independent numpy
// re-derivation written as each model's own code (tests/reference/models_2025_reference.py): which
// layers rotate (compute layers), every kind of layer's frequencies (compute freqs --set layer=N), a
// vector turned at several positions (compute rotate: the pairing), and the axis of every pair for the
// models with positions on three axes (compute axes). Bad keys are refused in one line naming them.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/app_cli.hpp"
#include "support/process.hpp"
#include "support/python_reference.hpp"

using rope::test::compute;
using rope::test::ProcessResult;
using rope::test::split;
using rope::test::split_lines;

namespace models_2025_test {

const std::string kModelConfigs = ROPE_HF_CONFIGS;

struct Model {
    std::string file;    // in tests/reference/hf_configs
    std::string preset;  // the preset of the same model ("" if none)
    std::string axes;    // the layout compute axes names for it ("" for 1D)
};

const std::vector<Model> kModels = {
    {"hunyuan-a13b-instruct.json", "hunyuan-a13b", ""},
    {"command-r7b-12-2024-transcribed.json", "command-r7b", ""},
    {"command-a-03-2025-transcribed.json", "command-a", ""},
    {"glm-4.5v-shaped.json", "glm-4.5v", "chunked"},
    {"glm-4.1v-9b-shaped.json", "glm-4.1v-9b", "chunked"},
    {"kimi-linear-48b-a3b-instruct.json", "kimi-linear-48b-a3b", ""},
    {"deepseek-v4-flash.json", "deepseek-v4", ""},
    {"deepseek-v4-pro.json", "deepseek-v4-pro", ""},
    {"qwen3.5-0.8b.json", "qwen3.5-0.8b", "interleaved"},
    {"ernie-4.5-vl-28b-a3b-converted.json", "ernie-4.5-vl-28b-a3b", "ernie_3d"},
    {"ernie-4.5-vl-28b-a3b-released-shape.json", "ernie-4.5-vl-28b-a3b", "ernie_3d"},
};

std::vector<std::vector<std::string>> rows(const ProcessResult& r) {
    std::vector<std::vector<std::string>> out;
    const auto lines = split_lines(r.out);
    for (std::size_t i = 1; i < lines.size(); ++i) out.push_back(split(lines[i], ','));
    return out;
}

// "config=..." or "preset=..."
std::vector<std::string> source_of(const Model& m, bool preset) {
    return {preset ? "preset=" + m.preset : "config=" + kModelConfigs + "/" + m.file};
}

std::vector<double> test_vector(int dims) {
    std::vector<double> v;
    for (int i = 0; i < dims; ++i) v.push_back(std::sin(0.7 * i + 0.3) + 0.1 * i);
    return v;
}

std::string text(double x) {
    char b[40];
    std::snprintf(b, sizeof b, "%.17g", x);
    return b;
}

std::string joined(const std::vector<double>& v) {
    std::string s;
    for (double x : v) s += (s.empty() ? "" : ",") + text(x);
    return s;
}

void expect_close(double got, double want, double rel, const std::string& what) {
    EXPECT_LE(std::abs(got - want), rel * std::max(1e-300, std::abs(want)) + 1e-300) << what << ": " << got << " vs " << want;
}

}  // namespace models_2025_test

using namespace models_2025_test;

TEST(Models2025, LayersFrequenciesPairsAndAxesMatchTheirCode) {
    const std::vector<double> positions = {1, 7, 1000, 123457};
    for (const Model& m : kModels) {
        for (bool preset : {false, true}) {
            SCOPED_TRACE(m.file + (preset ? " (preset " + m.preset + ")" : ""));
            const std::vector<std::string> source = source_of(m, preset);
            const ProcessResult summary = compute("summary", source);
            ASSERT_EQ(summary.exit_code, 0) << summary.err;
            int dim = 0;
            for (const auto& r : rows(summary))
                if (r.size() == 2 && r[0] == "dim") dim = std::stoi(r[1]);
            ASSERT_GT(dim, 0);
            const std::vector<double> vector = test_vector(dim);

            const ProcessResult layers = compute("layers", source);
            const bool has_layers = layers.exit_code == 0;
            const auto layer_rows = has_layers ? rows(layers) : std::vector<std::vector<std::string>>{};
            // the first layer of each kind, and the layer shown
            std::vector<int> probe = {};
            std::set<std::string> kinds;
            for (std::size_t i = 0; i < layer_rows.size(); ++i)
                if (kinds.insert(layer_rows[i][1]).second) probe.push_back(static_cast<int>(i));
            if (probe.empty()) probe.push_back(-1);  // a model without layers: its one setting

            nlohmann::json request = nlohmann::json::array();
            nlohmann::json rotate_layers = nlohmann::json::array();
            for (int l : probe) rotate_layers.push_back(std::max(l, 0));
            request.push_back({{"kind", "model"}, {"path", kModelConfigs + "/" + m.file}, {"vector", vector}, {"positions", positions},
                               {"rotate_layers", rotate_layers}});
            const nlohmann::json ref = rope::test::run_python_reference(ROPE_MODELS_2025_REFERENCE_SCRIPT, request)[0];

            if (has_layers) {
                ASSERT_EQ(layer_rows.size(), ref["layers"].size());
                for (std::size_t i = 0; i < layer_rows.size(); ++i)
                    EXPECT_EQ(layer_rows[i][4] == "true", ref["layers"][i]["rotates"].get<bool>()) << "layer " << i;
            } else {
                EXPECT_EQ(ref["layers"].size() > 0, true);
            }
            for (int l : probe) {
                const std::string at = std::to_string(std::max(l, 0));
                const nlohmann::json& want = ref["layers"][static_cast<std::size_t>(std::max(l, 0))];
                std::vector<std::string> sets = source;
                if (l >= 0) sets.push_back("layer=" + at);
                const ProcessResult freqs = compute("freqs", sets);
                ASSERT_EQ(freqs.exit_code, 0) << freqs.err;
                const auto f = rows(freqs);
                ASSERT_GE(f.size(), want["theta"].size()) << "layer " << at;
                for (std::size_t k = 0; k < want["theta"].size(); ++k) {
                    expect_close(std::stod(f[k][1]), want["theta"][k].get<double>(), 1e-12, "layer " + at + " pair " + std::to_string(k));
                    EXPECT_EQ(f[k][5] == "true", want["rotates"].get<bool>()) << "layer " << at << " pair " << k;
                }
                for (std::size_t k = want["theta"].size(); k < f.size(); ++k) EXPECT_EQ(f[k][5], "false") << "a pair past the rotated dims turns";
                for (std::size_t p = 0; p < positions.size(); ++p) {
                    std::vector<std::string> rs = sets;
                    rs.push_back("vector=" + joined(vector));
                    rs.push_back("position=" + text(positions[p]));
                    const ProcessResult rot = compute("rotate", rs);
                    ASSERT_EQ(rot.exit_code, 0) << rot.err;
                    const auto v = rows(rot);
                    const nlohmann::json& turned = ref["rotated"][at][p];
                    ASSERT_EQ(v.size(), turned.size());
                    for (std::size_t i = 0; i < v.size(); ++i)
                        EXPECT_NEAR(std::stod(v[i][1]), turned[i].get<double>(), 1e-9) << "layer " << at << " position " << positions[p] << " dim " << i;
                }
            }
            if (!m.axes.empty()) {
                const ProcessResult axes = compute("axes", source);
                ASSERT_EQ(axes.exit_code, 0) << axes.err;
                const nlohmann::json& want = ref["layers"][ref["shown"].get<std::size_t>()];
                std::vector<std::vector<std::string>> mine;
                for (const auto& r : rows(axes))
                    if (r[0] == m.axes) mine.push_back(r);
                ASSERT_EQ(mine.size(), want["axis"].size());
                for (std::size_t j = 0; j < mine.size(); ++j) {
                    EXPECT_EQ(mine[j][2], want["axis"][j].get<std::string>()) << "pair " << j;
                    expect_close(std::stod(mine[j][3]), want["theta"][j].get<double>(), 1e-12, "axes pair " + std::to_string(j));
                }
            }
        }
    }
}

// ERNIE-4.5-VL's position ids for an image and for a video between text, from both config shapes and the
// preset, as its get_rope_index numbers them.
TEST(Models2025, ErnieIdsAreItsGetRopeIndex) {
    struct Media {
        std::vector<std::string> sets;
        nlohmann::json request;
    };
    const std::vector<Media> media = {
        {{"text_before=3", "text_after=4", "grid_rows=3", "grid_cols=5"},
         {{"kind", "ernie_ids"}, {"text_before", 3}, {"text_after", 4}, {"rows", 3}, {"cols", 5}}},
        {{"media=video", "text_before=2", "text_after=2", "grid_rows=2", "grid_cols=3", "video_frames=6"},
         {{"kind", "ernie_ids"}, {"text_before", 2}, {"text_after", 2}, {"rows", 2}, {"cols", 3}, {"frames", 6}, {"temporal", 2}}}};
    nlohmann::json request = nlohmann::json::array();
    for (const Media& m : media) request.push_back(m.request);
    const nlohmann::json ref = rope::test::run_python_reference(ROPE_MODELS_2025_REFERENCE_SCRIPT, request);
    for (const std::string source : {"config=" + kModelConfigs + "/ernie-4.5-vl-28b-a3b-converted.json",
                                     "config=" + kModelConfigs + "/ernie-4.5-vl-28b-a3b-released-shape.json", std::string("preset=ernie-4.5-vl-28b-a3b")}) {
        for (std::size_t i = 0; i < media.size(); ++i) {
            SCOPED_TRACE(source + " " + media[i].request.dump());
            std::vector<std::string> sets = {source};
            sets.insert(sets.end(), media[i].sets.begin(), media[i].sets.end());
            const ProcessResult r = compute("position-ids", sets);
            ASSERT_EQ(r.exit_code, 0) << r.err;
            std::vector<std::vector<std::string>> ids;
            for (const auto& row : rows(r)) ids.push_back({row.end() - 3, row.end()});
            const nlohmann::json& want = ref[i]["ids"];
            ASSERT_EQ(ids.size(), want.size());
            for (std::size_t k = 0; k < ids.size(); ++k)
                for (int a = 0; a < 3; ++a) EXPECT_EQ(std::stod(ids[k][static_cast<std::size_t>(a)]), want[k][static_cast<std::size_t>(a)].get<double>()) << "token " << k;
        }
    }
}

// What each model's code would refuse, or default, said in one line naming the key.
TEST(Models2025, MissingAndWrongKeysAreReadAsTheirClassesReadThem) {
    const std::string dir = "/tmp/rope-models-2025-" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    struct Case {
        const char* base;
        std::function<void(nlohmann::json&)> edit;
        const char* expect;  // in stderr; exit 2 when `refused`
        bool refused;
    };
    const std::vector<Case> cases = {
        {"kimi-linear-48b-a3b-instruct.json", [](nlohmann::json& c) { c["mla_use_nope"] = false; }, "\"mla_use_nope\" is false", true},
        {"kimi-linear-48b-a3b-instruct.json", [](nlohmann::json& c) { c.erase("mla_use_nope"); }, "\"mla_use_nope\" is false", true},
        {"kimi-linear-48b-a3b-instruct.json", [](nlohmann::json& c) { c["linear_attn_config"]["kda_layers"].erase(0); },
         "layer 1 is in neither", true},
        {"kimi-linear-48b-a3b-instruct.json", [](nlohmann::json& c) { c.erase("linear_attn_config"); }, "every 4th layer full attention", false},
        {"deepseek-v4-flash.json", [](nlohmann::json& c) { c["compress_ratios"][3] = 8; }, "\"compress_ratios\" item 3 is 8", true},
        {"deepseek-v4-flash.json", [](nlohmann::json& c) { c["compress_ratios"] = {0, 4}; }, "\"compress_ratios\"", true},
        {"deepseek-v4-flash.json", [](nlohmann::json& c) { c.erase("compress_rope_theta"); }, "compress_rope_theta 160000", false},
        {"deepseek-v4-flash.json", [](nlohmann::json& c) { c["compress_rope_theta"] = "big"; }, "\"rope_theta\" is \"big\"", true},
        {"hunyuan-a13b-instruct.json", [](nlohmann::json& c) { c["model_type"] = "hunyuan_v1_moe"; }, "\"head_dim\" is missing", true},
        {"hunyuan-a13b-instruct.json", [](nlohmann::json& c) { c["rope_scaling"]["alpha"] = 0.5; }, "alpha\" is 0.5", true},
        {"hunyuan-a13b-instruct.json", [](nlohmann::json& c) { c["rope_scaling"]["alpha"] = "x"; }, "\"alpha\" is \"x\"", true},
        {"glm-4.5v-shaped.json", [](nlohmann::json& c) { c["text_config"]["rope_scaling"].erase("mrope_section"); }, "no \"mrope_section\"", true},
        {"glm-4.5v-shaped.json", [](nlohmann::json& c) { c["text_config"]["rope_scaling"]["mrope_section"] = {8, 12, 11}; },
         "mrope_section\" is [8, 12, 11]", true},
        {"command-r7b-12-2024-transcribed.json", [](nlohmann::json& c) { c["sliding_window_pattern"] = 0; }, "sliding_window_pattern", true},
        {"command-r7b-12-2024-transcribed.json", [](nlohmann::json& c) { c["sliding_window"] = nullptr; }, "none rotates", false},
        {"qwen3.5-0.8b.json", [](nlohmann::json& c) { c["text_config"]["rope_parameters"].erase("mrope_section"); }, "[11, 11, 10]", false},
        {"ernie-4.5-vl-28b-a3b-converted.json", [](nlohmann::json& c) { c["text_config"]["rope_parameters"]["mrope_section"] = {20, 24, 20}; },
         "needs h = w", true},
        {"ernie-4.5-vl-28b-a3b-converted.json", [](nlohmann::json& c) { c["text_config"]["rope_parameters"]["rope_type"] = "yarn"; },
         "requires the default rope type", true},
        {"ernie-4.5-vl-28b-a3b-released-shape.json", [](nlohmann::json& c) { c["freq_allocation"] = 21; }, "needs h = w", true},
        {"ernie-4.5-vl-28b-a3b-released-shape.json", [](nlohmann::json& c) { c["freq_allocation"] = "20"; }, "\"freq_allocation\" is \"20\"", true},
        {"ernie-4.5-vl-28b-a3b-released-shape.json", [](nlohmann::json& c) { c["rope_3d"] = false; }, "neither transformers nor vLLM reads it", false},
        {"qwen3.5-0.8b.json", [](nlohmann::json& c) { c["text_config"]["rope_parameters"]["mrope_interleaved"] = false; },
         "interleaves the axes whatever it says", false},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(c.base) + " -> " + c.expect);
        std::ifstream in(kModelConfigs + "/" + c.base);
        nlohmann::json j = nlohmann::json::parse(in);
        c.edit(j);
        const std::string path = dir + "/config.json";
        std::ofstream(path) << j.dump();
        const ProcessResult r = compute("summary", {"config=" + path});
        EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
        if (c.refused) {
            EXPECT_EQ(r.exit_code, 2);
            EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
        } else {
            EXPECT_EQ(r.exit_code, 0) << r.err;
        }
    }
    std::filesystem::remove_all(dir);
}
