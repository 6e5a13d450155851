// `rope-explorer compute` as people run it: real process, real stdout/stderr/exit code.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "rope/decay.hpp"
#include "rope/frequencies.hpp"
#include "rope/params.hpp"
#include "rope/rotation.hpp"
#include "support/app_cli.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace P = rope::P;

using rope::test::ProcessResult;
using rope::test::run_process;
using rope::test::split;
using rope::test::split_lines;
using rope::test::summary_value;

namespace {

using rope::test::app;
using rope::test::compute;

void expect_usage_error(const ProcessResult& r, const std::string& must_mention) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out.substr(0, 200);
    EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(must_mention), std::string::npos) << r.err;
}

}  // namespace

TEST(ComputeCli, FreqsTable) {
    const ProcessResult r = compute("freqs", {"dim=8", "base=10000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[0].rfind("pair,theta,wavelength", 0), 0u);
    EXPECT_EQ(lines[1].rfind("0,1,6.283185307179586", 0), 0u);
    EXPECT_EQ(lines[2].rfind("1,0.1,62.83185307179586", 0), 0u);
}

TEST(ComputeCli, FreqsEqualTheCoreBitForBit) {
    const ProcessResult r = compute("freqs", {"base=500000", "scaling=llama3", "factor=8", "original_max_position=8192"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    rope::ParamSet p;
    p.set(P::base, "500000");
    p.set(P::scaling, "llama3");
    p.set(P::factor, "8");
    p.set(P::original_max_position, "8192");
    const auto f = rope::compute_frequencies(p.config());
    const auto lines = split_lines(r.out);
    ASSERT_EQ(static_cast<int>(lines.size()), f.pairs() + 1);
    for (int i = 0; i < f.pairs(); ++i) {
        const auto cols = split(lines[i + 1], ',');
        EXPECT_EQ(std::stoi(cols[0]), i);
        EXPECT_EQ(std::stod(cols[1]), f.theta[i]);  // shortest round trip reads back exactly
        EXPECT_EQ(std::stod(cols[2]), f.wavelength(i));
    }
}

TEST(ComputeCli, AnglesTableCoversEveryPositionAndPair) {
    const ProcessResult r = compute("angles", {"dim=16", "max_position=100"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    ASSERT_EQ(lines.size(), 1u + 100u * 8u);
    EXPECT_EQ(lines[0].rfind("position,pair,angle", 0), 0u);
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto cols = split(lines[i], ',');
        const long m = std::stol(cols[0]);
        const int pair = std::stoi(cols[1]);
        EXPECT_EQ(static_cast<std::size_t>(m * 8 + pair + 1), i);
        const double angle = std::stod(cols[2]);
        EXPECT_GT(angle, -rope::kPi);
        EXPECT_LE(angle, rope::kPi);
        const double theta = std::pow(10000.0, -2.0 * pair / 16.0);
        EXPECT_NEAR(std::remainder(angle - m * theta, 2 * rope::kPi), 0.0, 1e-12);
    }
}

TEST(ComputeCli, RotateTable) {
    const ProcessResult r = compute("rotate", {"dim=4", "pairing=half", "vector=4,5,6,7", "position=1"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[0].rfind("index,value", 0), 0u);
    const double printed[4] = {-2.8876, 4.9298, 6.6077, 7.0496};  // teaching material, d = 4
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(std::stod(split(lines[i + 1], ',')[1]), printed[i], 1e-4);
}

TEST(ComputeCli, DecayTableEqualsTheCore) {
    const ProcessResult r = compute("decay", {"max_distance=5000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    ASSERT_EQ(lines.size(), 5002u);
    EXPECT_EQ(lines[0], "distance,bound");
    EXPECT_EQ(lines[1], "0,32.5");
    const Eigen::VectorXd b = rope::decay_bound(rope::base_frequencies(10000.0, 128), 5000);
    for (int i = 0; i <= 5000; ++i) {
        const auto cols = split(lines[i + 1], ',');
        ASSERT_EQ(std::stoi(cols[0]), i);
        EXPECT_EQ(std::stod(cols[1]), b[i]);
    }
}

TEST(ComputeCli, DecayTableIsTheSameInEveryChunk) {
    // written by several threads a chunk at a time: the rows must come out whole and in order
    const ProcessResult r = compute("decay", {"max_distance=100000", "dim=64"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    ASSERT_EQ(lines.size(), 100002u);
    const Eigen::VectorXd b = rope::decay_bound(rope::base_frequencies(10000.0, 64), 100000);
    for (int i = 0; i <= 100000; i += 997) {
        const auto cols = split(lines[static_cast<std::size_t>(i) + 1], ',');
        ASSERT_EQ(std::stoi(cols[0]), i);
        EXPECT_EQ(std::stod(cols[1]), b[i]);
    }
}

TEST(ComputeCli, BaseBoundsPerContextEndAtTheSummarysBound) {
    const ProcessResult r = compute("base-bounds", {"dim=128", "max_position=4096"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    ASSERT_EQ(lines.size(), 8u);  // header, then 64 .. 4096
    EXPECT_EQ(lines[0], "rotated_dims,context,base");
    EXPECT_EQ(lines[1].rfind("128,64,", 0), 0u);
    const auto last = split(lines[7], ',');
    EXPECT_EQ(last[1], "4096");
    // the summary searches from base 1, the table from the last context's bound: the same base but
    // for the last digits of the final step
    const ProcessResult s = compute("summary", {"dim=128", "max_position=4096"});
    const std::size_t at = s.out.find("\nbase_lower_bound,");
    ASSERT_NE(at, std::string::npos) << s.out;
    EXPECT_NEAR(std::stod(s.out.substr(at + 18)) / std::stod(last[2]), 1.0, 1e-9);
    EXPECT_NEAR(std::stod(last[2]), 26952, 1) << "Men et al.: d = 128 needs a base of about 2.7e4 for 4096 tokens";
    // one rotated pair turns by 1 rad a token whatever the base: none works
    const ProcessResult one = compute("base-bounds", {"dim=2", "max_position=64"});
    EXPECT_EQ(one.out, "rotated_dims,context,base\n2,64,none\n");
}

TEST(ComputeCli, SummaryHasTheKeys) {
    const ProcessResult r = compute("summary", {"scaling=yarn", "factor=4", "dim=64"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(split_lines(r.out)[0], "key,value");
    for (const char* key : {"\ndim,64\n", "\nrotated_dims,64\n", "\nbase,10000\n", "\nscaling,yarn\n", "\nattention_factor,"})
        EXPECT_NE(r.out.find(key), std::string::npos) << key;
}

TEST(ComputeCli, LargeTablesStream) {
    const ProcessResult r = compute("decay", {"max_distance=1048576"});
    ASSERT_EQ(r.exit_code, 0);
    EXPECT_EQ(rope::test::count_lines(r.out), 1048578);
}

TEST(ComputeCli, BadInputIsOneLineExitTwoNothingOnStdout) {
    expect_usage_error(compute("bogus"), "bogus");
    expect_usage_error(app({"compute"}), "table");
    expect_usage_error(app({"frobnicate"}), "frobnicate");
    expect_usage_error(compute("freqs", {"nosuchkey=1"}), "nosuchkey");
    expect_usage_error(compute("freqs", {"dim=7"}), "dim=7");
    expect_usage_error(compute("freqs", {"dim=130.5"}), "dim=130.5");
    expect_usage_error(compute("freqs", {"dim=8192"}), "4096");
    expect_usage_error(compute("freqs", {"dim=abc"}), "dim=abc");
    expect_usage_error(compute("freqs", {"base=1"}), "base=1");
    expect_usage_error(compute("freqs", {"base=0.5"}), "(1, 1000000000000]");
    expect_usage_error(compute("freqs", {"base=nan"}), "base=nan");
    expect_usage_error(compute("freqs", {"base=inf"}), "base=inf");
    expect_usage_error(compute("freqs", {"base=-inf"}), "base=-inf");
    expect_usage_error(compute("freqs", {"base=1e999"}), "base=1e999");
    expect_usage_error(compute("freqs", {"rotary_fraction=0"}), "rotary_fraction=0");
    expect_usage_error(compute("freqs", {"rotary_fraction=2"}), "(0, 1]");
    expect_usage_error(compute("freqs", {"pairing=neox"}), "interleaved");
    expect_usage_error(compute("freqs", {"position=-1"}), "position=-1");
    expect_usage_error(compute("freqs", {"max_position=0"}), "max_position=0");
    expect_usage_error(compute("freqs", {"max_distance=-1"}), "max_distance=-1");
    expect_usage_error(compute("rotate", {"vector=1,2,3"}), "exactly 128");
    expect_usage_error(compute("rotate", {"dim=4", "vector=1,2,nan,4"}), "vector=");
    expect_usage_error(compute("freqs", {"scaling=magic"}), "scaling=magic");
    expect_usage_error(compute("freqs", {"factor=0.5"}), "factor=0.5");
    expect_usage_error(compute("freqs", {"scaling=ntk", "dim=2"}), "scaling=ntk");
    expect_usage_error(compute("freqs", {"scaling=longrope", "dim=8", "long_factors=1,2"}), "long_factors");
    expect_usage_error(compute("freqs", {"dim"}), "key=value");
    expect_usage_error(app({"compute", "freqs", "--set"}), "--set");
    expect_usage_error(app({"compute", "freqs", "--bogus"}), "--bogus");
}

TEST(ComputeCli, PresetsTableAndPresetKey) {
    const ProcessResult r = compute("presets");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    EXPECT_EQ(lines[0].rfind("name,head_dim,rotated_dims,base,scaling,context", 0), 0u);
    EXPECT_GE(lines.size(), 16u);
    bool llama31 = false;
    for (const auto& l : lines) llama31 = llama31 || l.rfind("llama-3.1-8b,128,128,500000,llama3,131072", 0) == 0;
    EXPECT_TRUE(llama31);
    const ProcessResult s = compute("summary", {"preset=gpt-oss"});
    ASSERT_EQ(s.exit_code, 0) << s.err;
    EXPECT_NE(s.out.find("\nbase,150000\n"), std::string::npos);
    EXPECT_NE(s.out.find("\nscaling,yarn\n"), std::string::npos);
    expect_usage_error(compute("freqs", {"preset=llama-9"}), "preset=llama-9");
}

TEST(ComputeCli, SummaryHasThePublishedResults) {
    const ProcessResult r = compute("summary", {"original_max_position=4096", "max_position=2048"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\ncritical_dimension,92\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nbase_lower_bound,"), std::string::npos);
    EXPECT_NE(r.out.find("\nlongest_wavelength,"), std::string::npos);
    const ProcessResult y = compute("summary", {"scaling=yarn", "factor=4"});
    EXPECT_NE(y.out.find("\nyarn_low,"), std::string::npos);
    EXPECT_NE(y.out.find("\nyarn_high,"), std::string::npos);
}

TEST(ComputeCli, HelpListsEveryTableAndKey) {
    for (const std::vector<std::string>& args : {std::vector<std::string>{"--help"}, {"compute", "--help"}}) {
        const ProcessResult r = app(args);
        EXPECT_EQ(r.exit_code, 0);
        for (const char* table : {"freqs", "angles", "rotate", "decay", "summary", "presets"})
            EXPECT_NE(r.out.find(table), std::string::npos) << table;
        for (const rope::ParamSpec& s : rope::parameter_table()) {
            EXPECT_NE(r.out.find("  " + std::string(s.name) + "  [default"), std::string::npos) << s.name;
            EXPECT_NE(r.out.find(s.allowed()), std::string::npos) << s.name;
        }
    }
}

namespace {

using CliFiles = rope::test::TempDirTest;

// value of `key` in `compute summary`
double summary_value(const std::vector<std::string>& sets, const std::string& key) {
    const ProcessResult r = compute("summary", sets);
    for (const std::string& line : split_lines(r.out)) {
        const auto cells = split(line, ',');
        if (cells.size() == 2 && cells[0] == key) return std::stod(cells[1]);
    }
    return NAN;
}

}  // namespace

// One convention for the attention factor: `compute rotate` and the vectors CSV's rotated_* both
// carry it, so for a yarn config (factor != 1) they give the same numbers.
TEST_F(CliFiles, RotateAndTheVectorsCsvAgreeOnTheAttentionFactor) {
    for (const std::string pairing : {"interleaved", "half"}) {
        const std::vector<std::string> sets = {"dim=8",       "scaling=yarn", "factor=4", "original_max_position=1024",
                                               "pairing=" + pairing, "vector=1,-2,3,4,0.5,6,-7,8", "position=37"};
        const double attention = summary_value(sets, "attention_factor");
        ASSERT_GT(std::abs(attention - 1), 0.1) << attention;
        const ProcessResult rotated = compute("rotate", sets);
        ASSERT_EQ(rotated.exit_code, 0) << rotated.err;
        std::vector<double> value;
        for (std::size_t i = 1; i < split_lines(rotated.out).size(); ++i) value.push_back(std::stod(split(split_lines(rotated.out)[i], ',')[1]));
        ASSERT_EQ(value.size(), 8u);
        std::vector<std::string> args = {"export", "vectors", "--out", path("vectors.csv")};
        for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
        const ProcessResult exported = app(args);
        ASSERT_EQ(exported.exit_code, 0) << exported.err;
        const auto lines = split_lines(rope::test::read_file(path("vectors.csv")));
        ASSERT_EQ(lines[0], "pair,angle,x_first,x_second,rotated_first,rotated_second");
        ASSERT_EQ(lines.size(), 5u);
        for (int k = 0; k < 4; ++k) {
            const auto c = split(lines[static_cast<std::size_t>(k) + 1], ',');
            const int first = pairing == "half" ? k : 2 * k, second = pairing == "half" ? k + 4 : 2 * k + 1;
            EXPECT_EQ(std::stod(c[4]), value[static_cast<std::size_t>(first)]) << pairing << " pair " << k;
            EXPECT_EQ(std::stod(c[5]), value[static_cast<std::size_t>(second)]) << pairing << " pair " << k;
            // and it is the rotation times the factor: the length grows by it
            const double in = std::hypot(std::stod(c[2]), std::stod(c[3])), out = std::hypot(std::stod(c[4]), std::stod(c[5]));
            EXPECT_NEAR(out, attention * in, 1e-12 * (1 + in));
        }
    }
}

// The heatmap's window past max_position is refused (one line, exit 2), never clamped silently:
// on the command line and from a session file.
TEST_F(CliFiles, HeatmapWindowPastMaxPositionIsRefused) {
    expect_usage_error(compute("summary", {"max_position=100", "heatmap_from=100"}), "heatmap_from must be below max_position (100)");
    expect_usage_error(compute("summary", {"max_position=100", "heatmap_to=101"}), "heatmap_to must be at most max_position (100)");
    expect_usage_error(compute("summary", {"heatmap_from=5000"}), "heatmap_from=5000");
    EXPECT_EQ(compute("summary", {"max_position=100", "heatmap_from=99", "heatmap_to=100"}).exit_code, 0);
    EXPECT_EQ(compute("summary", {"heatmap_to=100", "heatmap_from=10", "max_position=100"}).exit_code, 0) << "the order of --set does not matter";
    std::ofstream(path("s.json")) << R"({"parameters": {"max_position": 1000, "heatmap_from": 2000, "heatmap_to": 3000}})";
    const ProcessResult r = run_process({"/usr/bin/env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", ROPE_EXPLORER_BINARY, "--session", path("s.json"), "--quit"});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("heatmap_"), std::string::npos) << r.err;
}

// Proportional RoPE's zero-frequency tail and NoPE layers, as the tables list them.
namespace {

const std::vector<std::string> kGemma4Global = {"dim=512", "base=1000000", "scaling=proportional", "rotary_fraction=0.25",
                                                "pairing=half", "original_max_position=131072"};

}  // namespace

TEST(ComputeCli, FreqsListsZeroFrequencyPairs) {
    const ProcessResult r = compute("freqs", {"dim=16", "scaling=proportional", "rotary_fraction=0.25", "pairing=half"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    ASSERT_EQ(lines.size(), 9u);  // d/2 = 8 pairs: int(16 * 0.25) // 2 = 2 turn, 6 have frequency 0
    EXPECT_EQ(lines[0], "pair,theta,wavelength,original_theta,ratio,rotates");
    EXPECT_EQ(lines[1], "0,1,6.283185307179586,1,1,true");
    EXPECT_EQ(lines[2].substr(lines[2].size() - 5), ",true");
    for (std::size_t i = 3; i < lines.size(); ++i) EXPECT_EQ(lines[i], std::to_string(i - 1) + ",0,,0,1,false");
    EXPECT_EQ(r.out.find("nan"), std::string::npos);
    EXPECT_EQ(r.out.find("inf"), std::string::npos);
    const ProcessResult nope = compute("freqs", {"dim=8", "nope=true", "scaling=linear", "factor=4"});
    ASSERT_EQ(nope.exit_code, 0) << nope.err;
    const auto nope_lines = split_lines(nope.out);
    ASSERT_EQ(nope_lines.size(), 5u);
    for (std::size_t i = 1; i < nope_lines.size(); ++i) EXPECT_EQ(nope_lines[i].substr(1), ",0,,0,1,false");
}

TEST(ComputeCli, SummaryOfProportionalAndNopeLayers) {
    const ProcessResult r = compute("summary", kGemma4Global);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(summary_value(r.out, "pairs"), "256");
    EXPECT_EQ(summary_value(r.out, "rotating_pairs"), "64");
    EXPECT_EQ(summary_value(r.out, "zero_frequency_pairs"), "192");
    // the slowest TURNING pair, 2 pi (1e6)^(126/512): about 188 tokens, not the zero pairs' inf
    EXPECT_NEAR(std::stod(summary_value(r.out, "longest_wavelength")), 2 * M_PI * std::pow(1e6, 126.0 / 512.0), 1e-9);
    EXPECT_EQ(summary_value(r.out, "critical_dimension"), "128");
    EXPECT_EQ(summary_value(r.out, "extrapolation_bound"), "unlimited");
    EXPECT_EQ(summary_value(r.out, "base_lower_bound"), "1");
    EXPECT_EQ(r.out.find("nan"), std::string::npos);
    EXPECT_EQ(r.out.find("inf"), std::string::npos);
    const ProcessResult n = compute("summary", {"nope=true"});
    ASSERT_EQ(n.exit_code, 0) << n.err;
    EXPECT_EQ(summary_value(n.out, "rotating_pairs"), "0");
    EXPECT_EQ(summary_value(n.out, "zero_frequency_pairs"), "64");
    EXPECT_EQ(summary_value(n.out, "longest_wavelength"), "none");
    EXPECT_EQ(summary_value(n.out, "shortest_wavelength"), "none");
    EXPECT_EQ(summary_value(n.out, "critical_dimension"), "0");
    EXPECT_EQ(summary_value(n.out, "extrapolation_bound"), "none");
    EXPECT_EQ(n.out.find("nan"), std::string::npos);
    // ordinary RoPE: every pair turns
    const ProcessResult plain = compute("summary");
    EXPECT_EQ(summary_value(plain.out, "rotating_pairs"), "64");
    EXPECT_EQ(summary_value(plain.out, "zero_frequency_pairs"), "0");
}

TEST(ComputeCli, BaseBoundsWithZeroFrequencyPairs) {
    std::vector<std::string> sets = kGemma4Global;
    sets.push_back("max_position=1024");
    const ProcessResult r = compute("base-bounds", sets);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "rotated_dims,context,base\n512,64,1\n512,128,1\n512,256,1\n512,512,1\n512,1024,1\n");
    expect_usage_error(compute("base-bounds", {"dim=64", "scaling=proportional", "rotary_fraction=0.75"}), "frequency 0");
}

TEST(ComputeCli, LayersTable) {
    const ProcessResult r = compute(
        "layers", {"layer_kinds=sliding_attention: window=1024 dim=256 base=10000; full_attention: dim=512 base=1000000 "
                   "scaling=proportional rotary_fraction=0.25; nope_layer: attention=chunked window=8192 nope=true dim=128 base=500000",
                   "model_layers=2*sliding_attention,full_attention,nope_layer", "scaling=linear", "factor=8"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[0], "layer,kind,attention,window,rope,head_dim,base,scaling,rotary_fraction,rotated_dims,rotating_pairs,factor");
    // the top-level scaling=linear is a layer-level key: each layer shows its own kind's (none here)
    EXPECT_EQ(lines[1], "0,sliding_attention,sliding,1024,true,256,10000,none,1,256,128,1");
    EXPECT_EQ(lines[2], "1,sliding_attention,sliding,1024,true,256,10000,none,1,256,128,1");
    EXPECT_EQ(lines[3], "2,full_attention,full,0,true,512,1000000,proportional,0.25,512,64,1");
    EXPECT_EQ(lines[4], "3,nope_layer,chunked,8192,false,128,500000,none,1,128,0,1");
    expect_usage_error(compute("layers"), "no model with layers");
}

TEST(ComputeCli, TemperatureTable) {
    const ProcessResult r = compute("temperature", {"attn_temperature_tuning=true", "max_position=20000"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    // position 0, both sides of the steps at 8191 and 16383, and the last position
    ASSERT_EQ(lines.size(), 7u) << r.out;
    EXPECT_EQ(lines[0], "position,scale");
    const std::vector<std::int64_t> positions = {0, 8190, 8191, 16382, 16383, 19999};
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const auto cells = split(lines[i + 1], ',');
        ASSERT_EQ(cells.size(), 2u);
        EXPECT_EQ(std::stoll(cells[0]), positions[i]);
        EXPECT_EQ(std::stod(cells[1]), 1.0 + 0.1 * std::log1p(static_cast<double>((positions[i] + 1) / 8192)));
    }
    EXPECT_EQ(lines[2], "8190,1");
    // a context shorter than one step: the scale stays 1
    const ProcessResult s = compute("temperature", {"attn_temperature_tuning=true", "max_position=100"});
    EXPECT_EQ(s.out, "position,scale\n0,1\n99,1\n");
    expect_usage_error(compute("temperature"), "attn_temperature_tuning");
    expect_usage_error(compute("temperature", {"attn_temperature_tuning=true", "floor_scale=1", "max_position=100000000"}),
                       "max_position");
}

TEST(ComputeCli, HelpListsTheLayerTables) {
    const ProcessResult r = app({"compute", "--help"});
    for (const char* s : {"layers  (layer,kind,attention,window,rope,head_dim", "temperature  (position,scale)", "rotates",
                          "rotating_pairs and zero_frequency_pairs"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST(ComputeCli, EveryTableOfProportionalAndNopeConfigsIsFinite) {
    for (const std::vector<std::string>& sets :
         {kGemma4Global, std::vector<std::string>{"nope=true", "dim=16"},
          std::vector<std::string>{"dim=16", "scaling=proportional", "rotary_fraction=0.5", "factor=4", "pairing=interleaved"}}) {
        for (const char* table : {"freqs", "angles", "rotate", "decay", "summary", "base-bounds"}) {
            std::vector<std::string> s = sets;
            s.push_back("max_position=300");
            s.push_back("max_distance=300");
            const ProcessResult r = compute(table, s);
            if (r.exit_code == 2) {  // base-bounds with fewer zero pairs than turning ones
                EXPECT_EQ(rope::test::count_lines(r.err), 1) << table;
                continue;
            }
            ASSERT_EQ(r.exit_code, 0) << table << ": " << r.err;
            EXPECT_EQ(r.out.find("nan"), std::string::npos) << table << " " << sets[0];
            EXPECT_EQ(r.out.find("inf"), std::string::npos) << table << " " << sets[0];
        }
    }
}

// With compare_to set, every table is A's rows then B's, each behind a first column `model` (a, b):
// the a rows are the table of A alone, the b rows that of `--set preset=B` after the same keys. Tables
// whose parallel writer formats rows elsewhere (decay, angles) included.
TEST(ComputeCli, CompareToAddsModelBsRowsToEveryTable) {
    struct Pair {
        std::string a, b;
        std::vector<std::string> more;
        std::vector<std::string> shared;  // of `more`, what B shares with A (the input, the position): set again after B's preset
    };
    const std::vector<Pair> pairs{{"llama-2-7b", "llama-3-8b", {"max_position=512", "max_distance=3000"}, {}},
                                  {"qwen2.5-vl-7b", "qwen3-vl-8b", {"max_position=64", "media=video", "video_frames=5"}, {"media=video", "video_frames=5"}},
                                  {"gemma-3-12b", "gemma-4-31b", {"max_position=64", "position=7"}, {"position=7"}}};
    for (const Pair& pair : pairs)
        for (const char* table : {"freqs", "angles", "rotate", "decay", "summary", "base-bounds", "layers", "temperature", "presets", "axes",
                                  "position-ids", "patches"}) {
            SCOPED_TRACE(pair.a + " vs " + pair.b + ": " + table);
            std::vector<std::string> sets_a{"preset=" + pair.a}, sets_b{"preset=" + pair.a};
            sets_a.insert(sets_a.end(), pair.more.begin(), pair.more.end());
            sets_b.insert(sets_b.end(), pair.more.begin(), pair.more.end());
            sets_b.push_back("preset=" + pair.b);
            sets_b.insert(sets_b.end(), pair.shared.begin(), pair.shared.end());
            std::vector<std::string> both = sets_a;
            both.push_back("compare_to=" + pair.b);
            // B's own table can be a billion bytes (B's context x its pairs of angles, A's context cut
            // to 64): B alone and A with B are read side by side, a line at a time, never held whole.
            auto command = [&](const std::vector<std::string>& sets) {
                std::vector<std::string> argv = {ROPE_EXPLORER_BINARY, "compute", table};
                for (const std::string& s : sets) argv.insert(argv.end(), {"--set", s});
                return argv;
            };
            const ProcessResult ra = compute(table, sets_a);
            rope::test::StreamedProcess rb(command(sets_b)), r(command(both));
            std::string line_b, line;
            const bool b_wrote = rb.next_line(line_b);
            if (ra.exit_code != 0 || (!b_wrote && rb.finish() != 0)) {  // a table one of them refuses (layers of a model without): refused, nothing written
                rb.finish();
                ProcessResult refused;
                while (r.next_line(line)) refused.out += line + "\n";
                refused.exit_code = r.finish();
                refused.err = r.err();
                expect_usage_error(refused, "compute " + std::string(table));
                EXPECT_EQ(refused.err, ra.exit_code != 0 ? ra.err : rb.err());
                continue;
            }
            const auto alone_a = split_lines(ra.out);
            std::size_t lines = 0, lines_b = 1;
            auto next = [&](std::string& into) { return r.next_line(into) && (++lines, true); };
            ASSERT_TRUE(next(line)) << r.err();
            EXPECT_EQ(line, "model," + alone_a[0]);
            for (std::size_t i = 1; i < alone_a.size(); ++i) {
                ASSERT_TRUE(next(line)) << i;
                ASSERT_EQ(line, "a," + alone_a[i]) << i;
            }
            for (std::size_t i = 1; rb.next_line(line_b); ++i, ++lines_b) {
                ASSERT_TRUE(next(line)) << i;
                ASSERT_EQ(line, "b," + line_b) << i;
            }
            while (next(line)) {
            }
            ASSERT_EQ(r.finish(), 0) << r.err();
            ASSERT_EQ(rb.finish(), 0) << rb.err();
            ASSERT_EQ(lines, alone_a.size() + lines_b - 1);
        }
}

TEST(ComputeCli, CompareToThatIsRefusedWritesNothing) {
    expect_usage_error(compute("freqs", {"compare_to=gpt-9"}), "compare_to");
    // Llama 2 has no layers, Gemma 3's preset has: B's refusal comes before A's rows are written
    expect_usage_error(compute("layers", {"preset=gemma-3-12b", "compare_to=llama-2-7b"}), "compute layers");
}

// ALiBi's slopes and T5's buckets as people ask for them: one row per head, one per relative position,
// and bad settings refused with one line naming the key, exit 2 (the numbers themselves are checked
// against BLOOM's and T5's code in reference_tests).
TEST(ComputeCli, AlibiAndT5BucketsTablesAndTheirRefusals) {
    const ProcessResult alibi = compute("alibi", {"heads=12"});
    ASSERT_EQ(alibi.exit_code, 0) << alibi.err;
    const std::vector<std::string> rows = split_lines(alibi.out);
    ASSERT_EQ(rows.size(), 13u);
    EXPECT_EQ(rows[0], "head,slope");
    EXPECT_EQ(rows[1], "0,0.5");
    EXPECT_EQ(rows[9], "8,0.7071067811865476");  // the first of the heads past 8: 2^(-1/2)
    const ProcessResult t5 = compute("t5-buckets", {"max_distance=200"});
    ASSERT_EQ(t5.exit_code, 0) << t5.err;
    const std::vector<std::string> buckets = split_lines(t5.out);
    ASSERT_EQ(buckets.size(), 402u);
    EXPECT_EQ(buckets[0], "relative_position,bucket");
    EXPECT_EQ(buckets[1], "-200,15");   // past max_distance: the last bucket of the keys before the query
    EXPECT_EQ(buckets[201], "0,0");
    EXPECT_EQ(buckets[202], "1,17");    // keys after the query: the upper half
    EXPECT_EQ(buckets[401], "200,31");
    const ProcessResult causal = compute("t5-buckets", {"max_distance=2", "t5_bidirectional=false"});
    EXPECT_EQ(causal.out, "relative_position,bucket\n-2,2\n-1,1\n0,0\n1,0\n2,0\n");
    expect_usage_error(compute("alibi", {"heads=0"}), "heads=0");
    expect_usage_error(compute("t5-buckets", {"t5_num_buckets=1"}), "t5_num_buckets=1");
    expect_usage_error(compute("t5-buckets", {"t5_num_buckets=2"}), "at least 4 buckets");
    expect_usage_error(compute("t5-buckets", {"t5_max_distance=-1"}), "t5_max_distance=-1");
    expect_usage_error(compute("t5-buckets", {"t5_max_distance=8"}), "t5_max_distance=8");
    expect_usage_error(compute("t5-buckets", {"max_distance=-3"}), "max_distance=-3");
    expect_usage_error(compute("t5-buckets", {"max_distance=1000000000000"}), "rows");
}

// A model with MLA (DeepSeek-V3) gains its head's two parts and the softmax scale with YaRN's
// correction, 192^(-1/2) x (0.1 ln 40 + 1)^2; a model without MLA has none of them.
TEST(ComputeCli, SummaryOfAnMlaModelHasItsSoftmaxScale) {
    const ProcessResult v3 = compute("summary", {"preset=deepseek-v3"});
    ASSERT_EQ(v3.exit_code, 0) << v3.err;
    EXPECT_EQ(summary_value(v3.out, "qk_nope_head_dim"), "128");
    EXPECT_EQ(summary_value(v3.out, "qk_rope_head_dim"), "64");
    const double m = 0.1 * std::log(40.0) + 1;
    EXPECT_NEAR(std::stod(summary_value(v3.out, "softmax_scale")), m * m / std::sqrt(192.0), 1e-15);
    EXPECT_EQ(summary_value(v3.out, "attention_factor"), "1");
    // the other two MLA presets: DeepSeek-V2-Lite's mscale_all_dim 0.707 (factor 40), Kimi K2's factor 64
    const ProcessResult lite = compute("summary", {"preset=deepseek-v2-lite"});
    const double m_lite = 0.1 * 0.707 * std::log(40.0) + 1;
    EXPECT_NEAR(std::stod(summary_value(lite.out, "softmax_scale")), m_lite * m_lite / std::sqrt(192.0), 1e-15);
    EXPECT_EQ(summary_value(lite.out, "attention_factor"), "1");
    const ProcessResult kimi = compute("summary", {"preset=kimi-k2-0905"});
    const double m_kimi = 0.1 * std::log(64.0) + 1;
    EXPECT_NEAR(std::stod(summary_value(kimi.out, "softmax_scale")), m_kimi * m_kimi / std::sqrt(192.0), 1e-15);
    const ProcessResult llama = compute("summary", {"preset=llama-3.1-8b"});
    EXPECT_EQ(llama.out.find("softmax_scale"), std::string::npos);
    expect_usage_error(compute("summary", {"qk_nope_head_dim=0"}), "qk_nope_head_dim=0");
}

// A DeepSeek config.json brings its MLA keys: DeepSeek-V2-Lite's mscale_all_dim 0.707 gives the softmax
// scale 192^(-1/2) x (0.0707 ln 40 + 1)^2; a deepseek_v3 config without them takes DeepseekV3Config's
// defaults (128 dims without rotation).
TEST_F(CliFiles, DeepSeekConfigsBringTheirMlaKeys) {
    auto write_file = [&](const std::string& name, const std::string& text) {
        std::ofstream(path(name)) << text;
        return path(name);
    };
    const std::string v2 = write_file("deepseek-v2-lite.json",
        R"({"model_type": "deepseek_v2", "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "kv_lora_rank": 512,
            "num_attention_heads": 16, "hidden_size": 2048, "rope_theta": 10000, "max_position_embeddings": 163840,
            "rope_scaling": {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096, "mscale": 0.707,
                             "mscale_all_dim": 0.707, "beta_fast": 32, "beta_slow": 1}})");
    const ProcessResult lite = compute("summary", {"config=" + v2});
    ASSERT_EQ(lite.exit_code, 0) << lite.err;
    const double m = 0.1 * 0.707 * std::log(40.0) + 1;
    EXPECT_NEAR(std::stod(summary_value(lite.out, "softmax_scale")), m * m / std::sqrt(192.0), 1e-15);
    const std::string v3 = write_file("deepseek-v3.json", R"({"model_type": "deepseek_v3", "rope_theta": 10000})");
    const ProcessResult bare = compute("summary", {"config=" + v3});
    ASSERT_EQ(bare.exit_code, 0) << bare.err;
    EXPECT_EQ(summary_value(bare.out, "qk_nope_head_dim"), "128");
    EXPECT_NEAR(std::stod(summary_value(bare.out, "softmax_scale")), 1 / std::sqrt(192.0), 1e-16);
}

// FLUX.1: compute axes gives its three blocks, each with its own frequencies; position-ids puts text at
// (0, 0, 0) and a 1024 x 1024 image's 64 x 64 tokens at (0, row, col); a flux_axes_dim that does not add up to the rotated dims is refused in one line.
TEST(ComputeCli, FluxAxesAndIds) {
    const ProcessResult axes = compute("axes", {"preset=flux.1-dev"});
    ASSERT_EQ(axes.exit_code, 0) << axes.err;
    const std::vector<std::string> rows = split_lines(axes.out);
    ASSERT_EQ(rows.size(), 65u);
    EXPECT_EQ(rows[1], "flux,0,t,1,6.283185307179586");
    EXPECT_EQ(rows[9].substr(0, 13), "flux,8,h,1,6.");    // the rows' block starts at frequency 1 again
    EXPECT_EQ(rows[37].substr(0, 14), "flux,36,w,1,6.");  // and so does the columns'
    const ProcessResult ids = compute("position-ids", {"preset=flux.1-dev", "grid_rows=64", "grid_cols=64", "text_before=512", "text_after=0"});
    ASSERT_EQ(ids.exit_code, 0) << ids.err;
    const std::vector<std::string> id_rows = split_lines(ids.out);
    ASSERT_EQ(id_rows.size(), 1u + 512 + 64 * 64);
    EXPECT_EQ(id_rows[512], "511,text,,,0,0,0");
    EXPECT_EQ(id_rows[513], "512,image,0,0,0,0,0");
    EXPECT_EQ(id_rows.back(), "4607,image,63,63,0,63,63");
    expect_usage_error(compute("axes", {"preset=flux.1-dev", "flux_axes_dim=16,56,50"}), "flux_axes_dim");
    expect_usage_error(compute("axes", {"preset=flux.1-dev", "flux_axes_dim=15,57,56"}), "even");
    expect_usage_error(compute("axes", {"preset=flux.1-dev", "scaling=yarn"}), "rope_axes=flux");
}

// The model card of a model with MLA beside one without (either way round): the softmax scale row
// reads "—" for the model that has none, and every other derived row keeps its own model's value.
TEST_F(CliFiles, ModelCardOfAnMlaModelBesideAnother) {
    for (const auto& [a, b] : {std::pair{"deepseek-v3", "llama-3.1-8b"}, std::pair{"llama-3.1-8b", "deepseek-v3"}}) {
        const std::string out = path(std::string(a) + ".csv");
        const ProcessResult r = app({"export", "model_card", "--out", out, "--set", std::string("preset=") + a, "--set", std::string("compare_to=") + b});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const std::string csv = rope::test::read_file(out);
        const bool a_has = std::string(a) == "deepseek-v3";
        EXPECT_NE(csv.find(a_has ? "softmax scale (MLA),0.135234,—" : "softmax scale (MLA),—,0.135234"), std::string::npos) << csv;
        EXPECT_NE(csv.find(a_has ? "rotated dims,64,128" : "rotated dims,128,64"), std::string::npos) << csv;
    }
}
