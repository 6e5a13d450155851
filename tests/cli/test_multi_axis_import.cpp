// `--set config=PATH` for the models with positions on several axes: Qwen VL text configs (M-RoPE,
// chunked and interleaved, in every layout transformers writes) and Pixtral's vision encoder,
// against an independent numpy reading (tests/reference/mrope_reference.py); bad sections refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "support/app_cli.hpp"
#include "support/process.hpp"

using rope::test::ProcessResult;
using rope::test::run_process;
using rope::test::split;
using rope::test::split_lines;

namespace {

const std::string kConfigs = ROPE_HF_CONFIGS;

using rope::test::app;

nlohmann::json mrope_reference(const nlohmann::json& cases) {
    const std::string path = "/tmp/rope-mrope-cases-" + std::to_string(getpid()) + ".json";
    std::ofstream(path) << cases.dump();
    const ProcessResult r = run_process({"/usr/bin/python3", ROPE_MROPE_REFERENCE_SCRIPT, path});
    std::remove(path.c_str());
    if (r.exit_code != 0) throw std::runtime_error(r.err);
    return nlohmann::json::parse(r.out);
}

std::string summary_value(const std::string& csv, const std::string& key) {
    for (const auto& line : split_lines(csv)) {
        const auto cols = split(line, ',');
        if (cols.size() == 2 && cols[0] == key) return cols[1];
    }
    return "(missing)";
}

struct AxesRow {
    std::string axis;
    double theta;
};
// compute axes' rows of one layout, by pair
std::vector<AxesRow> axes_rows(const std::string& csv, const std::string& layout) {
    std::vector<AxesRow> rows;
    for (const auto& line : split_lines(csv)) {
        const auto c = split(line, ',');
        if (c.size() >= 4 && c[0] == layout) rows.push_back({c[2], std::stod(c[3])});
    }
    return rows;
}

std::set<int> pairs_on(const std::vector<AxesRow>& rows, const std::string& axis) {
    std::set<int> s;
    for (std::size_t j = 0; j < rows.size(); ++j)
        if (rows[j].axis == axis) s.insert(static_cast<int>(j));
    return s;
}

std::set<int> indices(const nlohmann::json& list) {
    std::set<int> s;
    for (const auto& v : list) s.insert(v.get<int>());
    return s;
}

}  // namespace

