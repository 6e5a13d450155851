// The OpenGL 3.3 renderer: Dear ImGui's OpenGL 3 back end for the draw data, and our heatmap
// shader (HeatmapRenderer) for the value textures. Needs a current GL context.
#pragma once

#include "gui/platform/renderer.hpp"

#include <memory>
#include <string>
#include <vector>

namespace rope::gui {

class HeatmapRenderer;

class GlRenderer : public Renderer {
public:
    GlRenderer();   // after the ImGui context and the GL context exist
    ~GlRenderer() override;
    GlRenderer(const GlRenderer&) = delete;
    GlRenderer& operator=(const GlRenderer&) = delete;

    void upload(const std::vector<const plot::ImageCmd*>& strip, HeatmapTexture* slots) override;
    void release(HeatmapTexture& slot) override;
    void draw_images(ImDrawList* list, const std::vector<PlacedImage>& run) override;
    void new_frame() override;
    std::vector<plot::Rect> render(ImDrawData* data, int framebuffer_width, int framebuffer_height, plot::Color background,
                                   bool persistent, const std::vector<plot::Rect>& keep, const std::vector<plot::Rect>& fresh) override;
    // Windows not drawn again in the last frame (tests, the benchmark).
    void time_windows(bool on) override { time_windows_ = on; }
    const std::vector<WindowTime>& window_times() const override { return window_times_; }
    bool draw_in_place(ImDrawList& list, plot::Rect rect, plot::Color background) override;
    void fonts_changed() override;
    std::vector<std::uint8_t> read_back(int width, int height) override;
    void finish() override;
    const std::vector<plot::Rect>& changed_area() const override { return changed_; }
    int take_errors() override;
    void magnify(ImDrawList* list, plot::Rect source, plot::Rect dest, float rounding) override;

    // What a window of the app's own drew last frame: its draw list's hash and where it drew.
    struct Drawn {
        std::string name;
        std::uint64_t hash;
        int x0, y0, x1, y1;
    };


private:
    void draw_lists(ImDrawData* data, std::vector<ImDrawList*>& drawn);

    static void copy_lens_source(const ImDrawList* list, const ImDrawCmd* cmd);

    std::unique_ptr<HeatmapRenderer> heatmaps_;  // the heatmap shader and colormaps (GL objects of this context)
    std::vector<Drawn> last_;
    std::vector<Drawn> last_overlays_;  // what the windows the app does not place drew last frame
    // where last frame's pixels that are not the background can be: every window's extent and the
    // pictures drawn or kept
    std::vector<plot::Rect> last_footprint_;
    std::vector<plot::Rect> changed_;
    std::vector<plot::Rect> drawn_in_place_;  // since the last frame: the next one shows them too
    int last_width_ = 0, last_height_ = 0;
    bool time_windows_ = false;
    std::vector<WindowTime> window_times_;
    // the zoom lens: a copy of the pixels under it, enlarged by drawing it as an image
    unsigned int lens_texture_ = 0;
    int lens_width_ = 0, lens_height_ = 0;  // the texture's size
    plot::Rect lens_source_{};
};

}  // namespace rope::gui
