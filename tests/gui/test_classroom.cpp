// The classroom features on the real window: real X key events from xdotool change the state and
// the picture, presentation mode has larger type, sessions round-trip to the same picture, corrupt
// session files are refused and left untouched, and the last session comes back on start.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "io/png_writer.hpp"
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

class Classroom : public rope::test::TempDirTest {
protected:
    std::string state_env(const std::string& name = "state") const { return "XDG_STATE_HOME=" + path(name); }

    // A screenshot through xvfb-run, with its own state folder.
    ProcessResult shot(std::vector<std::string> args, const std::string& out, const std::string& state = "state") {
        std::vector<std::string> argv = {"/usr/bin/xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", ROPE_EXPLORER_BINARY,
                                         "--size", "1280x720", "--screenshot", out, "--quit"};
        argv.insert(argv.end(), args.begin(), args.end());
        ProcessResult r = run_process(argv, "", {state_env(state)});
        if (r.exit_code != 0) std::fprintf(stderr, "screenshot exit %d: %s\n", r.exit_code, r.err.c_str());  // why, in the log
        return r;
    }
    std::map<std::string, std::string> chunks(const std::string& png) {
        const auto img = rope::io::read_png(png, false);
        return {img.text.begin(), img.text.end()};
    }
};

bool same_pixels(const std::string& a, const std::string& b) {
    return rope::io::read_png(a).rgba == rope::io::read_png(b).rgba;
}

// What the X server shows, as a PNG at `out`.
void grab_screen(const XServer& x, const std::string& out) {
    const ProcessResult grab = run_process({"/usr/bin/import", "-window", "root", out}, "", {x.env()});
    ASSERT_EQ(grab.exit_code, 0) << grab.err;
}

}  // namespace

TEST_F(Classroom, RealKeyPressesChangeTheStateAndThePicture) {
    XServer x;
    AppWindow app(x, ROPE_EXPLORER_BINARY, dir_, "--fresh --size 1280x720", {state_env()});
    ASSERT_TRUE(app.started()) << app.log();
    grab_screen(x, path("before.png"));
    // Right five times, Up twice, ] once, then presentation mode
    app.send({"key", "--delay", "60", "Right", "Right", "Right", "Right", "Right", "Up", "Up", "bracketright"});
    app.wait_for("position 5, pair 2 and base a step up", [](const nlohmann::json& r) {
        const auto& p = r["session"]["parameters"];
        return p.value("position", 0) == 5 && p.value("pair", 0) == 2 && p.value("base", 10000.0) > 10000;
    });
    grab_screen(x, path("after.png"));
    app.send({"key", "p"});
    app.wait_for("presentation mode", [](const nlohmann::json& r) { return r["session"]["view"]["presentation"] == true; });
    grab_screen(x, path("presenting.png"));
    EXPECT_EQ(app.quit(), 0) << app.log();

    EXPECT_FALSE(same_pixels(path("before.png"), path("after.png")));
    EXPECT_FALSE(same_pixels(path("after.png"), path("presenting.png")));
    const auto saved = nlohmann::json::parse(rope::test::read_file(path("state/rope-explorer/last-session.json")));
    EXPECT_EQ(saved["parameters"]["position"], 5);
    EXPECT_EQ(saved["parameters"]["pair"], 2);
    EXPECT_NEAR(saved["parameters"]["base"].get<double>(), 10000 * std::pow(10.0, 0.1), 1e-6);
    EXPECT_EQ(saved["view"]["presentation"], true);
}

// The q-k view takes a key of its own by a real drag (k = q until then), and a double-click gives q back.
TEST_F(Classroom, DraggingKChoosesTheKey) {
    XServer x;
    AppWindow app(x, ROPE_EXPLORER_BINARY, dir_, "--fresh --lesson 2 --size 1920x1080", {state_env()});
    ASSERT_TRUE(app.started()) << app.log();
    app.send({"windowmove", "--sync", app.id(), "0", "0"});
    app.wait_for_input_taken();
    // lesson 2 on 1920x1080 (the step's panel has the wider column and the taller row): the q-k
    // view's centre is near (1071, 498); drag inside it, at a person's pace
    app.send({"mousemove", "--sync", "1059", "509"});
    app.send({"mousedown", "1"});
    for (int i = 1; i <= 8; ++i)
        app.send({"mousemove", "--sync", std::to_string(1059 - 3 * i), std::to_string(509 - 4 * i), "sleep", "0.04"});
    app.send({"mouseup", "1"});
    app.wait_for("a key vector of its own", [](const nlohmann::json& r) { return r["session"]["parameters"].contains("key_vector"); });
    EXPECT_EQ(app.quit(), 0) << app.log();
    const auto saved = nlohmann::json::parse(rope::test::read_file(path("state/rope-explorer/last-session.json")));
    ASSERT_TRUE(saved["parameters"].contains("key_vector")) << saved.dump();
    const auto key = saved["parameters"]["key_vector"];
    ASSERT_TRUE(key.is_string()) << key.dump();  // lists are saved as their --set text
    const auto parts = rope::test::split(key.get<std::string>(), ',');
    ASSERT_EQ(parts.size(), 2u) << key.dump();  // lesson 2: d = 2
    EXPECT_NE(std::stod(parts[0]), 1.0) << key.dump();  // moved away from q = (1, 0.5)
}

