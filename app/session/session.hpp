// Sessions: the parameters (the table's keys) and the view (maximised panel, theme, presentation
// mode, lesson step, animation) as JSON, or read back from a PNG the app exported. Loading
// validates everything like --set and never modifies the file.
#pragma once

#include <stdexcept>
#include <string>

#include "io/png_writer.hpp"
#include "rope/params.hpp"

namespace rope::session {

struct ViewState {
    int maximized = -1;         // panel index (0 = panel 1, see figures/registry.hpp), or -1
    int page = 0;               // page of panels (figures::pages())
    std::string theme = "dark"; // a name of plot::kThemeNames
    bool presentation = false;
    int lesson_step = -1;       // -1: no lesson open
    bool playing = false;
    // Less motion (the View section's box, the browser's setting, --reduced-motion): Play does not
    // start by itself (a session's `playing` is not resumed). Opening a file can turn it on, not off.
    bool reduced_motion = false;
    double speed = 10;          // animation, tokens per second (0.5 .. 10000)
    std::string lesson_file;    // the lesson file the lesson window steps through; "" the built-in lesson
};

inline constexpr double kMinSpeed = 0.5, kMaxSpeed = 10000;

struct Session {
    ParamSet params;
    ViewState view;
};

// One line naming the file and what is wrong.
class SessionError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Reads a session JSON file, or a PNG exported by the app (its text chunks), on top of `base`.
Session load_session(const std::string& path, const Session& base = {});
Session parse_session_json(const std::string& text, const std::string& name, const Session& base = {});
std::string session_json(const Session& s);
// The "parameters" object of a session (JSON text): every key, or with `unlike` only those whose
// value differs from it (a lesson step's: the keys that differ from the defaults).
std::string parameters_json(const ParamSet& params, const ParamSet* unlike = nullptr);
// Writes atomically (temporary file and rename). Throws io::IoError.
void save_session(const std::string& path, const Session& s);

// What an opened or dropped file is, by its content: a lesson file is a JSON object with "steps", a
// config.json one without "parameters" (the key a session file must have); a PNG, a session or a
// file that does not parse is opened as a session, whose loader names what is wrong.
enum class FileKind { session, config, lesson };
FileKind file_kind(const std::string& path);

// $XDG_STATE_HOME/rope-explorer/last-session.json (default ~/.local/state/...).
std::string last_session_path();
// Creates the folder last_session_path() is in (mkdir -p, owner only); what cannot be made is left
// for the write into it to report.
void make_state_folder();

}  // namespace rope::session
