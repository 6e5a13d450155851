#include "gui/app/actions.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gui/app/app_state.hpp"
#include "lessons/lessons.hpp"

namespace rope::gui {

namespace {

template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

void step_position(AppState& state, std::int64_t delta) {
    const std::int64_t max_position = state.params()[P::max_position];
    const std::int64_t m = std::clamp<std::int64_t>(state.params()[P::position] + delta, 0, max_position - 1);
    state.apply_number(P::position, static_cast<double>(m));
    state.play_position = static_cast<double>(state.params()[P::position]);
}

void step_pair(AppState& state, int delta) {
    const int pairs = state.params().config().rotated_pairs();
    const std::int64_t i = std::clamp<std::int64_t>(state.params()[P::pair] + delta, 0, std::max(0, pairs - 1));
    state.apply_number(P::pair, static_cast<double>(i));
}

void base_notch(AppState& state, int direction) {
    const ParamSpec& spec = param_spec(P::base);
    double b = state.params()[P::base] * std::pow(10.0, 0.1 * direction);
    // ten notches up from 10^4 land on 10^5, not 100000.00000000004 (the error of ten products): a
    // base within rounding of a tenth of a decade is that tenth exactly, so the notches from a round
    // base give the same numbers as typing them
    const double tenth = std::pow(10.0, std::round(10 * std::log10(b)) / 10);
    if (std::abs(b / tenth - 1) < 1e-12) b = tenth;
    state.apply_number(P::base, std::clamp(b, spec.slider_min, spec.slider_max));
}

void toggle_play(AppState& state) {
    state.playing = !state.playing;
    state.play_position = static_cast<double>(state.params()[P::position]);
    if (!state.playing && state.history().open_gesture() == "animation") state.end_gesture();
}

// Page Down reveals an asked question before it moves on (a clicker drives the whole lesson);
// stepping back shows the earlier step answered.
void step_lesson(AppState& state, int delta) {
    if (state.lesson_step() < 0) return state.go_to_lesson_step(0);
    if (delta > 0 && state.asking()) return state.reveal();
    const int n = static_cast<int>(state.lesson().steps.size());
    const int next = std::clamp(state.lesson_step() + delta, 0, n - 1);
    if (next != state.lesson_step()) state.go_to_lesson_step(next, delta > 0);
}

// Presenting a lesson, the step's panel fills the screen: Tab shows the panels after it one at a time
// (each alone, as its key would), and after the last the step again; Shift+Tab goes the other way.
void next_presented_panel(AppState& state, int delta) {
    const int n = figures::figure_count(), home = lesson_panel(state)->index;
    const int at = state.maximized < 0 ? 0 : ((state.maximized - home) % n + n) % n;  // 0: the step
    const int next = ((at + delta) % n + n) % n;
    state.maximized = next == 0 ? -1 : (home + next) % n;
    state.page = figures::figure_at(next == 0 ? home : state.maximized).page;
}

// Through the parts of the page first (where the grid shows it a few panels at a time), then to the
// next page's first part or the previous page's last (the grid clamps the part to its count).
void next_page(AppState& state, int delta) {
    if (state.presentation && lesson_panel(state)) return next_presented_panel(state, delta);
    const int n = static_cast<int>(figures::pages().size());
    const int part = state.page_part + delta;
    state.maximized = -1;
    if (part >= 0 && part < state.page_parts) {
        state.page_part = part;
        return;
    }
    state.page = ((state.page + delta) % n + n) % n;
    state.page_part = delta > 0 ? 0 : std::numeric_limits<int>::max() / 2;
    state.page_parts = 1;
}

}  // namespace

bool apply_to_state(AppState& state, const Action& action) {
    return std::visit(
        Overloaded{
            [&](const act::ChangeParams& a) { return state.change(a.label, [&](ParamSet& p) { p = a.next; }, a.gesture), true; },
            [&](const act::SetParam& a) {
                if (a.selects) state.selected_key = a.key;
                return state.apply(a.key, a.text, a.gesture), true;
            },
            [&](const act::SelectKey& a) { return state.selected_key = a.key, true; },
            [&](const act::SetNumber& a) { return state.apply_number(a.key, a.value, a.gesture), true; },
            [&](const act::ReplaceParams& a) {
                state.replace(a.label, a.params);
                if (!a.status.empty()) state.set_status(a.status);
                return true;
            },
            [&](const act::OpenSession& a) {
                state.use_lesson(a.lesson ? a.lesson : lessons::builtin_lesson_shared(), a.session.view.lesson_file);
                apply_session(state, a.session, a.label);
                state.session_path = a.path;
                return true;
            },
            [&](const act::UseLesson& a) {
                state.open_lesson(a.lesson, a.path);
                const std::size_t n = state.lesson().steps.size();
                state.set_status("Lesson \"" + state.lesson().title + "\" (" + std::to_string(n) + (n == 1 ? " step" : " steps") +
                                 (a.path.empty() ? ", built in" : ", from " + a.path) + "): step 1, " + state.lesson().steps.front().title);
                return true;
            },
            [&](const act::StepPosition& a) { return step_position(state, a.delta), true; },
            [&](const act::StepPair& a) { return step_pair(state, a.delta), true; },
            [&](const act::BaseNotch& a) { return base_notch(state, a.direction), true; },
            [&](const act::Undo&) { return state.undo(), true; },
            [&](const act::Redo&) { return state.redo(), true; },
            [&](const act::StepLesson& a) { return step_lesson(state, a.delta), true; },
            [&](const act::OpenLesson&) { return state.go_to_lesson_step(0), true; },
            [&](const act::Reveal&) { return state.reveal(), true; },
            [&](const act::Guess& a) {
                if (a.is_number) state.guess_number = a.number, state.guessed_number = true;
                else state.guess_choice = a.choice;
                return true;
            },
            [&](const act::EditLesson& a) { return state.edit_lesson(a.label, a.edit, a.step, a.gesture, a.shows_step, a.new_file), true; },
            [&](const act::GoToLessonStep& a) { return state.go_to_lesson_step(a.step), true; },
            [&](const act::ToggleLessonEditor&) {
                state.editing_lesson = !state.editing_lesson;  // the view stays: it may become a step
                return true;
            },
            [&](const act::CloseLesson&) { return state.close_lesson(), true; },
            [&](const act::TogglePlay&) { return toggle_play(state), true; },
            [&](const act::SetSpeed& a) { return state.speed = a.tokens_per_second, true; },
            [&](const act::ShowPage& a) { return state.page = a.page, state.page_part = a.part, true; },
            [&](const act::NextPage& a) { return next_page(state, a.delta), true; },
            [&](const act::PageParts& a) { return state.page_parts = a.count, state.page_part = a.part, true; },
            [&](const act::ToggleMaximized& a) { return toggle_maximized(state, a.panel), true; },
            [&](const act::RestoreGrid&) {
                if (state.help_panel >= 0) state.help_panel = -1;
                else if (state.show_shortcuts) state.show_shortcuts = false;
                else state.maximized = -1;
                return true;
            },
            [&](const act::SetTheme& a) { return state.theme = a.theme, true; },
            [&](const act::SetReducedMotion& a) {
                state.reduced_motion = a.on;
                if (a.on && state.playing) toggle_play(state);
                return true;
            },
            [&](const act::TogglePresentation&) {
                state.presentation = !state.presentation;
                if (state.on_page) state.fullscreen = state.presentation;  // a page presents in the browser's full screen
                // the room sees no buttons: the keys that stand for them, where the presenter looks
                if (state.presentation) state.set_status(kPresentingKeys);
                return true;
            },
            [&](const act::TogglePresenterView&) {
                if (state.on_page && !state.presenter_view)
                    return state.set_status("The presenter's own window is the desktop app's: a page cannot open one (P presents here).", true), true;
                state.presenter_view = !state.presenter_view;
                if (state.presenter_view) state.presentation = true;
                return true;
            },
            [&](const act::ToggleFullscreen&) { return state.fullscreen = !state.fullscreen, true; },
            [&](const act::ShowDrawer& a) { return state.drawer_open = a.shown, true; },
            [&](const act::ZoomUi& a) {
                state.ui_zoom = next_ui_zoom(state.ui_zoom, a.step);
                state.set_status("UI scale " + std::to_string(static_cast<int>(std::lround(state.ui_zoom * 100))) +
                                 "% (Ctrl+= larger, Ctrl+- smaller, Ctrl+0 back to 100%)");
                return true;
            },
            [&](const act::ShowShortcuts& a) { return state.show_shortcuts = a.shown, true; },
            [&](const act::ToggleShortcuts&) { return state.show_shortcuts = !state.show_shortcuts, true; },
            [&](const act::TogglePanelHelp& a) { return state.help_panel = state.help_panel == a.panel ? -1 : a.panel, true; },
            [&](const act::HoverLinked& a) {
                if (a.pair >= 0) state.linked_next.pair = a.pair;
                if (a.position >= 0) state.linked_next.position = a.position;
                return true;
            },
            [&](const act::LessonSaved& a) { return state.lesson_saved(a.path), true; },
            [&](const act::SetSessionPath& a) { return state.session_path = a.path, true; },
            [&](const act::SetStatus& a) { return state.set_status(a.text, a.error), true; },
            [&](const act::Screenshot&) { return state.screenshot_requested = true; },
            [&](const act::Quit&) { return state.quit_requested = true; },
            [&](const act::CancelRecording&) { return false; },   // the App's export jobs
            [&](const act::OpenExportDialog&) { return false; },  // the App's dialogs
            [&](const act::OpenFileDialog&) { return false; },
            [&](const act::WriteHandout&) { return false; },
            [&](const act::CopyLink&) { return false; },  // the App asks the platform for the page's address
        },
        action);
}

}  // namespace rope::gui
