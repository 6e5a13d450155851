// The classroom side of the window: the toolbar that offers every shortcut as a button (undo and
// redo among them), the animation, the lesson panel and the shortcut overlay.
#pragma once

#include <imgui.h>

#include "gui/app_state.hpp"

namespace rope::gui {

void draw_toolbar(AppState& state);
void draw_lesson_panel(AppState& state, ImVec2 pos, ImVec2 size);
void draw_shortcut_overlay(AppState& state);

// Moves the position while playing (dt in seconds), looping at max_position; the whole run is one
// undo step.
void advance_animation(AppState& state, double dt);

}  // namespace rope::gui