TEST(MultiAxisImport, QwenVlConfigsMatchTheReference) {
    const std::vector<std::string> files = {"qwen2-vl-7b-instruct.json",  "qwen2.5-vl-7b-instruct.json",
                                            "qwen2.5-vl-72b-instruct.json", "qwen3-vl-8b-instruct.json",
                                            "qwen3-vl-4b-instruct.json",  "qwen3-vl-2b-instruct-transcribed.json",
                                            "qwen3-vl-30b-a3b-instruct-shaped.json", "qwen3-vl-8b-rope-parameters.json"};
    nlohmann::json read = nlohmann::json::array();
    for (const auto& f : files) read.push_back({{"kind", "hf_mrope"}, {"path", kConfigs + "/" + f}});
    const nlohmann::json settings = mrope_reference(read);
    nlohmann::json layouts = nlohmann::json::array();
    for (const auto& s : settings)
        layouts.push_back({{"kind", "mrope"}, {"head_dim", s["head_dim"]}, {"base", s["base"]}, {"section", s["section"]},
                           {"interleaved", s["interleaved"]}, {"q", std::vector<double>(s["head_dim"].get<int>(), 1.0)},
                           {"k", std::vector<double>(s["head_dim"].get<int>(), 1.0)}});
    const nlohmann::json expected = mrope_reference(layouts);
    for (std::size_t i = 0; i < files.size(); ++i) {
        SCOPED_TRACE(files[i]);
        const std::string config = "config=" + kConfigs + "/" + files[i];
        const ProcessResult summary = app({"compute", "summary", "--set", config});
        ASSERT_EQ(summary.exit_code, 0) << summary.err;
        const nlohmann::json& s = settings[i];
        EXPECT_EQ(summary_value(summary.out, "rope_axes"), "mrope");
        EXPECT_EQ(summary_value(summary.out, "dim"), std::to_string(s["head_dim"].get<int>()));
        EXPECT_EQ(std::stod(summary_value(summary.out, "base")), s["base"].get<double>());
        EXPECT_EQ(summary_value(summary.out, "pairing"), "half");
        const bool interleaved = s["interleaved"].get<bool>();
        EXPECT_EQ(summary_value(summary.out, "mrope_layout"), interleaved ? "interleaved" : "chunked");
        EXPECT_EQ(summary_value(summary.out, "pairs_t"), std::to_string(s["section"][0].get<int>()));
        EXPECT_EQ(summary_value(summary.out, "pairs_h"), std::to_string(s["section"][1].get<int>()));
        EXPECT_EQ(summary_value(summary.out, "pairs_w"), std::to_string(s["section"][2].get<int>()));
        // which pairs turn with t, h and w, and how fast: numpy's, from the model's code
        const ProcessResult axes = app({"compute", "axes", "--set", config});
        ASSERT_EQ(axes.exit_code, 0) << axes.err;
        const std::vector<AxesRow> rows = axes_rows(axes.out, interleaved ? "interleaved" : "chunked");
        const nlohmann::json& e = expected[i];
        ASSERT_EQ(rows.size(), e["theta"].size());
        for (const char* axis : {"t", "h", "w"}) EXPECT_EQ(pairs_on(rows, axis), indices(e["axes"][axis])) << axis;
        for (std::size_t j = 0; j < rows.size(); ++j)
            EXPECT_NEAR(rows[j].theta, e["theta"][j].get<double>(), 1e-14 * e["theta"][j].get<double>()) << j;
    }
}

TEST(MultiAxisImport, PixtralVisionConfigIsAlternating2dRope) {
    const std::string config = "config=" + kConfigs + "/pixtral-12b-vision.json";
    const ProcessResult summary = app({"compute", "summary", "--set", config});
    ASSERT_EQ(summary.exit_code, 0) << summary.err;
    EXPECT_TRUE(summary.err.empty()) << summary.err;
    EXPECT_EQ(summary_value(summary.out, "rope_axes"), "2d_axial");
    EXPECT_EQ(summary_value(summary.out, "axial_frequencies"), "alternating");
    EXPECT_EQ(summary_value(summary.out, "dim"), "64");
    EXPECT_EQ(summary_value(summary.out, "pairing"), "half");
    // image_size 1024 / patch_size 16: the largest grid, 64 x 64
    EXPECT_EQ(split_lines(app({"compute", "patches", "--set", config}).out).size(), 1u + 64u * 64u);
    // numpy's Pixtral table at patch (1, 0) holds the rows' frequencies, at (0, 1) the columns'
    const nlohmann::json e = mrope_reference({{{"kind", "axial"}, {"schedule", "pixtral"}, {"head_dim", 64}, {"base", 10000},
                                               {"pairing", "half"}, {"rows", 2}, {"cols", 2}, {"query", {0, 0}},
                                               {"q", std::vector<double>(64, 1.0)}, {"k", std::vector<double>(64, 1.0)}}})[0];
    const std::vector<AxesRow> rows = axes_rows(app({"compute", "axes", "--set", config}).out, "axial");
    ASSERT_EQ(rows.size(), 32u);
    for (std::size_t j = 0; j < 32; ++j) {
        const bool row_pair = e["angles"][2][j].get<double>() != 0;
        EXPECT_EQ(rows[j].axis, row_pair ? "h" : "w") << j;
        const double theta = row_pair ? e["angles"][2][j].get<double>() : e["angles"][1][j].get<double>();
        EXPECT_NEAR(rows[j].theta, theta, 1e-14 * theta) << j;
    }
}

