#include "gui/shortcuts.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>

#include "gui/export_dialog.hpp"
#include "gui/session_dialog.hpp"
#include "lessons/lessons.hpp"

namespace rope::gui {

std::vector<ShortcutHelp> shortcut_list() {
    const int n = figures::figure_count();
    const std::string last_key(1, figures::panel_key(std::min(n, 10) - 1));
    return {
        {"Right / Left", "position m +1 / -1 (with Shift: +10 / -10)"},
        {"Up / Down", "selected pair +1 / -1"},
        {"] / [", "base up / down one notch (a tenth of a decade)"},
        {"Space", "play / pause the position animation"},
        {"P", "presentation mode: large type, high contrast, no controls"},
        {"F11", "fullscreen"},
        {n >= 10 ? "1 … 9, 0" : "1 … " + last_key,
         "maximise panel 1 … " + std::to_string(std::min(n, 10)) + " (showing its page); again (or Esc) to restore"},
        {"Tab / Shift+Tab", "next / previous page of panels"},
        {"Page Down / Page Up", "next / previous lesson step (presenter clickers send these)"},
        {"Ctrl+Z", "undo the last change (a slider drag, a lesson step, a preset, a session …)"},
        {"Ctrl+Shift+Z or Ctrl+Y", "redo"},
        {"Ctrl+S / Ctrl+O", "save / open a session"},
        {"Ctrl+E", "export the panel under the mouse"},
        {"Ctrl+R", "record the panel under the mouse as an animation; while recording, stop (nothing is written)"},
        {"F12", "screenshot of the window into your Pictures folder"},
        {"Ctrl+Q", "quit (the state is kept for next time)"},
        {"? or F1", "this list"},
        {"Ctrl+click a slider", "type a value"},
    };
}

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
    const ParamSpec* spec = &param_spec(P::base);
    const double b = state.params()[P::base] * std::pow(10.0, 0.1 * direction);
    state.apply_number(P::base, std::clamp(b, spec->slider_min, spec->slider_max));
}

void toggle_play(AppState& state) {
    state.playing = !state.playing;
    state.play_position = static_cast<double>(state.params()[P::position]);
    if (!state.playing && state.history().open_gesture() == "animation") state.end_gesture();
}

void lesson_step(AppState& state, int delta) {
    const int n = static_cast<int>(lessons::builtin_lesson().steps.size());
    const int next = state.lesson_step() < 0 ? 0 : std::clamp(state.lesson_step() + delta, 0, n - 1);
    if (next != state.lesson_step()) state.go_to_lesson_step(next);
}

void next_page(AppState& state, int delta) {
    const int n = static_cast<int>(figures::pages().size());
    state.page = ((state.page + delta) % n + n) % n;
    state.maximized = -1;
}

namespace {

// The panel a digit key maximises (main row or keypad), or -1.
int panel_for_key(int code) {
    int digit = -1;
    if (code >= GLFW_KEY_0 && code <= GLFW_KEY_9) digit = code - GLFW_KEY_0;
    if (code >= GLFW_KEY_KP_0 && code <= GLFW_KEY_KP_9) digit = code - GLFW_KEY_KP_0;
    if (digit < 0) return -1;
    for (int i = 0; i < figures::figure_count(); ++i)
        if (figures::panel_key(i) == static_cast<char>('0' + digit)) return i;
    return -1;
}

// The panel under the mouse, else the one maximised, else the open lesson step's; -1 if none.
int panel_for_record(const AppState& state, plot::Vec2 mouse) {
    for (int k = 0; k < static_cast<int>(state.panels.size()); ++k)
        if (state.panels[static_cast<std::size_t>(k)].shown && state.panels[static_cast<std::size_t>(k)].screen.contains(mouse)) return k;
    if (state.maximized >= 0) return state.maximized;
    if (const figures::FigureDescriptor* f = lesson_panel(state)) return f->index;
    return -1;
}

// Ctrl+R: stops the recording being written, else opens the Record dialog.
KeyOutcome record_key(AppState& state, plot::Vec2 mouse) {
    if (state.recording_running) {
        state.cancel_recording = true;
        return KeyOutcome::acted;
    }
    const int k = panel_for_record(state, mouse);
    if (k < 0) {
        state.set_status("Ctrl+R records the panel under the mouse: point at a panel first (or use its Record button).");
        return KeyOutcome::acted;
    }
    open_record_dialog(state, k);
    return KeyOutcome::opened_dialog;
}

KeyOutcome control_key(AppState& state, int code, plot::Vec2 mouse, bool shift) {
    switch (code) {
        case GLFW_KEY_S: open_session_dialog(state, true); return KeyOutcome::opened_dialog;
        case GLFW_KEY_O: open_session_dialog(state, false); return KeyOutcome::opened_dialog;
        case GLFW_KEY_Z:
            if (shift) state.redo();
            else state.undo();
            return KeyOutcome::acted;
        case GLFW_KEY_Y: state.redo(); return KeyOutcome::acted;
        case GLFW_KEY_E:
            for (int k = 0; k < static_cast<int>(state.panels.size()); ++k)
                if (state.panels[static_cast<std::size_t>(k)].shown && state.panels[static_cast<std::size_t>(k)].screen.contains(mouse)) {
                    open_export_dialog(state, k);
                    return KeyOutcome::opened_dialog;
                }
            state.set_status("Ctrl+E exports the panel under the mouse: point at a panel first (or use its Export button).");
            return KeyOutcome::acted;
        case GLFW_KEY_R: return record_key(state, mouse);
        default: return KeyOutcome::none;
    }
}

}  // namespace

