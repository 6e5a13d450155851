// The Dear ImGui style of each theme: the controls take their colours from the figure theme, and
// every component a user must find (slider track and grab, checkbox frame and mark, button, text)
// has at least 3:1 contrast against what it sits on (tests/gui/test_colours.cpp measures it).
#pragma once

#include <imgui.h>

#include "plot/style.hpp"

namespace rope::gui {

// The complete style (colours and sizes) for a theme at a UI scale.
ImGuiStyle ui_style(plot::ThemeId id, float scale);

// Text colour for an error line in the controls panel, readable on the theme's window background.
ImVec4 ui_error_text(plot::ThemeId id);

}  // namespace rope::gui
