// The real window under Xvfb: screenshots are real pictures that follow the parameters, bad input
// is refused before a window opens, no display is a clear one-line error, the frame benchmark
// prints its three lines.
#include <gtest/gtest.h>

#include "support/synthetic_model.hpp"
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "io/png_writer.hpp"
#include "support/process.hpp"

using rope::test::ProcessResult;
using rope::test::run_process;

namespace {

std::string temp_path(const std::string& name) {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/rope-gui-" + std::to_string(getpid()) + "-" + name;
}

ProcessResult run_window(std::vector<std::string> args) {
    // --fresh: the defaults, whatever a last session on this machine holds
    std::vector<std::string> argv = {"/usr/bin/xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", ROPE_EXPLORER_BINARY, "--fresh"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, "", {"XDG_STATE_HOME=" + temp_path("state")});
}

rope::io::PngImage screenshot(const std::vector<std::string>& sets, const std::string& name,
                              const std::string& size = "1600x900") {
    const std::string path = temp_path(name);
    std::vector<std::string> args = {"--size", size, "--screenshot", path, "--quit"};
    for (const auto& s : sets) {
        args.push_back("--set");
        args.push_back(s);
    }
    const ProcessResult r = run_window(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    rope::io::PngImage img = rope::io::read_png(path);
    std::remove(path.c_str());
    return img;
}

std::size_t distinct_colours(const rope::io::PngImage& img) {
    std::set<std::uint32_t> colours;
    for (std::size_t i = 0; i + 3 < img.rgba.size(); i += 4 * 7)
        colours.insert(img.rgba[i] | img.rgba[i + 1] << 8 | img.rgba[i + 2] << 16);
    return colours.size();
}

}  // namespace

TEST(GuiApp, ScreenshotIsARealPictureAtFramebufferSize) {
    const auto img = screenshot({}, "default.png", "1920x1080");
    EXPECT_EQ(img.width, 1920);
    EXPECT_EQ(img.height, 1080);
    EXPECT_GT(distinct_colours(img), 2000u);  // heatmaps, text, lines: not a blank window
    // it carries the parameters it was made from
    bool has_base = false;
    for (const auto& [k, v] : img.text) has_base = has_base || (k == "base" && v == "10000");
    std::string keys;
    for (const auto& [k, v] : img.text) keys += k + "=" + v.substr(0, 20) + " ";
    EXPECT_TRUE(has_base) << keys;
}

TEST(GuiApp, PictureChangesWithPosition) {
    const auto a = screenshot({"position=0"}, "p0.png");
    const auto b = screenshot({"position=50"}, "p50.png");
    const auto c = screenshot({"position=0"}, "p0-again.png");
    ASSERT_EQ(a.rgba.size(), b.rgba.size());
    std::size_t differ = 0, differ_same = 0;
    for (std::size_t i = 0; i < a.rgba.size(); i += 4) {
        differ += a.rgba[i] != b.rgba[i] || a.rgba[i + 1] != b.rgba[i + 1] || a.rgba[i + 2] != b.rgba[i + 2];
        differ_same += a.rgba[i] != c.rgba[i] || a.rgba[i + 1] != c.rgba[i + 1] || a.rgba[i + 2] != c.rgba[i + 2];
    }
    EXPECT_GT(differ, 2000u);      // the vectors turn, the markers move, the readouts change
    EXPECT_EQ(differ_same, 0u);    // the same state draws the same picture
}

TEST(GuiApp, BadSetIsRefusedBeforeAnyWindow) {
    const ProcessResult r = run_process({ROPE_EXPLORER_BINARY, "--set", "dim=7"}, "", {"DISPLAY="});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("dim=7"), std::string::npos);
    const ProcessResult s = run_process({ROPE_EXPLORER_BINARY, "--size", "big"}, "", {"DISPLAY="});
    EXPECT_EQ(s.exit_code, 2);
    EXPECT_EQ(rope::test::count_lines(s.err), 1) << s.err;
}

