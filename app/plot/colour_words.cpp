#include "plot/colour_words.hpp"

#include <array>
#include <cmath>

namespace rope::plot {

namespace {

double to_linear(double srgb) { return srgb <= 0.04045 ? srgb / 12.92 : std::pow((srgb + 0.055) / 1.055, 2.4); }

bool hue_within(const ColourWord& w, double hue) {
    return w.hue_from <= w.hue_to ? hue >= w.hue_from && hue < w.hue_to : hue >= w.hue_from || hue < w.hue_to;
}

bool covers(const ColourWord& w, const Lch& c) {
    if (c.lightness < w.lightness_from || c.lightness >= w.lightness_to) return false;
    if (w.neutral) return c.chroma < kNeutralChroma;
    return c.chroma >= kNeutralChroma && hue_within(w, c.hue);
}

// Colour words the namer never chooses (it says violet, pink, teal) and words that compare colours
// rather than name one: a text using them speaks of a colour too.
constexpr std::array<std::string_view, 10> kOtherTerms = {"purple", "magenta", "cyan", "gold", "darkest",
                                                          "lightest", "darker", "lighter", "brightest", "palest"};

}  // namespace

Lch to_lch(Color c) {
    // sRGB -> linear -> OKLab (Björn Ottosson's published matrices), then polar
    const double r = to_linear(c.r), g = to_linear(c.g), b = to_linear(c.b);
    const double l = std::cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
    const double m = std::cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
    const double s = std::cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
    const double L = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s;
    const double A = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s;
    const double B = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s;
    double hue = std::atan2(B, A) * 180.0 / kPi;
    if (hue < 0) hue += 360;
    return {L, std::hypot(A, B), hue};
}

// Hue boundaries in OKLCh: pure red sits at 29 degrees, orange (#FFA500) at 71, yellow at 110,
// green at 142, cyan at 195, blue at 264; a dark orange reads as brown and a dark yellow as olive.
const std::vector<ColourWord>& colour_words() {
    static const std::vector<ColourWord> words = {
        {"black", true, 0, 360, 0, 0.25},
        {"grey", true, 0, 360, 0.25, 0.9},
        {"white", true, 0, 360, 0.9, 1.01},
        {"red", false, 350, 40, 0, 1.01},
        {"brown", false, 40, 85, 0, 0.5},
        {"orange", false, 40, 85, 0.5, 1.01},
        {"olive", false, 85, 125, 0, 0.6},
        {"yellow", false, 85, 125, 0.6, 1.01},
        {"dark green", false, 125, 175, 0, 0.45},
        {"green", false, 125, 175, 0.45, 1.01},
        {"teal", false, 175, 205, 0, 1.01},
        {"dark blue", false, 205, 275, 0, 0.45},
        {"blue", false, 205, 275, 0.45, 0.8},
        {"light blue", false, 205, 275, 0.8, 1.01},
        {"dark violet", false, 275, 320, 0, 0.45},
        {"violet", false, 275, 320, 0.45, 1.01},
        {"plum", false, 320, 350, 0, 0.6},
        {"pink", false, 320, 350, 0.6, 1.01},
    };
    return words;
}

std::string_view colour_word(Color c) {
    const Lch lch = to_lch(c);
    for (const ColourWord& w : colour_words())
        if (covers(w, lch)) return w.word;
    return "grey";  // not reached: the words cover every lightness and hue
}

bool word_covers(std::string_view word, Color c) {
    const Lch lch = to_lch(c);
    for (const ColourWord& w : colour_words())
        if (w.word == word && covers(w, lch)) return true;
    return false;
}

bool is_colour_term(std::string_view word) {
    for (std::string_view t : kOtherTerms)
        if (word == t) return true;
    for (const ColourWord& w : colour_words()) {
        const std::size_t space = w.word.rfind(' ');
        if (word == w.word || word == w.word.substr(space == std::string_view::npos ? 0 : space + 1)) return true;
    }
    return false;
}

}  // namespace rope::plot
