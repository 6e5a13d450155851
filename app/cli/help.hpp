// Help texts, generated from the parameter table and the list of tables, so they never drift.
#pragma once

#include <string>

namespace rope::cli {

std::string main_help();
std::string compute_help();
std::string parameter_help();  // every key: type, default, allowed values, one-line help

}  // namespace rope::cli
