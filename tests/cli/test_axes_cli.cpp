// `compute axes`, `compute position-ids`, `compute patches` and the summary's axis rows as people run
// them (real process, real output), against the core; the multi-axis presets and what switching resets.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "rope/frequencies.hpp"
#include "rope/multi_axis.hpp"
#include "rope/params.hpp"
#include "edges/edge_cases.hpp"
#include "support/app_cli.hpp"
#include "support/process.hpp"

namespace P = rope::P;

using rope::test::ProcessResult;
using rope::test::run_process;
using rope::test::split;
using rope::test::split_lines;
using rope::test::summary_value;

namespace {

using rope::test::compute;

std::vector<std::vector<std::string>> rows_of(const ProcessResult& r, const std::string& header) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto lines = split_lines(r.out);
    EXPECT_FALSE(lines.empty());
    if (lines.empty()) return {};
    EXPECT_EQ(lines[0], header);
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 1; i < lines.size(); ++i) rows.push_back(split(lines[i], ','));
    return rows;
}

rope::ParamSet params(const std::vector<std::pair<std::string, std::string>>& sets) {
    rope::ParamSet p;
    for (const auto& [k, v] : sets) p.set(k, v);
    p.validate();
    return p;
}

}  // namespace

TEST(AxesCli, MropeAxesListChunkedThenInterleavedWithTheCoresNumbers) {
    const auto rows = rows_of(compute("axes", {"preset=qwen2-vl-7b"}), "layout,pair,axis,theta,wavelength");
    ASSERT_EQ(rows.size(), 128u);
    const Eigen::VectorXd theta = rope::base_frequencies(1e6, 128);
    for (int n = 0; n < 128; ++n) {
        const auto& c = rows[static_cast<std::size_t>(n)];
        ASSERT_EQ(c.size(), 5u);
        const int j = n % 64;
        EXPECT_EQ(c[0], n < 64 ? "chunked" : "interleaved");
        EXPECT_EQ(std::stoi(c[1]), j);
        // the preset's [16, 24, 24] for the chunked layout, Qwen3-VL's [24, 20, 20] shares for the interleaved one
        const char* want = n < 64 ? (j < 16 ? "t" : j < 40 ? "h" : "w") : (j >= 60 || j % 3 == 0 ? "t" : j % 3 == 1 ? "h" : "w");
        EXPECT_EQ(c[2], want) << n;
        EXPECT_EQ(std::stod(c[3]), theta[j]) << n;  // shortest round trip reads back exactly
        EXPECT_EQ(std::stod(c[4]), rope::kTwoPi / theta[j]) << n;
    }
}

TEST(AxesCli, AxialAndOneDimensionalAxes) {
    const auto axial = rows_of(compute("axes", {"preset=rope-vit-deit-b"}), "layout,pair,axis,theta,wavelength");
    ASSERT_EQ(axial.size(), 32u);
    const rope::AxisLayout deit = rope::axial_layout(rope::AxialFrequencies::per_axis, 100, 64);
    for (int j = 0; j < 32; ++j) {
        EXPECT_EQ(axial[static_cast<std::size_t>(j)][0], "axial");
        EXPECT_EQ(axial[static_cast<std::size_t>(j)][2], j < 16 ? "w" : "h") << j;  // rope-vit: the column's pairs first
        const double theta = std::stod(axial[static_cast<std::size_t>(j)][3]);
        EXPECT_EQ(theta, deit.theta[j]) << j;
        EXPECT_NEAR(theta, std::pow(100.0, -4.0 * (j % 16) / 64.0), 1e-15) << j;  // Heo et al.: 100^(-4k/64) per axis
    }
    const auto pixtral = rows_of(compute("axes", {"preset=pixtral-12b-vision"}), "layout,pair,axis,theta,wavelength");
    ASSERT_EQ(pixtral.size(), 32u);
    EXPECT_EQ(pixtral[0][2], "h");  // Pixtral: freqs[::2] with the row
    EXPECT_EQ(pixtral[16][2], "w");
    const auto one_d = rows_of(compute("axes", {"dim=8"}), "layout,pair,axis,theta,wavelength");
    ASSERT_EQ(one_d.size(), 4u);
    for (const auto& c : one_d) {
        EXPECT_EQ(c[0], "1d");
        EXPECT_EQ(c[2], "t");
    }
}

