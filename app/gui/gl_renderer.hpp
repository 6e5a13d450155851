// The OpenGL 3.3 renderer: Dear ImGui's OpenGL 3 back end for the draw data, and our heatmap
// shader (HeatmapRenderer) for the value textures. Needs a current GL context.
#pragma once

#include "gui/renderer.hpp"

namespace rope::gui {

class GlRenderer : public Renderer {
public:
    GlRenderer();   // after the ImGui context and the GL context exist
    ~GlRenderer() override;
    GlRenderer(const GlRenderer&) = delete;
    GlRenderer& operator=(const GlRenderer&) = delete;

    void upload(const plot::ImageCmd& image, HeatmapTexture& slot) override;
    void release(HeatmapTexture& slot) override;
    void draw_image(ImDrawList* list, const HeatmapTexture& texture, plot::Rect rect) override;
    void new_frame() override;
    void render(ImDrawData* data, int framebuffer_width, int framebuffer_height, plot::Color background) override;
    void fonts_changed() override;
    std::vector<std::uint8_t> read_back(int width, int height) override;
    void finish() override;
    int take_errors() override;
};

}  // namespace rope::gui
