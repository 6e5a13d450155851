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

#include "plot/colormap.hpp"

namespace rope::exporting {

namespace {

constexpr const char* kFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr const char* kBoldFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

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
        for (int c = 0; c < img.cols; ++c) {
            const double t = plot::colormap_position(img.colormap, img.values[static_cast<std::size_t>(r) * img.cols + c],
                                                     img.vmin, img.vmax);
            plot::Color col = plot::colormap_color(img.colormap, t);
            if (!img.weights.empty()) col = plot::faded(col, img.weights[static_cast<std::size_t>(r) * img.cols + c]);
            auto b = [](float v) { return static_cast<std::uint32_t>(std::lround(std::fmin(1.f, std::fmax(0.f, v)) * 255)); };
            row[c] = 0xff000000u | b(col.r) << 16 | b(col.g) << 8 | b(col.b);
        }
    }
    cairo_surface_mark_dirty(s);
    return s;
}


std::string svg_number_of(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    while (s.size() > 1 && s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s == "-0" ? "0" : s;
}

std::string hex_colour_of(plot::Color c) {
    char buf[32];
    auto b = [](float v) { return static_cast<int>(std::lround(std::fmin(1.f, std::fmax(0.f, v)) * 255)); };
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", b(c.r), b(c.g), b(c.b));
    return buf;
}

std::string opacity(const char* attr, plot::Color c) {
    return c.a < 0.999f ? std::string(" ") + attr + "=\"" + svg_number_of(c.a) + "\"" : "";
}

std::string base64_of(const std::vector<unsigned char>& in) {
    static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const unsigned v = in[i] << 16 | in[i + 1] << 8 | in[i + 2];
        out += t[v >> 18 & 63];
        out += t[v >> 12 & 63];
        out += t[v >> 6 & 63];
        out += t[v & 63];
    }
    if (i + 1 == in.size()) {
        const unsigned v = in[i] << 16;
        out += t[v >> 18 & 63];
        out += t[v >> 12 & 63];
        out += "==";
    } else if (i + 2 == in.size()) {
        const unsigned v = in[i] << 16 | in[i + 1] << 8;
        out += t[v >> 18 & 63];
        out += t[v >> 12 & 63];
        out += t[v >> 6 & 63];
        out += '=';
    }
    return out;
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

std::string base64(const std::vector<unsigned char>& bytes) { return base64_of(bytes); }
std::string svg_number(double v) { return svg_number_of(v); }
std::string hex_colour(plot::Color c) { return hex_colour_of(c); }

std::string xml_escape(const std::string& s) {
    std::string o;
    for (char ch : s) {
        switch (ch) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            default: o += ch;
        }
    }
    return o;
}


