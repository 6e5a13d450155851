// The colours a GIF of a figure keeps exactly when its frames hold more than a GIF's 255: the
// figure's flat colours (background, text, lines, fills) as cairo paints them, then samples along
// each colormap its images use. A cyclic colormap is a ring of hues: median cut would treat it as a
// cloud of boxes in RGB and band or shift the hues near the seam, so the ring is sampled evenly
// (and rings closer to grey where cells fade, as many samples as each ring is long).
#pragma once

#include <cstdint>
#include <vector>

#include "export/export.hpp"
#include "plot/display_list.hpp"

namespace rope::exporting {

// How many palette entries the colormap samples may take at most, all colormaps together.
inline constexpr int kColormapSamples = 160;

// 0xRRGGBB colours in priority order (flat colours first), no repeats.
std::vector<std::uint32_t> gif_reserved_colours(const plot::DisplayList& list);

// The same for the figure drawn at `params` as a file is (an animation's first frame).
std::vector<std::uint32_t> gif_reserved_colours(const figures::FigureDescriptor& figure, const ParamSet& params, const ExportOptions& o);

}  // namespace rope::exporting
