// Internal: which of a figure's sub-plots get room at the figure's size. A figure of several plots
// keeps its own arrangement while every plot has room for its caption, ticks, axis labels and a
// readable plotting area; below that it shows fewer, larger plots (the most important first) and
// says on a line at the bottom how many are left out and how to see them.
#pragma once

#include <string>
#include <vector>

#include "figures/build_context.hpp"

namespace rope::figures::detail {

// The smallest cell a sub-plot may have at this style's scale.
plot::Vec2 min_subplot_cell(const plot::Style& st);

struct SubplotFit {
    std::vector<plot::Rect> cells;  // one per sub-plot, in the figure's order; zero-size when left out
    int shown = 0;
    bool shows(int i) const { return cells[static_cast<std::size_t>(i)].width() > 0; }
    bool all() const { return shown == static_cast<int>(cells.size()); }
};

// `own`: the figure's arrangement of all its sub-plots. If one of its cells is below the minimum,
// the first sub-plots of `priority` that fit go into the grid of `area` that makes them largest (the
// ones the style's `focus` names first), and the note is drawn along the bottom of `area`.
// `min`: the smallest cell (pixels, scaled) if not min_subplot_cell's (views without axes need less).
// `max_cols`: at most this many plots side by side (0: any; 1 for plots that need the full width).
// `wider`: per plot, how much wider than `min` its cell must be (pixels at scale 1: a colour bar).
SubplotFit fit_subplots(BuildContext& ctx, plot::Rect area, const std::vector<plot::Rect>& own, const std::vector<int>& priority,
                        plot::Vec2 min = {0, 0}, int max_cols = 0, const std::vector<float>& wider = {});

// A short explanation centred in `area`, wrapped to its width, on a box that keeps it off the data:
// what a deliberately simple view (one pair, d = 2) shows and why.
void centred_note(BuildContext& ctx, plot::Rect area, const std::string& text);

}  // namespace rope::figures::detail
