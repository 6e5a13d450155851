// The config.json files opened lately, newest first: the preset picker lists them above the presets.
// Kept across runs in $XDG_STATE_HOME/rope-explorer/recent-configs.json (beside last-session.json).
#pragma once

#include <string>
#include <vector>

namespace rope::session {

inline constexpr std::size_t kRecentConfigs = 5;

// The list as last kept (read from the file once per run; a missing or unreadable file is an
// empty list). Paths are absolute; files gone since are left out.
const std::vector<std::string>& recent_configs();
// `path` (a config.json just opened) goes to the top; the list is written at once. A state folder
// that cannot be written costs only the list, never the open.
void remember_config(const std::string& path);

std::string recent_configs_path();
// Whether a listed file is still a file (moved or deleted since: not listed).
bool still_there(const std::string& path);

}  // namespace rope::session
