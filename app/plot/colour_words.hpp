// The word people use for a colour, chosen from its lightness and hue in OKLab/OKLCh, so that a text
// naming a colour names the colour actually drawn ("orange" on the light theme's accent, "yellow" on
// the dark theme's). One table of words, each with the colours it covers; the namer and the checks
// (tests/gui/test_lesson_words.cpp) both read it.
#pragma once

#include <string_view>
#include <vector>

#include "plot/display_list.hpp"

namespace rope::plot {

// A colour in OKLCh: lightness 0 (black) .. 1 (white), chroma (0 = grey), hue in degrees [0, 360).
struct Lch {
    double lightness = 0, chroma = 0, hue = 0;
};
Lch to_lch(Color c);

// Below this chroma a colour reads as black, grey or white whatever its hue.
inline constexpr double kNeutralChroma = 0.04;

struct ColourWord {
    std::string_view word;
    bool neutral = false;          // a grey: the hue does not matter, the chroma is below kNeutralChroma
    double hue_from = 0, hue_to = 360;           // hue range in degrees; from > to wraps through 0
    double lightness_from = 0, lightness_to = 1;  // [from, to)
};

// Every colour word, the first that covers a colour naming it.
const std::vector<ColourWord>& colour_words();
// The word for `c` ("orange", "light blue", "grey").
std::string_view colour_word(Color c);
// Whether `word` (one of colour_words()) covers `c`.
bool word_covers(std::string_view word, Color c);
// Whether a lower-case word of running text speaks of a colour: a word of colour_words() (or its
// last part: "blue" of "light blue"), another colour's name ("purple") or a relative one ("darkest").
bool is_colour_term(std::string_view lower_case_word);

}  // namespace rope::plot
