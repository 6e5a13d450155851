// The desktop's own settings, kept across runs in $XDG_STATE_HOME/rope-explorer/settings.json (beside
// last-session.json): what belongs to this machine and this person, not to a session (a session
// file opened elsewhere keeps that screen's settings). Now: the UI zoom (Ctrl+= / Ctrl+- / Ctrl+0).
#pragma once

#include <string>

namespace rope::session {

struct UiSettings {
    float ui_zoom = 1;  // 0.5 ... 3
    bool operator==(const UiSettings& o) const { return ui_zoom == o.ui_zoom; }
    bool operator!=(const UiSettings& o) const { return !(*this == o); }
};

// The settings as last kept: a missing or unreadable file, or a value out of range, gives the defaults.
UiSettings kept_ui_settings();
// Written at once (atomically). A state folder that cannot be written costs only the setting.
void keep_ui_settings(const UiSettings& settings);
std::string ui_settings_path();

}  // namespace rope::session
