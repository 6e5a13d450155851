// `rope-explorer export FIGURE --out PATH [--scale S] [--width W --height H] [--theme light|dark]
// [--set key=value]...`: a figure file without a display.
#pragma once

#include "cli/arguments.hpp"

namespace rope::cli {

int run_export(ArgCursor& args);
std::string export_help();

}  // namespace rope::cli
