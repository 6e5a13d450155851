// rope-explorer: the command-line tools `compute` (and --help, --version) here; the window (no
// command, or only options) and `export` in rope-explorer-app, started in this process's place
// (cli/launcher.hpp says why). A bad argument is one line on standard error and exit code 2; a
// failure that is not the user's input, exit code 1.
#include <iostream>
#include <string>

#include "cli/arguments.hpp"
#include "cli/compute_command.hpp"
#include "cli/help.hpp"
#include <sys/stat.h>

#include "cli/launcher.hpp"
#include "rope/number_parse.hpp"
#include "weights/desktop_services.hpp"

namespace {

int run(int argc, char** argv, const rope::Services&) {
    using namespace rope::cli;
    ArgCursor args(argc, argv, 1);
    if (!args.done()) {
        const std::string first = args.peek();
        if (first == "--help" || first == "-h") {
            std::cout << main_help();
            return 0;
        }
        if (first == "--version") {
            std::cout << "rope-explorer " ROPE_EXPLORER_VERSION "\n";
            return 0;
        }
        if (first == "compute") {
            args.next();
            return run_compute(args);
        }
        struct stat st {};
        // rope-explorer FILE opens it; rope-explorer DIR opens a model folder
        const bool a_file = stat(first.c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
        if (first != "export" && first[0] != '-' && !a_file && first.find_first_of("/.") != std::string::npos)
            throw UsageError("'" + rope::shorten_for_message(first) + "': no such file (rope-explorer FILE opens a session, a PNG the app exported, a lesson file, a config.json or a model folder)");
        if (first != "export" && first[0] != '-' && !a_file)
            throw UsageError("unknown command '" + rope::shorten_for_message(first) + "'; commands: compute, export, or a file to open (see --help)");
    }
    start_app(argv);
}

}  // namespace

int main(int argc, char** argv) { return rope::cli::run_guarded(argc, argv, run, rope::weights::desktop_services()); }