TEST_F(Classroom, PresentationModeHasLargerType) {
    std::ofstream(path("present.json")) << R"({"parameters": {"position": 7}, "view": {"presentation": true}})";
    ASSERT_EQ(shot({"--fresh", "--set", "position=7"}, path("normal.png")).exit_code, 0);
    const ProcessResult r = shot({"--session", path("present.json")}, path("present.png"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const double normal = std::stod(chunks(path("normal.png"))["view:ui_font_px"]);
    const double present = std::stod(chunks(path("present.png"))["view:ui_font_px"]);
    // the smallest text (tick labels, 16 px at 1x) becomes 1/36 of the 720 px window: 20 px, so the
    // UI type 18 px becomes 18 x 20/16
    EXPECT_GE(present, 18.0 * 20 / 16 - 0.5);
    EXPECT_GT(present, normal);
    EXPECT_EQ(chunks(path("present.png"))["view:presentation"], "true");
    EXPECT_FALSE(same_pixels(path("normal.png"), path("present.png")));
}

TEST_F(Classroom, SessionRoundTripGivesTheSamePicture) {
    ASSERT_EQ(shot({"--fresh", "--set", "position=42", "--set", "pair=3", "--set", "heatmap_mode=cos", "--theme", "light"},
                   path("a.png"), "one").exit_code, 0);
    const std::string saved = path("one/rope-explorer/last-session.json");
    ASSERT_EQ(access(saved.c_str(), F_OK), 0);
    // the saved session, and the exported screenshot itself, reopen as the same picture
    ASSERT_EQ(shot({"--session", saved}, path("b.png"), "two").exit_code, 0);
    EXPECT_TRUE(same_pixels(path("a.png"), path("b.png")));
    ASSERT_EQ(shot({"--session", path("a.png")}, path("c.png"), "three").exit_code, 0);
    EXPECT_TRUE(same_pixels(path("a.png"), path("c.png")));
    // a session file and the same --set flags give the same picture
    std::ofstream(path("s.json")) << R"({"parameters": {"position": 9, "base": 50000}})";
    ASSERT_EQ(shot({"--session", path("s.json")}, path("d.png"), "four").exit_code, 0);
    ASSERT_EQ(shot({"--fresh", "--set", "position=9", "--set", "base=50000"}, path("e.png"), "five").exit_code, 0);
    EXPECT_TRUE(same_pixels(path("d.png"), path("e.png")));
    // --set composes with --session (later wins)
    ASSERT_EQ(shot({"--session", path("s.json"), "--set", "position=11"}, path("f.png"), "six").exit_code, 0);
    EXPECT_EQ(chunks(path("f.png"))["position"], "11");
    EXPECT_EQ(chunks(path("f.png"))["base"], "50000");
}

TEST_F(Classroom, CorruptSessionsAreRefusedAndLeftUntouched) {
    const std::string corrupt = R"({"parameters": {"dim": 64, "base": 10)";
    std::ofstream(path("corrupt.json")) << corrupt;
    const ProcessResult r = run_process({ROPE_EXPLORER_BINARY, "--session", path("corrupt.json")}, "", {"DISPLAY="});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(path("corrupt.json")), std::string::npos) << r.err;
    EXPECT_EQ(rope::test::read_file(path("corrupt.json")), corrupt);
    const ProcessResult range = run_process({ROPE_EXPLORER_BINARY, "--session", path("range.json")}, "", {"DISPLAY="});
    EXPECT_EQ(range.exit_code, 2);  // missing file
    // at the automatic restore: a warning, the defaults, and the file kept as it was
    mkdir(path("state").c_str(), 0700);
    mkdir(path("state/rope-explorer").c_str(), 0700);
    const std::string last = path("state/rope-explorer/last-session.json");
    std::ofstream(last) << "not json at all";
    const ProcessResult restored = shot({}, path("restored.png"));
    EXPECT_EQ(restored.exit_code, 0);
    EXPECT_EQ(rope::test::count_lines(restored.err), 1) << restored.err;
    EXPECT_NE(restored.err.find("warning"), std::string::npos) << restored.err;
    EXPECT_EQ(rope::test::read_file(last), "not json at all");
    ASSERT_EQ(shot({"--fresh"}, path("fresh.png"), "other").exit_code, 0);
    EXPECT_TRUE(same_pixels(path("restored.png"), path("fresh.png")));
}

TEST_F(Classroom, TheLastSessionComesBackOnStart) {
    ASSERT_EQ(shot({"--set", "position=77", "--set", "base=20000"}, path("first.png")).exit_code, 0);
    ASSERT_EQ(shot({}, path("second.png")).exit_code, 0);
    EXPECT_EQ(chunks(path("second.png"))["position"], "77");
    EXPECT_EQ(chunks(path("second.png"))["base"], "20000");
    // --fresh and --set start from the defaults, so command lines stay reproducible
    ASSERT_EQ(shot({"--fresh"}, path("third.png")).exit_code, 0);
    EXPECT_EQ(chunks(path("third.png"))["position"], "0");
    ASSERT_EQ(shot({"--set", "dim=64"}, path("fourth.png")).exit_code, 0);
    EXPECT_EQ(chunks(path("fourth.png"))["position"], "0");
    EXPECT_EQ(chunks(path("fourth.png"))["base"], "10000");
}

TEST_F(Classroom, EveryLessonStepOpens) {
    for (int step = 1; step <= 17; ++step) {
        const std::string out = path("lesson" + std::to_string(step) + ".png");
        const ProcessResult r = shot({"--lesson", std::to_string(step)}, out);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(chunks(out)["view:lesson_step"], std::to_string(step - 1));
    }
    EXPECT_EQ(run_process({ROPE_EXPLORER_BINARY, "--lesson", "99"}, "", {"DISPLAY="}).exit_code, 2);
}

// A real click on a patch of the patch grid makes it the query, a real drag moves the query along,
// and Ctrl+Z takes the drag back as one step. Window pixels from Flows.ClickingAPatchMovesTheQueryOfEveryMap
// (the same layout at 1920x1080): the interleaved map's patch (2, 3) at (953, 169), (9, 12) at (1054, 248).
TEST_F(Classroom, ClickingAPatchMovesTheQuery) {
    XServer x;
    std::ofstream(path("page5.json")) << R"({"parameters": {"preset": "qwen3-vl-8b"}, "view": {"page": 4}})";
    auto query_at = [](int row, int col) {
        return [row, col](const nlohmann::json& r) {
            const auto& p = r["session"]["parameters"];
            return p.value("query_row", -1) == row && p.value("query_col", -1) == col;
        };
    };
    // page 5 at the screen's corner, then a click on the patch (2, 3)
    auto open_and_click = [&](AppWindow& app) {
        ASSERT_TRUE(app.started()) << app.log();
        app.send({"windowmove", "--sync", app.id(), "0", "0"});
        app.wait_for_input_taken();
        app.send({"mousemove", "--sync", "953", "169"});
        app.send({"click", "1"});
        app.wait_for("the clicked patch (2, 3) as the query", query_at(2, 3));
    };
    {
        AppWindow app(x, ROPE_EXPLORER_BINARY, dir_, "--session " + path("page5.json") + " --size 1920x1080", {state_env()});
        open_and_click(app);
        if (HasFatalFailure()) return;
        // a drag at a person's pace from (2, 3) to (9, 12)
        app.send({"mousedown", "1"});
        for (int i = 1; i <= 10; ++i)
            app.send({"mousemove", "--sync", std::to_string(953 + (1054 - 953) * i / 10), std::to_string(169 + (248 - 169) * i / 10), "sleep", "0.04"});
        app.send({"mouseup", "1"});
        app.wait_for("the query dragged to (9, 12)", query_at(9, 12));
        EXPECT_EQ(app.quit(), 0) << app.log();
    }
    const auto dragged = nlohmann::json::parse(rope::test::read_file(path("state/rope-explorer/last-session.json")));
    EXPECT_EQ(dragged["parameters"]["query_row"], 9) << dragged.dump();
    EXPECT_EQ(dragged["parameters"]["query_col"], 12) << dragged.dump();

    // again, then Ctrl+Z: the drag is one undo step, back to the clicked patch
    {
        AppWindow again(x, ROPE_EXPLORER_BINARY, dir_, "--session " + path("page5.json") + " --size 1920x1080", {state_env()});
        open_and_click(again);
        if (HasFatalFailure()) return;
        again.send({"mousedown", "1"});
        again.send({"mousemove", "--sync", "1000", "209"});
        again.send({"mousemove", "--sync", "1054", "248"});
        again.send({"mouseup", "1"});  // a quick drag: its moves and release may come within one frame
        again.send({"key", "ctrl+z"});
        again.wait_for_input_taken();
        EXPECT_EQ(again.quit(), 0) << again.log();
    }
    const auto undone = nlohmann::json::parse(rope::test::read_file(path("state/rope-explorer/last-session.json")));
    EXPECT_EQ(undone["parameters"]["query_row"], 2) << undone.dump();
    EXPECT_EQ(undone["parameters"]["query_col"], 3) << undone.dump();
}
