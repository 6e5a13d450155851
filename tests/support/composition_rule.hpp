// The composition rule every picture is held to, read from its display list (not from pixels): a
// lesson step's focus plots are drawn, no plot is below its minimum legible size, no text is cut with
// "…", the largest empty block of background is under 12% of the picture, and a clean export names no
// interaction ("click", "drag", "hover", "maximise"). Exports also keep all their text legible
// when a blog column shows them 700 px wide.
#pragma once

#include <string>
#include <vector>

#include "figures/registry.hpp"

namespace rope::test {

struct CompositionInput {
    const figures::FigureDescriptor* figure = nullptr;
    const figures::FigureResult* result = nullptr;
    const plot::Style* style = nullptr;   // what it was built with (scale, focus)
    const plot::TextMeasure* measure = nullptr;
    bool clean = false;          // an export with --clean: no interaction hints
    float min_text_px = 0;       // no text smaller, tick labels included (exports: 12 x width / 700)
};

// The largest rectangle of the picture that nothing is drawn on (text, lines, filled shapes, images,
// the inside of a plot), as a share of the whole picture.
float largest_empty_share(const figures::FigureResult& result, const plot::TextMeasure& measure);
// That rectangle, in pixels (to mark it on a picture while working on a layout).
plot::Rect largest_empty_rect(const figures::FigureResult& result, const plot::TextMeasure& measure);

// Every way the picture breaks the rule, one line each ("" parts left out): empty when it passes.
std::vector<std::string> composition_problems(const CompositionInput& in);

inline constexpr float kLargestEmptyShare = 0.12f;

}  // namespace rope::test
