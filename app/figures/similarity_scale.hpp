// The colour scale of a map of cosine similarities (the patch maps, the video's frames).
#pragma once

#include "plot/axis_pins.hpp"
#include "plot/display_list.hpp"

namespace rope::figures {

// Similarities below 0 take the diverging map on [-1, 1]. When every patch scores above 0 (q = k,
// the default, keeps most of the score in the slow pairs), [-1, 1] would paint every map one dark
// red: the sequential map then runs from the lowest similarity, rounded down to a 1/2/5 step, to 1,
// and the bar says so. In an animation the lowest similarity is that of every frame
// (plot/axis_pins.hpp, under `pin_name`): one map and one range for the run, so neither the bars
// nor the patches jump.
struct SimilarityScale {
    plot::ColormapId map = plot::ColormapId::diverging;
    double lo = -1, hi = 1;
};

SimilarityScale similarity_scale(double lowest, plot::AxisPins* pins, const char* pin_name);

}  // namespace rope::figures
