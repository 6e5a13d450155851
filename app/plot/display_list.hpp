// A figure as a list of drawing commands in figure pixels (origin top-left, y down). Figures are
// built once into a DisplayList and replayed by each back end (the ImGui draw list on screen; files
// later), so what is on screen and what is exported come from the same code.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace rope::plot {

inline constexpr double kPi = 3.14159265358979323846;

struct Vec2 {
    float x = 0, y = 0;
};

struct Color {
    float r = 0, g = 0, b = 0, a = 1;
    Color with_alpha(float alpha) const { return {r, g, b, alpha}; }
};

struct Rect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float width() const { return x1 - x0; }
    float height() const { return y1 - y0; }
    bool contains(Vec2 p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
};

enum class HAlign : std::uint8_t { left, center, right };
enum class VAlign : std::uint8_t { top, middle, bottom };
enum class ColormapId : std::uint8_t { cyclic, sequential, diverging };
// What a line or a text is, for label placement and the tests that check it (back ends ignore it):
// text must not cross `data` lines (curves, marker lines, arrows); grid and axis lines may pass
// behind text; a `leader` joins a moved label to what it names.
enum class Role : std::uint8_t { data, grid, axis, tick_x, tick_y, label, annotation, legend, leader };

struct PolylineCmd {
    std::vector<Vec2> points;
    Color color;
    float width = 1;
    bool closed = false;
    float dash = 0;  // dash length in pixels; 0 = solid
    Role role = Role::data;
};
struct PolygonCmd {  // filled convex polygon
    std::vector<Vec2> points;
    Color fill;
};
struct RectCmd {
    Rect rect;
    Color fill;          // alpha 0 = no fill
    Color stroke;        // alpha 0 = no outline
    float stroke_width = 1;
};
struct CircleCmd {
    Vec2 center;
    float radius = 1;
    Color fill;
    Color stroke;
    float stroke_width = 1;
};
struct TextCmd {
    Vec2 pos;
    std::string text;  // UTF-8
    float size = 14;   // pixels
    Color color;
    HAlign halign = HAlign::left;
    VAlign valign = VAlign::top;
    bool vertical = false;  // rotated 90 degrees counter-clockwise (y-axis labels)
    Role role = Role::label;
};
// A grid of scalar values coloured through a colormap: row 0 is the top row. Kept as data (not
// pixels) so the screen colours it in a shader and files colour it with the same table.
struct ImageCmd {
    Rect rect;
    int cols = 0, rows = 0;
    std::vector<float> values;
    ColormapId colormap = ColormapId::sequential;
    float vmin = 0, vmax = 1;
    // Per-cell weight in [0, 1], laid out as `values` (empty: every cell 1). A cell's colour fades
    // towards fade_color() as its weight drops (plot::faded in plot/colormap.hpp says how): a heatmap cell whose pair turns
    // many times within the cell has a mean phasor near 0, and no colour to show.
    std::vector<float> weights;
};
struct ClipCmd {
    Rect rect;
    bool push = true;  // false = pop
};

using Command = std::variant<PolylineCmd, PolygonCmd, RectCmd, CircleCmd, TextCmd, ImageCmd, ClipCmd>;

// Measures text as the back ends will draw it (DejaVu Sans on screen and in files).
class TextMeasure {
public:
    virtual ~TextMeasure() = default;
    virtual Vec2 measure(const std::string& text, float size) const = 0;
};

// A fallback for headless use and tests: DejaVu Sans' average advance.
class ApproximateTextMeasure : public TextMeasure {
public:
    Vec2 measure(const std::string& text, float size) const override;
};

struct DisplayList {
    float width = 0, height = 0;
    Color background;
    std::vector<Command> commands;

    void add(Command c) { commands.push_back(std::move(c)); }
    void line(std::vector<Vec2> pts, Color c, float w, float dash = 0) {
        commands.push_back(PolylineCmd{std::move(pts), c, w, false, dash});
    }
    void segment(Vec2 a, Vec2 b, Color c, float w, float dash = 0) { line({a, b}, c, w, dash); }
    void rect(Rect r, Color fill, Color stroke = {0, 0, 0, 0}, float stroke_width = 1) {
        commands.push_back(RectCmd{r, fill, stroke, stroke_width});
    }
    void text(Vec2 p, std::string s, float size, Color c, HAlign h = HAlign::left, VAlign v = VAlign::top,
              bool vertical = false) {
        commands.push_back(TextCmd{p, std::move(s), size, c, h, v, vertical});
    }
    void circle(Vec2 c, float r, Color fill, Color stroke = {0, 0, 0, 0}, float w = 1) {
        commands.push_back(CircleCmd{c, r, fill, stroke, w});
    }
    void push_clip(Rect r) { commands.push_back(ClipCmd{r, true}); }
    void pop_clip() { commands.push_back(ClipCmd{{}, false}); }
};

// "" if every coordinate, size and image value is finite and no text shows "nan" or "inf"; else
// what the first problem is (tests and the soak run check every figure with it).
std::string first_non_finite(const DisplayList& list);

// Offsets and scales every coordinate (used to place a figure in a window or a file).
void transform(DisplayList& list, float scale, Vec2 offset);

}  // namespace rope::plot
