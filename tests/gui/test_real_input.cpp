// Real X input into the real window (own Xvfb, xdotool): quick key sequences at a presenter's and a
// fast typist's pace lose no key and no modifier, and Ctrl+Q always quits within a second; Page
// Down through the lesson and back gives, at each step, the same pixels as a fresh start there;
// what the X server shows of the window is the frame the app drew.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <dirent.h>
#include <nlohmann/json.hpp>
#include <memory>
#include <set>
#include <thread>
#include <string>
#include <utility>
#include <vector>

#include "io/png_writer.hpp"
#include "lessons/lessons.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/x_server.hpp"

using rope::test::ProcessResult;
using rope::test::run_process;
using rope::test::XServer;
using rope::test::xdotool;

namespace {

constexpr int kRuns = 20;
// The runs go in lanes side by side, each lane with an X server of its own: a run is mostly the
// pauses between keys, so four lanes take a quarter of the time and load the machine no more.
constexpr int kLanes = 4;
#ifdef ROPE_SANITIZED
constexpr double kQuitSeconds = 15;  // LeakSanitizer's check at exit takes its time
#else
constexpr double kQuitSeconds = 1;
#endif

class RealInput : public rope::test::TempDirTest {
protected:
    std::string state_env() const { return "XDG_STATE_HOME=" + path("state"); }

    // What a fresh start with `fresh_args` shows at 1280x720 (into fresh.png), the pointer away from
    // the window; then the app started at 1280x720 with `app_args` (a shell word list), its window
    // focused. Returns the app's pid and window ("" if none came).
    std::pair<int, std::string> fresh_picture_then_start(const XServer& x, std::vector<std::string> fresh_args,
                                                         const std::string& app_args) const {
        xdotool(x, {"mousemove", "1910", "1070"});  // no hover readouts
        std::vector<std::string> command = {ROPE_EXPLORER_BINARY, "--size", "1280x720"};
        command.insert(command.end(), fresh_args.begin(), fresh_args.end());
        command.insert(command.end(), {"--screenshot", path("fresh.png"), "--quit"});
        const ProcessResult fresh = run_process(command, "", {x.env(), "XDG_STATE_HOME=" + path("fresh-state")});
        EXPECT_EQ(fresh.exit_code, 0) << fresh.err;
        const int app = rope::test::spawn_background(
            {"/bin/sh", "-c", std::string("exec " ROPE_EXPLORER_BINARY " --fresh --size 1280x720 ") + app_args + " 2> " + path("app.log")},
            {x.env(), state_env()});
        return {app, rope::test::focus_app_window(x)};
    }

    // One run in the folder `lane` (its state and log): start at position 3, send the keys `gap`
    // seconds apart (0: one xdotool call, its own 12 ms between keys), Ctrl+Q as xdotool sends it
    // (Ctrl goes up before Q). Returns "" if every key counted and the app quit with 0 within a
    // second; else what went wrong.
    std::string run_once(const XServer& x, double gap, const std::string& lane) const {
        const std::string state = lane + "/state", log = lane + "/app.log";
        run_process({"/bin/rm", "-rf", state});
        const int app = rope::test::spawn_background(
            {"/bin/sh", "-c", std::string("exec " ROPE_EXPLORER_BINARY " --fresh --set position=3 --size 800x600 2> ") + log},
            {x.env(), "XDG_STATE_HOME=" + state});
        if (rope::test::focus_app_window(x).empty()) {
            rope::test::wait_exit(app, 0);
            return "no window";
        }
        // Right x5, Shift+Right, Up, ], Shift+Left, Shift+Right: position 3 + 5 + 10 - 10 + 10 = 18
        const std::vector<std::string> keys = {"Right", "Right", "Right", "Right", "Right", "shift+Right",
                                               "Up", "bracketright", "shift+Left", "shift+Right"};
        if (gap == 0) {
            std::vector<std::string> args = {"key"};
            args.insert(args.end(), keys.begin(), keys.end());
            args.push_back("ctrl+q");
            xdotool(x, args);
        } else {
            for (const std::string& k : keys) {
                xdotool(x, {"key", k});
                usleep(static_cast<useconds_t>(gap * 1e6));
            }
            xdotool(x, {"key", "ctrl+q"});
        }
        const auto sent = std::chrono::steady_clock::now();
        const int code = rope::test::wait_exit(app, kQuitSeconds + 10);
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
        if (code != 0) return "exit " + std::to_string(code) + " (" + rope::test::read_file(log) + ")";
        if (took > kQuitSeconds) return "Ctrl+Q took " + std::to_string(took) + " s";
        const auto saved = nlohmann::json::parse(rope::test::read_file(state + "/rope-explorer/last-session.json"), nullptr, false);
        if (saved.is_discarded()) return "no last session";
        const auto& p = saved["parameters"];
        std::string wrong;
        if (p["position"] != 18) wrong += " position " + p["position"].dump() + " (want 18)";
        if (p["pair"] != 1) wrong += " pair " + p["pair"].dump() + " (want 1)";
        if (std::abs(p["base"].get<double>() - 10000 * std::pow(10.0, 0.1)) > 1e-6) wrong += " base " + p["base"].dump();
        return wrong;
    }

