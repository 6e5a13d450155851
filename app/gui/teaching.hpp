// The classroom side of the window: keyboard shortcuts (and the overlay listing them), the toolbar
// that offers each of them as a button, the animation, the lesson panel and the session dialog.
#pragma once

#include <imgui.h>

#include "gui/app_state.hpp"
#include "session/session.hpp"

struct GLFWwindow;

namespace rope::gui {

// Keys when no text field has focus. Returns true if something changed.
void handle_shortcuts(AppState& state);
void draw_shortcut_overlay(AppState& state);
void draw_toolbar(AppState& state);
void draw_lesson_panel(AppState& state, ImVec2 pos, ImVec2 size);
void draw_session_dialog(AppState& state);
void open_session_dialog(AppState& state, bool saving);
void open_config_dialog(AppState& state);

// Moves the position while playing (dt in seconds), looping at max_position.
void advance_animation(AppState& state, double dt);

// The base one notch up or down its logarithmic slider (a tenth of a decade).
void base_notch(AppState& state, int direction);

session::Session current_session(const AppState& state);
void apply_session(AppState& state, const session::Session& s);

}  // namespace rope::gui
