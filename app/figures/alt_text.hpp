// What a figure shows, in one or two sentences for screen readers: the figure, the model and the
// numbers the picture shows ("Angle heatmap of Llama 3 8B: 64 pairs over positions 0-8191; ...").
// Files carry it (PNG Description, SVG <desc>, PDF Subject, HTML aria-label), `export --alt`
// prints it, the export dialog shows it. Each figure's descriptor names its describer.
#pragma once

#include <string>

#include "figures/figure_list.hpp"
#include "figures/figures.hpp"
#include "figures/registry.hpp"
#include "rope/params.hpp"

namespace rope::figures {

// "<title> of <model>: <what the figure's describer says>." The result is what was built for the
// file or the panel (its plots' ranges and images).
std::string alt_text(const FigureDescriptor& figure, const ParamSet& params, const FigureResult& result);

// The rotary fraction partial_vs_proportional shows for a model's: its own, or Gemma 4's quarter
// when the whole head turns (the two layouts are then the same). The figure and its describer use it.
double shown_rotary_fraction(int dim, double rotary_fraction);

// The figures' describers (registry.hpp: FigureDescriptor::describe): the words after the colon.
#define ROPE_DESCRIBER(name) std::string describe_##name(const ParamSet& params, const FigureResult& result);
ROPE_FIGURE_LIST(ROPE_DESCRIBER)
#undef ROPE_DESCRIBER

}  // namespace rope::figures
