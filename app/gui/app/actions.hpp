// What a person asks for, as values. The windows (controls, lesson, panels, dialogs) and the
// shortcuts read a const AppState and append actions; the App applies them in one place
// (App::apply), in the order they were asked, right after the window or key that asked. So the state
// changes in one place, and every change goes through the same validation and undo log.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "lessons/lessons.hpp"
#include "plot/style.hpp"
#include "rope/params.hpp"
#include "session/session.hpp"

namespace rope::gui::act {

// Parameters: each validated like --set and one undo step (or part of the open gesture).
struct ChangeParams {  // what a panel's header or pointer made of the parameters (a value: the edit already done)
    std::string label;
    ParamSet next;
    std::string gesture;
};
struct SetParam {  // a value picked or typed: its text as --set takes it
    ParamId key;
    std::string text;
    std::string gesture;
    bool selects = false;  // the control of a number: it becomes the one Record sweeps
};
struct SelectKey {  // a slider taken hold of: the key becomes the one Record sweeps
    ParamId key;
};
struct SetNumber {  // a slider moved: the key becomes the one Record sweeps
    ParamId key;
    double value;
    std::string gesture;
};
struct ReplaceParams {  // a whole new set (a session, a config.json, a preset with its message)
    std::string label;
    ParamSet params;
    std::string status;
};
struct OpenSession {  // a session read (a file opened or dropped): its parameters, lesson step and view
    std::string label;
    session::Session session;
    std::string path;
    std::shared_ptr<const lessons::Lesson> lesson;  // the lesson it names, read with it
};
struct UseLesson {  // a lesson file opened or dropped (or the built-in lesson, path ""): from its first step
    std::shared_ptr<const lessons::Lesson> lesson;
    std::string path;
};
struct StepPosition {
    std::int64_t delta;
};
struct StepPair {
    int delta;
};
struct BaseNotch {
    int direction;  // a tenth of a decade up (1) or down (-1) the log slider
};
struct Undo {};
struct Redo {};

// The lesson and the animation.
struct StepLesson {
    int delta;
};
struct OpenLesson {};
struct Reveal {};  // the asked question's answer (Page Down while a question is asked)
struct Guess {     // the audience's prediction: a choice, or a number
    int choice = -1;
    double number = 0;
    bool is_number = false;
};
// Authoring: a change to the lesson's steps, made on a copy (AppState::edit_lesson), one undo step.
struct EditLesson {
    std::string label;
    std::function<void(lessons::Lesson&)> edit;  // may throw: the edit is refused, said on the status line
    int step;                                     // the step shown afterwards
    std::string gesture = {};                     // typing into one field is one undo step
    bool shows_step = false;                      // the step's own picture afterwards (else the view stays)
    bool new_file = false;                        // a new lesson: no file's until saved
};
struct GoToLessonStep {  // a step picked in the lesson editor's list (asked first, as Page Down shows it)
    int step;
};
struct ToggleLessonEditor {};
struct CloseLesson {};
struct TogglePlay {};
struct SetSpeed {
    double tokens_per_second;
};

// The view: not undone.
struct ShowPage {
    int page;
    int part = 0;  // which of its parts, where the page is shown a few panels at a time
};
// Tab: the page's next part (where it is shown a few panels at a time), else the next page.
struct NextPage {
    int delta;
};
// What the grid found it can show legibly: the current page in `count` parts, part `part` on
// screen (written back by the layout so that Tab knows where a page ends).
struct PageParts {
    int count;
    int part;
};
struct ToggleMaximized {
    int panel;
};
struct RestoreGrid {};  // Esc
struct SetTheme {
    plot::ThemeId theme;
};
struct SetReducedMotion {  // on: a playing animation stops too
    bool on;
};
struct TogglePresentation {};
struct TogglePresenterView {};  // the presenter's own window (presenting turns on with it)
struct ToggleFullscreen {};
// A small screen's controls, in a drawer over the panels: shown or put away.
struct ShowDrawer {
    bool shown;
};
// Ctrl+= / Ctrl+- / Ctrl+0: the UI one step larger (+1), smaller (-1), or back to 100% (0).
struct ZoomUi {
    int step;
};
struct ShowShortcuts {
    bool shown;
};
struct ToggleShortcuts {};
struct TogglePanelHelp {  // F1 over a panel: what it shows, in words
    int panel;
};
struct HoverLinked {  // the pair and position under the pointer, for the linked views
    int pair = -1;
    std::int64_t position = -1;
};

// Windows, files and the app.
struct OpenExportDialog {
    int panel;
    bool recording;  // Record (an animation) instead of Export
    // The page's reader document writes at once with the dialog's defaults (a screen reader cannot
    // read the dialog drawn in the canvas): the picture as PNG (a recording: its default format),
    // or the numbers as CSV.
    enum Write { in_dialog, picture_now, numbers_now } write = in_dialog;
};
struct OpenFileDialog {
    enum Kind { save_session, open_session, open_config, open_config_b, save_lesson, save_handout } kind;  // open_config_b: a config.json as model B
};
struct WriteHandout {  // the lesson as a PDF handout, written off the UI thread
    std::string path;
};
struct LessonSaved {  // the lesson was written to `path`: it is now that file's lesson
    std::string path;
};
struct SetSessionPath {  // the file Ctrl+S writes next
    std::string path;
};
struct SetStatus {
    std::string text;
    bool error = false;
};
struct CancelRecording {};
struct Screenshot {};
struct Quit {};
struct CopyLink {};  // a page's address for this view, to the clipboard (the browser's page)

}  // namespace rope::gui::act

namespace rope::gui {

using Action = std::variant<act::ChangeParams, act::SetParam, act::SelectKey, act::SetNumber, act::ReplaceParams, act::OpenSession, act::UseLesson, act::StepPosition,
                            act::StepPair, act::BaseNotch, act::Undo, act::Redo, act::StepLesson, act::OpenLesson, act::Reveal, act::Guess, act::EditLesson, act::GoToLessonStep, act::ToggleLessonEditor, act::CloseLesson,
                            act::TogglePlay, act::SetSpeed, act::ShowPage, act::NextPage, act::PageParts, act::ToggleMaximized, act::RestoreGrid,
                            act::SetTheme, act::SetReducedMotion, act::TogglePresentation, act::TogglePresenterView, act::ToggleFullscreen, act::ZoomUi, act::ShowDrawer, act::ShowShortcuts, act::ToggleShortcuts, act::TogglePanelHelp,
                            act::HoverLinked, act::OpenExportDialog, act::OpenFileDialog, act::WriteHandout, act::LessonSaved, act::SetSessionPath, act::SetStatus,
                            act::CancelRecording, act::Screenshot, act::Quit, act::CopyLink>;

class AppState;
// Applies an action that changes only the state (parameters, lesson, view, status); false for the
// ones the App itself carries out (dialogs, the export jobs).
bool apply_to_state(AppState& state, const Action& action);

// The actions of one window or one key, in the order they were asked.
class Actions {
public:
    template <typename A>
    void ask(A action) {
        list_.emplace_back(std::move(action));
    }
    const std::vector<Action>& list() const { return list_; }
    bool empty() const { return list_.empty(); }
    std::vector<Action> take() { return std::exchange(list_, {}); }

private:
    std::vector<Action> list_;
};

}  // namespace rope::gui
