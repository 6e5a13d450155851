// What a person does, in one process and in sequence, on the whole app run headless: walk the
// lesson forward and back, open a session over another, import a config over a preset, pick presets
// in turn, change page and maximise, undo and redo across all of it. After every step every shown
// panel must hold the picture a fresh build of the state gives, and reaching a state by walking
// must show what starting there shows.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui_internal.h>
#include <stdlib.h>
#include <unistd.h>

#include <climits>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "lessons/lessons.hpp"
#include "rope/presets.hpp"
#include "session/recent_configs.hpp"
#include "session/session.hpp"
#include "gui/dialogs/export_dialog.hpp"
#include "gui/dialogs/session_dialog.hpp"
#include "gui/presentation/presenter_view.hpp"
#include "io/png_writer.hpp"
#include "lessons/panel_help.hpp"
#include "support/export_cli.hpp"
#include "support/headless_app.hpp"
#include "support/synthetic_model.hpp"
#include "support/temp_dir.hpp"

namespace P = rope::P;

using rope::test::HeadlessApp;

namespace {

class Flows : public rope::test::TempDirTest {
protected:
    void SetUp() override {
        TempDirTest::SetUp();
        setenv("XDG_STATE_HOME", path("state").c_str(), 1);
        setenv("XDG_PICTURES_DIR", dir_.c_str(), 1);
    }
    int steps() const { return static_cast<int>(rope::lessons::builtin_lesson().steps.size()); }
};

#define EXPECT_FRESH(app, what)                                     \
    do {                                                            \
        ASSERT_TRUE((app).settle()) << "never settled: " << (what); \
        EXPECT_EQ((app).panels_fresh(), "") << (what);              \
    } while (0)

}  // namespace

// Page Down through every step and Page Up back, in one app: each step shows what a fresh start at
// that step shows (same panels, sizes, values and pictures), in the grid and in presentation mode.
TEST_F(Flows, LessonWalkShowsWhatAFreshStartShows) {
    for (bool presenting : {false, true}) {
        std::vector<std::vector<HeadlessApp::Picture>> fresh;
        for (int n = 1; n <= steps(); ++n) {
            HeadlessApp start({"--fresh", "--lesson", std::to_string(n)}, 1280, 720);
            start.state().presentation = presenting;
            ASSERT_TRUE(start.settle()) << "step " << n;
            EXPECT_EQ(start.panels_fresh(), "") << "fresh start at step " << n;
            fresh.push_back(start.pictures());
        }
        HeadlessApp walk({"--fresh"}, 1280, 720);
        walk.state().presentation = presenting;
        ASSERT_TRUE(walk.settle());
        for (int n = 1; n <= steps(); ++n) {
            walk.key(GLFW_KEY_PAGE_DOWN);
            EXPECT_FRESH(walk, "step " + std::to_string(n));
            ASSERT_EQ(walk.state().lesson_step(), n - 1);
            const auto& step = rope::lessons::builtin_lesson().steps[static_cast<std::size_t>(n - 1)];
            if (step.question) {  // asked first: the picture before; Page Down reveals the step
                ASSERT_TRUE(walk.state().asking()) << "step " << n;
                EXPECT_EQ(walk.state().params(), rope::lessons::question_parameters(step)) << "step " << n;
                walk.key(GLFW_KEY_PAGE_DOWN);
                EXPECT_FRESH(walk, "step " + std::to_string(n) + " revealed");
                ASSERT_EQ(walk.state().lesson_step(), n - 1);
                EXPECT_FALSE(walk.state().asking());
            }
            EXPECT_EQ(rope::test::same_pictures(walk.pictures(), fresh[static_cast<std::size_t>(n - 1)]), "")
                << "forward to step " << n << (presenting ? " (presenting)" : "");
        }
        for (int n = steps() - 1; n >= 1; --n) {
            walk.key(GLFW_KEY_PAGE_UP);
            EXPECT_FRESH(walk, "back to step " + std::to_string(n));
            ASSERT_EQ(walk.state().lesson_step(), n - 1);
            EXPECT_EQ(rope::test::same_pictures(walk.pictures(), fresh[static_cast<std::size_t>(n - 1)]), "")
                << "back to step " << n << (presenting ? " (presenting)" : "");
        }
    }
}

// Opening a session over another state shows the session's state; undo shows the first state again.
TEST_F(Flows, SessionOpenedOverAnotherAndUndone) {
    std::ofstream(path("b.json")) << R"({"parameters": {"dim": 32, "base": 500000, "position": 40, "max_position": 8192},
                                         "view": {"page": 0, "theme": "light"}})";
    HeadlessApp app({"--fresh", "--set", "dim=64", "--set", "position=7", "--set", "scaling=linear", "--set", "factor=4"});
    EXPECT_FRESH(app, "first state");
    const auto first = app.pictures();
    // Ctrl+O, select the path's text, type the file, Enter: as a person does it
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_O);
    app.settle();
    ASSERT_TRUE(app.app().session_dialog().is_open());
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_A);
    app.type(path("b.json"));
    app.key(GLFW_KEY_ENTER);
    EXPECT_FRESH(app, "session opened");
    EXPECT_FALSE(app.app().session_dialog().is_open()) << app.state().status;
    EXPECT_EQ(app.state().params()[P::dim], 32);
    EXPECT_EQ(app.state().params()[P::base], 500000);
    EXPECT_EQ(app.state().params().value_text(P::scaling), "none");  // the session's state, not a mix
    EXPECT_EQ(app.state().theme, rope::plot::ThemeId::light);
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_Z);
    EXPECT_FRESH(app, "undo the session");
    EXPECT_EQ(app.state().params()[P::dim], 64);
    EXPECT_NE(app.state().status.find("Undone: open session"), std::string::npos) << app.state().status;
    app.state().theme = rope::plot::ThemeId::dark;  // the view is not undone: compare in the first theme
    app.settle();
    EXPECT_EQ(rope::test::same_pictures(app.pictures(), first), "");
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_Y);
    EXPECT_FRESH(app, "redo the session");
    EXPECT_EQ(app.state().params()[P::dim], 32);
}

// A config.json imported over a preset replaces the whole model; undo gives the preset back.
TEST_F(Flows, ConfigImportedOverAPreset) {
    HeadlessApp app({"--fresh"});
    app.state().page = 1;  // the context-extension page shows the most of a model
    ASSERT_TRUE(app.state().change("preset deepseek-v3", [](rope::ParamSet& p) { p.set(P::preset, "deepseek-v3"); }));
    EXPECT_FRESH(app, "deepseek-v3");
    const auto preset = app.pictures();
    const rope::ParamSet preset_params = app.state().params();
    {
        const std::string config = std::string(ROPE_HF_CONFIGS) + "/gpt-oss.json";
        app.app().apply(rope::gui::act::OpenFileDialog{rope::gui::act::OpenFileDialog::open_config});  // what the Config button does
        app.settle();
        ASSERT_TRUE(app.app().session_dialog().is_open());
        app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_A);
        app.type(config);
        app.key(GLFW_KEY_ENTER);
        EXPECT_FRESH(app, "config over the preset");
        EXPECT_NE(app.state().status.find("Config loaded"), std::string::npos) << app.state().status;
    }
    EXPECT_FALSE(app.state().params() == preset_params);
    EXPECT_FALSE(app.state().params().has(P::mscale)) << "DeepSeek's mscale must not survive a config import";
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "undo the import");
    EXPECT_TRUE(app.state().params() == preset_params);
    EXPECT_EQ(rope::test::same_pictures(app.pictures(), preset), "");
}

// Every preset in turn, then undo all the way back to the start and redo all the way forward.
TEST_F(Flows, PresetsInTurnThenUndoAndRedoEverything) {
    HeadlessApp app({"--fresh"});
    EXPECT_FRESH(app, "defaults");
    const auto defaults = app.pictures();
    std::vector<std::vector<HeadlessApp::Picture>> seen;
    for (const rope::Preset& preset : rope::presets()) {
        const std::string name(preset.name);
        ASSERT_TRUE(app.state().change("preset " + name, [&](rope::ParamSet& p) { p.set(P::preset, name); })) << name;
        EXPECT_FRESH(app, name);
        seen.push_back(app.pictures());
    }
    for (int i = static_cast<int>(seen.size()) - 2; i >= 0; --i) {
        app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
        EXPECT_FRESH(app, "undo to preset " + std::to_string(i));
        EXPECT_EQ(rope::test::same_pictures(app.pictures(), seen[static_cast<std::size_t>(i)]), "") << "undo to preset " << i;
    }
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "undo to the defaults");
    EXPECT_EQ(rope::test::same_pictures(app.pictures(), defaults), "");
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);  // nothing more to undo: said, nothing changes
    app.settle();
    EXPECT_NE(app.state().status.find("Nothing to undo"), std::string::npos);
    for (std::size_t i = 0; i < seen.size(); ++i) {
        app.chord(GLFW_KEY_LEFT_SHIFT, GLFW_KEY_Z);  // Shift alone is not redo
        app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT);
        EXPECT_FRESH(app, "redo preset " + std::to_string(i));
        EXPECT_EQ(rope::test::same_pictures(app.pictures(), seen[i]), "") << "redo preset " << i;
    }
}

// GLFW's code of a key as figures::panel_key names it ("7", "-", "=", "F3").
static int glfw_code(const std::string& name) {
    if (name == "-") return GLFW_KEY_MINUS;
    if (name == "=") return GLFW_KEY_EQUAL;
    if (name.size() > 1 && name[0] == 'F') return GLFW_KEY_F1 + std::stoi(name.substr(1)) - 1;
    return name[0];  // GLFW's codes for digits are their characters
}

