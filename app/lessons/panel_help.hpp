// What each panel shows, in words: its section of docs/user-guide.md, compiled in. The app's F1 over
// a panel and the user guide read the same text, so the two cannot say different things.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rope::lessons {

struct PanelHelp {
    std::string heading;  // "2. Angle heatmap"
    std::string text;     // its paragraphs as plain text (no Markdown), separated by blank lines
};

// The section of the figure named `figure_name` ("heatmap"); an empty heading where there is none.
PanelHelp panel_help(std::string_view figure_name);

// The figures docs/user-guide.md has a section for, in its order (tests).
std::vector<std::string> panel_help_names();

}  // namespace rope::lessons
