// The GLSL side of heatmaps: value textures, colormap textures and the colouring program
// (shaders/heatmap.*), hooked into Dear ImGui's renderer with draw callbacks.
#pragma once

#include <cstdint>
#include <vector>

#include "gui/platform/heatmap_texture.hpp"
#include "gui/platform/renderer.hpp"
#include "plot/display_list.hpp"

struct ImDrawList;
struct ImDrawCmd;

namespace rope::gui {


class HeatmapRenderer {
public:
    HeatmapRenderer() = default;
    ~HeatmapRenderer();
    HeatmapRenderer(const HeatmapRenderer&) = delete;
    HeatmapRenderer& operator=(const HeatmapRenderer&) = delete;
    // Uploads (or re-uploads into `slots`) a strip's values (Renderer::upload).
    void upload(const std::vector<const plot::ImageCmd*>& strip, HeatmapTexture* slots);
    void release(HeatmapTexture& slot);
    // Adds the coloured quads of a run coloured alike to the draw list: one program switch, the
    // images, one state reset.
    void draw(ImDrawList* list, const std::vector<Renderer::PlacedImage>& run);

    bool ready() const { return program_ != 0; }

private:
    static void bind_callback(const ImDrawList* list, const ImDrawCmd* cmd);
    void ensure_program();
    void ensure_colormaps();

    unsigned int program_ = 0;
    int loc_proj_ = -1, loc_values_ = -1, loc_colormap_ = -1, loc_vmin_ = -1, loc_vmax_ = -1, loc_cyclic_ = -1, loc_fade_ = -1;
    unsigned int colormap_textures_[3] = {0, 0, 0};
    bool program_failed_ = false;
};

}  // namespace rope::gui
