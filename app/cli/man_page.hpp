// The manual page rope-explorer(1), in roff, generated at build time (tools: rope-explorer-man) from
// the tables the program itself reads: the window's flags, the compute tables, the figures, the
// export options and file formats, and the parameter table. It cannot drift from --help.
#pragma once

#include <string>

namespace rope::cli {

// `date` is the page's date (the release's, so the page is the same on every build).
std::string man_page(const std::string& date);

// Text as roff prints it: backslashes and hyphens escaped, a line starting with . or ' guarded.
std::string roff_escape(const std::string& text);

}  // namespace rope::cli
