// The Dear ImGui style of each theme: the controls take their colours from the figure theme, and
// every component a user must find (slider track and grab, checkbox frame and mark, button, text)
// has at least 3:1 contrast against what it sits on (tests/gui/test_colours.cpp measures it).
#pragma once

#include <imgui.h>

#include "plot/style.hpp"

namespace rope::gui {

// The complete style (colours and sizes) for a theme at a UI scale; `touch`: a finger points (a
// phone or a tablet), so every button, slider and box is a target of 44 CSS px at least (WCAG 2.5.5,
// Apple's and Google's guidelines), for a UI font of `font_size` px at scale 1.
ImGuiStyle ui_style(plot::ThemeId id, float scale, bool touch = false, float font_size = 18);

// Text colour for an error line in the controls panel, readable on the theme's window background.
ImVec4 ui_error_text(plot::ThemeId id);

}  // namespace rope::gui
