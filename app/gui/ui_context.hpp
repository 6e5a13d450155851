// What the drawing code of a frame needs besides the state: the fonts, a text measure that agrees
// with them, the renderer (heatmap textures) and the platform (clipboard, cursor).
#pragma once

#include "gui/fonts.hpp"
#include "gui/platform.hpp"
#include "gui/renderer.hpp"

namespace rope::gui {

struct UiContext {
    const FontSet& fonts;
    const plot::TextMeasure& measure;
    Renderer& renderer;
    Platform& platform;
};

}  // namespace rope::gui