TEST(GuiApp, NoDisplayIsOneLineAndExitOne) {
    // with no last session (the user's own could carry a warning of its own)
    const ProcessResult r = run_process({"/usr/bin/env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", "XDG_STATE_HOME=/nonexistent-rope-test", ROPE_EXPLORER_BINARY});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("xvfb-run"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(GuiApp, BenchFramesPrintsThreeLines) {
    // (at 1920x1080 the basics page is shown whole; at 1280x720 in two parts, two panels at a time)
    const ProcessResult r = run_window({"--size", "1920x1080", "--bench-frames", "12", "--sweep", "base"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = rope::test::split_lines(r.out);
    ASSERT_GE(lines.size(), 8u) << r.out;
    EXPECT_EQ(lines[0].rfind("p50_ms ", 0), 0u);
    EXPECT_EQ(lines[1].rfind("p99_ms ", 0), 0u);
    EXPECT_EQ(lines[2].rfind("max_ms ", 0), 0u);
    EXPECT_GT(std::stod(lines[2].substr(7)), 0.0);
    // the latency from a change to its final picture: every one of the 12 changes was shown
    EXPECT_EQ(lines[3].rfind("latency_p50_ms ", 0), 0u);
    EXPECT_EQ(lines[4].rfind("latency_p99_ms ", 0), 0u);
    EXPECT_EQ(lines[5].rfind("latency_max_ms ", 0), 0u);
    EXPECT_EQ(lines[6], "changes 12");
    EXPECT_EQ(lines[7], "unshown_changes 0");
    // one line per figure built, with build times
    std::size_t panels = 0;
    for (const auto& line : lines) panels += line.rfind("panel ", 0) == 0 && line.find(" build_p50_ms ") != std::string::npos;
    EXPECT_EQ(panels, 4u) << r.out;  // the basics page
}

// The three pages of panels open from a session and are told apart in the screenshot's metadata;
// the context-extension page waits for nothing (its figure is complete in the first screenshot).
TEST(GuiApp, EveryPageOpensFromASession) {
    std::vector<rope::io::PngImage> shots;
    for (int page = 0; page < 3; ++page) {
        const std::string session = temp_path("page" + std::to_string(page) + ".json");
        {
            std::FILE* f = std::fopen(session.c_str(), "w");
            ASSERT_NE(f, nullptr);
            std::fprintf(f, R"({"parameters": {"preset": "llama-3.1-8b", "compare": "yarn"}, "view": {"page": %d}})", page);
            std::fclose(f);
        }
        const std::string out = temp_path("page" + std::to_string(page) + ".png");
        const ProcessResult r = run_window({"--session", session, "--size", "1600x900", "--screenshot", out, "--quit"});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        shots.push_back(rope::io::read_png(out));
        std::map<std::string, std::string> text(shots.back().text.begin(), shots.back().text.end());
        EXPECT_EQ(text["view:page"], std::to_string(page));
        EXPECT_EQ(text["compare"], "yarn");
        EXPECT_GT(distinct_colours(shots.back()), 1500u) << "page " << page;
        std::remove(session.c_str());
        std::remove(out.c_str());
    }
    for (int a = 0; a < 3; ++a)
        for (int b = a + 1; b < 3; ++b) {
            std::size_t differ = 0;
            for (std::size_t i = 0; i < shots[a].rgba.size(); i += 4) differ += shots[a].rgba[i] != shots[b].rgba[i];
            EXPECT_GT(differ, 100000u) << "pages " << a << " and " << b << " look alike";
        }
}

// rope-explorer FILE (a file manager's "Open with", the .desktop entry's %f) opens it by its content,
// as the flag for its kind would: the same picture as --session, --lessons with --lesson 1, --set
// config=, --set model= for a folder. A path that is no file, or a second file, is one line and exit 2 before a window opens.
TEST(GuiApp, AFileArgumentOpensItByItsContent) {
    const std::string session = temp_path("s.rope.json");
    std::FILE* f = std::fopen(session.c_str(), "w");
    std::fputs(R"({"parameters": {"preset": "llama-3-8b", "position": 77}, "view": {"theme": "light"}})", f);
    std::fclose(f);
    const std::string config = std::string(ROPE_HF_CONFIGS) + "/qwen3-8b.json";
    const std::string lessons = std::string(ROPE_SOURCE_DIR) + "/assets/lessons.json";
    const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> same = {
        {{session}, {"--session", session}},
        {{config}, {"--set", "config=" + config}},
        {{lessons}, {"--lessons", lessons, "--lesson", "1"}},
        {{rope::test::synthetic_model_folder()}, {"--set", "model=" + rope::test::synthetic_model_folder()}},  // a model folder
    };
    for (const auto& [bare, flags] : same) {
        std::vector<rope::io::PngImage> pictures;
        for (const auto* args : {&bare, &flags}) {
            const std::string shot = temp_path("open.png");
            std::vector<std::string> argv = *args;
            for (const char* a : {"--size", "1280x720", "--screenshot", shot.c_str(), "--quit"}) argv.push_back(a);
            const ProcessResult r = run_window(argv);
            ASSERT_EQ(r.exit_code, 0) << bare[0] << ": " << r.err;
            pictures.push_back(rope::io::read_png(shot));
            std::remove(shot.c_str());
        }
        EXPECT_TRUE(pictures[0].rgba == pictures[1].rgba) << bare[0] << " opened otherwise than " << flags[0];
    }
    for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"/no/such/session.json"}, "'/no/such/session.json': no such file"},
             {{session, session}, "one file to open at a time"}}) {
        std::vector<std::string> argv = {ROPE_EXPLORER_BINARY};
        argv.insert(argv.end(), args.begin(), args.end());
        const ProcessResult r = run_process(argv, "", {"XDG_STATE_HOME=" + temp_path("state"), "DISPLAY="});
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    std::remove(session.c_str());
}
