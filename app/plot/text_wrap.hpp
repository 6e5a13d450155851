// Word wrap for the plot layer and the app's windows alike: lines broken only at spaces and at the
// text's own line breaks, never inside a word (so never inside a number such as "0.11957").
#pragma once

#include <string>
#include <vector>

#include "plot/display_list.hpp"

namespace rope::plot {

// `text` at type `size` in lines no wider than `width`, filled greedily; a word wider than `width`
// stays whole on a line of its own. Each line of the text (at '\n') starts a new line.
std::vector<std::string> wrap_words(const TextMeasure& measure, const std::string& text, float size, float width);

}  // namespace rope::plot
