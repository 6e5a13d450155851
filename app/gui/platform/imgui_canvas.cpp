#include "gui/platform/imgui_canvas.hpp"

#include <imgui.h>

#include <cfloat>
#include <cmath>

namespace rope::gui {

namespace {

ImU32 to_u32(plot::Color c) {
    auto b = [](float v) { return static_cast<int>(std::lround(std::fmin(1.f, std::fmax(0.f, v)) * 255.f)); };
    return IM_COL32(b(c.r), b(c.g), b(c.b), b(c.a));
}

ImVec2 at(plot::Vec2 p, plot::Vec2 o) { return {p.x + o.x, p.y + o.y}; }

// Dear ImGui draws anti-aliased lines of whole-pixel width from a baked texture, two triangles a
// segment; any other width takes six. Software GL pays per triangle, so widths are whole pixels.
float line_width(float w) { return std::max(1.0f, std::round(w)); }

void dashed(ImDrawList* draw, const std::vector<plot::Vec2>& pts, plot::Vec2 o, ImU32 col, float width, float dash) {
    float carry = 0;
    bool on = true;
    for (std::size_t i = 1; i < pts.size(); ++i) {
        ImVec2 a = at(pts[i - 1], o), b = at(pts[i], o);
        float len = std::hypot(b.x - a.x, b.y - a.y);
        float pos = 0;
        while (pos < len) {
            const float step = std::fmin(dash - carry, len - pos);
            const ImVec2 p0{a.x + (b.x - a.x) * pos / len, a.y + (b.y - a.y) * pos / len};
            const ImVec2 p1{a.x + (b.x - a.x) * (pos + step) / len, a.y + (b.y - a.y) * (pos + step) / len};
            if (on) draw->AddLine(p0, p1, col, width);
            pos += step;
            carry += step;
            if (carry >= dash - 1e-3f) {
                carry = 0;
                on = !on;
            }
        }
    }
}

// One colour map over one value range: such images can share a program's state (a run) and, at one
// size, a texture (a strip). Strips lie inside runs because both ask this.
bool coloured_alike(const plot::ImageCmd& a, const plot::ImageCmd& b) {
    return a.colormap == b.colormap && a.vmin == b.vmin && a.vmax == b.vmax;
}

}  // namespace

void upload_images(const plot::DisplayList& list, std::vector<HeatmapTexture>& images, Renderer& renderer) {
    std::vector<const plot::ImageCmd*> all;
    for (const plot::Command& c : list.commands)
        if (const auto* img = std::get_if<plot::ImageCmd>(&c)) all.push_back(img);
    if (images.size() < all.size()) images.resize(all.size());
    // strips: images that follow each other at one size and colouring (the video page's small maps),
    // up to a texture 4096 cells wide
    constexpr int kStripCells = 4096;
    auto joins = [](const plot::ImageCmd& a, const plot::ImageCmd& b) {
        return a.cols == b.cols && a.rows == b.rows && coloured_alike(a, b);
    };
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i + 1;
        while (j < all.size() && joins(*all[i], *all[j]) && static_cast<int>(j - i + 1) * (all[i]->cols + 1) - 1 <= kStripCells) ++j;
        renderer.upload(std::vector<const plot::ImageCmd*>(all.begin() + static_cast<std::ptrdiff_t>(i), all.begin() + static_cast<std::ptrdiff_t>(j)),
                        &images[i]);
        i = j;
    }
    for (std::size_t i = all.size(); i < images.size(); ++i) renderer.release(images[i]);
    images.resize(all.size());
}

