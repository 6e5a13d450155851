#include "support/files.hpp"

#include <sys/stat.h>

#include "support/process.hpp"

namespace rope::test {

bool exists(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0;
}

std::size_t files_in(const std::string& dir) {
    const ProcessResult r = run_process({"/usr/bin/find", dir, "-mindepth", "1"});
    return static_cast<std::size_t>(count_lines(r.out));
}

}  // namespace rope::test
