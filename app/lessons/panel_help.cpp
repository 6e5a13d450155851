#include "lessons/panel_help.hpp"

#include <map>
#include <sstream>

#include "asset_sources.hpp"

namespace rope::lessons {

namespace {

// docs/user-guide.md's panel sections: "#### N. Title (`name`)" under its page's heading, then its
// picture (left out: the app shows the panel itself) and paragraphs, up to the next heading. Markdown
// is read as far as the file uses it: backticks and bold marks dropped, a link's words kept, a
// paragraph's lines joined.
struct HelpSections {
    std::vector<std::string> names;
    std::map<std::string, PanelHelp, std::less<>> by_name;
};

std::string plain_help_line(const std::string& line) {
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '`') continue;
        if (line.compare(i, 2, "**") == 0) {
            ++i;
            continue;
        }
        if (line[i] == ']' && i + 1 < line.size() && line[i + 1] == '(') {  // "[words](target)": the words
            const std::size_t close = line.find(')', i);
            if (close != std::string::npos) {
                i = close;
                continue;
            }
        }
        if (line[i] == '[' && line.find("](", i) != std::string::npos) continue;
        out += line[i];
    }
    return out;
}

bool picture_line(const std::string& line) { return line.rfind("![", 0) == 0 || line.rfind("*Picture:*", 0) == 0; }

HelpSections parse_help_sections(std::string_view file) {
    HelpSections s;
    std::istringstream in{std::string(file)};
    PanelHelp* current = nullptr;
    bool paragraph_open = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind('#', 0) == 0) {
            current = nullptr;
            const std::size_t open = line.rfind("(`"), close = line.rfind("`)");
            if (line.rfind("#### ", 0) != 0 || open == std::string::npos || close == std::string::npos || close < open) continue;
            const std::string name = line.substr(open + 2, close - open - 2);
            s.names.push_back(name);
            current = &s.by_name[name];
            current->heading = line.substr(5, open - 5 - (open > 5 && line[open - 1] == ' ' ? 1 : 0));
            paragraph_open = false;
            continue;
        }
        if (!current || picture_line(line)) continue;
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
    static const HelpSections s = parse_help_sections(kAsset_user_guide_md);
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