// Pages and maximised panels by keys (every panel has one), with the lesson and undo in between.
TEST_F(Flows, PagesAndMaximisedPanels) {
    HeadlessApp app({"--fresh", "--set", "max_position=8192"});
    EXPECT_FRESH(app, "basics");
    for (int panel = 0; panel < rope::figures::figure_count(); ++panel) {
        const std::string key = rope::figures::panel_key(panel);
        ASSERT_FALSE(key.empty()) << "panel " << panel + 1 << " has no key";
        app.key(glfw_code(key));
        EXPECT_FRESH(app, "panel " + std::to_string(panel + 1) + " maximised");
        EXPECT_EQ(app.state().maximized, panel);
        app.key(GLFW_KEY_RIGHT);  // a change while maximised
        EXPECT_FRESH(app, "after a key, maximised");
        app.key(GLFW_KEY_ESCAPE);
        EXPECT_FRESH(app, "grid again");
        EXPECT_EQ(app.state().maximized, -1);
    }
    for (int i = 0; i < 4; ++i) {
        app.key(GLFW_KEY_TAB);
        EXPECT_FRESH(app, "Tab " + std::to_string(i));
        app.key(GLFW_KEY_RIGHT_BRACKET);
        EXPECT_FRESH(app, "base notch on page " + std::to_string(app.state().page));
    }
    app.key(GLFW_KEY_TAB, GLFW_MOD_SHIFT);
    EXPECT_FRESH(app, "Shift+Tab");
    app.key(GLFW_KEY_PAGE_DOWN);
    app.key(GLFW_KEY_PAGE_DOWN);
    EXPECT_FRESH(app, "lesson step 2");
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "undo a lesson step");
    EXPECT_EQ(app.state().lesson_step(), 0);
    app.key(GLFW_KEY_P);
    EXPECT_FRESH(app, "presentation mode");
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "undo past the lesson, presenting");
    EXPECT_EQ(app.state().lesson_step(), -1);
}

// A slider-like gesture and a drag in a panel are one undo step each; undo says what it undid.
TEST_F(Flows, ADragIsOneUndoStep) {
    HeadlessApp app({"--fresh", "--set", "dim=8"});
    EXPECT_FRESH(app, "start");
    // drag the vector's tip in the vectors panel (panel 1, its "pair" plot)
    const rope::gui::PanelView& vectors = app.app().panels()[0];
    const auto* pair_plot = vectors.result.plot("pair");
    ASSERT_NE(pair_plot, nullptr);
    const float x0 = vectors.screen.x0 + pair_plot->px(1, 0).x, y0 = vectors.screen.y0 + pair_plot->px(1, 0).y;
    const float x1 = vectors.screen.x0 + pair_plot->px(0.5, 1.2).x, y1 = vectors.screen.y0 + pair_plot->px(0.5, 1.2).y;
    const std::size_t before = app.state().history().undo_entries().size();
    app.drag(x0, y0, x1, y1, 12);
    EXPECT_FRESH(app, "after the drag");
    EXPECT_TRUE(app.state().params().has(P::vector));
    EXPECT_EQ(app.state().history().undo_entries().size(), before + 1);
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "drag undone");
    EXPECT_FALSE(app.state().params().has(P::vector));
    EXPECT_NE(app.state().status.find("Undone: drag the vector x"), std::string::npos) << app.state().status;
    // a slider's drag: many changes while it is held, one step
    for (int v = 10001; v < 10040; ++v) app.state().apply_number(P::base, v, "item:base");
    app.state().end_gesture();
    app.state().apply_number(P::position, 3);
    EXPECT_TRUE(app.state().undo());
    EXPECT_TRUE(app.state().undo());
    EXPECT_EQ(app.state().params()[P::base], 10000);
}

// A slider dragged while long builds run (the sweep's cosine sum over 131072 positions of 128 pairs,
// shared out in parts to both workers; newer requests replacing older ones): once it stops, every
// panel shows exactly a fresh build's picture.
TEST_F(Flows, SliderDraggedThroughLongBuildsEndsOnTheExactPictures) {
    HeadlessApp app({"--fresh", "--set", "max_position=131072", "--set", "dim=256"});
    EXPECT_FRESH(app, "start");
    for (int i = 1; i <= 12; ++i) {
        app.state().apply_number(P::base, 10000 + 700 * i, "item:base");
        app.frame();
    }
    app.state().end_gesture();
    EXPECT_FRESH(app, "after the base moved");
    for (int i = 1; i <= 12; ++i) {
        app.state().apply_number(P::position, 9000 * i, "item:position");
        app.state().apply_number(P::dim, 256 - 8 * i, "item:dim");
        app.frame();
    }
    app.state().end_gesture();
    EXPECT_FRESH(app, "after the position and dim moved");
}

// Sweeping the position or the base (a slider, Play) does not resize the panels back and forth: the
// formula strip above the bottom row is sized for the widest angle, cos, sin and rotated pair (their
// signs turn as the position moves), so only a number of more digits (the position, the base) can
// give it another line. Positions of six digits in a context of 2^20 tokens, pair 3 (θ not a whole
// number) and 0, bases of eight characters.
TEST_F(Flows, PanelsKeepTheirSizesWhilePositionAndBaseSweep) {
    for (const auto& [w, h] : std::vector<std::pair<float, float>>{{1920, 1080}, {1280, 720}, {1024, 768}}) {
        for (const char* pair : {"pair=0", "pair=3"}) {
            HeadlessApp app({"--fresh", "--set", "max_position=1048576", "--set", "dim=1024", "--set", pair, "--set", "position=100000"}, w, h);
            ASSERT_TRUE(app.settle());
            auto sizes = [&] {
                std::vector<std::pair<float, float>> out;
                for (const rope::gui::PanelView& p : app.app().panels().views)
                    if (p.shown) out.emplace_back(p.size.x, p.size.y);
                return out;
            };
            const auto first = sizes();
            ASSERT_FALSE(first.empty());
            for (std::int64_t m = 100000; m < 1000000; m += 12347) {  // 73 positions: every angle's sign, both ways
                app.state().apply_number(P::position, static_cast<double>(m), "item:position");
                app.frame();
                ASSERT_EQ(sizes(), first) << w << "x" << h << ", " << pair << ", position " << m;
            }
            app.state().apply_number(P::base, 12345.67, "item:base");
            app.frame();
            const auto at_base = sizes();
            for (const double base : {23456.78, 45678.91, 87654.32, 99999.99}) {
                app.state().apply_number(P::base, base, "item:base");
                app.frame();
                EXPECT_EQ(sizes(), at_base) << w << "x" << h << ", " << pair << ", base " << base;
            }
            app.state().end_gesture();
        }
    }
}

// F1 over a panel shows what it shows, in the words of its section of docs/user-guide.md; F1 again, or
// Esc, closes it; F1 over another panel shows that one's; presenting, F1 is the key list as before
// (the room sees no help window).
TEST_F(Flows, F1OverAPanelShowsItsSectionOfThePanelsGuide) {
    HeadlessApp app({"--fresh"}, 1600, 900);
    ASSERT_TRUE(app.settle());
    auto centre = [&](int panel) {
        const rope::gui::PanelView& p = app.app().panels()[static_cast<std::size_t>(panel)];
        app.move((p.screen.x0 + p.screen.x1) / 2, (p.screen.y0 + p.screen.y1) / 2);
    };
    auto help_window_shown = [&] {
        const ImGuiWindow* w = ImGui::FindWindowByName("###panel_help");
        return w && w->Active && w->Name == rope::lessons::panel_help("heatmap").heading + "###panel_help";
    };
    centre(1);  // the angle heatmap
    app.key(GLFW_KEY_F1);
    app.frame();
    app.frame();
    EXPECT_EQ(app.state().help_panel, 1);
    EXPECT_TRUE(help_window_shown());
    EXPECT_FALSE(app.state().show_shortcuts);
    app.key(GLFW_KEY_ESCAPE);
    app.frame();
    EXPECT_EQ(app.state().help_panel, -1);
    centre(0);
    app.key(GLFW_KEY_F1);
    app.frame();
    EXPECT_EQ(app.state().help_panel, 0);
    app.key(GLFW_KEY_F1);
    app.frame();
    EXPECT_EQ(app.state().help_panel, -1) << "F1 again closes it";
    app.state().presentation = true;
    app.frame();
    centre(0);
    app.key(GLFW_KEY_F1);
    app.frame();
    EXPECT_EQ(app.state().help_panel, -1);
    EXPECT_TRUE(app.state().show_shortcuts) << "presenting, F1 is the key list";
}

// Ctrl+E over a panel opens its export dialog; Enter writes the file on a worker with the app's
// cache while frames go on; the status line says where the file went.
TEST_F(Flows, ExportFromTheAppRunsOffTheUiThread) {
    HeadlessApp app({"--fresh", "--set", "position=12"});
    EXPECT_FRESH(app, "start");
    const rope::gui::PanelView& heatmap = app.app().panels()[1];
    app.move((heatmap.screen.x0 + heatmap.screen.x1) / 2, (heatmap.screen.y0 + heatmap.screen.y1) / 2);
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_E);
    app.settle();
    ASSERT_TRUE(app.app().exports().dialog().open);
    EXPECT_EQ(app.app().exports().dialog().panel, 1);
    app.key(GLFW_KEY_ENTER);
    const std::uint64_t builds = app.app().panels().figure_builds;
    app.frames_until([&] { return app.state().status.rfind("Saved ", 0) == 0; });
    EXPECT_EQ(app.state().status.rfind("Saved " + path("rope-heatmap.png"), 0), 0u) << app.state().status;
    EXPECT_EQ(app.app().panels().figure_builds, builds) << "exporting rebuilt nothing on screen";
    const auto png = rope::io::read_png(path("rope-heatmap.png"), false);
    bool figure = false, position = false;
    for (const auto& [k, v] : png.text) {
        figure = figure || (k == "figure" && v == "heatmap");
        position = position || (k == "position" && v == "12");
    }
    EXPECT_TRUE(figure && position);
}

