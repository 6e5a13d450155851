// The classroom side of the window: the toolbar that offers every shortcut as a button (undo and
// redo among them), the animation, the lesson panel and the shortcut overlay.
#pragma once

#include <imgui.h>

#include "gui/app_state.hpp"

namespace rope::gui {

void draw_toolbar(AppState& state);
void draw_lesson_panel(AppState& state, ImVec2 pos, ImVec2 size, ImFont* title_font);
// The height the open step needs in a lesson panel `width` wide (its whole text, no scrollbar).
float lesson_panel_height(const AppState& state, float width, ImFont* title_font);
// The narrowest column beside the panel (from 28% up to 45% of the window) that holds the whole step.
float lesson_column_width(const AppState& state, float window_width, float window_height, ImFont* title_font);
void draw_shortcut_overlay(AppState& state);

// Moves the position while playing (dt in seconds), looping at max_position; the whole run is one
// undo step.
void advance_animation(AppState& state, double dt);

}  // namespace rope::gui
