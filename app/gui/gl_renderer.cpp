#include "gui/gl_renderer.hpp"

#include <GL/glcorearb.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>

#include "gui/heatmap_renderer.hpp"

namespace rope::gui {

GlRenderer::GlRenderer() { ImGui_ImplOpenGL3_Init("#version 330 core"); }

GlRenderer::~GlRenderer() { ImGui_ImplOpenGL3_Shutdown(); }

void GlRenderer::upload(const plot::ImageCmd& image, HeatmapTexture& slot) { HeatmapRenderer::instance().upload(image, slot); }

void GlRenderer::release(HeatmapTexture& slot) { HeatmapRenderer::instance().release(slot); }

void GlRenderer::draw_image(ImDrawList* list, const HeatmapTexture& texture, plot::Rect rect) {
    HeatmapRenderer::instance().draw(list, texture, rect);
}

void GlRenderer::new_frame() { ImGui_ImplOpenGL3_NewFrame(); }

void GlRenderer::render(ImDrawData* data, int framebuffer_width, int framebuffer_height, plot::Color background) {
    glViewport(0, 0, framebuffer_width, framebuffer_height);
    glClearColor(background.r, background.g, background.b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(data);
}

void GlRenderer::fonts_changed() {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
}

// The back buffer at framebuffer size, top row first (GL's row 0 is the bottom), alpha forced opaque.
std::vector<std::uint8_t> GlRenderer::read_back(int width, int height) {
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    std::vector<std::uint8_t> flipped(pixels.size());
    const std::size_t row = static_cast<std::size_t>(width) * 4;
    for (int y = 0; y < height; ++y)
        std::copy_n(pixels.data() + static_cast<std::size_t>(height - 1 - y) * row, row, flipped.data() + static_cast<std::size_t>(y) * row);
    for (std::size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;
    return flipped;
}

void GlRenderer::finish() { glFinish(); }

int GlRenderer::take_errors() {
    int n = 0;
    while (glGetError() != GL_NO_ERROR) ++n;
    return n;
}

}  // namespace rope::gui
