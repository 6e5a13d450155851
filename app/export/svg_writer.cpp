#include "export/svg_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "plot/colormap.hpp"

namespace rope::exporting {

std::string svg_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    while (s.size() > 1 && s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s == "-0" ? "0" : s;
}

std::string hex_colour(plot::Color c) {
    char buf[32];
    auto b = [](float v) { return static_cast<int>(std::lround(std::fmin(1.f, std::fmax(0.f, v)) * 255)); };
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", b(c.r), b(c.g), b(c.b));
    return buf;
}

namespace {

std::string opacity(const char* attr, plot::Color c) {
    return c.a < 0.999f ? std::string(" ") + attr + "=\"" + svg_number(c.a) + "\"" : "";
}

}  // namespace

std::string base64(const std::vector<unsigned char>& in) {
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

std::uint32_t cell_rgb(const plot::ImageCmd& img, int r, int c) {
    const std::size_t i = static_cast<std::size_t>(r) * img.cols + c;
    const double t = plot::colormap_position(img.colormap, img.values[i], img.vmin, img.vmax);
    plot::Color col = plot::colormap_color(img.colormap, t);
    if (!img.weights.empty()) col = plot::faded(col, img.weights[i]);
    auto b = [](float v) { return static_cast<std::uint32_t>(std::lround(std::fmin(1.f, std::fmax(0.f, v)) * 255)); };
    return b(col.r) << 16 | b(col.g) << 8 | b(col.b);
}

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

std::string render_svg(const plot::DisplayList& list, const plot::TextMeasure& measure, const std::string& title,
                       const std::vector<std::pair<std::string, std::string>>& metadata, const std::string& description) {
    std::ostringstream o;
    o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"" << svg_number(list.width)
      << "\" height=\"" << svg_number(list.height) << "\" viewBox=\"0 0 " << svg_number(list.width) << " " << svg_number(list.height)
      << "\" role=\"img\" aria-labelledby=\"title" << (description.empty() ? "" : " desc") << "\">\n";
    o << "<title id=\"title\">" << xml_escape(title) << "</title>\n";
    if (!description.empty()) o << "<desc id=\"desc\">" << xml_escape(description) << "</desc>\n";
    o << "<metadata id=\"rope-explorer\">\n";
    for (const auto& [k, v] : metadata) o << xml_escape(k) << "=" << xml_escape(v) << "\n";
    o << "</metadata>\n";
    o << "<rect x=\"0\" y=\"0\" width=\"" << svg_number(list.width) << "\" height=\"" << svg_number(list.height) << "\" fill=\""
      << hex_colour(list.background) << "\"/>\n";
    int clip_id = 0;
    int open_groups = 0;
    for (const plot::Command& c : list.commands) {
        if (const auto* l = std::get_if<plot::PolylineCmd>(&c)) {
            if (l->points.size() < 2) continue;
            o << "<polyline fill=\"none\" stroke=\"" << hex_colour(l->color) << "\"" << opacity("stroke-opacity", l->color)
              << " stroke-width=\"" << svg_number(l->width) << "\" stroke-linejoin=\"round\"";
            if (l->dash > 0) o << " stroke-dasharray=\"" << svg_number(l->dash) << "\"";
            o << " points=\"";
            for (const plot::Vec2& p : l->points) o << svg_number(p.x) << "," << svg_number(p.y) << " ";
            o << "\"/>\n";
        } else if (const auto* pg = std::get_if<plot::PolygonCmd>(&c)) {
            o << "<polygon fill=\"" << hex_colour(pg->fill) << "\"" << opacity("fill-opacity", pg->fill) << " points=\"";
            for (const plot::Vec2& p : pg->points) o << svg_number(p.x) << "," << svg_number(p.y) << " ";
            o << "\"/>\n";
        } else if (const auto* r = std::get_if<plot::RectCmd>(&c)) {
            o << "<rect x=\"" << svg_number(r->rect.x0) << "\" y=\"" << svg_number(r->rect.y0) << "\" width=\"" << svg_number(r->rect.width())
              << "\" height=\"" << svg_number(r->rect.height()) << "\" fill=\"" << (r->fill.a > 0 ? hex_colour(r->fill) : "none") << "\""
              << (r->fill.a > 0 ? opacity("fill-opacity", r->fill) : "");
            if (r->stroke.a > 0)
                o << " stroke=\"" << hex_colour(r->stroke) << "\"" << opacity("stroke-opacity", r->stroke) << " stroke-width=\""
                  << svg_number(r->stroke_width) << "\"";
            o << "/>\n";
        } else if (const auto* ci = std::get_if<plot::CircleCmd>(&c)) {
            o << "<circle cx=\"" << svg_number(ci->center.x) << "\" cy=\"" << svg_number(ci->center.y) << "\" r=\"" << svg_number(ci->radius)
              << "\" fill=\"" << (ci->fill.a > 0 ? hex_colour(ci->fill) : "none") << "\""
              << (ci->fill.a > 0 ? opacity("fill-opacity", ci->fill) : "");
            if (ci->stroke.a > 0) o << " stroke=\"" << hex_colour(ci->stroke) << "\" stroke-width=\"" << svg_number(ci->stroke_width) << "\"";
            o << "/>\n";
        } else if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
            const double w = measure.measure(t->text, t->size).x, h = t->size;
            const double dx = t->halign == plot::HAlign::left ? 0 : t->halign == plot::HAlign::center ? -w / 2 : -w;
            const double dy = t->valign == plot::VAlign::top ? 0 : t->valign == plot::VAlign::middle ? -h / 2 : -h;
            const double baseline = kAscent * t->size / kEmToPixelHeight;
            o << "<text font-family=\"DejaVu Sans\" font-size=\"" << svg_number(t->size / kEmToPixelHeight) << "\" fill=\""
              << hex_colour(t->color) << "\"" << opacity("fill-opacity", t->color);
            if (t->vertical)
                o << " transform=\"translate(" << svg_number(t->pos.x) << "," << svg_number(t->pos.y) << ") rotate(-90)\" x=\"" << svg_number(dx)
                  << "\" y=\"" << svg_number(dy + baseline) << "\"";
            else
                o << " x=\"" << svg_number(t->pos.x + dx) << "\" y=\"" << svg_number(t->pos.y + dy + baseline) << "\"";
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
            o << "<image x=\"" << svg_number(img->rect.x0) << "\" y=\"" << svg_number(img->rect.y0) << "\" width=\"" << svg_number(img->rect.width())
              << "\" height=\"" << svg_number(img->rect.height())
              << "\" preserveAspectRatio=\"none\" image-rendering=\"pixelated\" style=\"image-rendering:pixelated;image-rendering:crisp-edges\""
              << " xlink:href=\"data:image/png;base64," << base64(png) << "\"/>\n";
        } else if (const auto* cl = std::get_if<plot::ClipCmd>(&c)) {
            if (cl->push) {
                ++clip_id;
                o << "<clipPath id=\"clip" << clip_id << "\"><rect x=\"" << svg_number(cl->rect.x0) << "\" y=\"" << svg_number(cl->rect.y0)
                  << "\" width=\"" << svg_number(cl->rect.width()) << "\" height=\"" << svg_number(cl->rect.height()) << "\"/></clipPath>\n";
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
