// Colours a lesson's text names, each the colour a figure draws one of its series in. The figure
// draws the series with named_colour(id, theme) and a lesson writes {colour:NAME}; the lesson window
// shows the word for that colour in the current theme (plot/colour_words.hpp) after a swatch of it,
// so "the yellow arrow" on the dark theme is "the orange arrow" on the light one, and both are true.
#pragma once

#include <string_view>
#include <vector>

#include "plot/style.hpp"

namespace rope::figures {

enum class NamedColour {
    turned_vector,                    // vectors: the arrow R(m)x, turned to position m
    sweep_longer_than_context,        // sweep: a wavelength longer than the context (100x)
    sweep_shorter_than_context,       // sweep: a wavelength shorter than the context (1/100)
    sweep_wavelength_equals_context,  // sweep: the curve where the wavelength equals the context
    sweep_lowest_base,                // sweep: the decay curve a decade below the current base
    sweep_highest_base,               // sweep: the decay curve a decade above the current base
};

struct NamedColourSpec {
    NamedColour id;
    std::string_view name;    // as lessons write it: {colour:turned_vector}
    std::string_view figure;  // the figure that draws it
    plot::Color (*colour)(const plot::Theme&);
};

// Every named colour, in the order of NamedColour.
const std::vector<NamedColourSpec>& named_colours();
plot::Color named_colour(NamedColour id, const plot::Theme& theme);
const NamedColourSpec* find_named_colour(std::string_view name);

}  // namespace rope::figures
