// Internal: which of a figure's sub-plots get room at the figure's size. A figure of several plots
// keeps its own arrangement while every plot has room for its caption, ticks, axis labels and a
// readable plotting area; below that it shows fewer, larger plots (the most important first) and
// says on a line at the bottom how many are left out and how to see them.
#pragma once

#include <string>
#include <vector>

#include "figures/build_context.hpp"

namespace rope::figures::detail {

struct SubplotFit {
    std::vector<plot::Rect> cells;  // one per sub-plot, in the figure's order; zero-size when left out
    int shown = 0;
    bool shows(int i) const { return cells[static_cast<std::size_t>(i)].width() > 0; }
    bool all() const { return shown == static_cast<int>(cells.size()); }
};

// `own`: the figure's arrangement of its first own.size() plots (in the order of its descriptors).
// If one of its cells is below its plot's minimum (PlotDescriptor::min_size and key_width, scaled),
// the plots that fit, in the order of their ranks (the ones the style's `focus` names first), go into
// the grid of `area` that makes them largest (one column if any needs the full width), and the note
// is drawn along the bottom of `area`. `min_px`: one smallest cell for every plot instead (pixels,
// scaled), where the figure works it out from its size.
SubplotFit fit_plots(BuildContext& ctx, plot::Rect area, const std::vector<plot::Rect>& own, plot::Vec2 min_px = {0, 0});

// A short explanation centred in `area`, wrapped to its width, on a box that keeps it off the data:
// what a deliberately simple view (one pair, d = 2) shows and why.
void centred_note(BuildContext& ctx, plot::Rect area, const std::string& text);

}  // namespace rope::figures::detail