TEST(MultiAxisImport, PresetsAgreeWithTheirConfigFiles) {
    const std::pair<const char*, const char*> cases[] = {{"qwen2-vl-7b", "qwen2-vl-7b-instruct.json"},
                                                         {"qwen2.5-vl-7b", "qwen2.5-vl-7b-instruct.json"},
                                                         {"qwen3-vl-8b", "qwen3-vl-8b-instruct.json"},
                                                         {"qwen3-vl-8b", "qwen3-vl-8b-rope-parameters.json"},
                                                         {"pixtral-12b-vision", "pixtral-12b-vision.json"}};
    for (const auto& [preset, file] : cases) {
        SCOPED_TRACE(std::string(preset) + " " + file);
        for (const char* table : {"axes", "freqs"}) {
            const ProcessResult from_preset = app({"compute", table, "--set", std::string("preset=") + preset});
            const ProcessResult from_config = app({"compute", table, "--set", "config=" + kConfigs + "/" + file});
            ASSERT_EQ(from_preset.exit_code, 0) << from_preset.err;
            EXPECT_EQ(from_preset.out, from_config.out) << table;
        }
    }
}

// One line naming the file, the key, the value and what is allowed; exit 2; nothing written.
TEST(MultiAxisImport, SectionsThatDoNotFitAreRefused) {
    const std::string dir = "/tmp/rope-mrope-configs-" + std::to_string(getpid());
    run_process({"/bin/mkdir", "-p", dir});
    const std::string head = R"({"model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0, )";
    const std::pair<const char*, std::string> bad[] = {
        {"sum-60.json", head + R"("rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 20]}})"},
        {"two.json", head + R"("rope_scaling": {"type": "mrope", "mrope_section": [32, 32]}})"},
        {"negative.json", head + R"("rope_scaling": {"type": "mrope", "mrope_section": [16, -8, 56]}})"},
        {"fraction.json", head + R"("rope_scaling": {"type": "mrope", "mrope_section": [16.5, 24, 23.5]}})"},
        {"text.json", head + R"("rope_scaling": {"type": "mrope", "mrope_section": "16,24,24"}})"},
        {"no-section.json", head + R"("rope_scaling": {"type": "mrope"}})"},
        {"interleaved-too-many.json",
         R"({"model_type": "qwen3_vl", "text_config": {"head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 5000000, "rope_scaling": {"rope_type": "default", "mrope_interleaved": true, "mrope_section": [16, 24, 24]}}})"},
        {"v5-sum.json",
         R"({"model_type": "qwen3_vl", "text_config": {"head_dim": 128, "num_attention_heads": 32, "rope_parameters": {"rope_type": "default", "rope_theta": 5000000, "mrope_interleaved": true, "mrope_section": [24, 20, 21]}}})"},
        {"flag.json", head + R"("rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24], "mrope_interleaved": "yes"}})"},
    };
    for (const auto& [name, content] : bad) {
        SCOPED_TRACE(name);
        const std::string path = dir + "/" + name;
        std::ofstream(path) << content;
        const ProcessResult r = app({"compute", "summary", "--set", "config=" + path});
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_TRUE(r.out.empty()) << r.out.substr(0, 100);
        EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("mrope_"), std::string::npos) << r.err;
        if (std::string(name) != "flag.json") {
            EXPECT_NE(r.err.find("adding up to the 64 rotated pairs"), std::string::npos) << r.err;
        }
        // a figure file is not written either
        const std::string out = dir + "/" + name + ".png";
        const ProcessResult e = app({"export", "decay", "--out", out, "--set", "config=" + path});
        EXPECT_EQ(e.exit_code, 2) << e.err;
        EXPECT_NE(access(out.c_str(), F_OK), 0) << out;
    }
    // the value and the rule are named
    const ProcessResult sum = app({"compute", "summary", "--set", "config=" + dir + "/sum-60.json"});
    EXPECT_NE(sum.err.find("\"rope_scaling.mrope_section\" is [16, 24, 20]"), std::string::npos) << sum.err;
    EXPECT_NE(sum.err.find("add up to 60"), std::string::npos) << sum.err;
    const ProcessResult v5 = app({"compute", "summary", "--set", "config=" + dir + "/v5-sum.json"});
    EXPECT_NE(v5.err.find("\"rope_parameters.mrope_section\" is [24, 20, 21] (interleaved)"), std::string::npos) << v5.err;
    run_process({"/bin/rm", "-rf", dir});
}

