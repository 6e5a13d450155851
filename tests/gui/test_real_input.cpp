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
#include <filesystem>
#include <nlohmann/json.hpp>
#include <memory>
#include <thread>
#include <string>
#include <utility>
#include <vector>

#include "io/png_writer.hpp"
#include "lessons/lessons.hpp"
#include "support/app_window.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/x_server.hpp"

using rope::test::AppWindow;
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
    // the window; then the app started at 1280x720 with `app_args` (shell words), its window focused
    // and settled.
    std::unique_ptr<AppWindow> fresh_picture_then_start(const XServer& x, std::vector<std::string> fresh_args,
                                                        const std::string& app_args) const {
        xdotool(x, {"mousemove", "1910", "1070"});  // no hover readouts
        std::vector<std::string> command = {ROPE_EXPLORER_BINARY, "--size", "1280x720"};
        command.insert(command.end(), fresh_args.begin(), fresh_args.end());
        command.insert(command.end(), {"--screenshot", path("fresh.png"), "--quit"});
        const ProcessResult fresh = run_process(command, "", {x.env(), "XDG_STATE_HOME=" + path("fresh-state")});
        EXPECT_EQ(fresh.exit_code, 0) << fresh.err;
        return std::make_unique<AppWindow>(x, ROPE_EXPLORER_BINARY, dir_, "--fresh --size 1280x720 " + app_args, std::vector<std::string>{state_env()});
    }

    // One run in the folder `lane` (its state and log): start at position 3, send the keys `gap`
    // seconds apart (0: one xdotool call, its own 12 ms between keys), Ctrl+Q as xdotool sends it
    // (Ctrl goes up before Q). Returns "" if every key counted and the app quit with 0 within a
    // second; else what went wrong.
    std::string run_once(const XServer& x, double gap, const std::string& lane) const {
        const std::string state = lane + "/state";
        run_process({"/bin/rm", "-rf", state});
        AppWindow app(x, ROPE_EXPLORER_BINARY, lane, "--fresh --set position=3 --size 800x600", {"XDG_STATE_HOME=" + state});
        if (!app.started()) return "no window or no settled state: " + app.log();
        // Right x5, Shift+Right, Up, ], Shift+Left, Shift+Right: position 3 + 5 + 10 - 10 + 10 = 18
        const std::vector<std::string> keys = {"Right", "Right", "Right", "Right", "Right", "shift+Right",
                                               "Up", "bracketright", "shift+Left", "shift+Right"};
        if (gap == 0) {
            std::vector<std::string> args = {"key"};
            args.insert(args.end(), keys.begin(), keys.end());
            args.push_back("ctrl+q");
            app.send(args);
        } else {
            // each key, then xdotool's own pause of `gap` seconds: the pace a person presses them at
            for (const std::string& k : keys) app.send({"key", k, "sleep", std::to_string(gap)});
            app.send({"key", "ctrl+q"});
        }
        const auto sent = std::chrono::steady_clock::now();
        const int code = app.wait_exit();
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
        if (code != 0) return "exit " + std::to_string(code) + " (" + app.log() + ")";
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
    AppWindow app(x, ROPE_EXPLORER_BINARY, dir_, "--fresh --size 1280x720", {state_env(), "XDG_PICTURES_DIR=" + path("shots")});
    ASSERT_TRUE(app.started()) << app.log();
    // F12 writes a new PNG once the figures are complete (through a temporary renamed into place:
    // whole once it has its name) and reports its path; wait for it and name a copy after the step
    std::string last_status;
    auto press_and_shoot = [&](const std::string& key, const std::string& name) {
        app.send({"key", key});
        app.send({"key", "F12"});
        const auto saved = app.wait_for("the screenshot of " + name, [&](const nlohmann::json& r) {
            const std::string status = r["status"].get<std::string>();
            return status.rfind("Saved screenshot ", 0) == 0 && status != last_status;
        });
        last_status = saved["status"].get<std::string>();
        const std::string shot = saved["status"].get<std::string>().substr(std::string("Saved screenshot ").size());
        // copied, not moved: the app names each new picture after the ones in the folder (two in
        // one second differ by a suffix), so a moved one would let the next reuse its name and status
        std::error_code copied;
        std::filesystem::copy_file(shot, path(name), copied);
        ASSERT_FALSE(copied) << shot << ": " << copied.message();
    };
    for (int n = 1; n <= steps; ++n) {
        // a step that asks first: Page Down shows the question, the next one the step (as --lesson N starts)
        if (rope::lessons::builtin_lesson().steps[static_cast<std::size_t>(n - 1)].question) app.send({"key", "Next"});
        press_and_shoot("Next", "walk-" + std::to_string(n) + ".png");
    }
    for (int n = steps - 1; n >= 1; --n) press_and_shoot("Prior", "back-" + std::to_string(n) + ".png");
    EXPECT_EQ(app.quit(), 0) << app.log();
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
    const auto app = fresh_picture_then_start(x, {"--lesson", "4"}, "");
    ASSERT_TRUE(app->started()) << app->log();
    // (step 2 asks first: one Page Down more to reveal it); each key, then xdotool's 80 ms pause
    for (const char* key : {"Next", "Next", "Next", "Next", "Next", "Next", "Tab", "shift+Tab", "Prior"}) app->send({"key", key, "sleep", "0.08"});
    app->wait_for_input_taken();  // every picture built and shown; the app is idle
    grab_window(x, app->id(), path("window.png"));
    EXPECT_EQ(app->quit(), 0) << app->log();
    EXPECT_EQ(compare_pixels(path("fresh.png"), path("window.png")), "") << "the window against a fresh start at step 4";
}

