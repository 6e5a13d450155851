// What runs the app's frames: the interactive loop (sleeps when idle), --bench-frames (a parameter
// swept one slider step a frame, frame times printed), --soak-frames (random changes, a memory
// report), --screenshot (the first complete frame as a PNG) and --lesson-walk (every lesson step by
// Page Down and back by Page Up, a PNG of each). Each is a FrameDriver around the same loop.
#pragma once

#include "gui/gui_options.hpp"

namespace rope::gui {

// Opens the window and runs the app as the options say; returns the exit code. Bad input (a
// session file, --set) throws cli::UsageError before any window opens.
int run_gui(const GuiOptions& options);

}  // namespace rope::gui
