// The screen back end of the drawing interface: replays a DisplayList into a Dear ImGui draw list.
#pragma once

#include <vector>

#include "gui/platform/fonts.hpp"
#include "gui/platform/heatmap_texture.hpp"
#include "gui/platform/renderer.hpp"
#include "plot/display_list.hpp"

struct ImDrawList;

namespace rope::gui {

// `images[i]` holds the uploaded texture of the i-th ImageCmd of `list` (see upload_images).
void replay(const plot::DisplayList& list, ImDrawList* draw, plot::Vec2 offset, const FontSet& fonts,
            const std::vector<HeatmapTexture>& images, Renderer& renderer);

// Uploads every ImageCmd's values, reusing the textures already in `images`.
void upload_images(const plot::DisplayList& list, std::vector<HeatmapTexture>& images, Renderer& renderer);

}  // namespace rope::gui
