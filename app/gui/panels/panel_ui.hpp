// A panel's own UI on screen: its figure's header options as ImGui widgets, the pointer handed to
// the figure (drag, wheel, double-click), the hover readout, and the linked views (the pair and
// position under the pointer, highlighted over every panel's cached picture).
#pragma once

#include <imgui.h>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"
#include "gui/panels/panel_set.hpp"

namespace rope::gui {

// The figure's header options (right of the title); what they change comes back as actions.
void panel_header_options(const AppState& state, figures::FigureCache& cache, PanelView& panel, Actions& out);
// After the figure's InvisibleButton: the pointer to the figure (drags ask for changes), the readout
// and the linked note.
void panel_pointer(const AppState& state, figures::FigureCache& cache, PanelView& panel, int index, Actions& out);
// The linked highlight over a panel's picture (an overlay: nothing is rebuilt while the mouse moves).
// True if it drew anything.
bool draw_linked_highlight(const AppState& state, const PanelView& panel, ImDrawList* draw, ImVec2 origin);

}  // namespace rope::gui
