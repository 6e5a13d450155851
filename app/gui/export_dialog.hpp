// The Export action of every panel: a small dialog (format, scale, theme, file name, folder) that
// writes the panel's figure through the same figure code as the screen and the command line.
#pragma once

#include <string>

#include "gui/app_state.hpp"

namespace rope::gui {

// The user's Pictures folder (XDG_PICTURES_DIR, ~/Pictures), else the current directory.
std::string default_export_folder();

// Opens the dialog for panel `index` (the Export button, or Ctrl+E over a panel).
void open_export_dialog(AppState& state, int index);
// Draws the dialog when open; exports on confirmation and reports on the status line.
void draw_export_dialog(AppState& state);

}  // namespace rope::gui