// One key, then nothing: the pictures it asked for arrive while the app is going idle, are drawn
// between frames, and still reach the window (a frame follows to show them).
TEST_F(RealInput, OneKeyThenIdleReachesTheWindow) {
    XServer x;
    ASSERT_TRUE(x.ready());
    const auto app = fresh_picture_then_start(x, {"--fresh", "--set", "base=100000"}, "--set base=10000");
    ASSERT_TRUE(app->started()) << app->log();  // idle at the start
    // base+ (a tenth of a decade) ten times in one burst: 10^4 -> 10^5, every panel rebuilt
    std::vector<std::string> keys = {"key"};
    for (int i = 0; i < 10; ++i) keys.push_back("bracketright");
    app->send(keys);
    app->wait_for("base 10^5", [](const nlohmann::json& r) { return std::abs(r["session"]["parameters"].value("base", 0.0) - 1e5) < 1e-6; });
    grab_window(x, app->id(), path("window.png"));
    EXPECT_EQ(app->quit(), 0) << app->log();
    EXPECT_EQ(compare_pixels(path("fresh.png"), path("window.png")), "") << "the window against a fresh start at base 10^5";
}

// A tooltip that rests over a picture is left alone frame after frame (nothing under it is drawn
// again); when the pointer leaves, the picture under it comes back whole: the window then shows,
// pixel for pixel, what a fresh start shows.
TEST_F(RealInput, ATooltipOverAPictureLeavesNoTraceWhenItGoes) {
    XServer x;
    ASSERT_TRUE(x.ready());
    const auto app = fresh_picture_then_start(x, {"--fresh"}, "");
    ASSERT_TRUE(app->started()) << app->log();
    // the angle heatmap's Export button (its tooltip falls over the heatmap), then away again
    app->send({"mousemove", "--window", app->id(), "1143", "59"});
    app->wait_for_input_taken();
    grab_window(x, app->id(), path("tooltip.png"));
    app->send({"mousemove", "1910", "1070"});
    app->wait_for_input_taken();
    grab_window(x, app->id(), path("after.png"));
    EXPECT_EQ(app->quit(), 0) << app->log();
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
        auto app = std::make_unique<AppWindow>(x, ROPE_EXPLORER_BINARY, dir_, "--fresh --set position=3 --size 1280x720",
                                               std::vector<std::string>{state_env(), "XDG_PICTURES_DIR=" + path("pictures")});
        if (app->started()) {
            app->send({"mousemove", "--window", app->id(), "560", "250"});  // over panel 1, the rotated vectors
            app->wait_for_input_taken();
        }
        return app;
    };
    const std::string gif = path("pictures/rope-vectors-position-0-4095.gif");  // the name follows the range
    {
        const auto app = start();
        ASSERT_TRUE(app->started()) << app->log();
        app->send({"key", "ctrl+r"});
        app->wait_for_input_taken();  // the recording's dialog
        app->send({"key", "Return"});
        app->send({"key", "Right", "Right"});  // while it records
        app->wait_for("the GIF saved, and position 5", [](const nlohmann::json& r) {
            return r["status"].get<std::string>().rfind("Saved ", 0) == 0 && r["session"]["parameters"].value("position", 0) == 5;
        });
        ASSERT_EQ(app->quit(), 0) << app->log();
        struct stat st {};
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
        const auto app = start();
        ASSERT_TRUE(app->started()) << app->log();
        app->send({"key", "ctrl+r", "Return", "ctrl+r"});
        app->wait_for("the recording cancelled", [](const nlohmann::json& r) {
            return r["status"].get<std::string>().rfind("Recording cancelled", 0) == 0;
        });
        ASSERT_EQ(app->quit(), 0) << app->log();
        EXPECT_EQ(run_process({"/bin/ls", "-A", path("pictures")}).out, "") << "a stopped recording leaves nothing, temporaries included";
    }
}

