#include "export/cairo_canvas.hpp"

#include <cairo-ft.h>
#include <cairo.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <sstream>

#include "export/export.hpp"
#include "io/atomic_file.hpp"
#include "plot/colormap.hpp"

namespace rope::exporting {

namespace {


// One FreeType face per file for the process (cairo keeps it alive through the font face). Not
// cairo's toy API: that asks fontconfig, whose caches are never given back.
cairo_font_face_t* face_of(const char* file, cairo_font_weight_t weight) {
    FT_Library lib = nullptr;
    FT_Face ft = nullptr;
    if (FT_Init_FreeType(&lib) == 0 && FT_New_Face(lib, file, 0, &ft) == 0) return cairo_ft_font_face_create_for_ft_face(ft, 0);
    return cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, weight);
}

}  // namespace

cairo_font_face_t* dejavu_face(bool bold) {
    static cairo_font_face_t* regular = nullptr;
    static cairo_font_face_t* heavy = nullptr;
    static std::once_flag once_regular, once_bold;
    if (bold) {
        std::call_once(once_bold, [] { heavy = face_of(kBoldFontFile, CAIRO_FONT_WEIGHT_BOLD); });
        return heavy;
    }
    std::call_once(once_regular, [] { regular = face_of(kFontFile, CAIRO_FONT_WEIGHT_NORMAL); });
    return regular;
}

namespace {

void set_font(cairo_t* cr, double size) {
    cairo_set_font_face(cr, dejavu_face());
    cairo_set_font_size(cr, size / kEmToPixelHeight);
}

void set_color(cairo_t* cr, plot::Color c) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a); }

// Fills and outlines the current path (either may be transparent = skipped), then clears it.
void fill_and_stroke(cairo_t* cr, plot::Color fill, plot::Color stroke, float stroke_width) {
    if (fill.a > 0) {
        set_color(cr, fill);
        cairo_fill_preserve(cr);
    }
    if (stroke.a > 0) {
        set_color(cr, stroke);
        cairo_set_line_width(cr, stroke_width);
        cairo_stroke_preserve(cr);
    }
    cairo_new_path(cr);
}

// ARGB32 pixels of an image command's values through its colormap, faded by the cell weights (the GPU's
// table, mapping and fade).
cairo_surface_t* image_surface(const plot::ImageCmd& img) {
    cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, img.cols, img.rows);
    const int stride = cairo_image_surface_get_stride(s);
    unsigned char* data = cairo_image_surface_get_data(s);
    for (int r = 0; r < img.rows; ++r) {
        auto* row = reinterpret_cast<std::uint32_t*>(data + static_cast<std::ptrdiff_t>(r) * stride);
        for (int c = 0; c < img.cols; ++c) row[c] = 0xff000000u | cell_rgb(img, r, c);
    }
    cairo_surface_mark_dirty(s);
    return s;
}


cairo_status_t append_png(void* closure, const unsigned char* data, unsigned int length) {
    auto* out = static_cast<std::vector<unsigned char>*>(closure);
    out->insert(out->end(), data, data + length);
    return CAIRO_STATUS_SUCCESS;
}

}  // namespace

CairoTextMeasure::CairoTextMeasure() {
    cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
    cr_ = cairo_create(s);
    cairo_surface_destroy(s);
}

CairoTextMeasure::~CairoTextMeasure() { cairo_destroy(cr_); }

plot::Vec2 CairoTextMeasure::measure(const std::string& text, float size) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    set_font(cr_, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr_, text.c_str(), &e);
    return {static_cast<float>(e.x_advance), size};
}

std::vector<unsigned char> cells_png(const plot::ImageCmd& img, int kx, int ky) {
    cairo_surface_t* cells = image_surface(img);
    cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, img.cols * kx, img.rows * ky);
    cairo_t* up = cairo_create(s);
    cairo_scale(up, kx, ky);
    cairo_set_source_surface(up, cells, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(up), CAIRO_FILTER_NEAREST);
    cairo_paint(up);
    cairo_destroy(up);
    cairo_surface_destroy(cells);
    std::vector<unsigned char> png;
    cairo_surface_write_to_png_stream(s, append_png, &png);
    cairo_surface_destroy(s);
    return png;
}

