// Debian's Chromium, headless, driven through the DevTools protocol over --remote-debugging-pipe
// (JSON messages ended by a NUL byte on fds 3 and 4: no websocket needed): open a page, evaluate
// script, send real key, mouse and touch input, take screenshots, and see every request the page
// makes and every uncaught error. WebGL 2 through SwiftShader. No network: a network namespace of its
// own where the machine allows one (unshare -n), and in any case no host resolves and the proxy
// does not exist.
//
// The guard: a page test fails on any uncaught exception of the page (Runtime.exceptionThrown) and on
// any fatal report it prints (emscripten's "Aborted(...)", a RuntimeError, AddressSanitizer's
// report), also one that comes after the test's last step: when a Chromium is closed it first lets
// the page run for half a second (times web_patience()), noting what it does, then adds a failure
// to the running test for each such fault. Every page test opens its pages through this class.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rope::test {

class Chromium {
public:
    // A browser with a window (viewport) of width x height CSS pixels at device scale 1.
    Chromium(int width, int height, const std::string& profile_dir);
    ~Chromium();
    Chromium(const Chromium&) = delete;
    Chromium& operator=(const Chromium&) = delete;
    bool started() const { return session_.size() > 0; }

    // The viewport from now on: width x height CSS pixels at `device_pixel_ratio`; `mobile`: a phone or
    // a tablet (a mobile viewport, touch events and no mouse hover: what the page sees on one).
    void emulate(int width, int height, double device_pixel_ratio, bool mobile);
    // The system's prefers-reduced-motion as the page's media queries see it from now on.
    void prefer_reduced_motion(bool reduce);

    // Opens `url` and waits for its load event.
    void open(const std::string& url);
    // The value of a script expression (awaited if a promise); throws std::runtime_error on an exception.
    nlohmann::json evaluate(const std::string& expression);
    // Evaluates `expression` every 50 ms until it is true; the seconds it took, or -1 after `seconds`.
    double wait_for(const std::string& expression, double seconds);
    // The page's accessibility tree as a screen reader gets it (CDP Accessibility.getFullAXTree: its
    // nodes, each with role, name, value, properties and backendDOMNodeId).
    nlohmann::json accessibility_tree();
    // The keyboard's focus on the element behind a node of that tree (its backendDOMNodeId).
    void focus_node(int backend_node_id);
    // The viewport as PNG bytes.
    std::vector<unsigned char> screenshot();

    // Real input: DOM key names ("ArrowRight", "PageDown", "z" with modifiers 2 = Ctrl, 8 = Shift).
    void key(const std::string& key, int modifiers = 0);
    void mouse(const std::string& type, double x, double y, int buttons = 0);  // mousePressed/Released/Moved
    void drag(double x0, double y0, double x1, double y1, int steps);
    void wheel(double x, double y, double dy);
    // One finger touching (x, y) and lifting 60 ms later by the events' own times (a tap), however long the page takes.
    void tap(double x, double y);
    // One finger down at (x0, y0), moving to (x1, y1) in `steps` steps (20 ms apart), then lifted.
    void touch_drag(double x0, double y0, double x1, double y1, int steps);
    // One finger put down at (x, y) and held still there for `seconds`; touch_lift() lifts it.
    void touch_hold(double x, double y, double seconds);
    void touch_lift();
    // Text put into the focused field as a phone's on-screen keyboard (or an input method) puts it:
    // input events, no keys.
    void insert_text(const std::string& text);
    // Two fingers at (cx ± spread, cy) moving to (cx ± spread * factor, cy) in `steps` steps.
    void pinch(double cx, double cy, double spread, double factor, int steps);

    // The page's script and WebAssembly sampled for `seconds`: each function's own share of the
    // samples, largest first ("name share").
    std::vector<std::pair<std::string, double>> profile(double seconds);

    // Lets the page run for `seconds`, noting its events (exceptions, console) as they come.
    void let_run(double seconds);

    // Every URL the page asked for, and every uncaught exception's text.
    const std::vector<std::string>& requests() const { return requests_; }
    const std::vector<std::string>& exceptions() const { return exceptions_; }
    // The console's messages that report a fault: emscripten's abort, a RuntimeError, a sanitizer.
    const std::vector<std::string>& fatal_console() const { return fatal_console_; }
    // The console's messages (type: text).
    const std::vector<std::string>& console() const { return console_; }

private:
    nlohmann::json command(const std::string& method, const nlohmann::json& params = nlohmann::json::object(), bool page = true);
    void send(const nlohmann::json& message);
    nlohmann::json receive(int id);  // the reply to `id`; events seen on the way are kept
    void note_event(const nlohmann::json& event);
    std::string read_message();
    void guard();  // the guard (above), on closing

    int pid_ = -1;
    int to_browser_ = -1, from_browser_ = -1;
    int next_id_ = 1;
    std::string session_;
    std::string buffer_;
    bool loaded_ = false;
    std::vector<std::string> requests_, exceptions_, console_, fatal_console_;
};

}  // namespace rope::test
