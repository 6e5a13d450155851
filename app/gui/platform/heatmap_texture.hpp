// One heatmap of a figure as the renderer holds it: a grid of values and how to colour it. Images of
// one size coloured alike that follow each other lie side by side in one texture (a strip), owned by
// the first one's slot: the screen draws a strip's quads in one call.
#pragma once

#include <vector>

#include "plot/display_list.hpp"

namespace rope::gui {

class HeatmapRenderer;

struct HeatmapTexture {
    HeatmapRenderer* renderer = nullptr;  // who uploaded it: its draw callback colours with that renderer's program
    unsigned int texture = 0;  // the renderer's handle (0: none)
    bool owner = true;         // false: a later image of a strip, in the texture an earlier slot owns
    float u0 = 0, u1 = 1;      // where in the texture this image lies
    int cols = 0, rows = 0;    // this image's cells
    int texture_cols = 0;      // the owner's: the texture's width in cells (the strip's)
    plot::ColormapId colormap = plot::ColormapId::sequential;
    float vmin = 0, vmax = 1;
    std::vector<float> uploaded;  // the owner's: what the texture holds, image after image (unchanged grids are not sent again)
    std::vector<float> uploaded_weights;  // the fade weights it holds (empty: all 1)
};

}  // namespace rope::gui