    void runs(double gap) {
        std::vector<std::unique_ptr<XServer>> servers;  // started one after another: each picks a free display
        for (int lane = 0; lane < kLanes; ++lane) {
            servers.push_back(std::make_unique<XServer>());
            ASSERT_TRUE(servers.back()->ready());
            mkdir(path("lane-" + std::to_string(lane)).c_str(), 0700);
        }
        std::vector<std::string> outcome(kRuns);
        std::vector<std::thread> lanes;
        for (int lane = 0; lane < kLanes; ++lane)
            lanes.emplace_back([&, lane] {
                for (int i = lane; i < kRuns; i += kLanes) outcome[static_cast<std::size_t>(i)] = run_once(*servers[static_cast<std::size_t>(lane)], gap, path("lane-" + std::to_string(lane)));
            });
        for (std::thread& t : lanes) t.join();
        int ok = 0;
        std::vector<std::string> failures;
        for (int i = 0; i < kRuns; ++i) {
            const std::string& r = outcome[static_cast<std::size_t>(i)];
            if (r.empty()) ++ok;
            else failures.push_back("run " + std::to_string(i + 1) + ":" + r);
        }
        std::printf("gap %.3f s: %d of %d runs lost nothing and quit within %g s\n", gap, ok, kRuns, kQuitSeconds);
        EXPECT_EQ(ok, kRuns);
        for (const std::string& f : failures) ADD_FAILURE() << f;
    }
};

std::vector<std::string> pngs_in(const std::string& dir) {
    std::vector<std::string> out;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            if (n.size() > 4 && n.substr(n.size() - 4) == ".png") out.push_back(n);
        }
        closedir(d);
    }
    return out;
}

// "" if the two PNGs have the same size and RGB pixels; else what differs.
std::string compare_pixels(const std::string& a, const std::string& b) {
    const auto pa = rope::io::read_png(a), pb = rope::io::read_png(b);
    if (pa.width != pb.width || pa.height != pb.height) return "sizes differ";
    std::size_t differ = 0;
    for (std::size_t i = 0; i + 3 < pa.rgba.size(); i += 4)
        differ += pa.rgba[i] != pb.rgba[i] || pa.rgba[i + 1] != pb.rgba[i + 1] || pa.rgba[i + 2] != pb.rgba[i + 2];
    return differ ? std::to_string(differ) + " pixels differ" : std::string();
}

// What the X server shows of `window`, as a PNG at `out`.
void grab_window(const XServer& x, const std::string& window, const std::string& out) {
    const ProcessResult grab = run_process({"/usr/bin/import", "-window", window, "png24:" + out}, "", {x.env()});
    ASSERT_EQ(grab.exit_code, 0) << grab.err;
}

}  // namespace

TEST_F(RealInput, KeysSentAPresentersClickApart) { runs(0.150); }
TEST_F(RealInput, KeysSentQuickly) { runs(0.050); }
TEST_F(RealInput, KeysSentAtXdotoolsOwnPace) { runs(0); }

