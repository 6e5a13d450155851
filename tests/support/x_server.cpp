#include "support/x_server.hpp"

#include <signal.h>
#include <unistd.h>

#include <chrono>

namespace rope::test {

XServer::XServer() {
    for (display_ = 40 + getpid() % 400;; ++display_) {
        const std::string lock = "/tmp/.X" + std::to_string(display_) + "-lock";
        if (access(lock.c_str(), F_OK) != 0) break;
    }
    pid_ = spawn_background({"/usr/bin/Xvfb", ":" + std::to_string(display_), "-screen", "0", "1920x1080x24", "-nolisten",
                             "tcp", "-noreset"});
    const std::string socket = "/tmp/.X11-unix/X" + std::to_string(display_);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);  // a busy machine starts it slowly
    while (!ready_ && std::chrono::steady_clock::now() < until) {
        ready_ = access(socket.c_str(), F_OK) == 0;
        if (!ready_) usleep(50000);
    }
}

XServer::~XServer() {
    kill(pid_, SIGTERM);
    wait_exit(pid_, 5);
}

ProcessResult xdotool(const XServer& x, std::vector<std::string> args) {
    args.insert(args.begin(), "/usr/bin/xdotool");
    return run_process(args, "", {x.env()});
}

std::string focus_app_window(const XServer& x) {
    // Asked every 20 ms (xdotool's own `search --sync` asks every half second) for up to two minutes
    // (a sanitizer build on a busy machine starts slowly).
    std::vector<std::string> ids;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (ids.empty() && std::chrono::steady_clock::now() < until) {
        const ProcessResult found = xdotool(x, {"search", "--onlyvisible", "--name", "RoPE Explorer"});
        if (found.exit_code == 0) ids = split_lines(found.out);
        if (ids.empty()) usleep(20000);
    }
    if (ids.empty()) return "";
    xdotool(x, {"windowfocus", "--sync", ids[0]});
    return ids[0];
}

void press_ctrl_q(const XServer& x) {
    xdotool(x, {"keydown", "ctrl"});
    usleep(80000);
    xdotool(x, {"key", "q"});
    usleep(80000);
    xdotool(x, {"keyup", "ctrl"});
}

}  // namespace rope::test
