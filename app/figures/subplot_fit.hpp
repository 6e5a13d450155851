// Internal: the layout engine of figures with several plots. Each plot's descriptor states its role,
// the shape it reads best at, its minimum legible size and its rank; a lesson step's focus and the
// plots a figure must keep (the model's own map) are never left out. The engine solves for rows of
// cells in the figure's rectangle that keep every plot above its minimum and give the spare room to
// focus plots and the figure's main plots, reflowing (three abreast, two rows, one column ...) before
// it leaves anything out; only when even the minimums cannot fit does it show fewer plots, with a
// line at the bottom that says how to see the rest. Solved once per build (builds are cached by
// size and state), not per frame.
#pragma once

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "figures/build_context.hpp"

namespace rope::figures::detail {

struct SubplotFit {
    std::vector<plot::Rect> cells;  // one per sub-plot, in the figure's order; zero-size when left out
    // per sub-plot: it draws its colour key beside it (PlotDescriptor::key_width); of a row of plots
    // that share one key (PlotDescriptor::shares_key) only the rightmost does
    std::vector<bool> draws_key;
    int shown = 0;
    // A plot by its tag (the figure's enum of plots, FigureDescriptor::plots in its order), never by
    // a number that a reordered list would silently point elsewhere.
    template <class Plot>
    const plot::Rect& cell(Plot p) const { return cells[index_of(p)]; }
    template <class Plot>
    bool shows(Plot p) const { return cell(p).width() > 0; }
    template <class Plot>
    bool draws_key_of(Plot p) const { return draws_key[index_of(p)]; }
    bool all() const { return shown == static_cast<int>(cells.size()); }

private:
    template <class Plot>
    static std::size_t index_of(Plot p) {
        static_assert(std::is_enum_v<Plot>, "name a plot by its tag, not its number");
        return static_cast<std::size_t>(p);
    }
};

struct FitOptions {
    std::vector<int> keep;    // plots never left out besides the focus (the model's own map)
    std::vector<int> absent;  // plots this state does not draw: no room is kept for them
    // a plot whose need depends on the data (a strip's rows) states it here (pixels, scaled)
    std::vector<std::pair<int, plot::Vec2>> min_of;
    // a plot whose best height follows from its width in this state (a map of rows x cols square
    // patches), instead of its descriptor's aspect (pixels to pixels)
    std::vector<std::pair<int, std::function<float(float)>>> height_for_width;
};

// `own`: the figure's arrangement of its first own.size() plots (in the order of its descriptors),
// used as it is when every cell holds its plot's minimum (PlotDescriptor::min_size and key_width,
// scaled) and no lesson step's focus asks for room; else the engine arranges them in `area`.
SubplotFit fit_plots(BuildContext& ctx, plot::Rect area, const std::vector<plot::Rect>& own, const FitOptions& options = {});

// A short explanation centred in `area`, wrapped to its width, on a box that keeps it off the data:
// what a deliberately simple view (one pair, d = 2) shows and why.
// fills: the note is the whole picture (a NoPE layer's panels): its box is a card over most of the area.
void centred_note(BuildContext& ctx, plot::Rect area, const std::string& text, bool fills = false);
// The first of `texts` (longest first) that fits `area` at the tick labels' size, centred as above;
// the last when none does.
void centred_note(BuildContext& ctx, plot::Rect area, const std::vector<std::string>& texts);

}  // namespace rope::figures::detail
