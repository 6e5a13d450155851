// What runs the app's frames, whatever the platform: the interactive run, --bench-frames (a
// parameter swept one slider step a frame, frame times printed), --soak-frames (random changes, a
// memory report), --screenshot (the first complete frame as a PNG) and --lesson-walk (every lesson
// step by Page Down and back by Page Up, a PNG of each), each a FrameDriver around the same frame;
// and the state a start asks for. The desktop's loop is drivers.cpp, the browser's web/web_main.cpp.
#pragma once

#include <memory>
#include <string>

#include "cli/window_options.hpp"
#include "gui/app/app_state.hpp"
#include "session/session.hpp"

namespace rope::gui {

class App;
class InputQueue;
class Renderer;

// Runs around App::frame: what happens before and after each frame, and when the run is over.
inline constexpr double kFrameInterval = 1.0 / 60;

class FrameDriver {
public:
    virtual ~FrameDriver() = default;
    // Frames one after another without sleeping while idle (each still at most kFrameInterval apart if paced).
    virtual bool spins() const { return false; }
    // At most one frame per kFrameInterval.
    virtual bool paced() const { return true; }
    virtual void before_frame(App&, InputQueue& /*input*/, int /*frame*/) {}
    // After the frame is rendered, before it is shown (a screenshot reads it here).
    virtual void after_frame(App&, int /*frame*/) {}
    virtual bool done() const { return false; }
    virtual int exit_code() const { return 0; }
    // What the run reports at its end (the benchmark's times, the soak's memory), printed by report().
    virtual std::string report_text() const { return ""; }
    void report() const;
    // Whether the state is kept as the last session on exit.
    virtual bool keeps_session() const { return true; }
};

// The driver the options ask for (interactive when none).
std::unique_ptr<FrameDriver> make_driver(const GuiOptions& options, Renderer& renderer);

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
// Keeps the state as the last session (a warning if it cannot be written).
void keep_last_session(const AppState& state);

}  // namespace rope::gui
