// The app's real window on a test's own X server, started with --state-file: a test sends real X
// input through it and then waits for the state that input should produce (the session as the app
// holds it, or a picture's change), up to a generous deadline, never for a fixed time. A slow or
// busy machine (the sanitizer build runs several times slower) only makes the wait longer; when the
// deadline passes, the test fails with what it saw.
//
// A report counts only if the app settled after the last input sent through send(): its
// settled_at (the steady clock, the same in both processes) is later than the moment xdotool
// returned, when the X server had queued the events for the window.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/x_server.hpp"

namespace rope::test {

// How long a test waits for what it expects before it fails: far past what any machine needs, so
// that only a real fault reaches it.
inline constexpr double kPatienceSeconds = 120;

class AppWindow {
public:
    // Starts `binary` `args` (shell words, already quoted) on `x` in the folder `cwd` ("": the test's),
    // with its standard error in `folder`/app.log and its state reports in `folder`/window-state.json,
    // `env` added; waits for its window, focuses it and waits for the first settled state (every
    // picture drawn).
    AppWindow(const XServer& x, const std::string& binary, const std::string& folder, const std::string& args,
              const std::vector<std::string>& env = {}, const std::string& cwd = "");
    ~AppWindow();  // a window still open is killed
    AppWindow(const AppWindow&) = delete;
    AppWindow& operator=(const AppWindow&) = delete;

    bool started() const { return !id_.empty() && !first_.is_null(); }
    bool running() const;
    const std::string& id() const { return id_; }
    // The last state report: {"reports", "settled_at", "frames", "status", "session"} (null before the first).
    nlohmann::json state() const;
    // xdotool with `args` against the window's X server: real X input.
    void send(const std::vector<std::string>& args);
    // Waits until a state report made after the last input satisfies `holds` and returns it; after the deadline (or if the app
    // exits first), a test failure naming `what` and the last report seen, and that report.
    nlohmann::json wait_for(const std::string& what, const std::function<bool(const nlohmann::json& report)>& holds,
                            double seconds = kPatienceSeconds);
    // Waits until the app has taken the last input and drawn what it asked for.
    nlohmann::json wait_for_input_taken(double seconds = kPatienceSeconds);
    // Ctrl+Q as a person types it; the exit code once it exits (-1: not within the deadline).
    int quit(double seconds = kPatienceSeconds);
    // The exit code once it exits (-1: not within the deadline, then it is killed).
    int wait_exit(double seconds = kPatienceSeconds);
    std::string log() const;

private:
    const XServer& x_;
    std::string folder_;
    int pid_ = -1;
    std::string id_;
    nlohmann::json first_;
    double last_input_ = 0;  // steady seconds
};

// Takes what the X server shows of `window` as a PNG at `out` until `holds(out)` is true; after the
// deadline, a test failure naming `what` and what `holds` said last (its second argument).
bool wait_for_picture(const XServer& x, const std::string& window, const std::string& out, const std::string& what,
                      const std::function<bool(const std::string& png, std::string& said)>& holds, double seconds = kPatienceSeconds);

}  // namespace rope::test
