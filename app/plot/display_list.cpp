#include "plot/display_list.hpp"

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

}  // namespace rope::plot
