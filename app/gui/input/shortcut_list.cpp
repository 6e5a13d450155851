#include "gui/input/shortcut_list.hpp"

#include <algorithm>

#include "figures/registry.hpp"

namespace rope::gui {

std::vector<ShortcutHelp> shortcut_list() {
    int keyed = 0;  // the panels with a key: "1 … 9, 0, -, =, F2 … F8"
    while (keyed < figures::figure_count() && !figures::panel_key(keyed).empty()) ++keyed;
    std::string keys = "1 … " + figures::panel_key(std::min(keyed, 9) - 1);
    for (int i = 9; i < std::min(keyed, 12); ++i) keys += ", " + figures::panel_key(i);
    if (keyed > 12) keys += ", " + figures::panel_key(12) + (keyed > 13 ? " … " + figures::panel_key(keyed - 1) : "");
    return {
        {"Right / Left", "position m +1 / -1 (with Shift: +10 / -10)"},
        {"Up / Down", "selected pair +1 / -1"},
        {"] / [", "base up / down one notch (a tenth of a decade)"},
        {"Space", "play / pause the position animation"},
        {"P", "presentation mode: large type, high contrast, no controls"},
        {"Shift+P", "presenter view: a second window with the step's text, your notes, the answer, the next step and a timer (the audience's window shows the picture)"},
        {"F11", "fullscreen"},
        {"Ctrl+= / Ctrl+- / Ctrl+0", "the UI larger / smaller / back to 100% (kept for next time; in a browser, the browser's zoom)"},
        {keys, "maximise panel 1 … " + std::to_string(keyed) + " (showing its page); again (or Esc) to restore"},
        {"Tab / Shift+Tab", "next / previous page of panels (or part of a page); presenting a lesson: the next / previous panel alone, then the step again; "
                            "in a browser (not presenting), Tab moves on from the pictures to the same controls, figures and lesson as text, for the keyboard and screen readers"},
        {"Page Down / Page Up", "next / previous lesson step (presenter clickers send these)"},
        {"Ctrl+Z", "undo the last change (a slider drag, a lesson step, a preset, a session …)"},
        {"Ctrl+Shift+Z or Ctrl+Y", "redo"},
        {"Ctrl+S / Ctrl+O", "save / open a session"},
        {"Ctrl+E", "export the panel under the mouse"},
        {"Ctrl+R", "record the panel under the mouse as an animation; while recording, stop (nothing is written)"},
        {"F12", "screenshot of the window into your Pictures folder"},
        {"Ctrl+Q", "quit (the state is kept for next time)"},
        {"L (hold), D, C, Z", "presenting: the laser pointer while L is held; D the pen on / off (draw with the mouse); C clears the pen; Z the zoom lens on / off (2x under the mouse)"},
        {"? or F1", "this list; F1 over a panel: what that panel shows (docs/user-guide.md)"},
        {"Ctrl+click a slider", "type a value (on a touch screen: the Type button beside it)"},
    };
}

}  // namespace rope::gui
