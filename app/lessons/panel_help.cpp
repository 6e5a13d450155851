#include "lessons/panel_help.hpp"

#include <map>
#include <sstream>

#include "asset_sources.hpp"

namespace rope::lessons {

namespace {

// docs/panels.md's sections: "## N. Title (`name`)", then paragraphs. Markdown is read as far as the
// file uses it: backticks dropped, a paragraph's lines joined.
struct HelpSections {
    std::vector<std::string> names;
    std::map<std::string, PanelHelp, std::less<>> by_name;
};

std::string plain_help_line(const std::string& line) {
    std::string out;
    for (const char c : line)
        if (c != '`') out += c;
    return out;
}

HelpSections parse_help_sections(std::string_view file) {
    HelpSections s;
    std::istringstream in{std::string(file)};
    PanelHelp* current = nullptr;
    bool paragraph_open = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("## ", 0) == 0) {
            const std::size_t open = line.rfind("(`"), close = line.rfind("`)");
            current = nullptr;
            if (open == std::string::npos || close == std::string::npos || close < open) continue;
            const std::string name = line.substr(open + 2, close - open - 2);
            s.names.push_back(name);
            current = &s.by_name[name];
            current->heading = line.substr(3, open - 3 - (open > 3 && line[open - 1] == ' ' ? 1 : 0));
            paragraph_open = false;
            continue;
        }
        if (!current) continue;
        if (line.empty()) {
            paragraph_open = false;
            continue;
        }
        if (!current->text.empty()) current->text += paragraph_open ? " " : "\n\n";
        current->text += plain_help_line(line);
        paragraph_open = true;
    }
    return s;
}

const HelpSections& help_sections() {
    static const HelpSections s = parse_help_sections(kAsset_panels_md);
    return s;
}

}  // namespace

PanelHelp panel_help(std::string_view figure_name) {
    const auto& by_name = help_sections().by_name;
    const auto at = by_name.find(figure_name);
    return at == by_name.end() ? PanelHelp{} : at->second;
}

std::vector<std::string> panel_help_names() { return help_sections().names; }

}  // namespace rope::lessons
