// The render engine behind the app: it turns Dear ImGui's draw data into pixels and holds the
// heatmaps' value textures. The window uses OpenGL 3.3 (GlRenderer); tests drive the whole app
// with NullRenderer, which draws nothing and needs no GPU.
#pragma once

#include <cstdint>
#include <vector>

#include "gui/platform/heatmap_texture.hpp"
#include "plot/display_list.hpp"

struct ImDrawList;
struct ImDrawData;
struct ImDrawCmd;

namespace rope::gui {

// In a window's name: it paints its whole footprint with an opaque background, so the renderer may
// draw it again alone over the windows under it (the controls' sections).
inline constexpr const char* kOpaqueWindow = "##opaque";

class Renderer {
public:
    virtual ~Renderer() = default;
    // Uploads (or re-uploads into `slots`) a strip's values: consecutive images of one size and
    // colouring, side by side in one texture that slots[0] owns (slots[i] for strip[i]); release
    // gives a slot's back.
    virtual void upload(const std::vector<const plot::ImageCmd*>& strip, HeatmapTexture* slots) = 0;
    virtual void release(HeatmapTexture& slot) = 0;
    // Adds coloured heatmap quads to an ImGui draw list. A run of them coloured alike (one colour map
    // and range) switches the GL program once: software GL pays for every switch, and the video page
    // with model B draws 96 small maps.
    struct PlacedImage {
        const HeatmapTexture* texture;
        plot::Rect rect;
    };
    virtual void draw_images(ImDrawList* list, const std::vector<PlacedImage>& run) = 0;
    virtual void new_frame() = 0;
    // Draws ImGui's frame over a window cleared to `background`. With a back buffer that keeps the
    // last frame (`persistent`), it leaves alone the pictures in `keep` and every window of the app's
    // own that draws exactly what it drew last frame (nothing in `fresh`, the pictures new this frame,
    // and nothing drawn over it), and every window it does not place itself (tooltip, popup, list)
    // that draws what it drew last frame where it drew it, over nothing drawn anew. Returns where
    // last frame's such windows drew and none draws the same now: whatever lies there is not intact.
    virtual std::vector<plot::Rect> render(ImDrawData* data, int framebuffer_width, int framebuffer_height, plot::Color background,
                                           bool persistent, const std::vector<plot::Rect>& keep, const std::vector<plot::Rect>& fresh) = 0;
    // Drawing ahead: with a back buffer that keeps the last frame, a new picture is drawn into it
    // in the time between frames, where and as the next frame would draw it (`list`, in window
    // coordinates, over `rect` cleared to `background`), and that frame only shows it. False if it
    // cannot (no such back buffer, the window changed size): the frame draws the picture then.
    virtual bool draw_in_place(ImDrawList& list, plot::Rect rect, plot::Color background) {
        (void)list, (void)rect, (void)background;
        return false;
    }
    // The font atlas changed (presentation mode): upload it again.
    virtual void fonts_changed() = 0;
    // The frame just rendered, RGBA, top row first, alpha 255 (empty if the renderer draws nothing).
    virtual std::vector<std::uint8_t> read_back(int width, int height) = 0;
    // Waits until the frame is drawn (the frame-time benchmark).
    virtual void finish() {}
    // The parts of the framebuffer (pixels, top-left origin, disjoint) that the last render() cleared
    // or drew on: what presenting the frame must copy. Empty when nothing changed.
    virtual const std::vector<plot::Rect>& changed_area() const = 0;
    // The frame-time benchmark: draw each window to completion on its own and time it (software GL
    // draws when told to finish, so this is the only way to see what each panel costs).
    struct WindowTime {
        const char* name;
        double ms;
    };
    virtual void time_windows(bool on) { (void)on; }
    virtual const std::vector<WindowTime>& window_times() const {
        static const std::vector<WindowTime> none;
        return none;
    }
    // GL errors and the like since the last call (the soak run counts them).
    virtual int take_errors() { return 0; }
    // The zoom lens: adds to `list` (the foreground, drawn last) what copies the pixels drawn so far
    // in `source` and draws them enlarged over `dest`, a circle if `rounding` is half its width. Window
    // coordinates; `source` lies within the window. A renderer that draws nothing adds nothing.
    virtual void magnify(ImDrawList* list, plot::Rect source, plot::Rect dest, float rounding) {
        (void)list, (void)source, (void)dest, (void)rounding;
    }
};

// Draws nothing: for tests that run the app's frames headless.
class NullRenderer : public Renderer {
public:
    void upload(const std::vector<const plot::ImageCmd*>& strip, HeatmapTexture* slots) override {
        if (!slots[0].owner) slots[0] = HeatmapTexture();
        if (!slots[0].texture) slots[0].texture = ++next_;
        for (std::size_t i = 0; i < strip.size(); ++i) {
            slots[i].texture = slots[0].texture;
            slots[i].owner = i == 0;
            slots[i].cols = strip[i]->cols;
            slots[i].rows = strip[i]->rows;
        }
        ++uploads;
    }
    void release(HeatmapTexture& slot) override { slot = HeatmapTexture(); }
    void draw_images(ImDrawList*, const std::vector<PlacedImage>&) override {}
    void new_frame() override {}
    std::vector<plot::Rect> render(ImDrawData*, int, int, plot::Color, bool, const std::vector<plot::Rect>&,
                                   const std::vector<plot::Rect>&) override {
        ++frames;
        return {};
    }
    void fonts_changed() override {}
    std::vector<std::uint8_t> read_back(int, int) override { return {}; }
    const std::vector<plot::Rect>& changed_area() const override { return changed_; }
    void magnify(ImDrawList*, plot::Rect source, plot::Rect dest, float) override { lens_source = source, lens_dest = dest, ++lenses; }
    int uploads = 0, frames = 0, lenses = 0;
    plot::Rect lens_source{}, lens_dest{};  // the last lens asked for

private:
    unsigned int next_ = 0;
    std::vector<plot::Rect> changed_;
};

}  // namespace rope::gui
