// `rope-explorer export ...` as the export tests run it: without a display, which it must not need.
// For test targets that define ROPE_EXPLORER_BINARY (the app's path).
#pragma once

#include <string>
#include <vector>

#include "support/process.hpp"

#ifndef ROPE_EXPLORER_BINARY
#error "support/export_cli.hpp needs ROPE_EXPLORER_BINARY (target_compile_definitions in tests/CMakeLists.txt)"
#endif

namespace rope::test {

inline ProcessResult export_cli(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"/usr/bin/env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", ROPE_EXPLORER_BINARY, "export"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv);
}

}  // namespace rope::test
