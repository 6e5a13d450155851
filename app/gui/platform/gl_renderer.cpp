#include "gui/platform/gl_renderer.hpp"

#include "gui/platform/gl_api.hpp"
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cfloat>
#include <climits>
#include <cmath>
#include <string>
#include <cstdint>

#include "gui/platform/heatmap_renderer.hpp"

namespace rope::gui {

GlRenderer::GlRenderer() : heatmaps_(std::make_unique<HeatmapRenderer>()) { ImGui_ImplOpenGL3_Init(kGlslVersion); }

GlRenderer::~GlRenderer() {
    if (lens_texture_) glDeleteTextures(1, &lens_texture_);
    ImGui_ImplOpenGL3_Shutdown();
}

void GlRenderer::upload(const std::vector<const plot::ImageCmd*>& strip, HeatmapTexture* slots) { heatmaps_->upload(strip, slots); }

void GlRenderer::release(HeatmapTexture& slot) { heatmaps_->release(slot); }

void GlRenderer::draw_images(ImDrawList* list, const std::vector<PlacedImage>& run) { heatmaps_->draw(list, run); }

namespace {

struct Box {
    int x0, y0, x1, y1;
    bool empty() const { return x1 <= x0 || y1 <= y0; }
    bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// `area` without the boxes `holes` (axis-aligned, any overlap), as disjoint boxes.
std::vector<Box> subtract(const Box& area, const std::vector<Box>& holes) {
    std::vector<Box> pieces = {area};
    for (const Box& h : holes) {
        std::vector<Box> next;
        for (const Box& p : pieces) {
            if (!p.overlaps(h)) {
                next.push_back(p);
                continue;
            }
            const Box above{p.x0, p.y0, p.x1, std::max(p.y0, h.y0)}, below{p.x0, std::min(p.y1, h.y1), p.x1, p.y1};
            const int my0 = std::max(p.y0, h.y0), my1 = std::min(p.y1, h.y1);
            const Box left{p.x0, my0, std::max(p.x0, h.x0), my1}, right{std::min(p.x1, h.x1), my0, p.x1, my1};
            for (const Box& b : {above, below, left, right})
                if (!b.empty()) next.push_back(b);
        }
        pieces.swap(next);
    }
    return pieces;
}

Box within(const Box& b, int width, int height) { return {std::max(b.x0, 0), std::max(b.y0, 0), std::min(b.x1, width), std::min(b.y1, height)}; }

plot::Rect to_rect(const Box& b) {
    return {static_cast<float>(b.x0), static_cast<float>(b.y0), static_cast<float>(b.x1), static_cast<float>(b.y1)};
}

// Boxes that may overlap, as disjoint boxes covering the same pixels.
std::vector<Box> disjoint(const std::vector<Box>& boxes) {
    std::vector<Box> out;
    for (const Box& b : boxes) {
        const std::vector<Box> rest = subtract(b, out);
        out.insert(out.end(), rest.begin(), rest.end());
    }
    return out;
}

std::vector<Box> subtract_all(const std::vector<Box>& areas, const std::vector<Box>& holes) {
    std::vector<Box> out;
    for (const Box& a : areas) {
        const std::vector<Box> rest = subtract(a, holes);
        out.insert(out.end(), rest.begin(), rest.end());
    }
    return out;
}

// The windows the app places itself (the panels' pictures lie inside the panel windows): any other
// draw list (a tooltip, a popup, the shortcut list) may cover a picture.
bool fixed_window(const char* name) {
    if (!name) return false;
    const std::string n = name;
    return n.rfind("##panel", 0) == 0 || n == "Controls" || n.rfind("Controls/", 0) == 0 || n == "Lesson" || n.rfind("Lesson/", 0) == 0 ||
           n == "##formula" || n == "##pages" || n == "##status";
}

Box to_box(const plot::Rect& r) {
    return {static_cast<int>(std::floor(r.x0)), static_cast<int>(std::floor(r.y0)), static_cast<int>(std::ceil(r.x1)),
            static_cast<int>(std::ceil(r.y1))};
}

// Everything a draw list makes the GPU do: the same hash, the same pixels (its textures being the same).
std::uint64_t hash_list(const ImDrawList* list) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    auto mix = [&h](const void* data, std::size_t bytes) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
    };
    mix(list->VtxBuffer.Data, static_cast<std::size_t>(list->VtxBuffer.Size) * sizeof(ImDrawVert));
    mix(list->IdxBuffer.Data, static_cast<std::size_t>(list->IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& c : list->CmdBuffer) {
        mix(&c.ClipRect, sizeof c.ClipRect);
        mix(&c.TextureId, sizeof c.TextureId);
        mix(&c.VtxOffset, sizeof c.VtxOffset);
        mix(&c.IdxOffset, sizeof c.IdxOffset);
        mix(&c.ElemCount, sizeof c.ElemCount);
        const void* callback = reinterpret_cast<const void*>(c.UserCallback);
        mix(&callback, sizeof callback);
        mix(&c.UserCallbackData, sizeof c.UserCallbackData);
    }
    return h;
}

// Where a draw list can put pixels: its vertices' extent, within its commands' clip rectangles.
Box bounds(const ImDrawList* list) {
    Box b{INT_MAX, INT_MAX, INT_MIN, INT_MIN};
    for (const ImDrawVert& v : list->VtxBuffer) {
        b.x0 = std::min(b.x0, static_cast<int>(std::floor(v.pos.x)) - 1);
        b.y0 = std::min(b.y0, static_cast<int>(std::floor(v.pos.y)) - 1);
        b.x1 = std::max(b.x1, static_cast<int>(std::ceil(v.pos.x)) + 1);
        b.y1 = std::max(b.y1, static_cast<int>(std::ceil(v.pos.y)) + 1);
    }
    Box clip{INT_MAX, INT_MAX, INT_MIN, INT_MIN};
    for (const ImDrawCmd& c : list->CmdBuffer) {
        if (c.ElemCount == 0 && !c.UserCallback) continue;
        clip.x0 = std::min(clip.x0, static_cast<int>(std::floor(c.ClipRect.x)));
        clip.y0 = std::min(clip.y0, static_cast<int>(std::floor(c.ClipRect.y)));
        clip.x1 = std::max(clip.x1, static_cast<int>(std::ceil(c.ClipRect.z)));
        clip.y1 = std::max(clip.y1, static_cast<int>(std::ceil(c.ClipRect.w)));
    }
    if (clip.x0 <= clip.x1) b = {std::max(b.x0, clip.x0), std::max(b.y0, clip.y0), std::min(b.x1, clip.x1), std::min(b.y1, clip.y1)};
    return b;
}

// A window that paints its whole footprint with an opaque background (see kOpaqueWindow): drawn
// again on top of the windows under it, it needs none of them redrawn.
bool opaque_window(const char* name) { return name && std::strstr(name, kOpaqueWindow); }

bool touches(const Box& b, const std::vector<plot::Rect>& rects) {
    for (const plot::Rect& r : rects)
        if (b.overlaps(to_box(r))) return true;
    return false;
}

}  // namespace

namespace {

// Each window's pixel box (empty for a window that draws nothing).
std::vector<Box> window_boxes(ImDrawData* data) {
    const int lists = data ? data->CmdListsCount : 0;
    std::vector<Box> boxes(static_cast<std::size_t>(lists));
    for (int l = 0; l < lists; ++l) {
        const ImDrawList* list = data->CmdLists[l];
        boxes[static_cast<std::size_t>(l)] = list->VtxBuffer.Size ? bounds(list) : Box{0, 0, 0, 0};
    }
    return boxes;
}

bool same_drawing(const GlRenderer::Drawn& a, const GlRenderer::Drawn& b) {
    return a.hash == b.hash && a.name == b.name && a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1;
}

plot::Rect to_rect(const GlRenderer::Drawn& d) {
    return {static_cast<float>(d.x0), static_cast<float>(d.y0), static_cast<float>(d.x1), static_cast<float>(d.y1)};
}

// The windows the app does not place itself (tooltips, popups, lists), "overlays": which of them draw
// exactly what they drew last frame where they drew it (`steady`: the pixels under them are theirs
// already), where the others draw now (`overdrawn`), and where last frame's overlays drew that no
// overlay draws the same now (`uncovered`: what lies there is not intact any more). A tooltip resting
// over a picture so costs nothing after its first frame, where it used to redraw the pictures under
// it every frame.
struct Overlays {
    std::vector<bool> steady;
    std::vector<plot::Rect> overdrawn, uncovered;
    std::vector<GlRenderer::Drawn> now;
};

Overlays find_overlays(ImDrawData* data, const std::vector<Box>& boxes, bool kept, const std::vector<GlRenderer::Drawn>& last) {
    Overlays o;
    o.steady.assign(boxes.size(), false);
    for (std::size_t l = 0; l < boxes.size(); ++l) {
        const ImDrawList* list = data->CmdLists[static_cast<int>(l)];
        const Box& b = boxes[l];
        if (fixed_window(list->_OwnerName) || b.empty()) continue;
        o.now.push_back({list->_OwnerName ? list->_OwnerName : "", hash_list(list), b.x0, b.y0, b.x1, b.y1});
        o.steady[l] = kept && std::any_of(last.begin(), last.end(), [&](const GlRenderer::Drawn& d) { return same_drawing(d, o.now.back()); });
        if (!o.steady[l]) o.overdrawn.push_back(to_rect(o.now.back()));
    }
    for (const GlRenderer::Drawn& d : last)
        if (!kept || std::none_of(o.now.begin(), o.now.end(), [&](const GlRenderer::Drawn& n) { return same_drawing(d, n); }))
            o.uncovered.push_back(to_rect(d));
    return o;
}

// What decides whether a window drawing what it drew last frame can be left as it is.
struct LeftAloneInputs {
    bool persistent, same_size;
    const std::vector<plot::Rect>& fresh;           // pictures drawn this frame
    const Overlays& overlays;
    const std::vector<GlRenderer::Drawn>& last;     // what the app's windows drew last frame
};

// A window of the app's own that draws what it drew last frame, in a back buffer that kept it,
// untouched by new pictures, by windows drawn over it then or now and by other windows, is left as
// it is: software GL pays for every pixel and every triangle. `now` gets this frame's windows.
std::vector<bool> windows_left_alone(ImDrawData* data, const std::vector<Box>& boxes, const LeftAloneInputs& in,
                                     std::vector<GlRenderer::Drawn>& now) {
    const int lists = static_cast<int>(boxes.size());
    std::vector<bool> skip(boxes.size(), false);
    for (int l = 0; l < lists; ++l) {
        const ImDrawList* list = data->CmdLists[l];
        const Box& b = boxes[static_cast<std::size_t>(l)];
        if (b.empty()) continue;
        if (!fixed_window(list->_OwnerName)) {  // an overlay as it was, over nothing drawn anew or uncovered
            skip[static_cast<std::size_t>(l)] = in.overlays.steady[static_cast<std::size_t>(l)] && !touches(b, in.fresh) &&
                                                !touches(b, in.overlays.uncovered);
            continue;
        }
        const std::uint64_t h = hash_list(list);
        now.push_back({list->_OwnerName, h, b.x0, b.y0, b.x1, b.y1});
        if (!in.persistent || !in.same_size || touches(b, in.fresh) || touches(b, in.overlays.overdrawn) ||
            touches(b, in.overlays.uncovered))
            continue;
        skip[static_cast<std::size_t>(l)] = std::any_of(in.last.begin(), in.last.end(),
                                                        [&](const GlRenderer::Drawn& d) { return same_drawing(d, now.back()); });
    }
    // windows that overlap (a window and its child) are left alone together or drawn together, but
    // an opaque window drawn over others, where it was last frame, covers what it draws anew
    auto covers_in_place = [&](int o, int l) {
        if (o < l || !opaque_window(data->CmdLists[o]->_OwnerName)) return false;
        const Box& b = boxes[static_cast<std::size_t>(o)];
        for (const GlRenderer::Drawn& d : in.last)
            if (d.name == data->CmdLists[o]->_OwnerName) return d.x0 == b.x0 && d.y0 == b.y0 && d.x1 == b.x1 && d.y1 == b.y1;
        return false;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (int l = 0; l < lists; ++l) {
            if (!skip[static_cast<std::size_t>(l)]) continue;
            for (int o = 0; o < lists; ++o) {
                if (o == l || skip[static_cast<std::size_t>(o)] || boxes[static_cast<std::size_t>(o)].empty()) continue;
                if (covers_in_place(o, l)) continue;
                if (boxes[static_cast<std::size_t>(l)].overlaps(boxes[static_cast<std::size_t>(o)])) {
                    skip[static_cast<std::size_t>(l)] = false;
                    changed = true;
                    break;
                }
            }
        }
    }
    return skip;
}

// Clears what is drawn now or held something last frame (`cleared`) but the holes: everything else
// already is the background. A scissored clear costs software GL as much as a rectangle drawn.
// Returns the boxes cleared.
std::vector<Box> clear_around(const std::vector<Box>& cleared, const std::vector<Box>& holes, int width, int height) {
    std::vector<Box> changed;
    glEnable(GL_SCISSOR_TEST);
    for (const Box& b : subtract_all(disjoint(cleared), holes)) {
        const Box c = within(b, width, height);
        if (c.empty()) continue;
        changed.push_back(c);
        glScissor(c.x0, height - c.y1, c.x1 - c.x0, c.y1 - c.y0);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    glDisable(GL_SCISSOR_TEST);
    return changed;
}

}  // namespace

std::vector<plot::Rect> GlRenderer::render(ImDrawData* data, int framebuffer_width, int framebuffer_height, plot::Color background,
                                           bool persistent, const std::vector<plot::Rect>& keep, const std::vector<plot::Rect>& fresh) {
    const int lists = data ? data->CmdListsCount : 0;
    const std::vector<Box> boxes = window_boxes(data);
    const bool same_size = framebuffer_width == last_width_ && framebuffer_height == last_height_;
    Overlays overlays = find_overlays(data, boxes, persistent && same_size, last_overlays_);
    std::vector<Drawn> now;
    const std::vector<bool> skip = windows_left_alone(data, boxes, {persistent, same_size, fresh, overlays, last_}, now);
    std::vector<Box> holes;
    for (const plot::Rect& r : keep) holes.push_back(to_box(r));
    for (int l = 0; l < lists; ++l)
        if (skip[static_cast<std::size_t>(l)]) holes.push_back(boxes[static_cast<std::size_t>(l)]);
    glViewport(0, 0, framebuffer_width, framebuffer_height);
    glClearColor(background.r, background.g, background.b, 1.0f);
    std::vector<Box> changed;
    if (!persistent || !same_size || holes.empty()) {
        changed.push_back({0, 0, framebuffer_width, framebuffer_height});
        glDisable(GL_SCISSOR_TEST);
        glClear(GL_COLOR_BUFFER_BIT);
    } else {
        std::vector<Box> cleared;
        for (int l = 0; l < lists; ++l)
            if (!skip[static_cast<std::size_t>(l)] && !boxes[static_cast<std::size_t>(l)].empty()) cleared.push_back(boxes[static_cast<std::size_t>(l)]);
        for (const plot::Rect& r : fresh) cleared.push_back(to_box(r));
        for (const plot::Rect& r : last_footprint_) cleared.push_back(to_box(r));
        changed = clear_around(cleared, holes, framebuffer_width, framebuffer_height);
    }
    last_footprint_.clear();
    for (const Box& b : boxes)
        if (!b.empty()) last_footprint_.push_back(to_rect(b));
    last_footprint_.insert(last_footprint_.end(), keep.begin(), keep.end());
    last_footprint_.insert(last_footprint_.end(), fresh.begin(), fresh.end());
    // the frame without the windows left alone
    std::vector<ImDrawList*> drawn;
    for (int l = 0; l < lists; ++l) {
        if (skip[static_cast<std::size_t>(l)]) continue;
        drawn.push_back(data->CmdLists[l]);
        if (!boxes[static_cast<std::size_t>(l)].empty()) changed.push_back(boxes[static_cast<std::size_t>(l)]);
    }
    draw_lists(data, drawn);
    for (const plot::Rect& r : drawn_in_place_) changed.push_back(to_box(r));
    drawn_in_place_.clear();
    changed_.clear();
    for (const Box& b : disjoint(changed))
        if (const Box c = within(b, framebuffer_width, framebuffer_height); !c.empty()) changed_.push_back(to_rect(c));
    last_ = std::move(now);
    last_overlays_ = std::move(overlays.now);
    last_width_ = framebuffer_width;
    last_height_ = framebuffer_height;
    return overlays.uncovered;
}

// Draws the given windows of the frame; timed one by one when the benchmark asks.
void GlRenderer::draw_lists(ImDrawData* data, std::vector<ImDrawList*>& drawn) {
    ImDrawData part = *data;
    part.TotalVtxCount = part.TotalIdxCount = 0;
    for (ImDrawList* list : drawn) {
        part.TotalVtxCount += list->VtxBuffer.Size;
        part.TotalIdxCount += list->IdxBuffer.Size;
    }
    window_times_.clear();
    if (!time_windows_) {
        part.CmdLists = drawn.data();
        part.CmdListsCount = static_cast<int>(drawn.size());
        ImGui_ImplOpenGL3_RenderDrawData(&part);
        return;
    }
    glFinish();  // the clears
    for (ImDrawList* list : drawn) {
        const auto t0 = std::chrono::steady_clock::now();
        part.CmdLists = &list;
        part.CmdListsCount = 1;
        part.TotalVtxCount = list->VtxBuffer.Size;
        part.TotalIdxCount = list->IdxBuffer.Size;
        ImGui_ImplOpenGL3_RenderDrawData(&part);
        glFinish();
        window_times_.push_back({list->_OwnerName, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()});
    }
}

void GlRenderer::new_frame() { ImGui_ImplOpenGL3_NewFrame(); }

bool GlRenderer::draw_in_place(ImDrawList& list, plot::Rect rect, plot::Color background) {
    // the last frame's projection and framebuffer: the same vertices give the same pixels
    ImDrawData* frame = ImGui::GetDrawData();
    if (!frame || !frame->Valid || last_width_ <= 0) return false;
    const ImVec2 scale = frame->FramebufferScale;
    if (static_cast<int>(frame->DisplaySize.x * scale.x) != last_width_ || static_cast<int>(frame->DisplaySize.y * scale.y) != last_height_)
        return false;
    const Box b = to_box({(rect.x0 - frame->DisplayPos.x) * scale.x, (rect.y0 - frame->DisplayPos.y) * scale.y,
                          (rect.x1 - frame->DisplayPos.x) * scale.x, (rect.y1 - frame->DisplayPos.y) * scale.y});
    const Box c = within(b, last_width_, last_height_);
    if (c.empty()) return false;
    glViewport(0, 0, last_width_, last_height_);
    glEnable(GL_SCISSOR_TEST);
    glScissor(c.x0, last_height_ - c.y1, c.x1 - c.x0, c.y1 - c.y0);
    glClearColor(background.r, background.g, background.b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    ImDrawList* lists[] = {&list};
    ImDrawData data = *frame;
    data.CmdLists = lists;
    data.CmdListsCount = 1;
    data.TotalVtxCount = list.VtxBuffer.Size;
    data.TotalIdxCount = list.IdxBuffer.Size;
    ImGui_ImplOpenGL3_RenderDrawData(&data);
    glFinish();  // drawn now, while no frame waits for it
    drawn_in_place_.push_back(to_rect(c));
    return true;
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

// The lens copies what is drawn under it when the foreground list gets there (a callback), so the
// copy holds this frame's panels, readouts and tooltips, and not the lens itself.
void GlRenderer::magnify(ImDrawList* list, plot::Rect source, plot::Rect dest, float rounding) {
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    const int width = std::max(1, static_cast<int>(std::lround((source.x1 - source.x0) * scale.x)));
    const int height = std::max(1, static_cast<int>(std::lround((source.y1 - source.y0) * scale.y)));
    if (!lens_texture_) glGenTextures(1, &lens_texture_);
    if (width != lens_width_ || height != lens_height_) {
        glBindTexture(GL_TEXTURE_2D, lens_texture_);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        lens_width_ = width, lens_height_ = height;
    }
    lens_source_ = source;
    list->AddCallback(&GlRenderer::copy_lens_source, this);
    // the copy's first row is the source's bottom (GL counts rows up)
    list->AddImageRounded(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(lens_texture_)), ImVec2(dest.x0, dest.y0), ImVec2(dest.x1, dest.y1),
                          ImVec2(0, 1), ImVec2(1, 0), IM_COL32_WHITE, rounding);
}

void GlRenderer::copy_lens_source(const ImDrawList*, const ImDrawCmd* cmd) {
    const auto& self = *static_cast<const GlRenderer*>(cmd->UserCallbackData);
    const ImDrawData* dd = ImGui::GetDrawData();
    const float framebuffer_height = dd->DisplaySize.y * dd->FramebufferScale.y;
    const int x = static_cast<int>(std::lround((self.lens_source_.x0 - dd->DisplayPos.x) * dd->FramebufferScale.x));
    const int y = static_cast<int>(std::lround(framebuffer_height - (self.lens_source_.y1 - dd->DisplayPos.y) * dd->FramebufferScale.y));
    glBindTexture(GL_TEXTURE_2D, self.lens_texture_);
    glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, x, y, self.lens_width_, self.lens_height_);
}

int GlRenderer::take_errors() {
    int n = 0;
    while (glGetError() != GL_NO_ERROR) ++n;
    return n;
}

}  // namespace rope::gui
