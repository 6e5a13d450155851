// A figure's plots, each declared once: its stable name (export --plot, a lesson step's `focus`,
// the tests), its titles, what it is for in the figure, the room it needs to be legible, the shape it
// reads best in, what its axes show and the words a lesson's text uses for it. The figure draws
// each plot with one function; fitting (which plots get room), --plot, the Export dialog's list,
// lesson checks and the tests all read these descriptors.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "plot/display_list.hpp"

namespace rope::figures {

// What a plot's axis shows, for linked views: a pair index, a token position, or neither.
// pair: pair indices (the hover readout names the pair); index: other whole numbers (patch rows and
// columns), labelled at whole numbers only; position: token positions.
enum class AxisRole : std::uint8_t { other, pair, position, index };

// What a plot is for in its figure: the layout gives room in this spirit.
enum class PlotRole : std::uint8_t {
    main,        // the figure's subject
    supporting,  // a second view beside the main one, of the same kind
    strip,       // a band across the figure: wide and short (a row of marks, a strip of layers)
    table,       // text in rows and columns
};

struct PlotDescriptor {
    std::string_view name;         // stable: "fan", "sweep_cosine"
    std::string_view title;        // for people: "One token's rotation in every pair"
    std::string_view short_title;  // where room is short: "every pair"
    PlotRole role = PlotRole::supporting;
    AxisRole x_role = AxisRole::other, y_role = AxisRole::other;
    // Shown first, lower first, when not all of a figure's plots fit (a lesson step's focus goes
    // before all of them).
    int rank = 0;
    // The smallest legible cell at scale 1, its caption, ticks and axis labels included, and what a
    // colour bar beside it adds to the width; below these the figure shows fewer, larger plots.
    plot::Vec2 min_size{240, 200};
    float key_width = 0;
    bool full_width = false;   // never side by side with another plot (long curves over positions)
    float aspect = 1.5f;       // the width / height it reads best at
    // Words a lesson's text uses for this plot ("the fan", "the strip"): a step that says them
    // speaks of this plot.
    std::vector<std::string_view> lesson_words;
    // It keeps its shape (a map of square patches, a square matrix): a cell larger than `aspect`
    // allows is left partly empty, so the layout gives such room to other plots first.
    bool keeps_shape = false;
    // Its colour key is the one its figure's other such plots show (one colour scale for all): in a
    // row of them only the rightmost draws it, so the row needs its width once.
    bool shares_key = false;
};

}  // namespace rope::figures
