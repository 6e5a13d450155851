// Record in the app, as a person uses it, in one process and in sequence: Ctrl+R over a panel opens
// the Record dialog with the running animation or the slider last used; Enter writes the file on a
// worker while frames go on and keys still act; the progress reaches the window; Ctrl+R stops a
// recording and nothing is left; changes made meanwhile do not reach the file; undo is untouched.
#include <GLFW/glfw3.h>
#include <chrono>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "export/cairo_canvas.hpp"
#include "export/export.hpp"
#include "figures/figure_cache.hpp"
#include "gui/dialogs/export_dialog.hpp"
#include "gui/dialogs/recording_fields.hpp"
#include "io/png_writer.hpp"
#include "support/headless_app.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace P = rope::P;

using rope::test::HeadlessApp;
using rope::test::run_process;

namespace {

class Recording : public rope::test::TempDirTest {
protected:
    void SetUp() override {
        TempDirTest::SetUp();
        setenv("XDG_STATE_HOME", path("state").c_str(), 1);
        setenv("XDG_PICTURES_DIR", dir_.c_str(), 1);
    }
    // Files (not folders) in the test folder: what a recording wrote, temporaries included.
    std::vector<std::string> files() const {
        return rope::test::split_lines(run_process({"/usr/bin/find", dir_, "-maxdepth", "1", "-type", "f", "-printf", "%f\n"}).out);
    }
    // The GIF's frame count and its comment (ImageMagick).
    static int gif_frames(const std::string& gif) {
        return static_cast<int>(rope::test::split_lines(run_process({"/usr/bin/identify", "-format", "%T\n", gif}).out).size());
    }
    static std::string gif_info(const std::string& gif) { return run_process({"/usr/bin/convert", gif + "[0]", "-verbose", "info:"}).out; }
};

// Ctrl+R over the panel at `panel`, then the dialog's first frame.
void ctrl_r_over(HeadlessApp& app, int panel) {
    const rope::gui::PanelView& p = app.app().panels()[panel];
    app.move((p.screen.x0 + p.screen.x1) / 2, (p.screen.y0 + p.screen.y1) / 2);
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_R);
    app.frame();
}

bool in_progress(const rope::gui::AppState& s) { return s.status.rfind("Recording /", 0) == 0; }

// Frames until the recording's outcome is on the status line; `during` runs on each frame while
// it is written. Returns whether the progress window's state (ExportJobs::recording) was seen.
template <typename During>
bool finish(HeadlessApp& app, During during) {
    // by the clock (ten minutes: a sanitizer build on a busy machine encodes slowly), not by a count
    // of frames whose length depends on the machine
    bool seen = false;
    const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(10);
    while (in_progress(app.state()) && std::chrono::steady_clock::now() < until) {
        seen = seen || app.app().exports().recording();
        during();
        app.frame();
        usleep(2000);
    }
    return seen;
}
bool finish(HeadlessApp& app) {
    return finish(app, [] {});
}

}  // namespace

// Not playing: position moves over its whole range now (0 to the context's last position), and the
// file's name says so; the file is written while frames go on, a key still moves the position,
// nothing on screen is rebuilt for it, and the file holds the parameters as they were when Record was pressed.
TEST_F(Recording, CtrlRRecordsTheAnimationOffTheUiThreadAndTheWindowStaysLive) {
    HeadlessApp app({"--fresh", "--set", "position=12", "--set", "max_position=200"});
    ASSERT_TRUE(app.settle());
    const std::size_t steps = app.state().history().undo_entries().size();
    ctrl_r_over(app, 0);
    rope::gui::ExportDialogState& d = app.app().exports().dialog();
    ASSERT_TRUE(d.open && d.recording);
    EXPECT_EQ(d.panel, 0);
    EXPECT_EQ(d.rec.key, rope::ParamId::position);
    EXPECT_EQ(d.rec.from, 0);
    EXPECT_EQ(d.rec.to, 199);
    EXPECT_EQ(d.rec.frames, 60);
    EXPECT_EQ(d.rec.fps, 30);
    EXPECT_EQ(d.rec.scale, 1.0f);
    EXPECT_EQ(std::string(d.file_name), "rope-vectors-position-0-199.gif");
    // the name follows the range until one is typed
    d.rec.to = 32;
    d.rec.from = 12;
    app.frame();
    EXPECT_EQ(std::string(d.file_name), "rope-vectors-position-12-32.gif");
    d.rec.frames = 30;
    app.key(GLFW_KEY_ENTER);
    app.frame();
    EXPECT_FALSE(d.open);
    ASSERT_TRUE(in_progress(app.state())) << app.state().status;
    bool pressed = false;
    const bool seen = finish(app, [&] {
        if (!pressed && app.app().exports().recording()) {
            app.key(GLFW_KEY_RIGHT);  // the window is live: the key acts now
            pressed = true;
        }
    });
    EXPECT_TRUE(seen) << "the progress window was never up";
    const std::string gif = path("rope-vectors-position-12-32.gif");
    EXPECT_EQ(app.state().status.rfind("Saved " + gif + " (GIF, 30 frames at 30 fps, 800x480, ", 0), 0u) << app.state().status;
    EXPECT_FALSE(app.state().status_error);
    EXPECT_FALSE(app.app().exports().recording());
    EXPECT_EQ(app.state().params()[P::position], pressed ? 13 : 12);
    EXPECT_TRUE(pressed);
    EXPECT_EQ(gif_frames(gif), 30);
    const std::string info = gif_info(gif);
    EXPECT_NE(info.find("animate=position=12:32"), std::string::npos) << "the parameters when Record was pressed";
    EXPECT_EQ(files(), std::vector<std::string>{"rope-vectors-position-12-32.gif"}) << "no temporary left beside it";
    // the recording was no change of the parameters: one undo step (the Right key), then the start
    EXPECT_EQ(app.state().history().undo_entries().size(), steps + 1);
    EXPECT_TRUE(app.state().undo());
    EXPECT_EQ(app.state().params()[P::position], 12);
}