// The export dialog's own fields: a width out of range refuses in the dialog and writes nothing; a
// size, one plot and --clean's marks left out give that file.
TEST_F(Flows, ExportDialogSizePlotAndClean) {
    HeadlessApp app({"--fresh", "--set", "position=12"});
    EXPECT_FRESH(app, "start");
    app.app().apply(rope::gui::act::OpenExportDialog{2, false});  // the base sweep: four plots
    app.settle();
    rope::gui::ExportDialogState& d = app.app().exports().dialog();
    ASSERT_TRUE(d.open);
    EXPECT_EQ(d.width, 800);  // the figure's export size
    EXPECT_EQ(d.height, 480);
    d.width = 50;
    app.key(GLFW_KEY_ENTER);
    for (int i = 0; i < 20; ++i) app.frame();
    EXPECT_TRUE(d.open) << "a width of 50 is refused in the dialog";
    EXPECT_NE(app.state().status.rfind("Saved ", 0), 0u) << app.state().status;
    EXPECT_EQ(rope::test::count_lines(rope::test::run_process({"/usr/bin/find", dir_, "-name", "*.png"}).out), 0);
    d.width = 640;
    d.height = 400;
    d.scale = 1;
    d.plot = 2;  // sweep_cosine
    d.clean = true;
    app.key(GLFW_KEY_ENTER);
    app.frames_until([&] { return app.state().status.rfind("Saved ", 0) == 0; });
    ASSERT_EQ(app.state().status.rfind("Saved " + path("rope-sweep.png"), 0), 0u) << app.state().status;
    const auto png = rope::io::read_png(path("rope-sweep.png"), false);
    EXPECT_EQ(png.width, 640);
    EXPECT_EQ(png.height, 400);
    // the picture is the cosine plot alone, clean, as the command line draws it with the same options
    const std::string theme = rope::plot::theme_name(d.theme);
    const auto cli = rope::test::export_cli({"sweep", "--out", path("cli.png"), "--plot", "sweep_cosine", "--clean", "--width", "640",
                                             "--height", "400", "--theme", theme, "--set", "position=12"});
    ASSERT_EQ(cli.exit_code, 0) << cli.err;
    EXPECT_TRUE(rope::io::read_png(path("cli.png")).rgba == rope::io::read_png(path("rope-sweep.png")).rgba) << "the dialog's picture is not --plot sweep_cosine --clean";
}

// The export dialog shows the alt text the file will carry (worked out on a worker), the same words
// `export --alt` prints for the same fields; HTML is one of its formats and writes a page that says them.
TEST_F(Flows, TheExportDialogShowsTheAltTextAndWritesAnHtmlPage) {
    HeadlessApp app({"--fresh", "--set", "preset=llama-3-8b", "--set", "position=40"});
    EXPECT_FRESH(app, "start");
    app.app().apply(rope::gui::act::OpenExportDialog{1, false});  // the heatmap
    rope::gui::ExportDialogState& d = app.app().exports().dialog();
    d.format = rope::exporting::FileFormat::html;
    std::snprintf(d.file_name, sizeof d.file_name, "%s", "heatmap.html");
    app.frames_until([&] { return !app.app().exports().alt_text().empty(); }, 120);  // composed in the background
    const std::string alt = app.app().exports().alt_text();
    const std::string theme = rope::plot::theme_name(d.theme);
    const auto cli = rope::test::export_cli({"heatmap", "--alt", "--width", std::to_string(d.width), "--height", std::to_string(d.height),
                                             "--theme", theme, "--set", "preset=llama-3-8b", "--set", "position=40"});
    ASSERT_EQ(cli.exit_code, 0) << cli.err;
    EXPECT_EQ(alt + "\n", cli.out);
    EXPECT_EQ(alt.rfind("Angle heatmap of Llama 3 8B: 64 pairs over positions 0-", 0), 0u) << alt;
    app.key(GLFW_KEY_ENTER);
    app.frames_until([&] { return app.state().status.rfind("Saved ", 0) == 0; });
    ASSERT_EQ(app.state().status.rfind("Saved " + path("heatmap.html"), 0), 0u) << app.state().status;
    const std::string page = rope::test::read_file(path("heatmap.html"));
    EXPECT_NE(page.find("role=\"img\" aria-label=\"" + alt + "\""), std::string::npos);
}

// F12 while the animation plays: pictures come from the workers a frame or two after each change,
// so the animation holds still until the screenshot's frame is complete (it used to wait forever).
TEST_F(Flows, ScreenshotWhileTheAnimationPlays) {
    HeadlessApp app;
    ASSERT_TRUE(app.settle());
    app.state().playing = true;
    app.state().speed = 5000;  // fast enough that every frame moves the position
    for (int i = 0; i < 30; ++i) app.frame();
    app.key(GLFW_KEY_F12);
    const bool saved = app.frames_until([&] { return !app.state().screenshot_requested; }, 120);
    EXPECT_TRUE(saved) << "F12 during the animation never found a complete frame";
    EXPECT_TRUE(app.state().playing);
}

// Files dropped onto the window (what GLFW's drop callback queues): a config.json imports, a session
// JSON and an exported PNG open, each one undo step with its status line; a bad file is an error on
// the status line and changes nothing.
TEST_F(Flows, DroppedFilesOpenLikeFileOpenAndConfig) {
    HeadlessApp app({"--fresh"});
    EXPECT_FRESH(app, "defaults");
    const rope::ParamSet defaults = app.state().params();
    app.platform().input().push_drop(std::string(ROPE_HF_CONFIGS) + "/gemma-4-31b-transcribed.json");
    EXPECT_FRESH(app, "config dropped");
    EXPECT_NE(app.state().status.find("Config loaded"), std::string::npos) << app.state().status;
    EXPECT_EQ(app.state().params().model_layers().layers(), 60);
    EXPECT_EQ(app.state().params()[P::layer], 5);
    EXPECT_EQ(app.state().params().value_text(P::scaling), "proportional");
    {  // the preset picker lists it on top from now on, and across runs: kept in the state folder
        char full[PATH_MAX];
        ASSERT_NE(realpath((std::string(ROPE_HF_CONFIGS) + "/gemma-4-31b-transcribed.json").c_str(), full), nullptr);
        ASSERT_FALSE(rope::session::recent_configs().empty());
        EXPECT_EQ(rope::session::recent_configs().front(), full);
        std::ifstream kept(rope::session::recent_configs_path());
        const std::string text((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>());
        EXPECT_NE(text.find(full), std::string::npos) << text;
    }

    std::ofstream(path("smol.json")) << R"({"parameters": {"preset": "smollm3-3b", "layer": 3}, "view": {"theme": "light"}})";
    app.platform().input().push_drop(path("smol.json"));
    EXPECT_FRESH(app, "session dropped");
    EXPECT_NE(app.state().status.find("Session opened from " + path("smol.json")), std::string::npos) << app.state().status;
    EXPECT_EQ(app.state().params()[P::layer], 3);
    EXPECT_TRUE(app.state().params()[P::nope]);
    EXPECT_EQ(app.state().theme, rope::plot::ThemeId::light);

    {  // a PNG the app saved, with another model and layer in its text
        HeadlessApp other({"--fresh", "--set", "preset=llama-4-scout", "--set", "layer=7"});
        ASSERT_TRUE(other.settle());
        other.app().save_screenshot(path("scout.png"));
    }
    app.platform().input().push_drop(path("scout.png"));
    EXPECT_FRESH(app, "png dropped");
    EXPECT_NE(app.state().status.find("Session opened from " + path("scout.png")), std::string::npos) << app.state().status;
    EXPECT_EQ(app.state().params().value_text(P::preset), "llama-4-scout");
    EXPECT_EQ(app.state().params()[P::layer], 7);

    // bad files: said on the status line as an error, nothing changes
    const rope::ParamSet before = app.state().params();
    std::ofstream(path("bad-config.json")) << R"({"head_dim": 64, "num_hidden_layers": 3, "layer_types": ["full_attention"]})";
    std::ofstream(path("notes.txt")) << "not json";
    for (const std::string& bad : {path("bad-config.json"), path("notes.txt"), path("missing.json")}) {
        app.platform().input().push_drop(bad);
        EXPECT_FRESH(app, bad);
        EXPECT_TRUE(app.state().status_error) << bad;
        EXPECT_NE(app.state().status.find(bad), std::string::npos) << app.state().status;
        EXPECT_TRUE(app.state().params() == before) << bad;
        for (const std::string& recent : rope::session::recent_configs()) EXPECT_EQ(recent.find(bad), std::string::npos) << "a refused file is not kept";
    }

    // each opening is one undo step: back through the PNG, the session and the config to the defaults
    for (int i = 0; i < 3; ++i) app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "undone");
    EXPECT_TRUE(app.state().params() == defaults);
}

