// rope-explorer: the window (no command, or only options) and the command-line tools `compute` and
// `export`. A bad argument is one line on standard error and exit code 2; a failure that is not the
// user's input, exit code 1.
#include <iostream>
#include <string>

#include "cli/arguments.hpp"
#include "cli/compute_command.hpp"
#include "cli/export_command.hpp"
#include "cli/help.hpp"
#include "gui/drivers/drivers.hpp"

namespace {

int run(int argc, char** argv) {
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
        if (first == "export") {
            args.next();
            return run_export(args);
        }
        if (first[0] != '-') throw UsageError("unknown command '" + rope::shorten_for_message(first) + "'; commands: compute, export (see --help)");
    }
    // The window: bad --set is refused before anything opens.
    return rope::gui::run_gui(rope::gui::parse_gui_options(argc, argv, 1));
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const rope::cli::UsageError& e) {
        std::cerr << "rope-explorer: " << e.what() << "\n";
        return rope::cli::kExitUsage;
    } catch (const rope::cli::RuntimeFailure& e) {
        std::cerr << "rope-explorer: " << e.what() << "\n";
        return rope::cli::kExitFailure;
    } catch (const std::exception& e) {
        std::cerr << "rope-explorer: internal error: " << e.what() << "\n";
        return rope::cli::kExitFailure;
    }
}
