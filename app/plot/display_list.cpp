#include "plot/display_list.hpp"

#include <cmath>

namespace rope::plot {

Vec2 ApproximateTextMeasure::measure(const std::string& text, float size) const {
    // DejaVu Sans: average advance ~0.6 em for mixed text, line height ~1.16 em.
    std::size_t glyphs = 0;
    for (unsigned char c : text) glyphs += (c & 0xC0) != 0x80;
    return {0.6f * size * static_cast<float>(glyphs), 1.16f * size};
}

namespace {
Vec2 map(Vec2 p, float s, Vec2 o) { return {p.x * s + o.x, p.y * s + o.y}; }
Rect map(Rect r, float s, Vec2 o) { return {r.x0 * s + o.x, r.y0 * s + o.y, r.x1 * s + o.x, r.y1 * s + o.y}; }
}  // namespace

void transform(DisplayList& list, float s, Vec2 o) {
    for (Command& c : list.commands) {
        std::visit(
            [&](auto& cmd) {
                using T = std::decay_t<decltype(cmd)>;
                if constexpr (std::is_same_v<T, PolylineCmd>) {
                    for (Vec2& p : cmd.points) p = map(p, s, o);
                    cmd.width *= s;
                    cmd.dash *= s;
                } else if constexpr (std::is_same_v<T, PolygonCmd>) {
                    for (Vec2& p : cmd.points) p = map(p, s, o);
                } else if constexpr (std::is_same_v<T, RectCmd>) {
                    cmd.rect = map(cmd.rect, s, o);
                    cmd.stroke_width *= s;
                } else if constexpr (std::is_same_v<T, CircleCmd>) {
                    cmd.center = map(cmd.center, s, o);
                    cmd.radius *= s;
                    cmd.stroke_width *= s;
                } else if constexpr (std::is_same_v<T, TextCmd>) {
                    cmd.pos = map(cmd.pos, s, o);
                    cmd.size *= s;
                } else if constexpr (std::is_same_v<T, ImageCmd>) {
                    cmd.rect = map(cmd.rect, s, o);
                } else if constexpr (std::is_same_v<T, ClipCmd>) {
                    cmd.rect = map(cmd.rect, s, o);
                }
            },
            c);
    }
    list.width *= s;
    list.height *= s;
}

namespace {

bool finite(Vec2 p) { return std::isfinite(p.x) && std::isfinite(p.y); }
bool finite(const Rect& r) { return std::isfinite(r.x0) && std::isfinite(r.y0) && std::isfinite(r.x1) && std::isfinite(r.y1); }

// "nan" or "inf" as a word of its own (a number printed from a NaN or an infinity)
bool shows_non_number(const std::string& text) {
    auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    for (const char* word : {"nan", "inf", "NaN", "Inf", "NAN", "INF"}) {
        for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
            const bool before = at > 0 && letter(text[at - 1]);
            const bool after = at + 3 < text.size() && letter(text[at + 3]) && text.compare(at + 3, 5, "inity") != 0;
            if (!before && !after) return true;
        }
    }
    return false;
}

}  // namespace

std::string first_non_finite(const DisplayList& list) {
    for (std::size_t i = 0; i < list.commands.size(); ++i) {
        const Command& c = list.commands[i];
        const std::string at = "command " + std::to_string(i) + ": ";
        if (const auto* l = std::get_if<PolylineCmd>(&c)) {
            for (Vec2 p : l->points)
                if (!finite(p)) return at + "polyline point";
            if (!std::isfinite(l->width)) return at + "line width";
        } else if (const auto* g = std::get_if<PolygonCmd>(&c)) {
            for (Vec2 p : g->points)
                if (!finite(p)) return at + "polygon point";
        } else if (const auto* r = std::get_if<RectCmd>(&c)) {
            if (!finite(r->rect)) return at + "rect";
        } else if (const auto* ci = std::get_if<CircleCmd>(&c)) {
            if (!finite(ci->center) || !std::isfinite(ci->radius)) return at + "circle";
        } else if (const auto* t = std::get_if<TextCmd>(&c)) {
            if (!finite(t->pos) || !std::isfinite(t->size)) return at + "text position";
            if (shows_non_number(t->text)) return at + "text \"" + t->text + "\"";
        } else if (const auto* im = std::get_if<ImageCmd>(&c)) {
            if (!finite(im->rect)) return at + "image rect";
            for (float v : im->values)
                if (!std::isfinite(v)) return at + "image value";
            if (!im->weights.empty() && im->weights.size() != im->values.size()) return at + "image weights (count)";
            for (float w : im->weights)
                if (!(w >= 0 && w <= 1)) return at + "image weight";
        } else if (const auto* cl = std::get_if<ClipCmd>(&c)) {
            if (cl->push && !finite(cl->rect)) return at + "clip rect";
        }
    }
    return "";
}

}  // namespace rope::plot