// HTML is one of the Record dialog's formats: the page it writes holds the frames under a slider.
TEST_F(Recording, RecordingAnHtmlPageGivesASliderOverTheFrames) {
    HeadlessApp app({"--fresh", "--set", "position=12", "--set", "max_position=200"});
    ASSERT_TRUE(app.settle());
    ctrl_r_over(app, 0);
    rope::gui::ExportDialogState& d = app.app().exports().dialog();
    ASSERT_TRUE(d.open && d.recording);
    d.rec.format = rope::exporting::FileFormat::html;
    d.rec.frames = 12;
    app.frame();
    EXPECT_EQ(std::string(d.file_name), "rope-vectors-position-0-199.html");
    app.key(GLFW_KEY_ENTER);
    app.frame();
    EXPECT_TRUE(finish(app));
    const std::string page = path("rope-vectors-position-0-199.html");
    EXPECT_EQ(app.state().status.rfind("Saved " + page + " (HTML, 12 frames at 30 fps, 800x480, ", 0), 0u) << app.state().status;
    const std::string text = rope::test::read_file(page);
    EXPECT_NE(text.find("<input id=\"frame\" type=\"range\" min=\"0\" max=\"11\" step=\"1\""), std::string::npos);
    EXPECT_NE(text.find("\"position = 199\""), std::string::npos);
}

// "As it plays" follows the play speed: at 30 tokens/s, 60 frames at 30 fps move position by 59; and
// a recording's scale is its own, whatever scale the picture export was given.
TEST_F(Recording, AsItPlaysFollowsTheSpeedAndTheScaleIsTheRecordingsOwn) {
    HeadlessApp app({"--fresh", "--set", "position=12"});
    ASSERT_TRUE(app.settle());
    app.app().apply(rope::gui::act::OpenExportDialog{0, false});
    app.frame();
    rope::gui::ExportDialogState& d = app.app().exports().dialog();
    ASSERT_TRUE(d.open && !d.recording);
    d.scale = 3;
    app.key(GLFW_KEY_ESCAPE);
    app.frame();
    ASSERT_FALSE(d.open);
    app.app().apply(rope::gui::act::SetSpeed{30});
    ctrl_r_over(app, 0);
    ASSERT_TRUE(d.open && d.recording);
    rope::gui::play_run(app.state(), d.rec);  // the "as it plays" button
    EXPECT_EQ(d.rec.key, rope::ParamId::position);
    EXPECT_EQ(d.rec.from, 12);
    EXPECT_EQ(d.rec.to, 12 + 59);
    EXPECT_EQ(d.rec.scale, 1.0f);
    EXPECT_EQ(d.scale, 3.0f) << "the picture export keeps its own scale";
}

