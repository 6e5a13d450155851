// What the drawing code of a frame needs besides the state: the fonts, a text measure that agrees
// with them, the renderer (textures), the platform (clipboard, cursor, time, the back buffer), the
// panel builder, and this frame's picture bookkeeping.
#pragma once

#include "figures/figure_cache.hpp"
#include "gui/platform/fonts.hpp"
#include "gui/platform/platform.hpp"
#include "gui/platform/renderer.hpp"

#include <cstdint>
#include <vector>

namespace rope::gui {

class PanelBuilder;
class FrameStats;

struct UiContext {
    const FontSet& fonts;
    const plot::TextMeasure& measure;
    Renderer& renderer;
    Platform& platform;
    PanelBuilder& builder;
    figures::FigureCache& cache;  // the figures' cache (the builder's): header options and readouts read it
    FrameStats* stats = nullptr;  // the frame benchmark's (per-figure draw times)
    std::vector<int> show_new;     // the panels whose newly built picture replaces the shown one this frame
    std::vector<plot::Rect> keep;   // pictures the back buffer still holds: not drawn again
    std::vector<plot::Rect> fresh;  // pictures drawn this frame
    // Frames are paced and new pictures are drawn in place between them: a frame draws only those
    // that arrived before frame `frame` (the ones the time between frames could not take).
    bool draws_between_frames = false;
    std::uint64_t frame = 0;
};

}  // namespace rope::gui
