// Help texts, generated from the parameter table and the list of tables, so they never drift.
#pragma once

#include <string>

namespace rope::gui {
struct GuiFlag;
}

namespace rope::cli {

std::string main_help();
std::string window_flags_help();                   // the window's flags (cli/window_options.hpp) as --help lists them
std::string flag_usage(const gui::GuiFlag& flag);  // "--size WxH"
std::string compute_help();
std::string parameter_help();  // every key: type, default, allowed values, one-line help

}  // namespace rope::cli
