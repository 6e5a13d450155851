// `rope-explorer compute TABLE [--set key=value]...`: one CSV table from the core to stdout.
#pragma once

#include <string_view>
#include <vector>

#include "cli/arguments.hpp"

namespace rope {
class ParamSet;
struct FrequencyTable;
}  // namespace rope

namespace rope::cli {

class CsvWriter;

// What a table's check and writer read: one model's parameters and frequencies.
struct TableInput {
    const ParamSet& params;
    const FrequencyTable& freqs;
    bool one_layer;  // compute weights: the command named a layer (--set layer=N)
};

// One row per table: its name, columns and help (--help, the man page, docs/reference.md), what
// writes it, and what refuses it before any row is written (nullptr: nothing does).
struct TableInfo {
    std::string_view name;
    std::string_view columns;
    std::string_view help;
    void (*write)(const TableInput& in, CsvWriter& out) = nullptr;
    void (*check)(const TableInput& in) = nullptr;
};
const std::vector<TableInfo>& compute_tables();

// Runs the subcommand (args after "compute"); returns the exit code. Throws UsageError /
// RuntimeFailure for main to report.
int run_compute(ArgCursor& args);

}  // namespace rope::cli
