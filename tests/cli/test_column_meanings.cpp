// One column name, one meaning in every table: a column that compute freqs has (theta, wavelength,
// original_theta) or that names its unscaled wavelength (original_wavelength) holds, in every compute
// table and every figure's CSV, what that name means there, pair by pair. The models scale their
// frequencies (Llama 3's and YaRN's), so a table that wrote the unscaled wavelength under `wavelength`
// would differ.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "cli/compute_command.hpp"
#include "figures/registry.hpp"
#include "rope/frequencies.hpp"
#include "rope/params.hpp"
#include "support/app_cli.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace P = rope::P;

namespace {

using ColumnMeanings = rope::test::TempDirTest;

// Each name's value for pair i of the model.
std::map<std::string, std::vector<double>> meanings(const rope::ParamSet& p) {
    const rope::FrequencyTable f = rope::compute_frequencies(p.config());
    std::map<std::string, std::vector<double>> by_name;
    for (int i = 0; i < f.pairs(); ++i) {
        by_name["theta"].push_back(f.theta[i]);
        by_name["original_theta"].push_back(f.original_theta[i]);
        by_name["wavelength"].push_back(f.theta[i] > 0 ? 2 * M_PI / f.theta[i] : NAN);
        by_name["original_wavelength"].push_back(f.original_theta[i] > 0 ? 2 * M_PI / f.original_theta[i] : NAN);
    }
    return by_name;
}

// The cells of a CSV that the meanings name, each against the meaning of its pair's row; "" when all agree.
// Returns the number of cells checked in `checked`.
std::string disagreements(const std::string& csv, const std::map<std::string, std::vector<double>>& meaning, int& checked) {
    const std::vector<std::string> lines = rope::test::split_lines(csv);
    if (lines.empty()) return "no header";
    const std::vector<std::string> header = rope::test::split(lines[0], ',');
    int pair_column = -1;
    for (std::size_t c = 0; c < header.size(); ++c)
        if (header[c] == "pair") pair_column = static_cast<int>(c);
    if (pair_column < 0) return "";
    std::string out;
    for (std::size_t r = 1; r < lines.size(); ++r) {
        const std::vector<std::string> cells = rope::test::split(lines[r], ',');
        if (cells.size() != header.size()) continue;  // model B's rows of another width, a note
        const std::size_t pair = static_cast<std::size_t>(std::stoi(cells[static_cast<std::size_t>(pair_column)]));
        for (std::size_t c = 0; c < header.size(); ++c) {
            const auto m = meaning.find(header[c]);
            if (m == meaning.end() || cells[c].empty() || pair >= m->second.size()) continue;
            const double want = m->second[pair], got = std::stod(cells[c]);
            ++checked;
            if (!(std::abs(got - want) <= 1e-12 * std::abs(want)))
                out += header[c] + " of pair " + std::to_string(pair) + " is " + cells[c] + ", not " + std::to_string(want) + "; ";
        }
    }
    return out;
}

}  // namespace

TEST_F(ColumnMeanings, EveryTableAndFigureCsvMeansOneThingByAName) {
    for (const char* preset : {"llama-3.1-8b", "qwen2.5-7b-yarn"}) {
        rope::ParamSet p;
        p.set(P::preset, preset);
        p.validate();
        const auto meaning = meanings(p);
        ASSERT_NE(meaning.at("wavelength").back(), meaning.at("original_wavelength").back()) << preset << " does not scale";
        int checked = 0;
        for (const rope::cli::TableInfo& t : rope::cli::compute_tables()) {
            // (weights reads a model folder: tests/weights checks its original_wavelength against numpy's unscaled 2 pi / theta)
            const rope::test::ProcessResult r = rope::test::compute(std::string(t.name), {"preset=" + std::string(preset)});
            if (r.exit_code != 0) continue;  // a table this model does not have (layers, temperature, patches)
            EXPECT_EQ(disagreements(r.out, meaning, checked), "") << "compute " << t.name << ", " << preset;
        }
        for (const rope::figures::FigureDescriptor* d : rope::figures::all_figures()) {
            // the base sweep's rows are other RoPEs, one per base from 10^2 to 10^8, without the model's scaling
            if (std::string(d->csv_columns).find("base,") == 0) continue;
            const std::string csv = path(std::string(d->name) + ".csv");
            const rope::test::ProcessResult r =
                rope::test::app({"export", std::string(d->name), "--out", csv, "--set", "preset=" + std::string(preset)});
            if (r.exit_code != 0) continue;  // a figure this model does not draw
            EXPECT_EQ(disagreements(rope::test::read_file(csv), meaning, checked), "") << "export " << d->name << ".csv, " << preset;
        }
        EXPECT_GT(checked, 4 * static_cast<int>(meaning.at("theta").size())) << preset << ": the tables checked are too few";
    }
}
