// An X server of a test's own (Xvfb) and xdotool against it: real X events for GUI tests.
// xvfb-run's authorisation cookie keeps xdotool out, so tests that type start their own server.
#pragma once

#include <string>
#include <vector>

#include "support/process.hpp"

namespace rope::test {

class XServer {
public:
    XServer();  // picks a free display number and waits for the socket
    ~XServer();
    XServer(const XServer&) = delete;
    XServer& operator=(const XServer&) = delete;
    std::string env() const { return "DISPLAY=:" + std::to_string(display_); }
    bool ready() const { return ready_; }

private:
    int display_ = 0;
    int pid_ = 0;
    bool ready_ = false;
};

// xdotool with the given arguments on that server.
ProcessResult xdotool(const XServer& x, std::vector<std::string> args);

// Waits for the app's window and focuses it; returns its id ("" if it never appeared).
std::string focus_app_window(const XServer& x);

// Ctrl+Q as a person types it: Ctrl held while Q goes down and up.
void press_ctrl_q(const XServer& x);

}  // namespace rope::test
