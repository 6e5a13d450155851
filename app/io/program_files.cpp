#include "io/program_files.hpp"

#include <unistd.h>

#include <climits>

namespace rope::io {

std::vector<std::string> program_file_candidates(const std::string& file) {
    char exe[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return {};
    std::string dir(exe, static_cast<std::size_t>(n));
    dir.erase(dir.find_last_of('/') + 1);
    std::vector<std::string> out = {dir + file, dir + "../libexec/rope-explorer/" + file};
    // a test program in the build tree's tests/ folder: the parts are one folder up (no build path
    // is compiled in, so an installed program looks only where it is installed)
    if (dir.size() >= 7 && dir.compare(dir.size() - 7, 7, "/tests/") == 0) out.push_back(dir + "../" + file);
    return out;
}

}  // namespace rope::io