// Record moves position by default, even after another slider was used; the slider picked in
// "moves" is swept across its slider's range and the file's name follows it; Ctrl+R while it is
// written stops it and leaves nothing; a second recording then runs to the end; undo still undoes the slider.
TEST_F(Recording, PositionByDefaultThePickedSliderIsSweptAndCtrlRCancels) {
    HeadlessApp app({"--fresh"});
    ASSERT_TRUE(app.settle());
    app.state().apply_number(P::base, 20000, "item:base");
    app.state().end_gesture();
    EXPECT_EQ(app.state().selected_key, rope::ParamId::base);
    ctrl_r_over(app, 3);  // the long-range decay reads position and base
    rope::gui::ExportDialogState& d = app.app().exports().dialog();
    ASSERT_TRUE(d.open && d.recording);
    EXPECT_EQ(d.rec.key, rope::ParamId::position);
    rope::gui::default_sweep(app.state(), rope::ParamId::base, d.rec);  // "moves": base, as the combo picks it
    app.frame();
    EXPECT_EQ(d.rec.key, rope::ParamId::base);
    EXPECT_EQ(d.rec.from, 10);
    EXPECT_EQ(d.rec.to, 1e9);
    EXPECT_EQ(std::string(d.file_name), "rope-decay-base-10-1000000000.gif");
    d.rec.frames = 1000;
    d.rec.scale = 2;
    app.key(GLFW_KEY_ENTER);
    app.frames_until([&] { return app.app().exports().recording(); });
    ASSERT_TRUE(app.app().exports().recording());
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_R);  // over the panel, but a recording runs: stop it
    finish(app);
    EXPECT_EQ(app.state().status, "Recording cancelled: nothing was written.");
    EXPECT_FALSE(d.open) << "Ctrl+R stopped the recording; it opened no dialog";
    EXPECT_TRUE(files().empty()) << files().front();

    ctrl_r_over(app, 3);
    ASSERT_TRUE(d.open && d.recording);
    rope::gui::default_sweep(app.state(), rope::ParamId::base, d.rec);
    d.rec.frames = 4;
    d.rec.format = rope::exporting::FileFormat::mp4;
    std::snprintf(d.file_name, sizeof d.file_name, "sweep.mp4");
    d.file_name_typed = true;  // as typing it would: the name no longer follows the range
    app.key(GLFW_KEY_ENTER);
    app.frame();
    finish(app);
    // the dialog keeps the scale chosen last time: 2
    EXPECT_EQ(app.state().status.rfind("Saved " + path("sweep.mp4") + " (MP4, 4 frames at 30 fps, 1600x960, ", 0), 0u) << app.state().status;
    const std::string probe = run_process({"/usr/bin/ffprobe", "-v", "error", "-count_frames", "-show_entries",
                                           "stream=codec_name,nb_read_frames:format_tags=animate", "-of", "default=nw=1", path("sweep.mp4")})
                                  .out;
    EXPECT_NE(probe.find("codec_name=h264"), std::string::npos) << probe;
    EXPECT_NE(probe.find("nb_read_frames=4"), std::string::npos) << probe;
    EXPECT_NE(probe.find("animate=base=10:1000000000"), std::string::npos) << probe;
    EXPECT_TRUE(app.state().undo());
    EXPECT_EQ(app.state().params()[P::base], 10000);
}

// Fields that cannot make a recording keep the dialog open with the reason, and write nothing.
TEST_F(Recording, TheDialogRefusesWhatCannotBeRecorded) {
    HeadlessApp app({"--fresh", "--set", "position=12"});
    ASSERT_TRUE(app.settle());
    app.app().apply(rope::gui::act::OpenExportDialog{0, true});
    app.frame();
    rope::gui::ExportDialogState& d = app.app().exports().dialog();
    const rope::figures::FigureDescriptor& vectors = *app.app().panels()[0].figure;
    const rope::ParamSet& p = app.state().params();
    struct Case {
        std::function<void(rope::gui::RecordingFields&)> edit;
        std::string says;
    };
    const std::vector<Case> cases = {
        {[](rope::gui::RecordingFields& r) { r.to = r.from; }, "From and to are the same: nothing would move."},
        {[](rope::gui::RecordingFields& r) { r.frames = 1; }, "Frames must be from 2 to 1000."},
        {[](rope::gui::RecordingFields& r) { r.fps = 500; }, "Frames per second must be from 1 to 120."},
        {[](rope::gui::RecordingFields& r) { r.to = -5; }, "position"},
        {[](rope::gui::RecordingFields& r) { r.key = rope::ParamId::grid_rows; }, "This figure has no number to move."},
    };
    for (const Case& c : cases) {
        rope::gui::RecordingFields rec = d.rec;
        c.edit(rec);
        const std::string problem = rope::gui::recording_problem(p, vectors, rec);
        EXPECT_NE(problem.find(c.says), std::string::npos) << problem;
        EXPECT_EQ(problem.find("--animate"), std::string::npos) << "the dialog's words, not the command line's: " << problem;
        const rope::gui::RecordingFields kept = d.rec;
        d.rec = rec;
        app.key(GLFW_KEY_ENTER);
        for (int i = 0; i < 5; ++i) app.frame();
        EXPECT_TRUE(d.open) << c.says;
        d.rec = kept;
    }
    EXPECT_TRUE(files().empty());
    EXPECT_EQ(rope::gui::recording_problem(p, vectors, d.rec), "");
}

