#include "figures/named_colours.hpp"

#include "plot/colormap.hpp"

namespace rope::figures {

namespace {
// The sweep's colour bar spans log10(wavelength / context) from -3 (colormap 0) to 3 (colormap 1):
// its colours two decades either side of 1 stand for "longer" and "shorter" (the ends themselves
// are not drawn at every base and context: pair 0's wavelength 2 pi is never 1/1000 of 4096).
constexpr double kTwoDecadesShorter = 1.0 / 6, kTwoDecadesLonger = 5.0 / 6;
}  // namespace

const std::vector<NamedColourSpec>& named_colours() {
    static const std::vector<NamedColourSpec> specs = {
        {NamedColour::turned_vector, "turned_vector", "vectors", [](const plot::Theme& t) { return t.accent; }},
        {NamedColour::sweep_longer_than_context, "sweep_longer_than_context", "sweep",
         [](const plot::Theme&) { return plot::colormap_color(plot::ColormapId::diverging, kTwoDecadesLonger); }},
        {NamedColour::sweep_shorter_than_context, "sweep_shorter_than_context", "sweep",
         [](const plot::Theme&) { return plot::colormap_color(plot::ColormapId::diverging, kTwoDecadesShorter); }},
        // drawn on the heatmap, not on the background: the same near-black in every theme
        {NamedColour::sweep_wavelength_equals_context, "sweep_wavelength_equals_context", "sweep",
         [](const plot::Theme&) { return plot::Color{0.05f, 0.05f, 0.05f, 1}; }},
        {NamedColour::sweep_lowest_base, "sweep_lowest_base", "sweep", [](const plot::Theme& t) { return plot::ramp_color(t, 0.0); }},
        {NamedColour::sweep_highest_base, "sweep_highest_base", "sweep", [](const plot::Theme& t) { return plot::ramp_color(t, 1.0); }},
    };
    return specs;
}

plot::Color named_colour(NamedColour id, const plot::Theme& theme) {
    return named_colours()[static_cast<std::size_t>(id)].colour(theme);
}

const NamedColourSpec* find_named_colour(std::string_view name) {
    for (const NamedColourSpec& s : named_colours())
        if (s.name == name) return &s;
    return nullptr;
}

}  // namespace rope::figures
