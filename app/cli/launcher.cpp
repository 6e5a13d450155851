#include "cli/launcher.hpp"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/arguments.hpp"

namespace rope::cli {

namespace {

constexpr const char* kAppFile = "rope-explorer-app";

// Beside this program (the build tree), then the installed layout's lib/rope-explorer.
std::vector<std::string> app_candidates() {
    char exe[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return {};
    std::string dir(exe, static_cast<std::size_t>(n));
    dir.erase(dir.find_last_of('/') + 1);
    return {dir + kAppFile, dir + "../lib/rope-explorer/" + kAppFile};
}

}  // namespace

void start_app(char** argv) {
    const std::vector<std::string> candidates = app_candidates();
    for (const std::string& path : candidates) {
        if (access(path.c_str(), X_OK) != 0) continue;
        std::cout.flush();
        execv(path.c_str(), argv);
        throw RuntimeFailure("cannot start " + path + ": " + std::strerror(errno));
    }
    throw RuntimeFailure(std::string("cannot open the window or export: ") + kAppFile + " is not installed beside " +
                         (candidates.empty() ? std::string("this program") : candidates.front().substr(0, candidates.front().size() - std::strlen(kAppFile))));
}

int run_guarded(int argc, char** argv, int (*run)(int, char**)) {
    try {
        return run(argc, argv);
    } catch (const UsageError& e) {
        std::cerr << "rope-explorer: " << e.what() << "\n";
        return kExitUsage;
    } catch (const RuntimeFailure& e) {
        std::cerr << "rope-explorer: " << e.what() << "\n";
        return kExitFailure;
    } catch (const std::exception& e) {
        std::cerr << "rope-explorer: internal error: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace rope::cli
