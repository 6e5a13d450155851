// --state-file FILE: the window's state written out each time the app settles (no input waiting,
// every shown panel holding its final picture, nothing left to draw), so a script or a test that
// drives the real window with X input waits for what its input should produce, never for a fixed
// time: a slow or busy machine only makes it wait longer.
#pragma once

#include <cstdint>
#include <string>

namespace rope::gui {

class App;

class StateReport {
public:
    explicit StateReport(std::string path) : path_(std::move(path)) {}
    bool wanted() const { return !path_.empty(); }
    // The app is about to sleep, or sleeps on, with no input waiting, as of `since_steady` (the
    // machine's steady clock, std::chrono::steady_clock, in seconds: the same clock in every
    // process): if it has settled, FILE is rewritten whole (a temporary renamed into place) as
    //   {"reports": N, "settled_at": T, "frames": F, "status": "...", "ui_scale": S, "ui_zoom": Z, "session": {...}}
    // N counting the reports so far (one every 50 ms while it sleeps), T = since_steady (input sent
    // before T has been taken and drawn), F the frames drawn, the session as a session file holds it.
    void settled(const App& app, double since_steady);

private:
    std::string path_;
    std::uint64_t reports_ = 0;
};

// The steady clock's seconds, as settled_at reports them.
double steady_seconds();

}  // namespace rope::gui