TEST(AxesCli, PositionIdsOfTextImageText) {
    const ProcessResult r = compute("position-ids", {"text_before=3", "grid_rows=2", "grid_cols=3", "text_after=2"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // get_rope_index: the image starts at 3, the text after it at 3 + max(2, 3) = 6
    EXPECT_EQ(r.out,
              "index,kind,row,col,t,h,w\n0,text,,,0,0,0\n1,text,,,1,1,1\n2,text,,,2,2,2\n3,image,0,0,3,3,3\n4,image,0,1,3,3,4\n"
              "5,image,0,2,3,3,5\n6,image,1,0,3,4,3\n7,image,1,1,3,4,4\n8,image,1,2,3,4,5\n9,text,,,6,6,6\n10,text,,,7,7,7\n");
    const auto rows = rows_of(compute("position-ids", {"text_before=0", "grid_rows=5", "grid_cols=1", "text_after=1"}),
                              "index,kind,row,col,t,h,w");
    ASSERT_EQ(rows.size(), 6u);
    EXPECT_EQ(rows[4][1], "image");
    EXPECT_EQ(rows[4][5], "4");  // the last row's h
    EXPECT_EQ(rows[5][4], "5");  // the text after: 0 + max(5, 1)
}

TEST(AxesCli, PatchesEqualTheCoresSimilarity) {
    const std::vector<std::pair<std::string, std::string>> sets = {
        {"dim", "8"}, {"base", "100"}, {"rope_axes", "mrope"}, {"mrope_section", "2,1,1"}, {"pairing", "half"},
        {"vector", "1,-2,0.5,3,0,1,-1,2"}, {"key_vector", "0.3,1,-1,2,1,0,0.5,-2"}, {"grid_rows", "3"}, {"grid_cols", "4"}, {"query_col", "0"}};
    std::vector<std::string> args;
    for (const auto& [k, v] : sets) args.push_back(k + "=" + v);
    const auto rows = rows_of(compute("patches", args), "row,col,similarity");
    ASSERT_EQ(rows.size(), 12u);
    const rope::ParamSet p = params(sets);
    const auto [qr, qc] = p.query_patch();
    EXPECT_EQ(qr, 1);  // none: the middle row
    EXPECT_EQ(qc, 0);
    const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(p.vector().data(), 8), k = Eigen::Map<const Eigen::VectorXd>(p.key_vector().data(), 8);
    const Eigen::MatrixXd sim = rope::patch_similarity(*p.axis_layout(rope::RopeAxes::mrope, false), rope::Pairing::half, q, k, 3, 4, qr, qc);
    for (int n = 0; n < 12; ++n) {
        const auto& c = rows[static_cast<std::size_t>(n)];
        EXPECT_EQ(std::stoi(c[0]), n / 4);
        EXPECT_EQ(std::stoi(c[1]), n % 4);
        EXPECT_EQ(std::stod(c[2]), sim(n / 4, n % 4)) << n;
    }
}

TEST(AxesCli, PatchesFollowTheLayoutAndRefuseOneDimensionalRope) {
    // q = k (all ones): 1 at the query patch; chunked and interleaved M-RoPE give different maps
    const auto chunked = rows_of(compute("patches", {"preset=qwen2-vl-7b", "grid_rows=4", "grid_cols=4"}), "row,col,similarity");
    const auto interleaved = rows_of(compute("patches", {"preset=qwen2-vl-7b", "grid_rows=4", "grid_cols=4", "mrope_interleaved=true", "mrope_section=24,20,20"}),
                                     "row,col,similarity");
    ASSERT_EQ(chunked.size(), 16u);
    ASSERT_EQ(interleaved.size(), 16u);
    EXPECT_DOUBLE_EQ(std::stod(chunked[2 * 4 + 2][2]), 1.0);  // the middle of 4 x 4 is (2, 2)
    int differ = 0;
    for (std::size_t n = 0; n < 16; ++n) {
        EXPECT_LE(std::abs(std::stod(chunked[n][2])), 1.0);
        differ += chunked[n][2] != interleaved[n][2];
    }
    EXPECT_GT(differ, 10);
    const ProcessResult refused = compute("patches", {"preset=qwen2.5-7b"});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_TRUE(refused.out.empty());
    EXPECT_EQ(rope::test::count_lines(refused.err), 1) << refused.err;
    EXPECT_NE(refused.err.find("rope_axes=1d"), std::string::npos) << refused.err;
}

TEST(AxesCli, SummaryNamesTheAxesAndPairsPerAxis) {
    const ProcessResult qwen3 = compute("summary", {"preset=qwen3-vl-8b"});
    ASSERT_EQ(qwen3.exit_code, 0) << qwen3.err;
    EXPECT_EQ(summary_value(qwen3.out, "rope_axes"), "mrope");
    EXPECT_EQ(summary_value(qwen3.out, "mrope_layout"), "interleaved");
    EXPECT_EQ(summary_value(qwen3.out, "pairs_t"), "24");
    EXPECT_EQ(summary_value(qwen3.out, "pairs_h"), "20");
    EXPECT_EQ(summary_value(qwen3.out, "pairs_w"), "20");
    EXPECT_EQ(summary_value(qwen3.out, "base"), "5000000");
    const ProcessResult deit = compute("summary", {"preset=rope-vit-deit-b"});
    EXPECT_EQ(summary_value(deit.out, "rope_axes"), "2d_axial");
    EXPECT_EQ(summary_value(deit.out, "axial_frequencies"), "per_axis");
    EXPECT_EQ(summary_value(deit.out, "pairs_t"), "0");
    EXPECT_EQ(summary_value(deit.out, "pairs_h"), "16");
    EXPECT_EQ(summary_value(deit.out, "mrope_layout"), "(missing)");
    const ProcessResult text = compute("summary", {"dim=64"});
    EXPECT_EQ(summary_value(text.out, "rope_axes"), "1d");
    EXPECT_EQ(summary_value(text.out, "pairs_t"), "32");
}

// A vision preset's grid applies; the next preset starts from the default grid and query again.
TEST(AxesCli, PresetGridAppliesAndSwitchingPresetsResetsIt) {
    EXPECT_EQ(rows_of(compute("patches", {"preset=rope-vit-deit-b"}), "row,col,similarity").size(), 14u * 14u);
    EXPECT_EQ(rows_of(compute("patches", {"preset=pixtral-12b-vision"}), "row,col,similarity").size(), 32u * 32u);
    const auto after = rows_of(compute("patches", {"preset=pixtral-12b-vision", "query_row=0", "preset=qwen2-vl-7b"}), "row,col,similarity");
    EXPECT_EQ(after.size(), 12u * 16u);  // the default grid
    EXPECT_DOUBLE_EQ(std::stod(after[6 * 16 + 8][2]), 1.0);  // the query back in the middle
    // later --set values refine the preset's grid
    EXPECT_EQ(rows_of(compute("patches", {"preset=rope-vit-deit-b", "grid_cols=7"}), "row,col,similarity").size(), 14u * 7u);
    const rope::ParamSet p = params({{"preset", "pixtral-12b-vision"}, {"preset", "qwen3-vl-8b"}});
    EXPECT_EQ(p.value_text(P::rope_axes), "mrope");
    EXPECT_EQ(p.value_text(P::axial_frequencies), "per_axis");
    EXPECT_EQ(p[P::grid_rows], 12);
    EXPECT_EQ(p[P::grid_cols], 16);
    const rope::ParamSet text = params({{"preset", "qwen3-vl-8b"}, {"preset", "llama-3-8b"}});
    EXPECT_EQ(text.value_text(P::rope_axes), "1d");
    EXPECT_FALSE(text.has(P::mrope_section));
    EXPECT_FALSE(text[P::mrope_interleaved]);
}

namespace {

// "" or what is wrong: every row as wide as the header, every cell a finite number unless its
// column is one of `text_columns` (those may also be empty).
std::string check_table(const std::string& csv, const std::set<std::string>& text_columns) {
    const auto lines = split_lines(csv);
    if (lines.size() < 2) return "no rows";
    const auto header = split(lines[0], ',');
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto cells = split(lines[i], ',');
        if (cells.size() != header.size()) return "row " + std::to_string(i) + " has " + std::to_string(cells.size()) + " cells";
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (text_columns.count(header[c])) continue;
            std::size_t used = 0;
            double v = std::nan("");
            try {
                v = std::stod(cells[c], &used);
            } catch (const std::exception&) {
            }
            if (used != cells[c].size() || !std::isfinite(v)) return "row " + std::to_string(i) + ": " + lines[i];
        }
    }
    return "";
}

}  // namespace

