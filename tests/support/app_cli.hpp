// rope-explorer as people run it: a real process, its stdout, stderr and exit code. For test programs
// built with ROPE_EXPLORER_BINARY defined (the path of the built program).
#pragma once

#include <string>
#include <vector>

#include "support/process.hpp"

#ifndef ROPE_EXPLORER_BINARY
#error "support/app_cli.hpp needs ROPE_EXPLORER_BINARY"
#endif

namespace rope::test {

// rope-explorer with these arguments.
inline ProcessResult app(std::vector<std::string> args) {
    args.insert(args.begin(), ROPE_EXPLORER_BINARY);
    return run_process(args);
}

// rope-explorer compute TABLE --set S for each of `sets`.
inline ProcessResult compute(const std::string& table, const std::vector<std::string>& sets = {}) {
    std::vector<std::string> args = {"compute", table};
    for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
    return app(args);
}

}  // namespace rope::test
