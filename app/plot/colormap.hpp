// 256-entry colormaps generated from their defining formulas in OKLab/OKLCh (not copied tables):
//  cyclic:     for angles; the same colour at -pi and pi, lightness and hue both turn once
//  sequential: monotone lightness, dark blue-violet to light yellow (viridis-like)
//  diverging:  blue - near white - red, centred on the middle value
#pragma once

#include <array>
#include <cstdint>

#include "plot/display_list.hpp"

namespace rope::plot {

using ColormapTable = std::array<std::array<std::uint8_t, 4>, 256>;

const ColormapTable& colormap_table(ColormapId id);
// Colour of value t in [0, 1] (cyclic: any t, wrapped), interpolated between entries.
Color colormap_color(ColormapId id, double t);
// Maps a value to [0, 1] for the colormap (cyclic maps wrap instead of clamping).
double colormap_position(ColormapId id, double value, double vmin, double vmax);

// The neutral grey a faded heatmap cell goes to: OKLab lightness 0.60, the cyclic map's mean
// lightness, so it reads as "no colour" on the light and the dark theme alike.
Color fade_color();
// Text that reads on a fill: near-black or white, whichever has the larger contrast on it.
Color ink_on(Color fill);
// `c` faded by weight w in [0, 1]: fade_color() + w^2 (c - fade_color()), in sRGB as the shader does it.
Color faded(Color c, double weight);

}  // namespace rope::plot
