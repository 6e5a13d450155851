// Each panel's picture: built when the values it is built from differ from the ones its picture
// was built from (FigureKey), never because of a counter; several stale panels are built on two
// threads at once. Hidden panels whose inputs changed give their picture back.
#pragma once

#include "gui/app_state.hpp"
#include "gui/ui_context.hpp"

namespace rope::gui {

FigureKey figure_key(const AppState& state, const figures::FigureDescriptor& figure, float width, float height);
// The picture on the panel is the one its inputs give now (and complete, or waiting for nothing new).
bool figure_current(const PanelView& panel, const FigureKey& key);

// Builds every shown panel whose picture is stale (sizes from the layout: panel.key's size is
// replaced by `sizes`), the heaviest on a worker thread.
struct PanelSize {
    int panel;
    float width, height;
};
void build_stale_panels(AppState& state, const UiContext& ui, const std::vector<PanelSize>& sizes);
// Releases the picture and textures of panels not shown whose inputs have changed.
void release_hidden_panels(AppState& state, Renderer& renderer);

// A fresh build of `figure` for the state as the screen would show it (tests compare panels with it).
figures::FigureResult build_for_screen(const AppState& state, const figures::FigureDescriptor& figure, const plot::TextMeasure& measure,
                                       float width, float height, figures::FigureCache& cache, bool wait_for_background);

}  // namespace rope::gui
