// The desktop app's window and its loop (sleeps when idle); the frame drivers and the start state
// are frame_drivers.hpp's.
#pragma once

#include "gui/drivers/frame_drivers.hpp"
#include "services/services.hpp"

namespace rope::gui {

// Opens the window and runs the app as the options say; returns the exit code. Bad input (a
// session file, --set) throws cli::UsageError before any window opens.
int run_gui(const GuiOptions& options, const Services& services);

}  // namespace rope::gui
