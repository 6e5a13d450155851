#include "support/app_window.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "support/process.hpp"

namespace rope::test {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double steady_seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

bool exited(int pid) {
    int status = 0;
    return pid <= 0 || waitpid(pid, &status, WNOHANG) != 0;
}

}  // namespace

AppWindow::AppWindow(const XServer& x, const std::string& binary, const std::string& folder, const std::string& args,
                     const std::vector<std::string>& env, const std::string& cwd)
    : x_(x), folder_(folder) {
    std::vector<std::string> all_env = {x.env()};
    all_env.insert(all_env.end(), env.begin(), env.end());
    std::remove((folder_ + "/window-state.json").c_str());
    pid_ = spawn_background({"/bin/sh", "-c", (cwd.empty() ? "" : "cd " + cwd + " && ") + "exec " + binary + " --state-file " + folder_ + "/window-state.json " + args + " 2> " + folder_ + "/app.log"},
                            all_env);
    id_ = focus_app_window(x);
    if (id_.empty()) {
        ADD_FAILURE() << "no window came: " << log();
        return;
    }
    first_ = wait_for("the first settled state (every picture drawn)", [](const nlohmann::json&) { return true; });
}

AppWindow::~AppWindow() {
    if (pid_ > 0 && !exited(pid_)) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
}

bool AppWindow::running() const { return !exited(pid_); }

nlohmann::json AppWindow::state() const {
    // written whole (a temporary renamed into place): any text read is a complete report
    const nlohmann::json j = nlohmann::json::parse(read_file(folder_ + "/window-state.json"), nullptr, false);
    return j.is_discarded() ? nlohmann::json() : j;
}

nlohmann::json AppWindow::wait_for(const std::string& what, const std::function<bool(const nlohmann::json&)>& holds, double seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    nlohmann::json seen;
    for (;;) {
        seen = state();
        if (!seen.is_null() && seen["settled_at"].get<double>() > last_input_ && holds(seen)) return seen;
        if (exited(pid_)) {
            ADD_FAILURE() << "the app exited while the test waited for " << what << "; its log: " << log();
            pid_ = -1;
            return seen;
        }
        if (seconds_since(t0) > seconds) {
            ADD_FAILURE() << "waited " << seconds << " s for " << what << "; the last state the app reported: " << seen.dump();
            return seen;
        }
        usleep(20000);  // how often it looks, not how long it waits
    }
}

void AppWindow::send(const std::vector<std::string>& args) {
    xdotool(x_, args);
    last_input_ = steady_seconds();
}

nlohmann::json AppWindow::wait_for_input_taken(double seconds) {
    return wait_for("the input taken and drawn", [](const nlohmann::json&) { return true; }, seconds);
}

int AppWindow::quit(double seconds) {
    press_ctrl_q(x_);
    return wait_exit(seconds);
}

int AppWindow::wait_exit(double seconds) {
    const int code = rope::test::wait_exit(pid_, seconds);
    pid_ = -1;
    return code;
}

std::string AppWindow::log() const { return read_file(folder_ + "/app.log"); }

bool wait_for_picture(const XServer& x, const std::string& window, const std::string& out, const std::string& what,
                      const std::function<bool(const std::string&, std::string&)>& holds, double seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    std::string said;
    for (;;) {
        const ProcessResult grab = run_process({"/usr/bin/import", "-window", window, "png24:" + out}, "", {x.env()});
        if (grab.exit_code == 0 && holds(out, said)) return true;
        if (grab.exit_code != 0) said = "import: " + grab.err;
        if (seconds_since(t0) > seconds) {
            ADD_FAILURE() << "waited " << seconds << " s for " << what << "; the last picture: " << said;
            return false;
        }
        usleep(100000);
    }
}

}  // namespace rope::test
