// The numpy reference scripts (tests/reference/*.py): cases in as JSON through a file, answers out as
// JSON on stdout, run by Debian's python3 (the one with numpy).
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "support/process.hpp"

namespace rope::test {

inline nlohmann::json run_python_reference(const char* script, const nlohmann::json& cases) {
    char path[] = "/tmp/rope-reference-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) throw std::runtime_error("mkstemp");
    close(fd);
    std::ofstream(path) << cases.dump();
    const ProcessResult r = run_process({"/usr/bin/python3", script, path});
    std::remove(path);
    if (r.exit_code != 0) throw std::runtime_error(std::string("reference script ") + script + " failed: " + r.err);
    return nlohmann::json::parse(r.out);
}

}  // namespace rope::test
