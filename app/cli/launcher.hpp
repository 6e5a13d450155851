// The program's front door: `rope-explorer` answers compute, --help and --version itself and hands
// everything else (the window, `export`) to rope-explorer-app, which it starts in its own place
// (exec: same process id, standard streams and exit code). So `compute` loads only the core, the
// sessions and the C++ runtime, not cairo, OpenGL, GLFW or libav.
#pragma once

#include "services/services.hpp"

namespace rope::cli {

// Replaces this process with rope-explorer-app and the same arguments; throws RuntimeFailure
// (exit 1) naming what is missing when it cannot.
[[noreturn]] void start_app(char** argv);

// Runs `run` with the program's services (its core answering model imports with them) and turns
// what it throws into one line on standard error and an exit code: UsageError 2, RuntimeFailure and
// anything else 1.
int run_guarded(int argc, char** argv, int (*run)(int, char**, const Services&), const Services& services);

}  // namespace rope::cli
