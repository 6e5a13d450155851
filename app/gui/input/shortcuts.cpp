#include "gui/input/shortcuts.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>

#include "lessons/lessons.hpp"

namespace rope::gui {

namespace {

// The name a panel key has in figures::panel_key ("7", "-", "F3"; the keypad's digits too), or "".
std::string key_name(int code) {
    if (code >= GLFW_KEY_0 && code <= GLFW_KEY_9) return std::string(1, static_cast<char>('0' + code - GLFW_KEY_0));
    if (code >= GLFW_KEY_KP_0 && code <= GLFW_KEY_KP_9) return std::string(1, static_cast<char>('0' + code - GLFW_KEY_KP_0));
    if (code >= GLFW_KEY_F2 && code <= GLFW_KEY_F10) return "F" + std::to_string(code - GLFW_KEY_F1 + 1);
    switch (code) {
        case GLFW_KEY_MINUS:
        case GLFW_KEY_KP_SUBTRACT: return "-";
        case GLFW_KEY_EQUAL:
        case GLFW_KEY_KP_EQUAL: return "=";
        default: return "";
    }
}

// The panel a key maximises, or -1.
int panel_for_key(int code) {
    const std::string name = key_name(code);
    if (name.empty()) return -1;
    for (int i = 0; i < figures::figure_count(); ++i)
        if (figures::panel_key(i) == name) return i;
    return -1;
}

// The panel under the mouse, else the one maximised, else the open lesson step's; -1 if none.
int panel_for_record(const AppState& state, const PanelSet& panels, plot::Vec2 mouse) {
    if (const int k = panels.panel_at(mouse); k >= 0) return k;
    if (state.maximized >= 0) return state.maximized;
    if (const figures::FigureDescriptor* f = lesson_panel(state)) return f->index;
    return -1;
}

// Ctrl+R: stops the recording being written, else opens the Record dialog.
void record_key(const KeyContext& k, Actions& out) {
    if (k.recording) return out.ask(act::CancelRecording{});
    const int panel = panel_for_record(k.state, k.panels, k.mouse);
    if (panel < 0) return out.ask(act::SetStatus{"Ctrl+R records the panel under the mouse: point at a panel first" +
                                               std::string(k.state.presentation ? "." : " (or use its Record button).")});
    out.ask(act::OpenExportDialog{panel, true});
}

void control_key(const KeyContext& k, int code, bool shift, Actions& out) {
    switch (code) {
        case GLFW_KEY_S: return out.ask(act::OpenFileDialog{act::OpenFileDialog::save_session});
        case GLFW_KEY_O: return out.ask(act::OpenFileDialog{act::OpenFileDialog::open_session});
        case GLFW_KEY_Z: return shift ? out.ask(act::Redo{}) : out.ask(act::Undo{});
        case GLFW_KEY_Y: return out.ask(act::Redo{});
        case GLFW_KEY_E:
            if (const int panel = k.panels.panel_at(k.mouse); panel >= 0) return out.ask(act::OpenExportDialog{panel, false});
            return out.ask(act::SetStatus{"Ctrl+E exports the panel under the mouse: point at a panel first" +
                                          std::string(k.state.presentation ? "." : " (or use its Export button).")});
        case GLFW_KEY_R: return record_key(k, out);
        case GLFW_KEY_EQUAL:
        case GLFW_KEY_KP_ADD: return out.ask(act::ZoomUi{1});
        case GLFW_KEY_MINUS:
        case GLFW_KEY_KP_SUBTRACT: return out.ask(act::ZoomUi{-1});
        case GLFW_KEY_0:
        case GLFW_KEY_KP_0: return out.ask(act::ZoomUi{0});
        default: return;
    }
}

// Keys that act on every press, repeats included: the steps.
bool step_key(int code, bool shift, Actions& out) {
    switch (code) {
        case GLFW_KEY_RIGHT: return out.ask(act::StepPosition{shift ? 10 : 1}), true;
        case GLFW_KEY_LEFT: return out.ask(act::StepPosition{shift ? -10 : -1}), true;
        case GLFW_KEY_UP: return out.ask(act::StepPair{1}), true;
        case GLFW_KEY_DOWN: return out.ask(act::StepPair{-1}), true;
        case GLFW_KEY_RIGHT_BRACKET: return out.ask(act::BaseNotch{1}), true;
        case GLFW_KEY_LEFT_BRACKET: return out.ask(act::BaseNotch{-1}), true;
        default: return false;
    }
}

// Keys that act on the first press only: the toggles.
bool toggle_key(int code, bool shift, Actions& out) {
    switch (code) {
        case GLFW_KEY_SPACE: return out.ask(act::TogglePlay{}), true;
        case GLFW_KEY_P: return shift ? out.ask(act::TogglePresenterView{}) : out.ask(act::TogglePresentation{}), true;
        case GLFW_KEY_F11: return out.ask(act::ToggleFullscreen{}), true;
        case GLFW_KEY_F1: return out.ask(act::ToggleShortcuts{}), true;
        case GLFW_KEY_PAGE_DOWN: return out.ask(act::StepLesson{1}), true;
        case GLFW_KEY_PAGE_UP: return out.ask(act::StepLesson{-1}), true;
        case GLFW_KEY_TAB: return out.ask(act::NextPage{shift ? -1 : 1}), true;
        case GLFW_KEY_ESCAPE: return out.ask(act::RestoreGrid{}), true;
        default: break;
    }
    const int panel = panel_for_key(code);
    if (panel >= 0) out.ask(act::ToggleMaximized{panel});
    return panel >= 0;
}

}  // namespace

Actions key_actions(const KeyContext& k, const InputEvent& e) {
    Actions out;
    const bool ctrl = (e.mods & GLFW_MOD_CONTROL) != 0, shift = (e.mods & GLFW_MOD_SHIFT) != 0;
    if (e.kind == InputEvent::Kind::character) {
        if (!k.keyboard_taken && e.code == '?') out.ask(act::ToggleShortcuts{});
        return out;
    }
    if (e.kind != InputEvent::Kind::key || e.action == GLFW_RELEASE) return out;
    const bool first = e.action == GLFW_PRESS;  // toggles act on the press, steps on repeats too
    // these work even while a text field has the keyboard
    if (ctrl && e.code == GLFW_KEY_Q && first) return out.ask(act::Quit{}), out;
    if (e.code == GLFW_KEY_F12 && first) return out.ask(act::Screenshot{}), out;
    if (k.keyboard_taken) return out;
    // F1 over a panel: what it shows (not presenting: the room sees no help); elsewhere the key list
    if (e.code == GLFW_KEY_F1 && first && !ctrl && !k.state.presentation)
        if (const int panel = k.panels.panel_at(k.mouse); panel >= 0) return out.ask(act::TogglePanelHelp{panel}), out;
    if (ctrl) return control_key(k, e.code, shift, out), out;
    if (!step_key(e.code, shift, out) && first) toggle_key(e.code, shift, out);
    return out;
}

bool opens_dialog(const Actions& actions) {
    for (const Action& a : actions.list())
        if (std::holds_alternative<act::OpenExportDialog>(a) || std::holds_alternative<act::OpenFileDialog>(a)) return true;
    return false;
}

}  // namespace rope::gui
