// Our SVG writer (real <text> elements, crisp heatmap cells) and what the file writers share with it:
// numbers and colours as the files write them, base64, XML escapes, the DejaVu Sans bytes. No cairo:
// the browser build writes SVG with it too.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "plot/display_list.hpp"

namespace rope::exporting {

// DejaVu Sans metrics shared by the back ends: a TextCmd of size s is drawn with an em of
// s / kEmToPixelHeight and its baseline kAscent * em below the box top.
inline constexpr double kEmToPixelHeight = 1.164;  // (ascent + descent) / em of DejaVu Sans
inline constexpr double kAscent = 0.928;

// The TTFs the screen and every file draw text with.
inline constexpr const char* kFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
inline constexpr const char* kBoldFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

// A heatmap cell's colour as every back end paints it (0xRRGGBB): its value through the colormap,
// faded by its weight.
std::uint32_t cell_rgb(const plot::ImageCmd& image, int row, int col);
// An image command's cells as a PNG, one pixel per cell (each cell kx x ky pixels when asked), coloured
// as every back end colours them (through cairo on the desktop, libpng in the browser).
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

// An SVG document of the display list; `metadata` lines go into its <metadata>, `description` (the
// alt text) into <desc>, and the two make it an image for screen readers (role="img", aria-labelledby).
std::string render_svg(const plot::DisplayList& list, const plot::TextMeasure& measure, const std::string& title,
                       const std::vector<std::pair<std::string, std::string>>& metadata, const std::string& description = "");

}  // namespace rope::exporting