// Page Down through every lesson step and Page Up back to the first in one window (real keys, F12
// for each picture): every picture is the one a fresh start at that step shows, pixel for pixel.
TEST_F(RealInput, PageDownWalkShowsWhatAFreshStartShows) {
    XServer x;
    ASSERT_TRUE(x.ready());
    xdotool(x, {"mousemove", "1910", "1070"});  // the pointer away from the window: no hover readouts
    const int steps = 17;
    for (int n = 1; n <= steps; ++n) {
        const ProcessResult r = run_process({ROPE_EXPLORER_BINARY, "--size", "1280x720", "--lesson", std::to_string(n), "--screenshot",
                                             path("fresh-" + std::to_string(n) + ".png"), "--quit"},
                                            "", {x.env(), "XDG_STATE_HOME=" + path("fresh-state")});
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    mkdir(path("shots").c_str(), 0700);
    const int app = rope::test::spawn_background(
        {"/bin/sh", "-c", std::string("exec " ROPE_EXPLORER_BINARY " --fresh --size 1280x720 2> ") + path("app.log")},
        {x.env(), state_env(), "XDG_PICTURES_DIR=" + path("shots")});
    ASSERT_FALSE(rope::test::focus_app_window(x).empty());
    // F12 writes a new PNG once the figures are complete; wait for it and name it after the step
    auto press_and_shoot = [&](const std::string& key, const std::string& name) {
        const std::size_t before = pngs_in(path("shots")).size();
        xdotool(x, {"key", key});
        xdotool(x, {"key", "F12"});
        for (int i = 0; i < 300 && pngs_in(path("shots")).size() == before; ++i) usleep(20000);  // written whole: renamed into place
        std::set<std::string> names;
        for (const auto& f : pngs_in(path("shots"))) names.insert(f);
        for (const auto& f : names)
            if (f.rfind("rope-explorer-", 0) == 0) std::rename(path("shots/" + f).c_str(), path(name).c_str());
    };
    for (int n = 1; n <= steps; ++n) {
        // a step that asks first: Page Down shows the question, the next one the step (as --lesson N starts)
        if (rope::lessons::builtin_lesson().steps[static_cast<std::size_t>(n - 1)].question) xdotool(x, {"key", "Next"});
        press_and_shoot("Next", "walk-" + std::to_string(n) + ".png");
    }
    for (int n = steps - 1; n >= 1; --n) press_and_shoot("Prior", "back-" + std::to_string(n) + ".png");
    rope::test::press_ctrl_q(x);
    EXPECT_EQ(rope::test::wait_exit(app, 20), 0) << rope::test::read_file(path("app.log"));
    auto same = [&](const std::string& a, const std::string& b) { return compare_pixels(path(a), path(b)); };
    for (int n = 1; n <= steps; ++n) {
        EXPECT_EQ(same("walk-" + std::to_string(n) + ".png", "fresh-" + std::to_string(n) + ".png"), "") << "Page Down to step " << n;
        if (n < steps) {
            EXPECT_EQ(same("back-" + std::to_string(n) + ".png", "fresh-" + std::to_string(n) + ".png"), "") << "Page Up to step " << n;
        }
    }
}

// A frame is copied to the window only where it changed. After lesson steps and page switches
// (each frame copying only its own pieces), what the X server shows of the window is, pixel for
// pixel, what a fresh start at that lesson step draws.
TEST_F(RealInput, TheWindowShowsTheWholeFrameAfterPartialCopies) {
    XServer x;
    ASSERT_TRUE(x.ready());
    const auto [app, window] = fresh_picture_then_start(x, {"--lesson", "4"}, "");
    ASSERT_FALSE(window.empty());
    // (step 2 asks first: one Page Down more to reveal it)
    for (const char* key : {"Next", "Next", "Next", "Next", "Next", "Next", "Tab", "shift+Tab", "Prior"}) {
        xdotool(x, {"key", key});
        usleep(80000);
    }
    usleep(2000000);  // every picture built and shown; the app is idle
    grab_window(x, window, path("window.png"));
    rope::test::press_ctrl_q(x);
    EXPECT_EQ(rope::test::wait_exit(app, 20), 0) << rope::test::read_file(path("app.log"));
    EXPECT_EQ(compare_pixels(path("fresh.png"), path("window.png")), "") << "the window against a fresh start at step 4";
}

// One key, then nothing: the pictures it asked for arrive while the app is going idle, are drawn
// between frames, and still reach the window (a frame follows to show them).
TEST_F(RealInput, OneKeyThenIdleReachesTheWindow) {
    XServer x;
    ASSERT_TRUE(x.ready());
    const auto [app, window] = fresh_picture_then_start(x, {"--fresh", "--set", "base=100000"}, "--set base=10000");
    ASSERT_FALSE(window.empty());
    usleep(1500000);  // idle at the start
    // base+ (a tenth of a decade) ten times in one burst: 10^4 -> 10^5, every panel rebuilt
    std::vector<std::string> keys = {"key"};
    for (int i = 0; i < 10; ++i) keys.push_back("bracketright");
    xdotool(x, keys);
    usleep(2500000);
    grab_window(x, window, path("window.png"));
    rope::test::press_ctrl_q(x);
    EXPECT_EQ(rope::test::wait_exit(app, 20), 0) << rope::test::read_file(path("app.log"));
    EXPECT_EQ(compare_pixels(path("fresh.png"), path("window.png")), "") << "the window against a fresh start at base 10^5";
}

// A tooltip that rests over a picture is left alone frame after frame (nothing under it is drawn
// again); when the pointer leaves, the picture under it comes back whole: the window then shows,
// pixel for pixel, what a fresh start shows.
TEST_F(RealInput, ATooltipOverAPictureLeavesNoTraceWhenItGoes) {
    XServer x;
    ASSERT_TRUE(x.ready());
    const auto [app, window] = fresh_picture_then_start(x, {"--fresh"}, "");
    ASSERT_FALSE(window.empty());
    usleep(1500000);
    // the angle heatmap's Export button (its tooltip falls over the heatmap), then away again
    xdotool(x, {"mousemove", "--window", window, "1143", "59"});
    usleep(2000000);
    grab_window(x, window, path("tooltip.png"));
    xdotool(x, {"mousemove", "1910", "1070"});
    usleep(1500000);
    grab_window(x, window, path("after.png"));
    rope::test::press_ctrl_q(x);
    EXPECT_EQ(rope::test::wait_exit(app, 20), 0) << rope::test::read_file(path("app.log"));
    EXPECT_NE(compare_pixels(path("fresh.png"), path("tooltip.png")), "") << "the tooltip showed";
    EXPECT_EQ(compare_pixels(path("fresh.png"), path("after.png")), "") << "the window after the tooltip went";
}

// Record with real keys: Ctrl+R over the vectors panel and Enter write the GIF into the Pictures
// folder while Right keys still move the position; Ctrl+R, Enter, Ctrl+R sent at xdotool's own
// pace open, start and stop a recording, and nothing is written.
TEST_F(RealInput, RecordWithRealKeysWritesTheGifAndCtrlRStopsIt) {
    XServer x;
    ASSERT_TRUE(x.ready());
    run_process({"/bin/mkdir", "-p", path("pictures")});
    const auto start = [&] {
        run_process({"/bin/rm", "-rf", path("state")});
        const int app = rope::test::spawn_background(
            {"/bin/sh", "-c", std::string("exec " ROPE_EXPLORER_BINARY " --fresh --set position=3 --size 1280x720 2> ") + path("app.log")},
            {x.env(), state_env(), "XDG_PICTURES_DIR=" + path("pictures")});
        const std::string window = rope::test::focus_app_window(x);
        xdotool(x, {"mousemove", "--window", window, "560", "250"});  // over panel 1, the rotated vectors
        usleep(300000);
        return app;
    };
    const std::string gif = path("pictures/rope-vectors-position-0-4095.gif");  // the name follows the range
    {
        const int app = start();
        xdotool(x, {"key", "ctrl+r"});
        usleep(300000);
        xdotool(x, {"key", "Return"});
        xdotool(x, {"key", "Right", "Right"});  // while it records
        struct stat st {};
        for (int i = 0; i < 200 && stat(gif.c_str(), &st) != 0; ++i) usleep(100000);
        usleep(300000);
        rope::test::press_ctrl_q(x);
        ASSERT_EQ(rope::test::wait_exit(app, 20), 0) << rope::test::read_file(path("app.log"));
        ASSERT_EQ(stat(gif.c_str(), &st), 0) << "no GIF in the Pictures folder";
        EXPECT_EQ(rope::test::split_lines(run_process({"/usr/bin/identify", "-format", "%T\n", gif}).out).size(), 60u);
        const std::string info = run_process({"/usr/bin/convert", gif + "[0]", "-verbose", "info:"}).out;
        EXPECT_NE(info.find("animate=position=0:4095"), std::string::npos) << "position over its whole range (the context)";
        const auto saved = nlohmann::json::parse(rope::test::read_file(path("state/rope-explorer/last-session.json")), nullptr, false);
        ASSERT_FALSE(saved.is_discarded());
        EXPECT_EQ(saved["parameters"]["position"], 5) << "the Right keys sent while recording";
        run_process({"/bin/rm", "-f", gif});
    }
    {
        const int app = start();
        xdotool(x, {"key", "ctrl+r", "Return", "ctrl+r"});
        usleep(2000000);
        rope::test::press_ctrl_q(x);
        ASSERT_EQ(rope::test::wait_exit(app, 20), 0) << rope::test::read_file(path("app.log"));
        EXPECT_EQ(run_process({"/bin/ls", "-A", path("pictures")}).out, "") << "a stopped recording leaves nothing, temporaries included";
    }
}
