// The formula strip along the bottom: the current numbers substituted into theta_i, m*theta_i and
// the rotation of the pair, for the hovered pair / position (linked views) or else the selected ones.
#pragma once

#include <imgui.h>

#include "gui/app/app_state.hpp"

namespace rope::gui {

// Its height for a window `width` wide: as many lines as the formulas need at that width.
float formula_strip_height(const AppState& state, figures::FigureCache& cache, float width);
void draw_formula_strip(const AppState& state, figures::FigureCache& cache, ImVec2 pos, ImVec2 size);

}  // namespace rope::gui