// Qwen3-VL's code: mrope_section defaults to [24, 20, 20], and the axes are interleaved whatever
// mrope_interleaved says; each said in a warning. Another model's import resets the axes and the grid.
TEST(MultiAxisImport, Qwen3VlDefaultsAndTheNextImport) {
    const std::string dir = "/tmp/rope-mrope-defaults-" + std::to_string(getpid());
    run_process({"/bin/mkdir", "-p", dir});
    const std::string bare = dir + "/qwen3-vl-no-section.json", off = dir + "/qwen3-vl-flag-off.json";
    std::ofstream(bare) << R"({"model_type": "qwen3_vl", "text_config": {"model_type": "qwen3_vl_text", "head_dim": 128, "num_attention_heads": 32, "rope_theta": 5000000, "rope_scaling": {"rope_type": "default"}}})";
    std::ofstream(off) << R"({"model_type": "qwen3_vl", "text_config": {"model_type": "qwen3_vl_text", "head_dim": 128, "num_attention_heads": 32, "rope_theta": 5000000, "rope_scaling": {"rope_type": "default", "mrope_interleaved": false, "mrope_section": [24, 20, 20]}}})";
    const ProcessResult r = app({"compute", "summary", "--set", "config=" + bare});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("no \"mrope_section\"; using Qwen3-VL's code default [24, 20, 20]"), std::string::npos) << r.err;
    EXPECT_EQ(summary_value(r.out, "mrope_layout"), "interleaved");
    EXPECT_EQ(summary_value(r.out, "pairs_t"), "24");
    const ProcessResult f = app({"compute", "summary", "--set", "config=" + off});
    ASSERT_EQ(f.exit_code, 0) << f.err;
    EXPECT_NE(f.err.find("interleaves the axes whatever it says"), std::string::npos) << f.err;
    EXPECT_EQ(summary_value(f.out, "mrope_layout"), "interleaved");
    // the next model starts from nothing: text RoPE on one axis, the default grid
    const ProcessResult next = app({"compute", "summary", "--set", "config=" + kConfigs + "/pixtral-12b-vision.json", "--set",
                                    "config=" + kConfigs + "/qwen3-8b.json"});
    ASSERT_EQ(next.exit_code, 0) << next.err;
    EXPECT_EQ(summary_value(next.out, "rope_axes"), "1d");
    const ProcessResult ids = app({"compute", "position-ids", "--set", "config=" + kConfigs + "/pixtral-12b-vision.json", "--set",
                                   "config=" + kConfigs + "/qwen2-vl-7b-instruct.json", "--set", "text_before=0", "--set", "text_after=0"});
    EXPECT_EQ(split_lines(ids.out).size(), 1u + 12u * 16u) << ids.err;
    run_process({"/bin/rm", "-rf", dir});
}

