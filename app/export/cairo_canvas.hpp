// The file back ends of the drawing interface: cairo (PNG pixels and PDF) and a small SVG writer
// of our own (real <text> elements, crisp heatmap cells). Text is DejaVu Sans everywhere, sized
// as the screen sizes it (a size is the font's pixel height, ascent to descent).
#pragma once

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "plot/display_list.hpp"

typedef struct _cairo cairo_t;
typedef struct _cairo_font_face cairo_font_face_t;

namespace rope::exporting {

// DejaVu Sans metrics shared by the back ends: a TextCmd of size s is drawn with an em of
// s / kEmToPixelHeight and its baseline kAscent * em below the box top.
inline constexpr double kEmToPixelHeight = 1.164;  // (ascent + descent) / em of DejaVu Sans
inline constexpr double kAscent = 0.928;

// Measures with cairo and the TTF the screen uses.
class CairoTextMeasure : public plot::TextMeasure {
public:
    CairoTextMeasure();
    ~CairoTextMeasure() override;
    plot::Vec2 measure(const std::string& text, float size) const override;  // from several threads at once too

private:
    cairo_t* cr_ = nullptr;
    mutable std::mutex mutex_;  // one cairo context: a figure with model B builds A and B on two threads
};

// DejaVu Sans (or its bold) as a cairo font face from the TTF the screen uses, one for the process.
cairo_font_face_t* dejavu_face(bool bold = false);

// An image command's cells as a PNG, one pixel per cell (each cell kx x ky pixels when asked), coloured
// as every back end colours them.
std::vector<unsigned char> cells_png(const plot::ImageCmd& image, int kx = 1, int ky = 1);
std::string base64(const std::vector<unsigned char>& bytes);
// A coordinate as the file writers round it (two decimals at most, no trailing zeros, no "-0");
// a colour as #rrggbb (its alpha left out).
std::string svg_number(double v);
std::string hex_colour(plot::Color c);
// & < > " as XML and HTML write them (SVG text, the HTML page's attributes).
std::string xml_escape(const std::string& text);
// The bytes of the TTF the figures are measured and drawn with (an HTML page carries it).
const std::vector<unsigned char>& dejavu_font_bytes();

// Replays a display list on a cairo context (already scaled for the output).
void replay_cairo(const plot::DisplayList& list, cairo_t* cr);

// An SVG document of the display list; `metadata` lines go into its <metadata>, `description` (the
// alt text) into <desc>, and the two make it an image for screen readers (role="img", aria-labelledby).
std::string render_svg(const plot::DisplayList& list, const plot::TextMeasure& measure, const std::string& title,
                       const std::vector<std::pair<std::string, std::string>>& metadata, const std::string& description = "");

}  // namespace rope::exporting