// At every numeric edge of the parameter table and at the grid's limits, the three tables hold
// finite numbers (similarities within [-1, 1]) or the value is refused with one line and exit 2.
TEST(AxesCli, TablesAreFiniteOrRefusedAtTheEdges) {
    std::vector<rope::test::Sets> cases = rope::test::numeric_edge_cases();
    cases.push_back({{"grid_rows", "128"}, {"grid_cols", "128"}, {"query_row", "127"}, {"query_col", "0"}, {"text_before", "64"}, {"text_after", "64"}});
    cases.push_back({{"grid_rows", "1"}, {"grid_cols", "1"}, {"query_row", "127"}, {"query_col", "127"}, {"text_before", "0"}, {"text_after", "0"}});
    int runs = 0, refused = 0;
    for (const auto& sets : cases) {
        for (const char* axes : {"1d", "2d_axial", "mrope"}) {
            for (const char* table : {"axes", "position-ids", "patches"}) {
                std::vector<std::string> args = {"rope_axes=" + std::string(axes)};
                for (const auto& [k, v] : sets) args.push_back(k + "=" + v);
                if (std::string(axes) == "mrope") args.push_back("mrope_interleaved=" + std::string(runs % 2 ? "true" : "false"));
                const ProcessResult r = compute(table, args);
                const std::string what = std::string(table) + " rope_axes=" + axes + " " + rope::test::describe(sets);
                ++runs;
                if (r.exit_code == 2) {
                    ++refused;
                    EXPECT_EQ(rope::test::count_lines(r.err), 1) << what << ": " << r.err;
                    EXPECT_TRUE(r.out.empty()) << what;
                    continue;
                }
                ASSERT_EQ(r.exit_code, 0) << what << ": " << r.err;
                EXPECT_EQ(check_table(r.out, {"layout", "axis", "wavelength", "kind", "row", "col"}), "") << what;
                if (std::string(table) != "patches") continue;
                for (const auto& line : split_lines(r.out)) {
                    if (line[0] == 'r') continue;  // the header
                    EXPECT_LE(std::abs(std::stod(split(line, ',')[2])), 1.0 + 1e-12) << what;
                }
            }
        }
    }
    std::printf("%d runs, %d refused with one line\n", runs, refused);
    EXPECT_LT(refused, runs / 2);  // patches for 1d, 2d_axial with a rotated width not a multiple of 4, scaled 2d_axial
}