void replay(const plot::DisplayList& list, ImDrawList* draw, plot::Vec2 o, const FontSet& fonts,
            const std::vector<HeatmapTexture>& images, Renderer& renderer) {
    std::size_t image_index = 0;
    // consecutive images coloured alike go to the renderer as one run
    std::vector<Renderer::PlacedImage> run;
    const plot::ImageCmd* run_colouring = nullptr;
    auto end_run = [&] {
        if (!run.empty()) renderer.draw_images(draw, run);
        run.clear();
        run_colouring = nullptr;
    };
    for (const plot::Command& c : list.commands) {
        const auto* img = std::get_if<plot::ImageCmd>(&c);
        if (!img || (run_colouring && !coloured_alike(*img, *run_colouring)))
            end_run();
        if (img) {
            if (image_index < images.size()) {
                plot::Rect placed = img->rect;
                placed.x0 += o.x;
                placed.x1 += o.x;
                placed.y0 += o.y;
                placed.y1 += o.y;
                run.push_back({&images[image_index], placed});
                run_colouring = img;
            }
            ++image_index;
        } else if (const auto* l = std::get_if<plot::PolylineCmd>(&c)) {
            if (l->points.size() < 2) continue;
            if (l->dash > 0) {
                dashed(draw, l->points, o, to_u32(l->color), line_width(l->width), l->dash);
                continue;
            }
            std::vector<ImVec2> pts;
            pts.reserve(l->points.size());
            for (const plot::Vec2& p : l->points) pts.push_back(at(p, o));
            draw->AddPolyline(pts.data(), static_cast<int>(pts.size()), to_u32(l->color),
                              l->closed ? ImDrawFlags_Closed : ImDrawFlags_None, line_width(l->width));
        } else if (const auto* pg = std::get_if<plot::PolygonCmd>(&c)) {
            std::vector<ImVec2> pts;
            for (const plot::Vec2& p : pg->points) pts.push_back(at(p, o));
            draw->AddConvexPolyFilled(pts.data(), static_cast<int>(pts.size()), to_u32(pg->fill));
        } else if (const auto* r = std::get_if<plot::RectCmd>(&c)) {
            const ImVec2 a{r->rect.x0 + o.x, r->rect.y0 + o.y}, b{r->rect.x1 + o.x, r->rect.y1 + o.y};
            if (r->fill.a > 0) draw->AddRectFilled(a, b, to_u32(r->fill));
            if (r->stroke.a > 0) draw->AddRect(a, b, to_u32(r->stroke), 0, 0, line_width(r->stroke_width));
        } else if (const auto* ci = std::get_if<plot::CircleCmd>(&c)) {
            // 0 segments: ImGui picks enough for the radius (few for the small trail dots)
            if (ci->fill.a > 0) draw->AddCircleFilled(at(ci->center, o), ci->radius, to_u32(ci->fill), 0);
            if (ci->stroke.a > 0) draw->AddCircle(at(ci->center, o), ci->radius, to_u32(ci->stroke), 0, line_width(ci->stroke_width));
        } else if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
            ImFont* font = fonts.nearest(t->size);
            const char* b = t->text.c_str();
            const char* e = b + t->text.size();
            const ImVec2 size = font->CalcTextSizeA(t->size, FLT_MAX, 0.0f, b, e);
            float dx = t->halign == plot::HAlign::left ? 0 : t->halign == plot::HAlign::center ? -size.x / 2 : -size.x;
            float dy = t->valign == plot::VAlign::top ? 0 : t->valign == plot::VAlign::middle ? -size.y / 2 : -size.y;
            const ImVec2 pivot = at(t->pos, o);
            if (!t->vertical) {
                draw->AddText(font, t->size, ImVec2(std::round(pivot.x + dx), std::round(pivot.y + dy)), to_u32(t->color), b, e);
                continue;
            }
            // Laid out horizontally around the pivot, then turned a quarter counter-clockwise.
            // ImGui drops glyphs outside the current clip rectangle while laying text out, and the
            // unrotated layout may lie outside it: lay it out under a wide clip, then rotate, and
            // draw it under the picture's clip like the rest (a label longer than its axis must not
            // reach into the panel's header, or not depending on what was redrawn when).
            const ImVec4 clip = draw->_CmdHeader.ClipRect;
            draw->PushClipRect(ImVec2(-1e5f, -1e5f), ImVec2(1e5f, 1e5f), false);
            const int first = draw->VtxBuffer.Size, first_cmd = draw->CmdBuffer.Size - 1;
            draw->AddText(font, t->size, ImVec2(pivot.x + dx, pivot.y + dy), to_u32(t->color), b, e);
            draw->PopClipRect();
            for (int k = first_cmd; k < draw->CmdBuffer.Size; ++k) draw->CmdBuffer[k].ClipRect = clip;
            for (int i = first; i < draw->VtxBuffer.Size; ++i) {
                ImDrawVert& v = draw->VtxBuffer[i];
                const float rx = v.pos.x - pivot.x, ry = v.pos.y - pivot.y;
                v.pos = ImVec2(pivot.x + ry, pivot.y - rx);
            }
        } else if (const auto* cl = std::get_if<plot::ClipCmd>(&c)) {
            if (cl->push)
                draw->PushClipRect(ImVec2(cl->rect.x0 + o.x, cl->rect.y0 + o.y), ImVec2(cl->rect.x1 + o.x, cl->rect.y1 + o.y), true);
            else
                draw->PopClipRect();
        }
    }
    end_run();
}

}  // namespace rope::gui
