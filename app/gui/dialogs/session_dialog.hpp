// Sessions and configs in the window: the Save / Open / Config dialog (Ctrl+S, Ctrl+O, the Config
// button) and files dropped onto the window. The dialog reads or writes the file itself and asks for
// what it read as an action (opening a session or a config is one undo step); an unreadable file is
// said on the status line and changes nothing.
#pragma once

#include <string>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"

namespace rope::gui {

class SessionDialog {
public:
    using Kind = act::OpenFileDialog::Kind;
    // Opens the dialog: saving offers the last session's path, opening a config the current folder's.
    void open(const AppState& state, Kind kind);
    // Draws it while open; what was confirmed comes back as actions.
    void draw(const AppState& state, Actions& out);
    bool is_open() const { return open_; }
    const char* path() const { return path_; }

private:
    bool open_ = false;
    bool just_opened_ = false;
    Kind kind_ = Kind::save_session;
    char path_[1024] = {};
};

// The action that opens `path` as the Config button would (a config.json: any JSON object that is
// not a session) or as File > Open would (a session JSON, an exported PNG); or its error for the
// status line. Throws nothing.
void open_file(const AppState& state, const std::string& path, bool as_config, Actions& out);
// Writes the lesson to `path` (whole, or the file is left as it was); the outcome as actions. Throws nothing.
void save_lesson(const AppState& state, const std::string& path, Actions& out);
// A config.json as model B (compare_to its path), or its error for the status line. Throws nothing.
void open_config_as_b(const AppState& state, const std::string& path, Actions& out);
// A file dropped onto the window: a config.json or a session, by its content; a config.json dropped
// with Shift held (`as_b`) becomes model B.
void open_dropped_file(const AppState& state, const std::string& path, bool as_b, Actions& out);

}  // namespace rope::gui