void replay_cairo(const plot::DisplayList& list, cairo_t* cr) {
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    set_color(cr, list.background);
    cairo_rectangle(cr, 0, 0, list.width, list.height);
    cairo_fill(cr);
    for (const plot::Command& c : list.commands) {
        if (const auto* l = std::get_if<plot::PolylineCmd>(&c)) {
            if (l->points.size() < 2) continue;
            cairo_move_to(cr, l->points[0].x, l->points[0].y);
            for (std::size_t i = 1; i < l->points.size(); ++i) cairo_line_to(cr, l->points[i].x, l->points[i].y);
            if (l->closed) cairo_close_path(cr);
            const double dash = l->dash;
            if (dash > 0) cairo_set_dash(cr, &dash, 1, 0);
            set_color(cr, l->color);
            cairo_set_line_width(cr, l->width);
            cairo_stroke(cr);
            if (dash > 0) cairo_set_dash(cr, nullptr, 0, 0);
        } else if (const auto* pg = std::get_if<plot::PolygonCmd>(&c)) {
            if (pg->points.empty()) continue;
            cairo_move_to(cr, pg->points[0].x, pg->points[0].y);
            for (std::size_t i = 1; i < pg->points.size(); ++i) cairo_line_to(cr, pg->points[i].x, pg->points[i].y);
            cairo_close_path(cr);
            set_color(cr, pg->fill);
            cairo_fill(cr);
        } else if (const auto* r = std::get_if<plot::RectCmd>(&c)) {
            cairo_rectangle(cr, r->rect.x0, r->rect.y0, r->rect.width(), r->rect.height());
            fill_and_stroke(cr, r->fill, r->stroke, r->stroke_width);
        } else if (const auto* ci = std::get_if<plot::CircleCmd>(&c)) {
            cairo_new_sub_path(cr);
            cairo_arc(cr, ci->center.x, ci->center.y, ci->radius, 0, 2 * M_PI);
            fill_and_stroke(cr, ci->fill, ci->stroke, ci->stroke_width);
        } else if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
            set_font(cr, t->size);
            cairo_text_extents_t e;
            cairo_text_extents(cr, t->text.c_str(), &e);
            const double w = e.x_advance, h = t->size;
            const double dx = t->halign == plot::HAlign::left ? 0 : t->halign == plot::HAlign::center ? -w / 2 : -w;
            const double dy = t->valign == plot::VAlign::top ? 0 : t->valign == plot::VAlign::middle ? -h / 2 : -h;
            const double baseline = kAscent * t->size / kEmToPixelHeight;
            cairo_save(cr);
            cairo_translate(cr, t->pos.x, t->pos.y);
            if (t->vertical) cairo_rotate(cr, -M_PI / 2);  // reads bottom to top, as on screen
            cairo_move_to(cr, dx, dy + baseline);
            set_color(cr, t->color);
            cairo_show_text(cr, t->text.c_str());
            cairo_restore(cr);
        } else if (const auto* img = std::get_if<plot::ImageCmd>(&c)) {
            if (img->cols <= 0 || img->rows <= 0) continue;
            cairo_surface_t* s = image_surface(*img);
            cairo_save(cr);
            cairo_rectangle(cr, img->rect.x0, img->rect.y0, img->rect.width(), img->rect.height());
            cairo_clip(cr);
            cairo_translate(cr, img->rect.x0, img->rect.y0);
            cairo_scale(cr, img->rect.width() / img->cols, img->rect.height() / img->rows);
            cairo_set_source_surface(cr, s, 0, 0);
            // cells stay cells: no smoothing (PDF: /Interpolate false)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
            cairo_paint(cr);
            cairo_restore(cr);
            cairo_surface_destroy(s);
        } else if (const auto* cl = std::get_if<plot::ClipCmd>(&c)) {
            if (cl->push) {
                cairo_save(cr);
                cairo_rectangle(cr, cl->rect.x0, cl->rect.y0, cl->rect.width(), cl->rect.height());
                cairo_clip(cr);
            } else {
                cairo_restore(cr);
            }
        }
    }
}

std::vector<std::uint8_t> rasterize(const plot::DisplayList& list, const ExportOptions& o, int& w, int& h) {
    w = static_cast<int>(std::lround(o.width * o.scale));
    h = static_cast<int>(std::lround(o.height * o.scale));
    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        throw io::IoError("cannot write '" + o.path + "': out of memory for a " + std::to_string(w) + "x" +
                          std::to_string(h) + " image");
    }
    cairo_t* cr = cairo_create(surface);
    cairo_scale(cr, static_cast<double>(w) / o.width, static_cast<double>(h) / o.height);
    replay_cairo(list, cr);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    // cairo: premultiplied native-endian ARGB; libpng: straight RGBA
    const unsigned char* data = cairo_image_surface_get_data(surface);
    const int stride = cairo_image_surface_get_stride(surface);
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(w) * h * 4);
    for (int y = 0; y < h; ++y) {
        const auto* row = reinterpret_cast<const std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
        for (int x = 0; x < w; ++x) {
            const std::uint32_t p = row[x];
            const unsigned a = p >> 24;
            auto un = [a](unsigned c) { return static_cast<std::uint8_t>(a ? std::min(255u, (c * 255 + a / 2) / a) : 0); };
            std::uint8_t* out = &rgba[(static_cast<std::size_t>(y) * w + x) * 4];
            out[0] = un(p >> 16 & 0xff);
            out[1] = un(p >> 8 & 0xff);
            out[2] = un(p & 0xff);
            out[3] = static_cast<std::uint8_t>(a);
        }
    }
    cairo_surface_destroy(surface);
    return rgba;
}

std::unique_ptr<plot::TextMeasure> file_text_measure() { return std::make_unique<CairoTextMeasure>(); }

}  // namespace rope::exporting