const std::vector<unsigned char>& dejavu_font_bytes() {
    static const std::vector<unsigned char> bytes = [] {
        std::vector<unsigned char> out;
        if (FILE* f = std::fopen(kFontFile, "rb")) {
            unsigned char buf[65536];
            for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.insert(out.end(), buf, buf + n);
            std::fclose(f);
        }
        return out;
    }();
    return bytes;
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

std::string render_svg(const plot::DisplayList& list, const plot::TextMeasure& measure, const std::string& title,
                       const std::vector<std::pair<std::string, std::string>>& metadata, const std::string& description) {
    std::ostringstream o;
    o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"" << svg_number_of(list.width)
      << "\" height=\"" << svg_number_of(list.height) << "\" viewBox=\"0 0 " << svg_number_of(list.width) << " " << svg_number_of(list.height)
      << "\" role=\"img\" aria-labelledby=\"title" << (description.empty() ? "" : " desc") << "\">\n";
    o << "<title id=\"title\">" << xml_escape(title) << "</title>\n";
    if (!description.empty()) o << "<desc id=\"desc\">" << xml_escape(description) << "</desc>\n";
    o << "<metadata id=\"rope-explorer\">\n";
    for (const auto& [k, v] : metadata) o << xml_escape(k) << "=" << xml_escape(v) << "\n";
    o << "</metadata>\n";
    o << "<rect x=\"0\" y=\"0\" width=\"" << svg_number_of(list.width) << "\" height=\"" << svg_number_of(list.height) << "\" fill=\""
      << hex_colour_of(list.background) << "\"/>\n";
    int clip_id = 0;
    int open_groups = 0;
    for (const plot::Command& c : list.commands) {
        if (const auto* l = std::get_if<plot::PolylineCmd>(&c)) {
            if (l->points.size() < 2) continue;
            o << "<polyline fill=\"none\" stroke=\"" << hex_colour_of(l->color) << "\"" << opacity("stroke-opacity", l->color)
              << " stroke-width=\"" << svg_number_of(l->width) << "\" stroke-linejoin=\"round\"";
            if (l->dash > 0) o << " stroke-dasharray=\"" << svg_number_of(l->dash) << "\"";
            o << " points=\"";
            for (const plot::Vec2& p : l->points) o << svg_number_of(p.x) << "," << svg_number_of(p.y) << " ";
            o << "\"/>\n";
        } else if (const auto* pg = std::get_if<plot::PolygonCmd>(&c)) {
            o << "<polygon fill=\"" << hex_colour_of(pg->fill) << "\"" << opacity("fill-opacity", pg->fill) << " points=\"";
            for (const plot::Vec2& p : pg->points) o << svg_number_of(p.x) << "," << svg_number_of(p.y) << " ";
            o << "\"/>\n";
        } else if (const auto* r = std::get_if<plot::RectCmd>(&c)) {
            o << "<rect x=\"" << svg_number_of(r->rect.x0) << "\" y=\"" << svg_number_of(r->rect.y0) << "\" width=\"" << svg_number_of(r->rect.width())
              << "\" height=\"" << svg_number_of(r->rect.height()) << "\" fill=\"" << (r->fill.a > 0 ? hex_colour_of(r->fill) : "none") << "\""
              << (r->fill.a > 0 ? opacity("fill-opacity", r->fill) : "");
            if (r->stroke.a > 0)
                o << " stroke=\"" << hex_colour_of(r->stroke) << "\"" << opacity("stroke-opacity", r->stroke) << " stroke-width=\""
                  << svg_number_of(r->stroke_width) << "\"";
            o << "/>\n";
        } else if (const auto* ci = std::get_if<plot::CircleCmd>(&c)) {
            o << "<circle cx=\"" << svg_number_of(ci->center.x) << "\" cy=\"" << svg_number_of(ci->center.y) << "\" r=\"" << svg_number_of(ci->radius)
              << "\" fill=\"" << (ci->fill.a > 0 ? hex_colour_of(ci->fill) : "none") << "\""
              << (ci->fill.a > 0 ? opacity("fill-opacity", ci->fill) : "");
            if (ci->stroke.a > 0) o << " stroke=\"" << hex_colour_of(ci->stroke) << "\" stroke-width=\"" << svg_number_of(ci->stroke_width) << "\"";
            o << "/>\n";
        } else if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
            const double w = measure.measure(t->text, t->size).x, h = t->size;
            const double dx = t->halign == plot::HAlign::left ? 0 : t->halign == plot::HAlign::center ? -w / 2 : -w;
            const double dy = t->valign == plot::VAlign::top ? 0 : t->valign == plot::VAlign::middle ? -h / 2 : -h;
            const double baseline = kAscent * t->size / kEmToPixelHeight;
            o << "<text font-family=\"DejaVu Sans\" font-size=\"" << svg_number_of(t->size / kEmToPixelHeight) << "\" fill=\""
              << hex_colour_of(t->color) << "\"" << opacity("fill-opacity", t->color);
            if (t->vertical)
                o << " transform=\"translate(" << svg_number_of(t->pos.x) << "," << svg_number_of(t->pos.y) << ") rotate(-90)\" x=\"" << svg_number_of(dx)
                  << "\" y=\"" << svg_number_of(dy + baseline) << "\"";
            else
                o << " x=\"" << svg_number_of(t->pos.x + dx) << "\" y=\"" << svg_number_of(t->pos.y + dy + baseline) << "\"";
            o << ">" << xml_escape(t->text) << "</text>\n";
        } else if (const auto* img = std::get_if<plot::ImageCmd>(&c)) {
            if (img->cols <= 0 || img->rows <= 0) continue;
            // Some viewers (librsvg among them) ignore image-rendering and smooth the image:
            // embed it with each cell already a block of whole pixels, so smoothing can only
            // soften the outermost pixel of a cell.
            const int kx = std::clamp(static_cast<int>(std::ceil(img->rect.width() / img->cols)), 1, std::max(1, 2048 / img->cols));
            const int ky = std::clamp(static_cast<int>(std::ceil(img->rect.height() / img->rows)), 1, std::max(1, 2048 / img->rows));
            const std::vector<unsigned char> png = cells_png(*img, kx, ky);
            // viewers must not smooth the cells: pixelated in every vocabulary they read
            o << "<image x=\"" << svg_number_of(img->rect.x0) << "\" y=\"" << svg_number_of(img->rect.y0) << "\" width=\"" << svg_number_of(img->rect.width())
              << "\" height=\"" << svg_number_of(img->rect.height())
              << "\" preserveAspectRatio=\"none\" image-rendering=\"pixelated\" style=\"image-rendering:pixelated;image-rendering:crisp-edges\""
              << " xlink:href=\"data:image/png;base64," << base64_of(png) << "\"/>\n";
        } else if (const auto* cl = std::get_if<plot::ClipCmd>(&c)) {
            if (cl->push) {
                ++clip_id;
                o << "<clipPath id=\"clip" << clip_id << "\"><rect x=\"" << svg_number_of(cl->rect.x0) << "\" y=\"" << svg_number_of(cl->rect.y0)
                  << "\" width=\"" << svg_number_of(cl->rect.width()) << "\" height=\"" << svg_number_of(cl->rect.height()) << "\"/></clipPath>\n";
                o << "<g clip-path=\"url(#clip" << clip_id << ")\">\n";
                ++open_groups;
            } else if (open_groups > 0) {
                o << "</g>\n";
                --open_groups;
            }
        }
    }
    while (open_groups-- > 0) o << "</g>\n";
    o << "</svg>\n";
    return o.str();
}

}  // namespace rope::exporting