// A config.json as model B: dropped with Shift held it becomes compare_to (its path), A is kept, the
// status names the model by its file; a bad one changes nothing; undo clears B. The session saved on
// quit holds the path, and opening that session brings B back.
TEST_F(Flows, ConfigDroppedWithShiftBecomesModelB) {
    HeadlessApp app({"--fresh", "--set", "preset=llama-2-7b"});
    EXPECT_FRESH(app, "llama 2");
    const rope::ParamSet a = app.state().params();
    const std::string config = std::string(ROPE_HF_CONFIGS) + "/qwen3-8b.json";
    app.platform().input().push_drop(config, true);
    EXPECT_FRESH(app, "config dropped as B");
    EXPECT_FALSE(app.state().status_error) << app.state().status;
    EXPECT_NE(app.state().status.find("Model B: qwen3-8b"), std::string::npos) << app.state().status;
    EXPECT_EQ(app.state().params().value_text(P::compare_to), config);
    EXPECT_EQ(app.state().params().value_text(P::preset), "llama-2-7b");
    const std::optional<rope::ParamSet> b = app.state().params().compared_model();
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ((*b)[P::base], 1000000.0);  // Qwen3's rope_theta
    EXPECT_EQ((*b)[P::dim], 128);

    std::ofstream(path("bad-b.json")) << R"({"head_dim": 64, "num_hidden_layers": 3, "layer_types": ["full_attention"]})";
    const rope::ParamSet with_b = app.state().params();
    app.platform().input().push_drop(path("bad-b.json"), true);
    EXPECT_FRESH(app, "bad config dropped as B");
    EXPECT_TRUE(app.state().status_error);
    EXPECT_NE(app.state().status.find(path("bad-b.json")), std::string::npos) << app.state().status;
    EXPECT_TRUE(app.state().params() == with_b);

    rope::session::Session s;
    s.params = app.state().params();
    rope::session::save_session(path("with-b.json"), s);
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "undone");
    EXPECT_TRUE(app.state().params() == a);
    const rope::session::Session back = rope::session::load_session(path("with-b.json"));
    EXPECT_EQ(back.params.value_text(P::compare_to), config);
    EXPECT_TRUE(back.params == with_b);
}

// A teacher's own lesson file: --lessons FILE is the lesson the lesson window steps through (Page
// Down stops at its last step), a session saved then remembers the file and opening that session
// in another app brings the lesson back; Ctrl+O on a lesson file (picked by its content) opens it at
// its first step; undo across the change of lesson never points at a step the lesson lacks.
TEST_F(Flows, ALessonFileIsTheLessonAndASessionRemembersIt) {
    const std::string lesson = path("two-steps.json");
    {
        std::ofstream f(lesson);
        f << R"({"version": 1, "title": "Bases", "steps": [
              {"title": "Small head", "panel": "decay", "parameters": {"dim": 64}, "text": "A 64-dim head."},
              {"title": "Large base", "panel": "heatmap", "parameters": {"base": 500000}, "text": "Llama 3's base."}]})";
    }
    HeadlessApp app({"--fresh", "--lessons", lesson, "--lesson", "2"}, 1600, 900);
    EXPECT_FRESH(app, "the lesson file's step 2");
    EXPECT_EQ(app.state().lesson_file(), lesson);
    ASSERT_EQ(app.state().lesson().steps.size(), 2u);
    EXPECT_EQ(app.state().lesson_step(), 1);
    EXPECT_EQ(app.state().params()[P::base], 500000);
    app.key(GLFW_KEY_PAGE_DOWN);  // the last step: stays
    EXPECT_EQ(app.state().lesson_step(), 1);
    app.key(GLFW_KEY_PAGE_UP);
    EXPECT_FRESH(app, "the lesson file's step 1");
    EXPECT_EQ(app.state().lesson_step(), 0);
    EXPECT_EQ(app.state().params()[P::dim], 64);
    // the session remembers the lesson file, and brings it back in another app
    const std::string saved = path("with-lesson.json");
    rope::session::save_session(saved, rope::gui::current_session(app.state()));
    EXPECT_EQ(rope::session::load_session(saved).view.lesson_file, lesson);
    HeadlessApp other({"--fresh"}, 1600, 900);
    ASSERT_TRUE(other.settle());
    EXPECT_EQ(other.state().lesson().steps.size(), rope::lessons::builtin_lesson().steps.size());
    // as Ctrl+O opens a file: by its content
    auto open_file = [](HeadlessApp& into, const std::string& file) {
        rope::gui::Actions asked;
        rope::gui::open_file(into.state(), file, false, asked);
        into.app().apply(asked);
    };
    open_file(other, saved);
    EXPECT_FRESH(other, "the session with its lesson file");
    EXPECT_EQ(other.state().lesson_file(), lesson);
    EXPECT_EQ(other.state().lesson_step(), 0);
    EXPECT_EQ(other.state().lesson().steps[0].title, "Small head");
    // Ctrl+O's path on the lesson file itself (by content: it has "steps"): its first step, one undo step
    HeadlessApp third({"--fresh", "--lesson", "20"}, 1600, 900);
    ASSERT_TRUE(third.settle());
    ASSERT_EQ(third.state().lesson_step(), 19);
    open_file(third, lesson);
    EXPECT_FRESH(third, "the lesson file opened");
    EXPECT_EQ(third.state().lesson_file(), lesson);
    EXPECT_EQ(third.state().lesson_step(), 0);
    EXPECT_EQ(third.state().status.rfind("Lesson \"Bases\" (2 steps, from " + lesson + "): step 1, Small head", 0), 0u) << third.state().status;
    // undo: back to the built-in lesson at its step 20, as it was before the file was opened
    EXPECT_TRUE(third.state().undo());
    EXPECT_FRESH(third, "undone");
    EXPECT_TRUE(third.state().lesson_is_builtin());
    EXPECT_EQ(third.state().lesson_file(), "");
    EXPECT_EQ(third.state().lesson_step(), 19);
    EXPECT_EQ(third.state().params(), rope::lessons::step_parameters(rope::lessons::builtin_lesson().steps[19]));
    EXPECT_TRUE(third.state().redo());
    EXPECT_EQ(third.state().lesson_file(), lesson);
    EXPECT_EQ(third.state().lesson_step(), 0);
}

// A lesson file that is wrong is refused on the command line with one line that names the file, the
// step and the field, and exit status 2; nothing starts.
TEST_F(Flows, ABadLessonFileIsRefusedWithOneLine) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"({"steps": [{"title": "t", "text": "x", "panel": "vectors", "parameters": {"dimm": 4}}]})", "step 1: parameters.dimm: unknown key"},
        {R"({"steps": [{"title": "t", "text": "x", "panel": "vectorz", "parameters": {}}]})", "step 1: \"panel\" is \"vectorz\"; it must name a panel (vectors, "},
        {R"({"steps": [{"title": "t", "text": "x", "panel": "vectors", "parameters": {}},
                       {"title": "u", "text": "y", "panel": "sweep", "focus": "swep", "parameters": {}}]})", "step 2: \"focus\" names \"swep\""},
        {R"({"steps": [{"title": "t", "text": "x", "panel": "vectors", "parameters": {}, "answer": "?"}]})",
         "step 1: \"answer\" is not a key of a step (title, text, panel, focus, parameters, question, notes)"},
        {R"({"steps": [{"title": "t", "text": "x", "panel": "vectors", "parameters": {}, "question": "?"}]})",
         "step 1: question is \"?\"; it must be an object (ask, choices, answer, tolerance, why, before)"},
        {R"({"steps": [{"title": "t", "text": "x", "panel": "vectors", "parameters": {},
                        "question": {"ask": "?", "choices": ["a", "b"], "answer": "C", "why": "w"}}]})",
         "step 1: question.answer is \"C\"; with choices it is the right one's letter, A to B"},
        {R"({"steps": [{"title": "t", "text": "x", "panel": "vectors", "parameters": {},
                        "question": {"ask": "?", "answer": 3, "tolerance": -1, "why": "w"}}]})",
         "step 1: question.tolerance is -1; it is how far a guess may be from the answer, a number >= 0"},
        {R"({"steps": [{"title": "t", "text": "x", "panel": "vectors", "parameters": {},
                        "question": {"ask": "?", "answer": 3, "why": "w", "before": {"bse": 2}}}]})",
         "step 1: question.before.bse: unknown key"},
        {R"({"steps": [{"title": "t", "text": "x", "panel": "vectors", "parameters": {},
                        "question": {"ask": "?", "answer": 3}}]})",
         "step 1: question: no \"why\" (one line said with the answer, a string)"},
        {R"({"version": 2, "steps": []})", "\"version\" is 2; this build reads lesson files of version 1"},
        {R"({"steps": [{"title": "t", "text": "x", "panel": "vectors", "parameters": {"base": -1}}]})", "step 1: parameters: base=-1: base must be"},
    };
    int n = 0;
    for (const auto& [text, want] : cases) {
        const std::string file = path("bad" + std::to_string(++n) + ".json");
        std::ofstream(file) << text;
        const rope::test::ProcessResult r =
            rope::test::run_process({"/usr/bin/env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", ROPE_EXPLORER_BINARY, "--lessons", file});
        EXPECT_EQ(r.exit_code, 2) << text;
        EXPECT_NE(r.err.find("lesson '" + file + "': " + want), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    const rope::test::ProcessResult missing =
        rope::test::run_process({"/usr/bin/env", "-u", "DISPLAY", ROPE_EXPLORER_BINARY, "--lessons", path("none.json")});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("cannot read '" + path("none.json") + "'"), std::string::npos) << missing.err;
    const rope::test::ProcessResult past =
        rope::test::run_process({"/usr/bin/env", "-u", "DISPLAY", ROPE_EXPLORER_BINARY, "--lessons", path("bad1.json"), "--lesson", "1"});
    EXPECT_EQ(past.exit_code, 2);
}

