// Colours and sizes of figures. Sizes are in pixels at scale 1 and multiplied by `scale` (the
// monitor's content scale times the user's factor on screen, 1 for a 1x export).
//
// Categorical colours are the Okabe-Ito hues with their lightness set per background (in OKLCh) so
// that every line has at least 3:1 contrast against the plot (4.5:1 in high contrast) and every two
// of the series, the accent and the text stay apart under simulated protanopia, deuteranopia and
// tritanopia (tests/gui/test_colours.cpp measures it). Series that share a dash pattern differ in
// lightness, so a greyscale print keeps them apart too.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "plot/display_list.hpp"

namespace rope::plot {

class AxisPins;

enum class ThemeId { dark, light, high_contrast };

// The themes' names, the one vocabulary every reader of a theme uses (the `theme=` key of the page's
// address, --theme, a session's view.theme, a screenshot's view:theme, the menus).
struct ThemeName {
    ThemeId id;
    const char* name;
};
inline constexpr std::array<ThemeName, 3> kThemeNames = {{
    {ThemeId::dark, "dark"},
    {ThemeId::light, "light"},
    {ThemeId::high_contrast, "high_contrast"},  // white on black, for projectors in bright rooms
}};
const char* theme_name(ThemeId id);
std::optional<ThemeId> theme_from_name(std::string_view name);
// What a refusal says is allowed: "dark, light or high_contrast"; `separator` "|" gives a usage line's
// "dark|light|high_contrast".
std::string theme_names(const char* separator = nullptr);

struct Theme {
    ThemeId id = ThemeId::dark;
    Color background;   // figure background
    Color plot_fill;    // inside the axes
    Color text;
    Color muted;        // tick labels, secondary text
    Color axis;
    Color grid;
    Color accent;       // current position / base markers, the current curve
    Color marker;       // the secondary marker (n - m)
    std::array<Color, 6> series;
    std::array<float, 6> series_dash;  // dash length (pixels at scale 1, 0 = solid) that goes with series[i]
    // The part [ramp_lo, ramp_hi] of the sequential colormap whose colours read as lines on this
    // background (>= 3:1): ordered quantities (bases, frequencies) are coloured from it.
    float ramp_lo = 0, ramp_hi = 1;
};

Theme dark_theme();
Theme light_theme();
Theme high_contrast_theme();
Theme theme_by_id(ThemeId id);

// WCAG 2 contrast ratio of two opaque colours (1 to 21).
double contrast_ratio(Color a, Color b);
// The shade of a curve's or a marker's colour its words are written in: the colour itself where it
// reads as text (4.5:1 on the theme's background and inside its axes), else mixed toward the text's
// end (black on a light theme, white on a dark one) until it does: the hue stays, the words read.
Color text_shade(Color c, const Theme& theme);

// Colour of an ordered quantity at t in [0, 1] (0 = first) from the theme's readable part of the
// sequential colormap: lightness rises with t.
Color ramp_color(const Theme& theme, double t);

struct Style {
    Theme theme = dark_theme();
    float scale = 1;
    float tick_font = 15;
    float label_font = 17;
    float title_font = 20;
    float min_text = 9;         // no text is drawn smaller (crowded labels shrink down to this, no further;
                                // the screen asks for 13, 16 in presentation mode)
    float line_width = 2.5f;    // data lines: thick enough for a projector
    float axis_width = 1.2f;
    bool draw_titles = true;    // on screen the panel header shows the title instead
    bool draw_captions = true;  // false: no plot draws a title, even where a figure turns draw_titles on for its sub-plots
    bool fill_plot_area = true; // on screen the window is already cleared to the background
    std::string focus;          // comma-separated sub-plots to show first when not all fit (a lesson step's)
    // presentation mode: a lesson step's focus plots get most of the room, and the picture is the
    // room's: no words on what a click, a key or an export does, nor on plots left out (the presenter
    // view says that: FigureResult::left_out)
    bool presenting = false;
    // A small picture on screen (an embed in a phone's column, a phone held sideways, a page at 200 %):
    // its lead plot alone at the whole size, no captions (the panel's header names it), a colour key
    // without its notes along it (the readout and the alt text say them). Set by build_figure from
    // the picture's size; files are never compact.
    bool compact = false;
    AxisPins* pins = nullptr;   // an animation's ranges held over its frames (plot/axis_pins.hpp); null on screen

    float px(float v) const { return v * scale; }
};

// The smallest text on screen in presentation mode (the panels' tick labels), pixels at scale 1.
inline constexpr float kPresentingSmallestText = 16;

// A blog column: pictures are shown about this wide, and their tick labels should then be at least
// kBlogTickPx tall (exports scale their type to the width they are written at).
inline constexpr float kBlogColumnPx = 700;
inline constexpr float kBlogTickPx = 12;

// The figures' style in a file (a blog column at 800x480: titles drawn, type a little smaller).
Style file_style(ThemeId theme);
// The figures' style in the app's panels: the panel header carries the title, larger type, the
// smallest text 13 px (kPresentingSmallestText in presentation mode), no background of their own.
Style screen_style(ThemeId theme, float scale, bool presenting);

}  // namespace rope::plot
