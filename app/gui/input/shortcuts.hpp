// The keyboard: every key event acts with the modifiers it was pressed with, in the order it came.
// Each shortcut is also a button (teaching.cpp); the overlay lists them all.
#pragma once

#include <string>
#include <vector>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"
#include "gui/input/input.hpp"
#include "gui/input/shortcut_list.hpp"
#include "gui/panels/panel_set.hpp"

namespace rope::gui {

// What a key handler sees: the state, where the panels are, whether a recording is being written,
// whether a text field or dialog has the keyboard, and the pointer (Ctrl+E and Ctrl+R act on the
// panel under it).
struct KeyContext {
    const AppState& state;
    const PanelSet& panels;
    bool recording = false;
    bool keyboard_taken = false;
    plot::Vec2 mouse;
};

// The actions one key or character event asks for, with the modifiers it was pressed with. While
// the keyboard is taken only Ctrl+Q and F12 act.
Actions key_actions(const KeyContext& context, const InputEvent& e);
// The actions open a dialog (the keys after them are for it).
bool opens_dialog(const Actions& actions);

}  // namespace rope::gui
