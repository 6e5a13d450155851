// What the window shows, in plain data that tests and the drivers can reach: the parameters (the one
// vocabulary; changed only through AppState's methods, each change one undo step), the lesson step,
// the view (page, maximised panel, theme, presentation mode, the animation) and the status line.
// The windows read it as a const view and ask for changes as actions (actions.hpp); the App applies
// them in one place. The panels' pictures, the dialogs' fields and the caches belong to the objects
// that fill them (panel_set.hpp, the dialogs, PanelBuilder).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "figures/registry.hpp"
#include "gui/app/history.hpp"
#include "lessons/lessons.hpp"
#include "plot/style.hpp"
#include "rope/params.hpp"
#include "session/session.hpp"

namespace rope::gui {

// What the panels' buttons did, as keys: presenting, the room sees no buttons (the status line and
// the presenter view say this).
inline constexpr const char* kPresentingKeys =
    "Presenting (P ends it): a panel's number key maximises it (again restores), Tab / Shift+Tab show the next / previous "
    "panels, Ctrl+E exports and Ctrl+R records the panel under the mouse.";

class AppState {
public:

    const ParamSet& params() const { return params_; }
    int lesson_step() const { return lesson_step_; }
    // The lesson the lesson window steps through: the built-in one, or a lesson file's.
    const lessons::Lesson& lesson() const { return *lesson_; }
    const std::string& lesson_file() const { return lesson_file_; }  // "" for the built-in lesson
    // Another lesson (a lesson file's, or the built-in one with path ""), the lesson window closed;
    // no undo step (a start, or a session's lesson with the session). The undo history keeps each
    // state's own lesson.
    void use_lesson(std::shared_ptr<const lessons::Lesson> lesson, std::string path);
    // A lesson file opened: at its first step, one undo step (undo gives the lesson before back).
    void open_lesson(std::shared_ptr<const lessons::Lesson> lesson, std::string path);
    bool lesson_is_builtin() const { return lesson_ == lessons::builtin_lesson_shared(); }
    // The open step's question is being asked: the picture shows its "before" state until revealed.
    bool asking() const { return asking_; }
    // Changes the lesson's steps (authoring): `edit` works on a copy, which becomes the lesson if
    // every step still reads back (one undo step named `label`), and the lesson window shows `step`
    // afterwards. The built-in lesson is never changed: an edit of it is an unsaved copy.
    // `step` < 0 leaves the lesson closed; `shows_step` shows that step's own picture (else the view
    // stays); `new_file` makes it no file's lesson until saved.
    bool edit_lesson(const std::string& label, const std::function<void(lessons::Lesson&)>& edit, int step, const std::string& gesture = "",
                     bool shows_step = false, bool new_file = false);
    // The lesson was written to `path`: it is now that file's lesson.
    void lesson_saved(std::string path);
    const History& history() const { return history_; }

    // The starting state (command line, session, lesson): no undo step.
    void start_from(const ParamSet& params, int lesson_step = -1);
    // Applies one change to a copy, validates it like --set and keeps it only if it holds; a kept
    // change is one undo step named `label` (or part of the open `gesture`). Refused: the status
    // line says why and nothing changes.
    bool change(const std::string& label, const std::function<void(ParamSet&)>& edit, const std::string& gesture = "");
    bool apply(ParamId key, const std::string& text, const std::string& gesture = "");
    bool apply_number(ParamId key, double value, const std::string& gesture = "");
    // Replaces the whole set (a session, a config.json): one undo step. `params` is already valid.
    void replace(const std::string& label, const ParamSet& params) { replace(label, params, lesson_step_); }
    // ... and the lesson step with it (a session opens at its own step).
    void replace(const std::string& label, const ParamSet& params, int lesson_step);
    // A lesson step's parameters, page and panel (one undo step); -1 closes the lesson. A step with
    // a question asks it first (its "before" parameters), unless `ask` is false (stepping back).
    void go_to_lesson_step(int step, bool ask = true);
    // The asked question's answer: the step's own parameters (one undo step).
    void reveal();
    void close_lesson();
    // The gesture the last changes belong to has ended (the slider or the mouse button was let go).
    void end_gesture();
    bool undo();
    bool redo();

