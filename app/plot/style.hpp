// Colours and sizes of figures. Sizes are in pixels at scale 1 and multiplied by `scale` (the
// monitor's content scale times the user's factor on screen, 1 for a 1x export).
#pragma once

#include <array>

#include "plot/display_list.hpp"

namespace rope::plot {

enum class ThemeId { dark, light, high_contrast };

struct Theme {
    ThemeId id = ThemeId::dark;
    Color background;   // figure background
    Color plot_fill;    // inside the axes
    Color text;
    Color muted;        // tick labels, secondary text
    Color axis;
    Color grid;
    Color accent;       // current position / base markers
    Color marker;       // the secondary marker (n - m)
    std::array<Color, 6> series;
};

Theme dark_theme();
Theme light_theme();
Theme high_contrast_theme();
Theme theme_by_id(ThemeId id);

struct Style {
    Theme theme = dark_theme();
    float scale = 1;
    float tick_font = 15;
    float label_font = 17;
    float title_font = 20;
    float line_width = 2.5f;    // data lines: thick enough for a projector
    float axis_width = 1.2f;
    bool draw_titles = true;    // on screen the panel header shows the title instead
    bool draw_captions = true;  // false: no plot draws a title, even where a figure turns draw_titles on for its sub-plots
    bool fill_plot_area = true; // on screen the window is already cleared to the background

    float px(float v) const { return v * scale; }
};

}  // namespace rope::plot
