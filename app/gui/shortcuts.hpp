// The keyboard: every key event acts with the modifiers it was pressed with, in the order it came.
// Each shortcut is also a button (teaching.cpp); the overlay lists them all.
#pragma once

#include <string>
#include <vector>

#include "gui/app_state.hpp"
#include "gui/input.hpp"

namespace rope::gui {

struct ShortcutHelp {
    std::string keys;
    std::string what;
};
// The overlay's table (? or F1), number keys from the figure registry.
std::vector<ShortcutHelp> shortcut_list();

enum class KeyOutcome { none, acted, opened_dialog };
// Acts on one key or character event. With `keyboard_taken` (a text field or dialog has the keyboard)
// only Ctrl+Q and F12 act. `mouse` is the pointer (Ctrl+E exports the panel under it).
KeyOutcome handle_key_event(AppState& state, const InputEvent& e, bool keyboard_taken, plot::Vec2 mouse);

// The actions behind the keys (the toolbar's buttons call them too).
void step_position(AppState& state, std::int64_t delta);
void step_pair(AppState& state, int delta);
void base_notch(AppState& state, int direction);  // a tenth of a decade up or down the log slider
void toggle_play(AppState& state);
void lesson_step(AppState& state, int delta);
void next_page(AppState& state, int delta);

}  // namespace rope::gui
