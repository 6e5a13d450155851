// Sessions in the window: the Save / Open / Config dialog (Ctrl+S, Ctrl+O, the Config button), and
// the conversion between the app's state and a session file. Opening a session or a config is one
// undo step.
#pragma once

#include "gui/app_state.hpp"
#include "session/session.hpp"

namespace rope::gui {

void open_session_dialog(AppState& state, bool saving);
void open_config_dialog(AppState& state);
void draw_session_dialog(AppState& state);

session::Session current_session(const AppState& state);
// Opens a session over the current state (its parameters are one undo step named `label`).
void apply_session(AppState& state, const session::Session& s, const std::string& label);
// The view part of a session (maximised panel, page, theme, presentation, animation): not undone.
void apply_view(AppState& state, const session::ViewState& view);
// The session's lesson step if this build's lesson has it, else -1.
int session_lesson_step(const session::Session& s);
// Imports a Hugging Face config.json over the current model (one undo step). Throws on bad files.
void import_config(AppState& state, const std::string& path);
// A file dropped onto the window, opened as File > Open or the Config button would: an exported PNG
// or a session JSON (an object with "parameters") as a session, any other JSON object as a
// config.json. One undo step; errors go to the status line, the state unchanged.
void open_dropped_file(AppState& state, const std::string& path);

}  // namespace rope::gui
