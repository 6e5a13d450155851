// Internal: model B (compare_to) in a figure that does not draw it itself. The figure is built once
// per model, in two halves of its picture (side by side, or A above B), each under a caption that
// names its model; the two builds share their ranges and colour scales (plot/axis_pins.hpp), so one
// colour means one value in both halves.
#pragma once

#include <optional>

#include "figures/registry.hpp"

namespace rope::figures::detail {

// Model B of `params` (compare_to names a preset), or none when unset or when B does not hold.
std::optional<ParamSet> model_b(const ParamSet& params);

// A's name ("llama-3-8b", or "this model" for parameters set by hand) or, with `b`, model B's (its
// preset, or the config.json's folder) as A's parameters name it.
std::string model_label(const ParamSet& a, bool b = false);
// A's name when something names it (its preset, or the config.json's or model folder's name); "" for
// parameters set by hand.
std::string named_model(const ParamSet& a);

// A's and B's tables as one, in long form: a first column `model` (a, then b); a column only one
// model has is left empty in the other's rows.
DataTable long_form(const DataTable& a, const DataTable& b);

// The table of a figure that draws B itself: `fill(table, data)` writes one model's rows; with B (`b`
// not null), A's and B's in long form as above.
template <typename Data, typename Fill>
DataTable table_of_models(const Data& a, const Data* b, Fill fill) {
    DataTable t;
    fill(t, a);
    if (!b) return t;
    DataTable tb;
    fill(tb, *b);
    return long_form(t, tb);
}

// Whether the two pictures' pair axes read i ÷ pairs: the figure has one and A and B have other pair counts.
bool pair_fraction_axis(const FigureDescriptor& figure, const ParamSet& a, const ParamSet& b);

// Where the two pictures go in a width x height figure: side by side or A above B, whichever holds
// the figure's main plots (or a lesson step's focus) at their legible sizes in both halves, else the
// one whose halves are nearer the figure's own shape. When neither holds them, only A is drawn (both
// false), and its caption says that a larger panel shows B.
struct ComparedSplit {
    float title = 0;    // the figure's title band at the top (0 when the style draws no titles)
    float caption = 0;  // each half's caption line ("A: llama-2-7b") above its picture
    bool side_by_side = true;
    bool both = true;
    plot::Rect a, b;    // each picture, below its caption (b empty when only A is drawn)
};
ComparedSplit compared_split(const FigureDescriptor& figure, const ParamSet& a, const ParamSet& b, const plot::Style& style,
                             float width, float height);

// Model B when `figure` shows it as a second picture for these parameters (B is set and holds, and
// the figure does not draw B itself); none otherwise.
std::optional<ParamSet> second_picture_model(const FigureDescriptor& figure, const ParamSet& params);

// The figure for A and B, two pictures composed as above. `single` builds one model's picture.
using SingleBuild = FigureResult (*)(const FigureRequest&, const ParamSet&, FigureCache&);
FigureResult build_compared(const FigureRequest& request, const ParamSet& a, const ParamSet& b, FigureCache& cache,
                            SingleBuild single);

}  // namespace rope::figures::detail
