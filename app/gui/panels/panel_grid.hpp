// The figure panels: a page of them in a grid (tabs above), or one maximised; each with a header
// (number, title, the figure's options, Export, Maximise) above its picture.
#pragma once

#include <imgui.h>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"
#include "gui/panels/panel_set.hpp"
#include "gui/app/ui_context.hpp"

namespace rope::gui {

// What new pictures may take to draw in one frame (estimated, ms; at least one is shown): software
// GL pays for every pixel and triangle, and a moving slider makes every panel's picture new. The
// rest wait a frame or two, oldest first.
inline constexpr double kNewPicturesMs = 4.0;

// Draws the panels into the rectangle (pos, size), the formula strip along its bottom unless
// `formula_strip` is false. `maximized` is the panel to show alone (-1: the current page's grid).
// What the panels' headers, tabs and pointers ask for comes back as actions.
void draw_panels(const AppState& state, PanelSet& panels, UiContext& ui, Actions& out, ImVec2 pos, ImVec2 size, int maximized,
                 bool formula_strip = true);

// The height of panel `index`'s header in a panel `width` wide, its padding included, without the
// figure's options: its title, with the buttons beside it where they fit, else on a line of their
// own; presenting, the title alone. Below it is the figure's.
float panel_header_height(const AppState& state, int index, float width, ImFont* title_font);

// Where each of `count` panels of a page goes in a grid of the given size (columns x rows as square
// as they come: 1, 2 side by side, 2 x 2, 3 x 2, ...; a last row that is not full shares the width). The panel `emphasised` (the open lesson
// step's, -1: none) gets the wider column and the taller row (`share` of the width and height), so that the plots its text speaks of
// have room while the page stays in view.
struct GridCell {
    float x0, y0, x1, y1;
};
std::vector<GridCell> grid_cells(int count, float width, float height, float gap, int emphasised = -1, float share = 0.62f);

}  // namespace rope::gui
