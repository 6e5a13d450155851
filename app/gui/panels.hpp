// The four figure panels: layout (a 2x2 grid beside the controls, or one maximised), headers with
// their options, mouse input (drag the vector, zoom and pan the heatmap, hover readouts).
#pragma once

#include <imgui.h>

#include "gui/app_state.hpp"
#include "gui/fonts.hpp"

namespace rope::gui {

void draw_panels(AppState& state, const FontSet& fonts, const plot::TextMeasure& measure, ImVec2 pos, ImVec2 size);

// Rebuilds a panel's figure if its inputs changed since it was built (and uploads its heatmaps).
void ensure_figure(AppState& state, PanelView& panel, const plot::TextMeasure& measure, float width, float height);

void draw_controls(AppState& state, ImVec2 pos, ImVec2 size);

// The panel the open lesson step points at.
figures::FigureId lesson_panel(const AppState& state);

// One-sentence tooltip for the last item, wrapped in font units.
void item_tooltip(const char* text);

}  // namespace rope::gui