    // the view: not undone
    plot::ThemeId theme = plot::ThemeId::dark;
    float base_scale = 1;  // the monitor's content scale (x the user's factor)
    float ui_scale = 1;    // base_scale x ui_zoom, or effective_scale() in presentation mode
    float ui_zoom = 1;     // the UI's zoom people chose (Ctrl+= / Ctrl+- / Ctrl+0), kept in the desktop's settings
    int maximized = -1;    // panel index, or -1 for the page's grid
    int embedded = -1;     // a panel shown alone for good (a page's #embed=, in an <iframe>), or -1
    bool on_page = false;  // the app runs in a browser's page: Copy link where the desktop has Quit
    // The screen's shape in CSS pixels (the window's pixels over base_scale x ui_zoom, so a browser's
    // zoom and a phone's DPR land here alike), as this frame lays it out: narrow (a phone upright),
    // short (a phone sideways, a zoomed page, an embed in a column). Either makes the panels' headers
    // compact (the figure's options, Export and Record under one Menu button) and folds the formula
    // strip away before a plot shrinks.
    static constexpr float kNarrowBelow = 768, kShortBelow = 480;
    bool narrow = false, short_screen = false;
    bool compact() const { return narrow || short_screen; }
    // A small screen's controls are out in a drawer over the panels (a phone upright; a short screen
    // while a lesson step has the column).
    bool drawer_open = false;
    // People point by touch here (a phone's or a tablet's page): the pictures' words give no key or
    // hover hints.
    bool touch = false;
    // Less motion (the browser's prefers-reduced-motion, --reduced-motion, the View section): Play
    // starts only when asked, the laser pointer leaves no fading trail, the text cursor does not
    // blink. Exported animations are files a person asked for: unchanged.
    bool reduced_motion = false;
    int page = 0;          // which page of panels the grid shows (figures::pages())
    // Where a page's panels do not all fit legibly at once (a projector, a small window), the grid
    // shows them a few at a time: `page_part` of `page_parts`, Tab stepping through them.
    int page_part = 0;
    int page_parts = 1;
    bool presentation = false;  // large type, high contrast, no controls
    // the presenter's own window is open (run_gui opens it): the audience sees the picture without the
    // step's text, and the question while it is asked
    bool presenter_view = false;
    bool fullscreen = false;
    bool playing = false;
    double speed = 10;          // tokens per second
    double play_position = 0;   // fractional position while playing
    bool show_shortcuts = false;
    int help_panel = -1;  // the panel whose words F1 over it shows (docs/user-guide.md), or -1
    bool editing_lesson = false;  // the lesson editor is open
    // the audience's prediction for the asked question (not undone; cleared by a step change)
    int guess_choice = -1;
    double guess_number = 0;
    bool guessed_number = false;
    std::string session_path;   // the file Ctrl+S writes (last opened or saved)
    ParamId selected_key = ParamId::position;  // the numeric slider last used: what Record sweeps

    std::string status = "Ready. Drag the sliders; Ctrl+click a slider to type a value.";
    bool status_error = false;
    void set_status(std::string text, bool error = false);
    // Presenting: what the audience's window leaves out at its size and the keys that show it, one
    // line a panel (the room sees no such note; the presenter view shows these), after each frame.
    std::vector<std::string> room_notes;

    // linked views: the pair and position under the mouse in any panel (-1: none), highlighted in
    // every panel; `linked_next` collects this frame's, shown from the next frame on
    struct Linked {
        int pair = -1;
        std::int64_t position = -1;
        bool operator==(const Linked& o) const { return pair == o.pair && position == o.position; }
        bool operator!=(const Linked& o) const { return !(*this == o); }
    };
    Linked linked, linked_next;
    bool quit_requested = false;
    bool screenshot_requested = false;  // F12

    // Presentation mode sizes type for the back row: the smallest text (a panel's tick labels,
    // kSmallestText px at scale 1) is at least 1/36 of the window's height (20 px at 720p, 30 px
    // at 1080p), and never smaller than the usual type.
    static constexpr float kSmallestText = plot::kPresentingSmallestText;
    float effective_scale(float window_height) const {
        const float scale = base_scale * ui_zoom;
        if (!presentation) return scale;
        return std::max(scale, std::ceil(window_height / 36.0f) / kSmallestText);
    }

private:
    void restore(const Snapshot& s);
    void show_step(int step, bool ask);  // a step's parameters, page and status, with no undo step
    bool step_history(bool forward);
    Snapshot snapshot() const { return {params_, lesson_step_, lesson_, lesson_file_, asking_}; }

    ParamSet params_;
    int lesson_step_ = -1;  // -1: no lesson open
    std::shared_ptr<const lessons::Lesson> lesson_ = lessons::builtin_lesson_shared();
    std::string lesson_file_;
    bool asking_ = false;
    History history_;
};

// Maximise a panel (or restore the grid if it is the maximised one), showing its page.
void toggle_maximized(AppState& state, int panel);
// The panel the open lesson step points at (null when no lesson is open).
const figures::FigureDescriptor* lesson_panel(const AppState& state);
bool panel_shown(const AppState& state, int panel);
// The UI zoom one step from `zoom` (+1 larger, -1 smaller; 0: 100%), along the steps browsers use
// (50% ... 300%); a zoom between steps goes to the next one in that direction.
float next_ui_zoom(float zoom, int step);

// The figures' style on screen; for the panel the open lesson step points at, with its focus.
plot::Style screen_style(const AppState& state, const figures::FigureDescriptor* figure = nullptr);
// The sub-plots the open lesson step speaks of, if `figure` is its panel ("" otherwise).
std::string lesson_focus(const AppState& state, const figures::FigureDescriptor& figure);
plot::ThemeId effective_theme(const AppState& state);

// The state as a session (parameters and view), and a session opened over it: its parameters one
// undo step named `label`, its view (maximised panel, page, theme, presentation, animation) not undone.
session::Session current_session(const AppState& state);
void apply_session(AppState& state, const session::Session& s, const std::string& label);
void apply_view(AppState& state, const session::ViewState& view);
// The session's lesson step if `lesson` has it, else -1.
int session_lesson_step(const session::Session& s, const lessons::Lesson& lesson);

}  // namespace rope::gui