// The model anatomy in the app: a click on a layer's cell loads that layer into every panel as one
// undo step, and a click on a kind's row loads that kind's first layer.
TEST_F(Flows, ClickingALayerLoadsItIntoEveryPanel) {
    std::string layers;
    for (int i = 0; i < 10; ++i) layers += std::string(i ? "," : "") + "5*sliding_attention,full_attention";
    HeadlessApp app({"--fresh", "--set",
                     "layer_kinds=sliding_attention: window=1024 dim=256 base=10000; full_attention: dim=512 base=1000000 "
                     "scaling=proportional rotary_fraction=0.25",
                     "--set", "model_layers=" + layers, "--set", "layer=0"},
                    1920, 1080);
    app.state().page = 3;
    EXPECT_FRESH(app, "Today's models with 60 layers");
    const int panel = rope::figures::figure("model_anatomy").index;
    auto at = [&](const char* plot, double x, double y) {
        const auto& view = app.app().panels()[panel];
        const rope::figures::PlotGeometry* g = view.result.plot(plot);
        EXPECT_NE(g, nullptr) << plot;
        const rope::plot::Vec2 local = g ? g->px(x, y) : rope::plot::Vec2{0, 0};
        // figure pixels to window pixels: the figure fills the panel's screen rectangle
        const float sx = view.screen.width() / view.result.list.width, sy = view.screen.height() / view.result.list.height;
        return rope::plot::Vec2{view.screen.x0 + local.x * sx, view.screen.y0 + local.y * sy};
    };
    const rope::plot::Vec2 cell = at("anatomy_layers", 41.5, 0.5);
    app.click(cell.x, cell.y);
    EXPECT_FRESH(app, "layer 41 clicked");
    EXPECT_EQ(app.state().params()[P::layer], 41);
    EXPECT_EQ(app.state().params()[P::dim], 512);
    EXPECT_EQ(app.state().params().config().rotating_pairs(), 64);
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "undo the click");
    EXPECT_EQ(app.state().params()[P::layer], 0);
    EXPECT_EQ(app.state().params()[P::dim], 256);
    // the kinds table: its second row is full_attention, whose first layer is 5
    const auto& view = app.app().panels()[panel];
    const rope::figures::PlotGeometry* kinds = view.result.plot("anatomy_kinds");
    ASSERT_NE(kinds, nullptr);
    const rope::plot::Vec2 row = at("anatomy_kinds", 0.5, 0.5);
    const float sy = view.screen.height() / view.result.list.height;
    app.click(row.x, view.screen.y0 + (kinds->area.y0 + kinds->area.height() * 0.75f) * sy);
    EXPECT_FRESH(app, "kind row clicked");
    EXPECT_EQ(app.state().params()[P::layer], 5);
}

// A model folder dropped on the window: its RoPE loads (one undo step), the Trained model panel reads
// its weights and draws them; a click on the layers map selects that layer and pair everywhere; undo
// goes back; a config opened over it leaves no model folder behind (the panel says how to load one).
TEST_F(Flows, ADroppedModelFolderShowsItsTrainedPairsAndAClickSelectsOne) {
    const std::string folder = rope::test::synthetic_model_folder("qwen3");
    HeadlessApp app({"--fresh", "--set", "preset=llama-3-8b"}, 1280, 720);
    app.state().page = rope::figures::figure("trained").page;
    EXPECT_FRESH(app, "no model folder");
    const int panel = rope::figures::figure("trained").index;
    EXPECT_TRUE(app.app().panels()[panel].result.plots.empty());
    app.platform().input().push_drop(folder);
    EXPECT_FRESH(app, "model folder dropped");
    EXPECT_NE(app.state().status.find("Model folder " + folder), std::string::npos) << app.state().status;
    EXPECT_EQ(app.state().params()[P::dim], 48);
    EXPECT_EQ(app.state().params().value_text(P::model), folder);
    const auto& view = app.app().panels()[panel];
    const rope::figures::PlotGeometry* layers = view.result.plot("trained_layers");
    ASSERT_NE(layers, nullptr);
    ASSERT_NE(view.result.plot("trained_heads"), nullptr);
    // the planted pair of the last layer (planted.json): 22 of layer 1
    const rope::plot::Vec2 local = layers->px(22, 1);
    const float sx = view.screen.width() / view.result.list.width, sy = view.screen.height() / view.result.list.height;
    app.click(view.screen.x0 + local.x * sx, view.screen.y0 + local.y * sy);
    EXPECT_FRESH(app, "pair 22 of layer 1 clicked");
    EXPECT_EQ(app.state().params()[P::pair], 22);
    EXPECT_EQ(app.state().params()[P::layer], 1);
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "undo the click");
    EXPECT_EQ(app.state().params()[P::pair], 0);
    app.platform().input().push_drop(std::string(ROPE_HF_CONFIGS) + "/gemma-4-31b-transcribed.json");
    EXPECT_FRESH(app, "a config over the model folder");
    EXPECT_FALSE(app.state().params().has(P::model));
    EXPECT_TRUE(app.app().panels()[panel].result.plots.empty());
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "undo the config");
    EXPECT_EQ(app.state().params().value_text(P::model), folder);
    EXPECT_FALSE(app.app().panels()[panel].result.plots.empty());
}

// With model B, the anatomy shows B's strip under A's (x: the fraction of each model's depth): a
// click on A's strip loads that layer of A, one on B's strip or on B's rows of the kinds table loads
// nothing (they show B, whose layer is B's own), and hovering B's strip reads B's layer.
TEST_F(Flows, TheAnatomyWithBLoadsOnlyModelAsLayers) {
    HeadlessApp app({"--fresh", "--set", "preset=gemma-3-12b", "--set", "compare_to=gemma-4-31b"}, 1920, 1080);
    app.state().page = 3;
    EXPECT_FRESH(app, "Today's models, Gemma 3 against Gemma 4");
    const int panel = rope::figures::figure("model_anatomy").index;
    auto window_px = [&](const rope::figures::PlotGeometry& g, double x, double y) {
        const auto& view = app.app().panels()[panel];
        const rope::plot::Vec2 local = g.px(x, y);
        const float sx = view.screen.width() / view.result.list.width, sy = view.screen.height() / view.result.list.height;
        return rope::plot::Vec2{view.screen.x0 + local.x * sx, view.screen.y0 + local.y * sy};
    };
    const rope::figures::PlotGeometry* strip = app.app().panels()[panel].result.plot("anatomy_layers");
    ASSERT_NE(strip, nullptr);
    EXPECT_EQ(strip->x_max, 1.0);  // the fraction of depth
    const std::optional<std::int64_t> before = app.state().params()[P::layer];
    // B's strip: the lower band (y 0.25), at 42.5 of its 60 layers
    rope::plot::Vec2 b_cell = window_px(*strip, 42.5 / 60, 0.25);
    app.click(b_cell.x, b_cell.y);
    EXPECT_FRESH(app, "B's layer clicked");
    EXPECT_EQ(app.state().params()[P::layer], before);  // (gemma-3-12b loads its layer 5)
    EXPECT_EQ(before, 5);
    {
        rope::figures::FigureCache cache;
        int grab = 0;
        rope::figures::PanelContext hover{app.state().params(), cache, app.app().panels()[panel].result,
                                          [](const std::string&, const std::function<void(rope::ParamSet&)>&) {}, grab};
        EXPECT_EQ(rope::figures::figure("model_anatomy").readout(hover, *strip, 42.5 / 60, 0.25), "B's layer 42: sliding_attention");
        EXPECT_EQ(rope::figures::figure("model_anatomy").readout(hover, *strip, 11.5 / 48, 0.75), "A's layer 11: full_attention (click to load)");
    }
    // A's strip: the upper band (y 0.75), layer 11 of 48
    strip = app.app().panels()[panel].result.plot("anatomy_layers");
    ASSERT_NE(strip, nullptr);
    const rope::plot::Vec2 a_cell = window_px(*strip, 11.5 / 48, 0.75);
    app.click(a_cell.x, a_cell.y);
    EXPECT_FRESH(app, "A's layer clicked");
    EXPECT_EQ(app.state().params()[P::layer], 11);
    // the kinds table's last row is B's full_attention: nothing loads
    const auto& view = app.app().panels()[panel];
    const rope::figures::PlotGeometry* kinds = view.result.plot("anatomy_kinds");
    ASSERT_NE(kinds, nullptr);
    EXPECT_EQ(kinds->y_min, 4);  // A's two kinds, then B's
    const float sy = view.screen.height() / view.result.list.height, sx = view.screen.width() / view.result.list.width;
    app.click(view.screen.x0 + (kinds->area.x0 + kinds->area.width() * 0.5f) * sx, view.screen.y0 + (kinds->area.y0 + kinds->area.height() * 0.875f) * sy);
    EXPECT_FRESH(app, "B's kind row clicked");
    EXPECT_EQ(app.state().params()[P::layer], 11);
}

// The patch grid in the app: a click on any map moves the query patch of all three maps (one undo
// step), a drag moves it along (one undo step for the whole drag), and another model starts again
// from the middle. The window pixels of patch (2, 3) of the interleaved map at 1920x1080 are printed
// for the real-input test that clicks there (Classroom.ClickingAPatchMovesTheQuery).
TEST_F(Flows, ClickingAPatchMovesTheQueryOfEveryMap) {
    HeadlessApp app({"--fresh", "--set", "preset=qwen3-vl-8b"}, 1920, 1080);
    app.state().page = 4;
    EXPECT_FRESH(app, "Images and video with Qwen3-VL 8B");
    const int panel = rope::figures::figure("patch_grid").index;
    auto at = [&](const char* plot, int row, int col) {
        const auto& view = app.app().panels()[panel];
        const rope::figures::PlotGeometry* g = view.result.plot(plot);
        EXPECT_NE(g, nullptr) << plot;
        const int rows = static_cast<int>(app.state().params()[P::grid_rows]);
        const rope::plot::Vec2 local = g ? g->px(col, rows - 1 - row) : rope::plot::Vec2{0, 0};
        const float sx = view.screen.width() / view.result.list.width, sy = view.screen.height() / view.result.list.height;
        return rope::plot::Vec2{view.screen.x0 + local.x * sx, view.screen.y0 + local.y * sy};
    };
    const rope::plot::Vec2 p23 = at("patch_interleaved", 2, 3);
    const rope::plot::Vec2 p9_12 = at("patch_interleaved", 9, 12);
    std::printf("interleaved map at 1920x1080: patch (2, 3) at window pixel (%.0f, %.0f), (9, 12) at (%.0f, %.0f)\n", p23.x, p23.y,
                p9_12.x, p9_12.y);
    app.click(p23.x, p23.y);
    EXPECT_FRESH(app, "patch (2, 3) clicked");
    EXPECT_EQ(app.state().params().query_patch(), (std::pair<int, int>{2, 3}));
    const rope::plot::Vec2 a = at("patch_axial", 2, 3), b = at("patch_axial", 9, 12);
    app.drag(a.x, a.y, b.x, b.y);
    EXPECT_FRESH(app, "dragged on the axial map to (9, 12)");
    EXPECT_EQ(app.state().params().query_patch(), (std::pair<int, int>{9, 12}));
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "undo the drag");
    EXPECT_EQ(app.state().params().query_patch(), (std::pair<int, int>{2, 3}));
    app.key(GLFW_KEY_Z, GLFW_MOD_CONTROL);
    EXPECT_FRESH(app, "undo the click");
    EXPECT_FALSE(app.state().params().has(P::query_row));
    app.click(p23.x, p23.y);
    EXPECT_FRESH(app, "patch (2, 3) clicked again");
    EXPECT_TRUE(app.state().params().has(P::query_row));
    ASSERT_TRUE(app.state().change("preset qwen2.5-vl-7b", [](rope::ParamSet& next) { next.set(P::preset, "qwen2.5-vl-7b"); }));
    EXPECT_FRESH(app, "another model");
    EXPECT_FALSE(app.state().params().has(P::query_row));  // the next model starts from the middle
}

