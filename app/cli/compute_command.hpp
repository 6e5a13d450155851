// `rope-explorer compute TABLE [--set key=value]...`: one CSV table from the core to stdout.
#pragma once

#include <string_view>
#include <vector>

#include "cli/arguments.hpp"

namespace rope::cli {

struct TableInfo {
    std::string_view name;
    std::string_view columns;
    std::string_view help;
};
const std::vector<TableInfo>& compute_tables();

// Runs the subcommand (args after "compute"); returns the exit code. Throws UsageError /
// RuntimeFailure for main to report.
int run_compute(ArgCursor& args);

}  // namespace rope::cli
