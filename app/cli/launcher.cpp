#include "cli/launcher.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "io/program_files.hpp"

namespace rope::cli {

namespace {

constexpr const char* kAppFile = "rope-explorer-app";

}  // namespace

void start_app(char** argv) {
    const std::vector<std::string> candidates = io::program_file_candidates(kAppFile);
    for (const std::string& path : candidates) {
        if (access(path.c_str(), X_OK) != 0) continue;
        std::cout.flush();
        execv(path.c_str(), argv);
        throw RuntimeFailure("cannot start " + path + ": " + std::strerror(errno));
    }
    throw RuntimeFailure(std::string("cannot open the window or export: ") + kAppFile + " is not installed beside " +
                         (candidates.empty() ? std::string("this program") : candidates.front().substr(0, candidates.front().size() - std::strlen(kAppFile))));
}

int run_guarded(int argc, char** argv, int (*run)(int, char**, const Services&), const Services& services) {
    answer_model_imports(services);  // compare_to=PATH: a config.json as model B, wherever it is checked
    try {
        return run(argc, argv, services);
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
