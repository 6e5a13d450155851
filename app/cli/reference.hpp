// The reference, from the program's own tables: the window's flags, the keys, the compute tables,
// export's options, the file formats, the figures and their plots, the parameters. The manual page
// (man_page.hpp, roff) and docs/reference.md (Markdown, `rope-explorer-man --markdown`) are two
// renderings of the same sections, so neither can drift from --help or from the other.
#pragma once

#include <string>
#include <vector>

namespace rope::cli {

struct ReferenceItem {
    std::string tag;   // a flag, key, table, figure or parameter, as typed
    std::string text;  // plain text
};
// A lead paragraph (plain text but `code`, in backticks), then items, or text kept line for line.
struct ReferenceBlock {
    std::string lead;
    std::vector<ReferenceItem> items;
    std::string verbatim;
};
struct ReferenceSection {
    std::string title;  // "COMPUTE TABLES"
    std::vector<ReferenceBlock> blocks;
};

std::vector<ReferenceSection> reference_sections();

// docs/reference.md: the sections in Markdown, under a heading that says where they come from.
std::string reference_markdown();

}  // namespace rope::cli