namespace {

// The pixels of `image` inside `r` (clipped to the image), row by row.
std::vector<std::uint8_t> pixels_in(const rope::io::PngImage& image, rope::plot::Rect r) {
    std::vector<std::uint8_t> out;
    const int x0 = std::max(0, static_cast<int>(r.x0)), x1 = std::min(image.width, static_cast<int>(r.x1) + 1);
    const int y0 = std::max(0, static_cast<int>(r.y0)), y1 = std::min(image.height, static_cast<int>(r.y1) + 1);
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            for (int c = 0; c < 4; ++c) out.push_back(image.rgba[4 * (static_cast<std::size_t>(y) * image.width + x) + c]);
    return out;
}

}  // namespace

// Record writes through export --animate's code (export_animation), so it holds what adapts to the
// data over the run too: the patch grid's colour key fits the lowest similarity, which moves with the
// base; in the recorded PNG sequence the first and last frames' key (bar and its labels) are the very
// same pixels, while the maps beside it change.
TEST_F(Recording, ARecordingHoldsThePatchGridsColourKeyStill) {
    HeadlessApp app({"--fresh"});
    ASSERT_TRUE(app.settle());
    const rope::figures::FigureDescriptor* patch_grid = rope::figures::find_figure("patch_grid");
    ASSERT_NE(patch_grid, nullptr);
    app.app().apply(rope::gui::act::OpenExportDialog{patch_grid->index, true});
    app.frame();
    rope::gui::ExportDialogState& d = app.app().exports().dialog();
    ASSERT_TRUE(d.open && d.recording);
    d.rec.key = rope::ParamId::base;
    d.rec.from = 100;
    d.rec.to = 1000000;
    d.rec.frames = 3;
    d.rec.scale = 1;
    d.rec.format = rope::exporting::FileFormat::png_folder;
    d.width = 1200;
    d.height = 900;
    d.theme = rope::plot::ThemeId::light;
    std::snprintf(d.file_name, sizeof d.file_name, "patch-grid");
    d.file_name_typed = true;
    app.key(GLFW_KEY_ENTER);
    app.frame();
    finish(app);
    ASSERT_EQ(app.state().status.rfind("Saved " + path("patch-grid/"), 0), 0u) << app.state().status;
    const rope::io::PngImage first = rope::io::read_png(path("patch-grid/frame-0001.png"));
    const rope::io::PngImage last = rope::io::read_png(path("patch-grid/frame-0003.png"));

    // where the key is: its place does not depend on the data, so one build at this size finds it
    rope::exporting::ExportOptions o;
    o.width = 1200;
    o.height = 900;
    rope::exporting::CairoTextMeasure measure;
    rope::figures::FigureCache cache;
    const rope::plot::DisplayList list = rope::exporting::build_for_file(*patch_grid, rope::ParamSet(), o, measure, false, cache).list;
    std::optional<rope::plot::Rect> bar;
    for (const rope::plot::Command& c : list.commands)
        if (const auto* image = std::get_if<rope::plot::ImageCmd>(&c); image && image->rows == 1 && image->cols == 256) bar = image->rect;
    ASSERT_TRUE(bar.has_value()) << "the shared colour key under the maps";
    const rope::plot::Rect key{bar->x0 - 40, bar->y0, bar->x1 + 40, bar->y1 + 24};  // the bar and its tick labels below it
    EXPECT_TRUE(pixels_in(first, key) == pixels_in(last, key)) << "the colour key moved between the first and last frame";
    EXPECT_FALSE(first.rgba == last.rgba) << "the maps change with the base";
}

// Keys typed ahead of a slow (or busy) machine reach it together: Ctrl+R, Enter and Ctrl+R waiting
// in one queue before a frame open the dialog, start the recording and stop it, as they would one
// frame apart; the recording writes nothing and no dialog is left open.
TEST_F(Recording, CtrlREnterCtrlRTypedAheadRecordsThenStops) {
    HeadlessApp app({"--fresh", "--set", "position=3"});
    ASSERT_TRUE(app.settle());
    const rope::gui::PanelView& p = app.app().panels()[0];
    app.move((p.screen.x0 + p.screen.x1) / 2, (p.screen.y0 + p.screen.y1) / 2);
    app.frame();
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_R);
    app.key(GLFW_KEY_ENTER);
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_R);
    ASSERT_TRUE(app.frames_until([&] { return app.platform().input().empty() && !in_progress(app.state()); }, 600)) << app.state().status;
    EXPECT_EQ(app.state().status, "Recording cancelled: nothing was written.");
    EXPECT_FALSE(app.app().exports().dialog().open) << "the second Ctrl+R stopped the recording; it opened no dialog";
    EXPECT_TRUE(files().empty()) << files().front();
}