// A page whose panels do not all fit legibly (presenting at 1280x720 with model B) is shown a few
// panels at a time: Tab walks its parts, each panel once, then the next page; Shift+Tab comes back
// to the page's last part; every panel shown holds both models.
TEST_F(Flows, PresentingAPageInPartsWithTab) {
    HeadlessApp app({"--fresh", "--set", "preset=llama-2-7b", "--set", "compare_to=llama-3-8b"}, 1280, 720);
    app.state().presentation = true;
    app.state().page = 2;  // Why it works: panels 6-9 and 19
    EXPECT_FRESH(app, "why it works, presenting");
    const int parts = app.state().page_parts;
    ASSERT_GT(parts, 1) << "at 1280x720 with B the five panels do not fit at once";
    std::vector<int> seen;
    for (int part = 0; part < parts; ++part) {
        EXPECT_EQ(app.state().page, 2);
        EXPECT_EQ(app.state().page_part, part);
        for (const HeadlessApp::Picture& p : app.pictures()) seen.push_back(p.panel);
        for (const rope::gui::PanelView& v : app.app().panels().views)
            if (v.shown) {
                EXPECT_EQ(v.result.hidden_b, "") << "panel " << v.figure->index + 1 << " shows A only, in part " << part;
            }
        app.key(GLFW_KEY_TAB);
        EXPECT_FRESH(app, "Tab from part " + std::to_string(part));
    }
    EXPECT_EQ(seen, (std::vector<int>{5, 6, 7, 8, 18})) << "each of the page's panels once, in order";
    EXPECT_EQ(app.state().page, 3);
    EXPECT_EQ(app.state().page_part, 0);
    app.key(GLFW_KEY_TAB, GLFW_MOD_SHIFT);
    EXPECT_FRESH(app, "Shift+Tab back");
    EXPECT_EQ(app.state().page, 2);
    EXPECT_EQ(app.state().page_part, parts - 1);
    ASSERT_FALSE(app.pictures().empty());
    EXPECT_EQ(app.pictures().back().panel, 18);

    // the same page at 1920x1080 outside presentation mode: whole
    HeadlessApp large({"--fresh", "--set", "preset=llama-2-7b"}, 1920, 1080);
    large.state().page = 2;
    EXPECT_FRESH(large, "why it works, 1920x1080");
    EXPECT_EQ(large.state().page_parts, 1);
    EXPECT_EQ(large.pictures().size(), 5u);
}

// How many parts each page comes in (pages in order), as docs/user-guide.md's table says, for llama-2-7b
// alone and beside llama-3-8b as model B.
TEST_F(Flows, PagePartsAsTheUserGuideSays) {
    auto parts = [](float w, float h, bool presenting, const std::string& b) {
        std::vector<std::string> args{"--fresh", "--set", "preset=llama-2-7b"};
        if (!b.empty()) args.insert(args.end(), {"--set", "compare_to=" + b});
        HeadlessApp app(args, w, h);
        app.state().presentation = presenting;
        std::string out;
        for (int page = 0; page < static_cast<int>(rope::figures::pages().size()); ++page) {
            app.state().page = page;
            app.state().page_part = 0;
            EXPECT_TRUE(app.settle()) << "page " << page;
            out += (out.empty() ? "" : " ") + std::to_string(app.state().page_parts);
        }
        return out;
    };
    struct Row {
        float w, h;
        bool presenting;
        const char *alone, *with_b;
    };
    for (const Row& r : {Row{1920, 1080, false, "1 1 1 1 1 1 1", "1 1 1 1 1 2 1"}, Row{1280, 720, false, "2 1 1 2 1 2 1", "2 1 3 4 2 3 1"},
                         Row{1024, 768, false, "2 1 2 2 1 3 1", "2 1 3 3 2 3 1"}, Row{1920, 1080, true, "2 1 3 2 1 2 1", "4 1 5 4 2 3 1"},
                         Row{1280, 720, true, "2 1 3 2 1 2 1", "4 1 5 4 2 3 1"}}) {
        const std::string size = std::to_string(static_cast<int>(r.w)) + "x" + std::to_string(static_cast<int>(r.h)) + (r.presenting ? " presenting" : "");
        EXPECT_EQ(parts(r.w, r.h, r.presenting, ""), r.alone) << size;
        EXPECT_EQ(parts(r.w, r.h, r.presenting, "llama-3-8b"), r.with_b) << size << ", with B";
    }
}

namespace {

// Clicks the lesson editor's control named `label` where the editor drew it (after a settled frame).
void click_editor(HeadlessApp& app, const std::string& label) {
    ASSERT_TRUE(app.settle()) << label;
    for (const auto& placed : app.app().lesson_editor().placed())
        if (placed.label == label) {
            app.click((placed.min.x + placed.max.x) / 2, (placed.min.y + placed.max.y) / 2);
            ASSERT_TRUE(app.settle()) << label;
            return;
        }
    FAIL() << "the lesson editor shows no \"" << label << "\"";
}

// Replaces the text of the editor's field `label` by `text`, typed.
void type_into(HeadlessApp& app, const std::string& label, const std::string& text) {
    click_editor(app, label);
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_A);
    app.type(text);
    app.click(5, 5);  // away: the field lets go
    ASSERT_TRUE(app.settle());
}

}  // namespace

// What a teacher does in one window: a new lesson of three steps built from views (the panel
// maximised, the base raised), a text typed, a step moved up, a question asked first, saved; then
// opened in another app and presented with Page Down, the question asked before its change and
// revealed with its answer; Ctrl+Z takes back one edit at a time; the built-in lesson stays as it was.
TEST_F(Flows, ATeacherBuildsALessonInTheWindowAndPresentsIt) {
    const std::size_t builtin_steps = rope::lessons::builtin_lesson().steps.size();
    HeadlessApp app({"--fresh"}, 1600, 900);
    ASSERT_TRUE(app.settle());
    const std::int64_t m0 = app.state().params()[P::position];
    app.app().apply(rope::gui::act::ToggleLessonEditor{});  // the toolbar's "Edit lesson"
    click_editor(app, "New lesson");
    ASSERT_EQ(app.state().lesson().steps.size(), 1u);
    EXPECT_EQ(app.state().lesson().title, "My lesson");
    EXPECT_TRUE(app.state().lesson_file().empty());
    // step 2: the heatmap maximised (its key), the base two notches up
    app.key(GLFW_KEY_4);
    app.key(GLFW_KEY_RIGHT_BRACKET);
    app.key(GLFW_KEY_RIGHT_BRACKET);
    ASSERT_TRUE(app.settle());
    const double raised = app.state().params()[P::base];
    click_editor(app, "Add this view as a step");
    ASSERT_EQ(app.state().lesson().steps.size(), 2u);
    EXPECT_EQ(app.state().lesson_step(), 1);
    EXPECT_EQ(app.state().lesson().steps[1].panel->index, 3);
    EXPECT_EQ(rope::lessons::step_parameters(app.state().lesson().steps[1])[P::base], raised);
    EXPECT_NE(app.state().lesson().steps[1].parameters_json.find("\"base\""), std::string::npos);
    EXPECT_EQ(app.state().lesson().steps[1].parameters_json.find("\"dim\""), std::string::npos) << "only keys unlike the defaults: " << app.state().lesson().steps[1].parameters_json << " m0 " << m0;
    // step 3: position 40, its text typed
    app.key(GLFW_KEY_RIGHT, GLFW_MOD_SHIFT);
    app.key(GLFW_KEY_RIGHT, GLFW_MOD_SHIFT);
    ASSERT_TRUE(app.settle());
    click_editor(app, "Add this view as a step");
    ASSERT_EQ(app.state().lesson().steps.size(), 3u);
    type_into(app, "##text", "Watch the slow pairs.");
    EXPECT_EQ(app.state().lesson().steps[2].text, "Watch the slow pairs.");
    const std::size_t undo_before_typing = app.state().history().undo_entries().size();
    type_into(app, "title", "Further along");
    EXPECT_EQ(app.state().lesson().steps[2].title, "Further along");
    EXPECT_EQ(app.state().history().undo_entries().size(), undo_before_typing + 1) << "typing a field is one undo step";
    // moved up: it is step 2 now
    click_editor(app, "Up");
    EXPECT_EQ(app.state().lesson_step(), 1);
    EXPECT_EQ(app.state().lesson().steps[1].title, "Further along");
    // a question first: the picture before is the previous step's values of the keys this step changes
    click_editor(app, "Ask first (predict, then reveal)");
    ASSERT_TRUE(app.state().lesson().steps[1].question.has_value());
    type_into(app, "question", "Where does q turn next?");
    EXPECT_EQ(app.state().lesson().steps[1].question->ask, "Where does q turn next?");
    // the lesson window shows the edit as typed (its preview)
    EXPECT_EQ(app.state().lesson().steps[1].question->choices.size(), 3u);
    // undo the question's words, then redo them
    EXPECT_TRUE(app.state().undo());
    EXPECT_EQ(app.state().lesson().steps[1].question->ask, "What will change?");
    EXPECT_TRUE(app.state().redo());
    // save, through the dialog as a person does
    const std::string file = path("my-lesson.json");
    click_editor(app, "Save lesson...");
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_A);
    app.type(file);
    app.key(GLFW_KEY_ENTER);
    ASSERT_TRUE(app.settle());
    EXPECT_EQ(app.state().lesson_file(), file) << app.state().status;
    const auto saved = rope::lessons::read_lesson_file(file);
    ASSERT_EQ(saved->steps.size(), 3u);
    EXPECT_EQ(saved->steps[1].title, "Further along");
    EXPECT_EQ(saved->steps[1].question->ask, "Where does q turn next?");
    EXPECT_EQ(rope::lessons::builtin_lesson().steps.size(), builtin_steps) << "the built-in lesson is not changed";

    // presented in another app: Page Down asks, reveals, moves on
    HeadlessApp present({"--fresh", "--lessons", file}, 1280, 720);
    present.state().presentation = true;
    ASSERT_TRUE(present.settle());
    present.key(GLFW_KEY_PAGE_DOWN);
    EXPECT_FRESH(present, "step 1");
    EXPECT_EQ(present.state().lesson_step(), 0);
    present.key(GLFW_KEY_PAGE_DOWN);
    EXPECT_FRESH(present, "step 2 asked");
    EXPECT_EQ(present.state().lesson_step(), 1);
    ASSERT_TRUE(present.state().asking());
    EXPECT_EQ(present.state().params(), rope::lessons::question_parameters(saved->steps[1]));
    EXPECT_EQ(present.state().params()[P::position], m0) << "the state before: step 1's position";
    present.key(GLFW_KEY_PAGE_DOWN);
    EXPECT_FRESH(present, "step 2 revealed");
    EXPECT_FALSE(present.state().asking());
    EXPECT_EQ(present.state().params()[P::position], m0 + 20);
    EXPECT_EQ(present.state().status, "Lesson step 2 of 3: Further along");
    // undo takes the reveal back: the question is asked again
    present.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_Z);
    EXPECT_FRESH(present, "reveal undone");
    EXPECT_TRUE(present.state().asking());
    EXPECT_EQ(present.state().params()[P::position], m0);
    present.key(GLFW_KEY_PAGE_DOWN);
    present.key(GLFW_KEY_PAGE_DOWN);
    EXPECT_FRESH(present, "step 3");
    EXPECT_EQ(present.state().lesson_step(), 2);
    EXPECT_EQ(present.state().params()[P::base], raised);

    // back in the first app: Ctrl+Z through the edits to the built-in lesson
    for (int i = 0; i < 30 && !app.state().lesson_is_builtin(); ++i) app.state().undo();
    EXPECT_TRUE(app.state().lesson_is_builtin());
    EXPECT_TRUE(app.state().lesson_file().empty());
}

