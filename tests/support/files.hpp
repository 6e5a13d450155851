// What tests that write files ask of a folder.
#pragma once

#include <cstddef>
#include <string>

namespace rope::test {

bool exists(const std::string& path);
// Files and folders under `dir`, at any depth (a temporary left beside an output counts).
std::size_t files_in(const std::string& dir);

}  // namespace rope::test
