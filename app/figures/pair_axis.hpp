// Internal: the pair axis of a figure. Pair index i on its own; beside a model of another pair count
// (model B with other head dims or rotated dims), i ÷ pairs for both pictures, the exponent's share in
// θᵢ = base^(−i/pairs): a row at one height of either picture is then the same place in the spectrum
// (0 the fastest pair, 0.5 the middle one), where pair 40 would be the slow end of one head and the
// middle of the other.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>

#include "figures/figures.hpp"
#include "plot/plot.hpp"

namespace rope::figures::detail {

inline constexpr const char* kPairFractionLabel = "pair i ÷ pairs (0 = fastest)";

// [lo, hi] in pair-index coordinates either way (pair i at i): only the ticks and the label change,
// so readouts, markers and cells stay where they are.
inline plot::AxisSetup pair_axis(const FigureRequest& request, int pairs, std::string label, double lo, double hi) {
    plot::AxisSetup a{std::move(label), lo, hi};
    a.moves_in_animation = true;  // pair i of this dim: the rows fill the plot at any dim
    if (!request.pair_fraction_axis || pairs < 2) {
        a.integer_ticks = true;
        return a;
    }
    a.label = kPairFractionLabel;
    for (const double f : {0.0, 0.25, 0.5, 0.75}) {
        char text[16];
        std::snprintf(text, sizeof text, "%g", f);
        a.ticks.push_back({f * pairs, text, true});
    }
    return a;
}

}  // namespace rope::figures::detail
