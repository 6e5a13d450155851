// The controls panel: the toolbar of teaching actions, one slider per parameter people move (each
// with the parameter table's help as its tooltip), the model's numbers, the status line.
#pragma once

#include <imgui.h>

#include "gui/app_state.hpp"

namespace rope::gui {

void draw_controls(AppState& state, ImVec2 pos, ImVec2 size);

}  // namespace rope::gui