// Presenting a lesson, the step's panel fills the screen: Tab shows the next panel alone, and after
// the last panel the step again; Shift+Tab goes back; Page Down still steps the lesson.
TEST_F(Flows, TabShowsTheOtherPanelsWhilePresentingALesson) {
    HeadlessApp app({"--fresh", "--lesson", "4"}, 1280, 720);
    app.state().presentation = true;
    EXPECT_FRESH(app, "step 4 presented");
    const int home = rope::gui::lesson_panel(app.state())->index, n = rope::figures::figure_count();
    EXPECT_EQ(app.state().maximized, -1);
    app.key(GLFW_KEY_TAB);
    EXPECT_FRESH(app, "Tab");
    EXPECT_EQ(app.state().maximized, (home + 1) % n);
    ASSERT_EQ(app.pictures().size(), 1u);
    EXPECT_EQ(app.pictures()[0].panel, (home + 1) % n);
    app.key(GLFW_KEY_TAB, GLFW_MOD_SHIFT);
    EXPECT_FRESH(app, "Shift+Tab: the step again");
    EXPECT_EQ(app.state().maximized, -1);
    app.key(GLFW_KEY_TAB, GLFW_MOD_SHIFT);
    EXPECT_FRESH(app, "Shift+Tab: the panel before the step's");
    EXPECT_EQ(app.state().maximized, (home - 1 + n) % n);
    app.key(GLFW_KEY_TAB);
    EXPECT_FRESH(app, "Tab: after the last panel, the step");
    EXPECT_EQ(app.state().maximized, -1);
    for (int i = 0; i < n; ++i) app.key(GLFW_KEY_TAB);
    EXPECT_FRESH(app, "round every panel");
    EXPECT_EQ(app.state().maximized, -1) << "every panel once, then the step";
    EXPECT_EQ(app.state().lesson_step(), 3);
}

// Pointing while presenting: L held is the laser (its trail keeps frames coming, then the app is idle
// again); D turns the pen on, and a drag draws a stroke instead of reaching the panel (the parameters
// stay); C clears; a step change clears; outside presentation mode the keys are nothing.
TEST_F(Flows, TheLaserAndThePenWhilePresenting) {
    HeadlessApp app({"--fresh", "--lesson", "4"}, 1280, 720);
    app.state().presentation = true;
    EXPECT_FRESH(app, "presenting step 4");
    auto& input = app.platform().input();
    input.push(rope::gui::InputEvent::key(GLFW_KEY_L, GLFW_PRESS, 0));
    app.move(400, 300);
    app.frame();
    app.move(420, 310);
    app.frame();
    EXPECT_TRUE(app.app().pointing().laser());
    EXPECT_TRUE(app.app().wants_frame()) << "the trail fades over the next frames";
    input.push(rope::gui::InputEvent::key(GLFW_KEY_L, GLFW_RELEASE, 0));
    app.frame();
    EXPECT_FALSE(app.app().pointing().laser());
    ASSERT_TRUE(app.settle()) << "the trail fades and the app goes idle";
    // the pen: a drag over the heatmap draws, and leaves the parameters as they were
    const rope::ParamSet before = app.state().params();
    const std::size_t undo = app.state().history().undo_entries().size();
    app.key(GLFW_KEY_D);
    app.frame();
    ASSERT_TRUE(app.app().pointing().pen());
    app.drag(300, 300, 500, 380);
    ASSERT_TRUE(app.settle());
    EXPECT_EQ(app.app().pointing().strokes(), 1u);
    EXPECT_EQ(app.state().params(), before) << "the drag was the pen's, not the panel's";
    EXPECT_EQ(app.state().history().undo_entries().size(), undo);
    app.key(GLFW_KEY_C);
    app.frame();
    EXPECT_EQ(app.app().pointing().strokes(), 0u);
    app.drag(300, 300, 500, 380);
    ASSERT_TRUE(app.settle());
    EXPECT_EQ(app.app().pointing().strokes(), 1u);
    app.key(GLFW_KEY_PAGE_DOWN);
    ASSERT_TRUE(app.settle());
    EXPECT_EQ(app.app().pointing().strokes(), 0u) << "a step change clears the pen";
    app.key(GLFW_KEY_D);  // the pen off: a click reaches the panels again
    app.frame();
    EXPECT_FALSE(app.app().pointing().pen());
    // the lens: Z on, a round 2x magnifier of what is under the pointer; its source is half its
    // size, centred on the pointer, and stays within the window at an edge; Z off again
    app.key(GLFW_KEY_Z);
    app.move(500, 400);
    app.frame();
    EXPECT_TRUE(app.app().pointing().lens());
    const int lenses = app.renderer().lenses;
    EXPECT_GT(lenses, 0);
    const rope::plot::Rect source = app.renderer().lens_source, dest = app.renderer().lens_dest;
    EXPECT_FLOAT_EQ((source.x0 + source.x1) / 2, 500);
    EXPECT_FLOAT_EQ((dest.y0 + dest.y1) / 2, 400);
    EXPECT_FLOAT_EQ((dest.x1 - dest.x0), 2 * (source.x1 - source.x0));
    EXPECT_FALSE(app.app().pointing().holds_pointer()) << "the hover readout shows under the lens, enlarged";
    app.move(2, 2);
    app.frame();
    EXPECT_GE(app.renderer().lens_source.x0, 0);
    EXPECT_GE(app.renderer().lens_source.y0, 0);
    app.key(GLFW_KEY_Z);
    ASSERT_TRUE(app.settle());
    EXPECT_FALSE(app.app().pointing().lens());
    const int after = app.renderer().lenses;
    app.move(520, 410);
    app.frame();
    EXPECT_EQ(app.renderer().lenses, after) << "off: no lens drawn";
    // not presenting: L is no laser
    app.state().presentation = false;
    input.push(rope::gui::InputEvent::key(GLFW_KEY_L, GLFW_PRESS, 0));
    app.frame();
    EXPECT_FALSE(app.app().pointing().laser());
    input.push(rope::gui::InputEvent::key(GLFW_KEY_L, GLFW_RELEASE, 0));
    ASSERT_TRUE(app.settle());
}

