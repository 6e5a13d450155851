// One heatmap of a figure as the renderer holds it: a grid of values and how to colour it.
#pragma once

#include <vector>

#include "plot/display_list.hpp"

namespace rope::gui {

class HeatmapRenderer;

struct HeatmapTexture {
    HeatmapRenderer* renderer = nullptr;  // who uploaded it: its draw callback colours with that renderer's program
    unsigned int texture = 0;  // the renderer's handle (0: none)
    int cols = 0, rows = 0;
    plot::ColormapId colormap = plot::ColormapId::sequential;
    float vmin = 0, vmax = 1;
    std::vector<float> uploaded;  // what the texture holds (unchanged grids are not sent again)
    std::vector<float> uploaded_weights;  // the fade weights it holds (empty: all 1)
};

}  // namespace rope::gui
