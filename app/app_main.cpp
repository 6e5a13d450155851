// rope-explorer-app: the window (no command, or only options) and `export`, started by
// rope-explorer (main.cpp) for them. Run by hand it does the same.
#include <string>

#include "cli/arguments.hpp"
#include "cli/export_command.hpp"
#include "cli/launcher.hpp"
#include "gui/drivers/drivers.hpp"
#include "rope/number_parse.hpp"
#include "weights/desktop_services.hpp"

#include <sys/stat.h>

namespace {

int run(int argc, char** argv, const rope::Services& services) {
    using namespace rope::cli;
    ArgCursor args(argc, argv, 1);
    if (!args.done() && args.peek() == "export") {
        args.next();
        return run_export(args, services);
    }
    struct stat st {};
    // the window opens it: a file, or a folder as a model folder
    const bool a_file = !args.done() && stat(args.peek().c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
    if (!args.done() && args.peek()[0] != '-' && !a_file)
        throw UsageError("unknown command '" + rope::shorten_for_message(args.peek()) + "'; rope-explorer-app runs the window and export");
    // The window: bad --set is refused before anything opens.
    return rope::gui::run_gui(rope::gui::parse_gui_options(argc, argv, 1), services);
}

}  // namespace

int main(int argc, char** argv) { return rope::cli::run_guarded(argc, argv, run, rope::weights::desktop_services()); }