// The handout from the window: the lesson editor's "Handout (PDF)..." asks for a file (the Pictures
// folder, named after the lesson), writes it off the UI thread (frames go on meanwhile) and says so on
// the status line; a name that is not .pdf is refused there and nothing is written.
TEST_F(Flows, AHandoutFromTheWindow) {
    HeadlessApp app({"--fresh"}, 1600, 900);
    ASSERT_TRUE(app.settle());
    app.app().apply(rope::gui::act::ToggleLessonEditor{});
    for (const std::string& name : {std::string("notes.txt"), std::string("handout.pdf")}) {
        click_editor(app, "Handout (PDF)...");
        app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_A);
        app.type(path(name));
        app.key(GLFW_KEY_ENTER);
        app.frame();
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        int frames = 0;
        auto said = [&] { return app.state().status.rfind("Handout saved", 0) == 0 || (app.state().status_error && app.state().status.find(path(name)) != std::string::npos); };
        while (!said() && std::chrono::steady_clock::now() < until) {
            app.frame();
            if (app.app().handouts().running()) ++frames;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        ASSERT_TRUE(app.settle());
        if (name == "notes.txt") {
            EXPECT_TRUE(app.state().status_error);
            EXPECT_NE(app.state().status.find("must end in .pdf"), std::string::npos) << app.state().status;
            EXPECT_FALSE(std::ifstream(path(name)).good()) << "nothing written";
            app.key(GLFW_KEY_ESCAPE);  // the dialog stays open to fix the path
            ASSERT_TRUE(app.settle());
            continue;
        }
        EXPECT_FALSE(app.state().status_error) << app.state().status;
        EXPECT_EQ(app.state().status.rfind("Handout saved to " + path(name) + " (", 0), 0u) << app.state().status;
        EXPECT_NE(app.state().status.find("the students', without answers"), std::string::npos) << app.state().status;
        EXPECT_GT(frames, 0) << "the window drew frames while the handout was written";
        std::ifstream pdf(path(name), std::ios::binary);
        std::string head(5, '\0');
        pdf.read(head.data(), 5);
        EXPECT_EQ(head, "%PDF-");
    }
}

// The presenter view (Shift+P): presenting turns on; the audience's window shows the step's panel
// over its whole width (the text is the presenter's), the question while it is asked, the answer in a
// band once revealed; the presenter's text has the step, the answer before the audience sees it, the
// notes and the next step. Its buttons are the lesson's actions. Shift+P again closes it.
TEST_F(Flows, ThePresenterViewHasTheTextTheAudienceSeesThePicture) {
    HeadlessApp app({"--fresh", "--lesson", "5"}, 1280, 720);
    EXPECT_FRESH(app, "step 5");
    app.key(GLFW_KEY_P, GLFW_MOD_SHIFT);
    EXPECT_FRESH(app, "Shift+P");
    EXPECT_TRUE(app.state().presenter_view);
    EXPECT_TRUE(app.state().presentation);
    ASSERT_EQ(app.pictures().size(), 1u);
    EXPECT_GT(app.pictures()[0].key.width, 1200.0f) << "the picture over the whole width (less its padding): no text column";
    rope::gui::PresenterText t = rope::gui::presenter_text(app.state());
    EXPECT_NE(t.heading.find("step\u00A05\u00A0of"), std::string::npos) << t.heading;  // (kept on one line)
    EXPECT_EQ(t.title, app.state().lesson().steps[4].title);
    EXPECT_FALSE(t.text.empty());
    EXPECT_EQ(t.text.find(std::string(rope::lessons::kSwatchMark)), std::string::npos) << "no swatch marks in the presenter's text";
    EXPECT_EQ(t.next, "Next: " + app.state().lesson().steps[5].title + " (asks first)") << "step 6 asks first; its title has its number";
    // step 6 asks: the audience sees the question (the lesson column), the presenter the answer too
    app.key(GLFW_KEY_PAGE_DOWN);
    EXPECT_FRESH(app, "step 6 asked");
    ASSERT_TRUE(app.state().asking());
    ASSERT_EQ(app.pictures().size(), 1u);
    EXPECT_LT(app.pictures()[0].key.width, 1100.0f) << "the question's column beside the picture";
    t = rope::gui::presenter_text(app.state());
    EXPECT_FALSE(t.question.empty());
    EXPECT_EQ(t.choices.size(), app.state().lesson().steps[5].question->choices.size());
    EXPECT_EQ(t.answer.rfind("Answer: B)", 0), 0u) << t.answer;
    // revealed: the picture across the window again, under the answer's band
    app.key(GLFW_KEY_PAGE_DOWN);
    EXPECT_FRESH(app, "step 6 revealed");
    EXPECT_FALSE(app.state().asking());
    ASSERT_EQ(app.pictures().size(), 1u);
    EXPECT_GT(app.pictures()[0].key.width, 1200.0f);
    EXPECT_LT(app.pictures()[0].key.height, 700.0f) << "the answer's band over it";
    t = rope::gui::presenter_text(app.state());
    EXPECT_TRUE(t.question.empty());
    EXPECT_FALSE(t.answer.empty());
    // the view itself, drawn in a context of its own as its window does: Next is Page Down
    {
        ImGuiContext* audience = ImGui::GetCurrentContext();
        ImGuiContext* own = ImGui::CreateContext();
        ImGui::SetCurrentContext(own);
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        io.DisplaySize = ImVec2(900, 640);
        rope::gui::Actions asked;
        bool reset = false;
        for (int frame = 0; frame < 2; ++frame) {
            ImGui::NewFrame();
            rope::gui::draw_presenter_view(app.state(), 75, io.Fonts->Fonts[0], reset, asked);
            ImGui::Render();
        }
        ImGui::DestroyContext(own);
        ImGui::SetCurrentContext(audience);
        EXPECT_TRUE(asked.empty());
        EXPECT_FALSE(reset);
    }
    EXPECT_EQ(rope::gui::timer_text(75), "1:15");
    EXPECT_EQ(rope::gui::timer_text(3725.6), "1:02:05");
    app.key(GLFW_KEY_P, GLFW_MOD_SHIFT);
    EXPECT_FRESH(app, "Shift+P again");
    EXPECT_FALSE(app.state().presenter_view);
    EXPECT_TRUE(app.state().presentation) << "still presenting, the text beside the picture again";
    ASSERT_EQ(app.pictures().size(), 1u);
    EXPECT_LT(app.pictures()[0].key.width, 1100.0f);
}

// A gesture's undo label says where it started and where it ended, where its steps are named by a
// place (the patch grid's drag); other gestures keep their label.
TEST(History, AGesturesLabelSaysWhereItStartedAndEnded) {
    rope::gui::History h;
    rope::gui::Snapshot s0, s1, s2, s3;
    s1.params.set(P::query_row, "4");
    s2.params.set(P::query_row, "5");
    s3.params.set(P::query_row, "6");
    h.record("query patch (3, 7)", s0, s1, "drag");
    h.record("query patch (4, 7)", s1, s2, "drag");
    h.record("query patch (5, 2)", s2, s3, "drag");
    ASSERT_EQ(h.undo_entries().size(), 1u);
    EXPECT_EQ(h.undo_entries().back().label, "query patch (3, 7) -> (5, 2)");
    h.end_gesture();
    h.record("base", s0, s1, "slider");
    h.record("base", s1, s2, "slider");
    EXPECT_EQ(h.undo_entries().back().label, "base");
}

// Less motion (issue 63): a session saved while the animation played starts it again by itself,
// unless reduced motion is on (--reduced-motion, the session's own view.reduced_motion, or the View
// section's box, which also stops a playing animation); Space still plays, and a session opened
// later does not turn reduced motion off. The laser pointer's trail fades over the frames after L is
// let go; with reduced motion there is none, the dot goes at once.
TEST_F(Flows, ReducedMotionKeepsPlayStillAndTheLaserWithoutATrail) {
    std::ofstream(path("playing.json")) << R"({"parameters": {"preset": "llama-3-8b"}, "view": {"playing": true}})";
    std::ofstream(path("still.json")) << R"({"parameters": {}, "view": {"playing": true, "reduced_motion": true}})";
    {
        HeadlessApp app({"--session", path("playing.json")}, 1280, 720);
        EXPECT_TRUE(app.state().playing) << "without reduced motion the session's animation plays on";
        EXPECT_FALSE(app.state().reduced_motion);
        rope::gui::Actions asked;
        asked.ask(rope::gui::act::SetReducedMotion{true});
        app.app().apply(asked);
        EXPECT_FALSE(app.state().playing) << "turning reduced motion on stops it";
    }
    for (const std::vector<std::string>& args : {std::vector<std::string>{"--session", path("playing.json"), "--reduced-motion"},
                                                 std::vector<std::string>{"--session", path("still.json")}}) {
        HeadlessApp app(args, 1280, 720);
        ASSERT_TRUE(app.settle()) << args.back();
        EXPECT_TRUE(app.state().reduced_motion) << args.back();
        EXPECT_FALSE(app.state().playing) << args.back() << ": Play does not start by itself";
        app.key(GLFW_KEY_SPACE);
        app.frame();
        EXPECT_TRUE(app.state().playing) << args.back() << ": Space still plays";
        // a session opened over it asks for motion: the reader's setting stands, the animation waits
        app.app().apply(rope::gui::act::OpenSession{"open", rope::session::load_session(path("playing.json")), path("playing.json"), nullptr});
        EXPECT_TRUE(app.state().reduced_motion) << args.back() << ": a file turns less motion on, never off";
        EXPECT_FALSE(app.state().playing) << args.back();
    }
    for (bool reduced : {false, true}) {
        HeadlessApp app({"--fresh", "--lesson", "4"}, 1280, 720);
        app.state().presentation = true;
        app.state().reduced_motion = reduced;
        ASSERT_TRUE(app.settle());
        auto& input = app.platform().input();
        input.push(rope::gui::InputEvent::key(GLFW_KEY_L, GLFW_PRESS, 0));
        for (float x : {400.f, 420.f, 440.f}) {
            app.move(x, 300);
            app.frame();
        }
        input.push(rope::gui::InputEvent::key(GLFW_KEY_L, GLFW_RELEASE, 0));
        app.frame();
        EXPECT_EQ(app.app().pointing().animating(), !reduced) << (reduced ? "no trail to fade" : "the trail fades");
        ASSERT_TRUE(app.settle());
        EXPECT_FALSE(app.app().pointing().animating());
    }
}