// Ctrl+= and Ctrl+- make the whole UI a step larger and smaller (its type re-rasterised at the new
// size), Ctrl+0 back to 100%; the zoom is kept in the desktop's settings for the next start.
TEST_F(RealInput, CtrlEqualsAndMinusScaleTheUiAndTheNextStartKeepsIt) {
    XServer x;
    ASSERT_TRUE(x.ready());
    const std::string settings = path("state") + "/rope-explorer/settings.json";
    auto zoom_is = [](double z) {
        return [z](const nlohmann::json& r) { return std::abs(r["ui_zoom"].get<double>() - z) < 1e-4 && std::abs(r["ui_scale"].get<double>() - z) < 1e-4; };
    };
    {
        AppWindow app(x, ROPE_EXPLORER_BINARY, dir_, "--size 1280x720", {state_env()});
        ASSERT_TRUE(app.started()) << app.log();
        EXPECT_DOUBLE_EQ(app.state()["ui_scale"].get<double>(), 1.0);
        app.send({"key", "ctrl+equal"});
        app.wait_for("the UI at 110%", zoom_is(1.1));
        app.send({"key", "ctrl+equal"});
        const nlohmann::json larger = app.wait_for("the UI at 125%", zoom_is(1.25));
        EXPECT_NE(larger["status"].get<std::string>().find("UI scale 125%"), std::string::npos) << larger["status"];
        app.send({"key", "ctrl+minus"});
        app.wait_for("the UI at 110% again", zoom_is(1.1));
        EXPECT_EQ(nlohmann::json::parse(rope::test::read_file(settings))["ui_zoom"].get<double>(), 1.1) << "kept at once";
        EXPECT_EQ(app.quit(), 0) << app.log();
    }
    {
        AppWindow app(x, ROPE_EXPLORER_BINARY, dir_, "--size 1280x720", {state_env()});
        ASSERT_TRUE(app.started()) << app.log();
        app.wait_for("the kept zoom", zoom_is(1.1));
        for (int k = 0; k < 20; ++k) app.send({"key", "ctrl+minus"});
        app.wait_for("the smallest UI, 50%", zoom_is(0.5));
        app.send({"key", "ctrl+0"});
        app.wait_for("the UI at 100%", zoom_is(1.0));
        EXPECT_EQ(app.quit(), 0) << app.log();
    }
    EXPECT_EQ(nlohmann::json::parse(rope::test::read_file(settings))["ui_zoom"].get<double>(), 1.0);
}
