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
    return {dir + file, dir + "../lib/rope-explorer/" + file};
}

}  // namespace rope::io
