// The short forms of the figures' titles and axis labels: where a text is wider than its room, the
// plot uses the longest of its short forms that fits instead of cutting it with "…". One table for
// every figure, so a label is shortened the same way wherever it appears.
#pragma once

#include <string>
#include <vector>

namespace rope::plot {

// `text`'s shorter forms, longest first: its declared ones (the table in short_forms.cpp), then the
// ones that follow from its shape (an aside "(...)" left out, a clause after ": " or " · " left
// out). Empty when it has none.
std::vector<std::string> short_forms(const std::string& text);

}  // namespace rope::plot