// The video rule and what it reads from vision_config, as each model's code does: Qwen2-VL numbers
// temporal patches, Qwen2.5-VL reads vision_config.tokens_per_second (its config class' default 4
// where the file has none), Qwen3-VL writes timestamps; the presets agree with their files.
TEST(MultiAxisImport, VideoSettingsComeFromTheConfigAsTheModelsCodeReadsThem) {
    const std::vector<std::string> video = {"--set", "media=video", "--set", "grid_rows=2", "--set", "grid_cols=2",
                                            "--set", "video_frames=7", "--set", "video_fps=0.84"};
    auto ids = [&](const std::string& source) {
        std::vector<std::string> args = {"compute", "position-ids", "--set", source};
        args.insert(args.end(), video.begin(), video.end());
        return app(args);
    };
    const std::pair<const char*, const char*> cases[] = {{"qwen2-vl-7b", "qwen2-vl-7b-instruct.json"},
                                                         {"qwen2.5-vl-7b", "qwen2.5-vl-7b-instruct.json"},
                                                         {"qwen3-vl-8b", "qwen3-vl-8b-instruct.json"}};
    for (const auto& [preset, file] : cases) {
        SCOPED_TRACE(file);
        const ProcessResult a = ids(std::string("preset=") + preset), b = ids("config=" + kConfigs + "/" + file);
        ASSERT_EQ(a.exit_code, 0) << a.err;
        ASSERT_EQ(b.exit_code, 0) << b.err;
        EXPECT_EQ(a.out, b.out);
    }
    EXPECT_NE(ids("config=" + kConfigs + "/qwen3-vl-8b-instruct.json").out.find(",timestamp,"), std::string::npos);
    const std::string dir = "/tmp/rope-video-configs-" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    nlohmann::json c = nlohmann::json::parse(rope::test::read_file(kConfigs + "/qwen2.5-vl-7b-instruct.json"));
    c["vision_config"].erase("tokens_per_second");
    std::ofstream(dir + "/no-tps.json") << c.dump();
    // fps 2: second_per_grid_t = 1, so temporal patch k at s + 4k with the class default
    const ProcessResult d = app({"compute", "position-ids", "--set", "config=" + dir + "/no-tps.json", "--set", "media=video", "--set",
                                 "grid_rows=1", "--set", "grid_cols=1", "--set", "video_frames=6", "--set", "text_before=0", "--set", "text_after=0"});
    ASSERT_EQ(d.exit_code, 0) << d.err;
    EXPECT_EQ(d.out, "index,kind,frame,row,col,t,h,w\n0,video,0,0,0,0,0,0\n1,video,1,0,0,4,0,0\n2,video,2,0,0,8,0,0\n");
    c["vision_config"]["tokens_per_second"] = "two";
    std::ofstream(dir + "/bad-tps.json") << c.dump();
    const ProcessResult bad = app({"compute", "position-ids", "--set", "config=" + dir + "/bad-tps.json"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_TRUE(bad.out.empty());
    EXPECT_NE(bad.err.find("vision_config.tokens_per_second"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("\"two\""), std::string::npos) << bad.err;
    std::filesystem::remove_all(dir);
}

// The porting bug as a parameter: with the cast, fps 4 gives every temporal patch t = s.
TEST(MultiAxisImport, TheSecondsCastBugCollapsesTheTimeIds) {
    auto t_column = [&](bool bug) {
        const ProcessResult r = app({"compute", "position-ids", "--set", "preset=qwen2.5-vl-7b", "--set", "media=video", "--set", "grid_rows=1",
                                     "--set", "grid_cols=1", "--set", "video_frames=8", "--set", "video_fps=4", "--set", "text_before=0",
                                     "--set", "text_after=0", "--set", std::string("video_seconds_cast=") + (bug ? "true" : "false")});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return r.out;
    };
    EXPECT_EQ(t_column(false), "index,kind,frame,row,col,t,h,w\n0,video,0,0,0,0,0,0\n1,video,1,0,0,1,0,0\n2,video,2,0,0,2,0,0\n3,video,3,0,0,3,0,0\n");
    EXPECT_EQ(t_column(true), "index,kind,frame,row,col,t,h,w\n0,video,0,0,0,0,0,0\n1,video,1,0,0,0,0,0\n2,video,2,0,0,0,0,0\n3,video,3,0,0,0,0,0\n");
}
