// Numeric edges on the command line: at every limit of the parameter table, every `compute` table and
// every figure's CSV holds finite numbers only (never nan or inf), or the value is refused with one
// line and exit 2. Just past each limit: refused.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "edges/edge_cases.hpp"
#include "figures/registry.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using rope::test::ProcessResult;
using rope::test::run_process;

namespace {

std::vector<std::string> with_sets(std::vector<std::string> args, const rope::test::Sets& sets) {
    for (const auto& [k, v] : sets) {
        args.push_back("--set");
        args.push_back(k + "=" + v);
    }
    args.insert(args.begin(), ROPE_EXPLORER_BINARY);
    return args;
}

bool is_number(const std::string& cell, double& v) {
    try {
        std::size_t used = 0;
        v = std::stod(cell, &used);
        return used == cell.size();
    } catch (const std::exception&) {
        return false;
    }
}

// Every row as wide as the header; every cell a finite number unless its column (or, for the
// key,value summary, its key) is one of `text_ok`. Returns "" or what was wrong.
std::string check_csv(const std::string& csv, const std::set<std::string>& text_ok = {}) {
    const auto lines = rope::test::split_lines(csv);
    if (lines.size() < 2) return "no rows";
    const auto header = rope::test::split(lines[0], ',');
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto cells = rope::test::split(lines[i], ',');
        if (cells.size() != header.size()) return "row " + std::to_string(i) + " has " + std::to_string(cells.size()) + " cells";
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (text_ok.count(header[c]) || text_ok.count(cells[0])) continue;
            double v = 0;
            if (!is_number(cells[c], v) || !std::isfinite(v)) return "row " + std::to_string(i) + ": " + lines[i];
        }
    }
    return "";
}

void expect_finite_or_refused(const ProcessResult& r, const std::string& csv, const std::string& what,
                              const std::set<std::string>& text_ok = {}) {
    if (r.exit_code == 2) {
        EXPECT_EQ(rope::test::count_lines(r.err), 1) << what << ": " << r.err;
        return;
    }
    ASSERT_EQ(r.exit_code, 0) << what << ": " << r.err;
    EXPECT_EQ(check_csv(csv, text_ok), "") << what;
}

class NumericEdges : public rope::test::TempDirTest {};

}  // namespace

TEST_F(NumericEdges, EveryComputeTableIsFiniteOrRefused) {
    int refused = 0, runs = 0;
    for (const auto& sets : rope::test::numeric_edge_cases()) {
        for (const char* table : {"freqs", "angles", "rotate", "decay", "summary"}) {
            rope::test::Sets s = sets;
            if (std::string(table) == "angles") s.insert(s.begin(), {"max_position", "16"});  // dim 4096: 2048 pairs a row
            const ProcessResult r = run_process(with_sets({"compute", table}, s));
            const std::string what = std::string(table) + " " + rope::test::describe(s);
            // the summary's text values: the names of choices, and the bound when there is none
            expect_finite_or_refused(r, r.out, what, {"key", "pairing", "scaling", "longrope_factors", "base_lower_bound",
                                                      "extrapolation_bound", "shortest_wavelength", "longest_wavelength", "rotates",
                                                      "rope_axes", "axial_frequencies", "mrope_layout"});
            if (r.exit_code == 0 && std::string(table) == "summary") {
                const std::size_t at = r.out.find("\nbase_lower_bound,");
                ASSERT_NE(at, std::string::npos) << what;
                const std::string value = r.out.substr(at + 18, r.out.find('\n', at + 1) - at - 18);
                double v = 0;
                EXPECT_TRUE((is_number(value, v) && std::isfinite(v) && v >= 1) || value == "none" ||
                            value == "not_computed")
                    << what << ": " << value;
            }
            refused += r.exit_code == 2;
            ++runs;
        }
    }
    std::printf("%d runs, %d refused with one line\n", runs, refused);
    EXPECT_LT(refused, runs / 4);  // the edges are allowed values: most of them must just work
}

// One test per figure of the registry (they run in parallel).
class FigureCsvEdges : public rope::test::TempDirTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(FigureCsvEdges, FiniteOrRefused) {
    const std::string fig = GetParam();
    for (const auto& sets : rope::test::numeric_edge_cases()) {
        const std::string out = path(fig + ".csv");
        const ProcessResult r = run_process(with_sets({"export", fig, "--out", out}, sets));
        const std::string csv = rope::test::read_file(out);
        if (fig == "model_card") {  // a table of text: no value is nan or infinite
            expect_finite_or_refused(r, csv, fig + " " + rope::test::describe(sets), {"key", "value"});
            for (const char* bad : {",nan", ",inf", ",-inf"}) EXPECT_EQ(csv.find(bad), std::string::npos) << fig << " " << rope::test::describe(sets);
            continue;
        }
        // a column of names (DataTable::words): a layout's, a token's kind
        std::set<std::string> words = fig == "video" || fig == "video_frames" || fig == "patch_grid" ? std::set<std::string>{"layout"}
                                      : fig == "video_ids" || fig == "position_ids"                  ? std::set<std::string>{"kind"}
                                                                                                     : std::set<std::string>{};
        words.insert({"model_name", "model_b_name"});  // the model's name, text
        expect_finite_or_refused(r, csv, fig + " " + rope::test::describe(sets), words);
        for (const char* bad : {",nan", ",inf", ",-inf"}) EXPECT_EQ(csv.find(bad), std::string::npos) << fig << " " << rope::test::describe(sets);
    }
}

std::vector<std::string> figure_names() {
    std::vector<std::string> names;
    for (const rope::figures::FigureDescriptor* d : rope::figures::all_figures()) names.emplace_back(d->name);
    return names;
}

INSTANTIATE_TEST_SUITE_P(EveryFigure, FigureCsvEdges, ::testing::ValuesIn(figure_names()),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

TEST_F(NumericEdges, JustPastEveryLimitIsRefusedWithOneLine) {
    const rope::test::Sets past = {{"dim", "4098"},          {"dim", "0"},         {"base", "1"},
                                   {"base", "1.000000000001e12"}, {"position", "1000000000001"}, {"position", "-1"},
                                   {"factor", "0.999"},      {"factor", "1000.001"}, {"max_position", "0"},
                                   {"attention_factor", "100.5"}, {"vector", "1e300"}};
    for (const auto& kv : past) {
        const ProcessResult r = run_process(with_sets({"compute", "freqs"}, {kv}));
        EXPECT_EQ(r.exit_code, 2) << kv.first << "=" << kv.second;
        EXPECT_TRUE(r.out.empty());
        EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(kv.first + "=" + kv.second), std::string::npos) << r.err;
    }
    // a table too long to write is refused up front, naming the key to lower
    const ProcessResult r = run_process(with_sets({"compute", "decay"}, {{"max_distance", "1000000000000"}}));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find("max_distance"), std::string::npos) << r.err;
}
