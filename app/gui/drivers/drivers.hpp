// What runs the app's frames: the interactive loop (sleeps when idle), --bench-frames (a parameter
// swept one slider step a frame, frame times printed), --soak-frames (random changes, a memory
// report), --screenshot (the first complete frame as a PNG) and --lesson-walk (every lesson step by
// Page Down and back by Page Up, a PNG of each). Each is a FrameDriver around the same loop.
#pragma once

#include "gui/app/app_state.hpp"
#include "cli/window_options.hpp"
#include "session/session.hpp"

namespace rope::gui {

// The state a start asks for: a --session file, else the last session (unless --set, --fresh or
// --lesson ask for a reproducible start), then a lesson step, then --set on top (later wins). Bad
// input throws cli::UsageError, before any window opens.
struct StartState {
    session::Session session;
    bool keep_last_session = true;  // false: the last session could not be read and is left alone
    std::shared_ptr<const lessons::Lesson> lesson;  // --lessons FILE's, the session's lesson file's or the built-in one
    std::string lesson_file;                        // "" for the built-in lesson
};
StartState starting_state(const GuiOptions& options);
// Puts the app in that state (no undo step: it is where undo stops).
void start_app(AppState& state, const GuiOptions& options, const StartState& start);

// Opens the window and runs the app as the options say; returns the exit code. Bad input (a
// session file, --set) throws cli::UsageError before any window opens.
int run_gui(const GuiOptions& options);

}  // namespace rope::gui
