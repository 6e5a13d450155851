// Where the program's own parts are: the folder of the running executable (the build tree keeps
// rope-explorer, rope-explorer-app and rope-explorer-video.so side by side) and the installed
// layout's ../libexec/rope-explorer/ beside it.
#pragma once

#include <string>
#include <vector>

namespace rope::io {

// The places `file` may be, in order: beside the running executable, then in ../libexec/rope-explorer/
// (and, for a test program in the build tree's tests/ folder, one folder up).
// Empty if the executable's path cannot be read.
std::vector<std::string> program_file_candidates(const std::string& file);

}  // namespace rope::io
