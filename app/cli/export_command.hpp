// `rope-explorer export FIGURE --out PATH [--scale S] [--width W --height H] [--theme light|dark]
// [--set key=value]...`: a figure file without a display.
#pragma once

#include "cli/arguments.hpp"
#include "services/services.hpp"

namespace rope::cli {

// `services`: the Trained model figure reads its model folder with them.
int run_export(ArgCursor& args, const Services& services);
std::string export_help();

}  // namespace rope::cli
