// The app's keys as the shortcut overlay (? or F1), the man page and docs/reference.md list them: one
// table, no window needed to read it.
#pragma once

#include <string>
#include <vector>

namespace rope::gui {

struct ShortcutHelp {
    std::string keys;
    std::string what;
};
// Every shortcut, the panel keys from the figure registry.
std::vector<ShortcutHelp> shortcut_list();

}  // namespace rope::gui