KeyOutcome handle_key_event(AppState& state, const InputEvent& e, bool keyboard_taken, plot::Vec2 mouse) {
    const bool ctrl = (e.mods & GLFW_MOD_CONTROL) != 0, shift = (e.mods & GLFW_MOD_SHIFT) != 0;
    if (e.kind == InputEvent::Kind::character) {
        if (!keyboard_taken && e.code == '?') {
            state.show_shortcuts = !state.show_shortcuts;
            return KeyOutcome::acted;
        }
        return KeyOutcome::none;
    }
    if (e.kind != InputEvent::Kind::key || e.action == GLFW_RELEASE) return KeyOutcome::none;
    const bool first = e.action == GLFW_PRESS;  // toggles act on the press, steps on repeats too
    // these work even while a text field has the keyboard
    if (ctrl && e.code == GLFW_KEY_Q && first) {
        state.quit_requested = true;
        return KeyOutcome::acted;
    }
    if (e.code == GLFW_KEY_F12 && first) {
        state.screenshot_requested = true;
        return KeyOutcome::acted;
    }
    if (keyboard_taken) return KeyOutcome::none;
    if (ctrl) return control_key(state, e.code, mouse, shift);
    switch (e.code) {
        case GLFW_KEY_RIGHT: step_position(state, shift ? 10 : 1); return KeyOutcome::acted;
        case GLFW_KEY_LEFT: step_position(state, shift ? -10 : -1); return KeyOutcome::acted;
        case GLFW_KEY_UP: step_pair(state, 1); return KeyOutcome::acted;
        case GLFW_KEY_DOWN: step_pair(state, -1); return KeyOutcome::acted;
        case GLFW_KEY_RIGHT_BRACKET: base_notch(state, 1); return KeyOutcome::acted;
        case GLFW_KEY_LEFT_BRACKET: base_notch(state, -1); return KeyOutcome::acted;
        default: break;
    }
    if (!first) return KeyOutcome::none;
    switch (e.code) {
        case GLFW_KEY_SPACE: toggle_play(state); return KeyOutcome::acted;
        case GLFW_KEY_P: state.presentation = !state.presentation; return KeyOutcome::acted;
        case GLFW_KEY_F11: state.fullscreen = !state.fullscreen; return KeyOutcome::acted;
        case GLFW_KEY_F1: state.show_shortcuts = !state.show_shortcuts; return KeyOutcome::acted;
        case GLFW_KEY_PAGE_DOWN: lesson_step(state, 1); return KeyOutcome::acted;
        case GLFW_KEY_PAGE_UP: lesson_step(state, -1); return KeyOutcome::acted;
        case GLFW_KEY_TAB: next_page(state, shift ? -1 : 1); return KeyOutcome::acted;
        case GLFW_KEY_ESCAPE:
            if (state.show_shortcuts) state.show_shortcuts = false;
            else state.maximized = -1;
            return KeyOutcome::acted;
        default: break;
    }
    const int panel = panel_for_key(e.code);
    if (panel >= 0) {
        toggle_maximized(state, panel);
        return KeyOutcome::acted;
    }
    return KeyOutcome::none;
}

}  // namespace rope::gui
