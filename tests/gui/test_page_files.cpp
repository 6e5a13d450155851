// Files on a page (the browser's platform, here headless with its downloads and picks recorded): Save,
// the lesson's Save, Export and the screenshot become downloads of whole files; Open and Config ask
// the page's picker; the handout and the formats this build cannot write say it is the desktop app's.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <iterator>
#include <string>

#include "export/file_formats.hpp"
#include "gui/app/actions.hpp"
#include "cli/arguments.hpp"
#include "session/page_address.hpp"
#include "session/session.hpp"
#include "support/headless_app.hpp"
#include "support/temp_dir.hpp"

namespace {

using rope::test::HeadlessApp;
namespace act = rope::gui::act;

class PageFiles : public rope::test::TempDirTest {
protected:
    void SetUp() override {
        TempDirTest::SetUp();
        setenv("XDG_STATE_HOME", path("state").c_str(), 1);
        setenv("XDG_PICTURES_DIR", dir_.c_str(), 1);
        setenv("TMPDIR", dir_.c_str(), 1);  // the page's memory: downloads are written here first
    }
    void TearDown() override {
        unsetenv("TMPDIR");
        TempDirTest::TearDown();
    }
    static std::string read(const std::string& file) {
        std::ifstream in(file, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
    static void ask(HeadlessApp& app, rope::gui::Action action) {
        rope::gui::Actions asked;
        asked.ask(std::move(action));
        app.app().apply(asked);
        app.settle();
    }
};

TEST_F(PageFiles, SaveAndTheLessonAreDownloadsOpenAndConfigAskThePicker) {
    HeadlessApp app({"--fresh", "--set", "preset=llama-3-8b", "--set", "position=1000"}, 1280, 720, true);
    ASSERT_TRUE(app.settle());
    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_S);
    app.settle();
    EXPECT_FALSE(app.app().session_dialog().is_open()) << "no path dialog on a page";
    ASSERT_EQ(app.platform().downloads.size(), 1u);
    const auto& session = app.platform().downloads.back();
    EXPECT_EQ(session.name, "session.rope.json");
    EXPECT_EQ(session.mime, "application/json");
    EXPECT_EQ(session.path, dir_ + "/rope-explorer-downloads/session.rope.json");
    const rope::session::Session saved = rope::session::load_session(session.path);
    EXPECT_EQ(saved.params, app.state().params());
    EXPECT_EQ(app.state().status, "Session downloaded as session.rope.json.");

    ask(app, act::OpenFileDialog{act::OpenFileDialog::save_lesson});
    ASSERT_EQ(app.platform().downloads.size(), 2u);
    EXPECT_EQ(app.platform().downloads.back().name.substr(app.platform().downloads.back().name.size() - 5), ".json");
    EXPECT_NE(read(app.platform().downloads.back().path).find("\"steps\""), std::string::npos);

    app.chord(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_O);
    app.settle();
    ask(app, act::OpenFileDialog{act::OpenFileDialog::open_config_b});
    ASSERT_EQ(app.platform().picks.size(), 2u);
    EXPECT_EQ(app.platform().picks[0], ".json,.png,application/json,image/png");
    EXPECT_EQ(app.platform().picks[1], ".json,application/json as B");
    EXPECT_FALSE(app.app().session_dialog().is_open());

    ask(app, act::OpenFileDialog{act::OpenFileDialog::save_handout});
    EXPECT_TRUE(app.state().status_error);
    EXPECT_NE(app.state().status.find("desktop app"), std::string::npos) << app.state().status;
    EXPECT_EQ(app.platform().downloads.size(), 2u);
}

TEST_F(PageFiles, ExportIsADownloadOfTheWholeFileAndTheScreenshotToo) {
    HeadlessApp app({"--fresh", "--set", "position=12"}, 1280, 720, true);
    ASSERT_TRUE(app.settle());
    ask(app, act::OpenExportDialog{1, false});
    ASSERT_TRUE(app.app().exports().dialog().open);
    app.app().exports().dialog().format = rope::exporting::FileFormat::svg;
    std::snprintf(app.app().exports().dialog().file_name, sizeof app.app().exports().dialog().file_name, "heat.svg");
    app.key(GLFW_KEY_ENTER);
    app.frames_until([&] { return !app.platform().downloads.empty(); });
    ASSERT_EQ(app.platform().downloads.size(), 1u) << app.state().status;
    const auto& svg = app.platform().downloads.back();
    EXPECT_EQ(svg.name, "heat.svg");
    EXPECT_EQ(svg.mime, "image/svg+xml");
    const std::string text = read(svg.path);
    EXPECT_EQ(text.substr(text.size() - 7), "</svg>\n");
    EXPECT_EQ(app.state().status.rfind("Downloaded heat.svg (SVG, ", 0), 0u) << app.state().status;

    app.state().screenshot_requested = true;
    app.settle();
    ASSERT_EQ(app.platform().downloads.size(), 2u);
    EXPECT_EQ(app.platform().downloads.back().mime, "image/png");
    EXPECT_EQ(read(app.platform().downloads.back().path).substr(1, 3), "PNG");
    EXPECT_EQ(app.state().status.rfind("Screenshot downloaded as rope-explorer-", 0), 0u) << app.state().status;
}

// Copy link (where the desktop has Quit): the page's address of this view to the clipboard, which
// opened again (the address parsed and applied) gives the same parameters.
TEST_F(PageFiles, CopyLinkPutsThisViewsAddressOnTheClipboard) {
    HeadlessApp app({"--fresh", "--set", "preset=qwen2.5-7b", "--set", "position=300", "--theme", "light"}, 1280, 720, true);
    ASSERT_TRUE(app.settle());
    EXPECT_TRUE(app.state().on_page);
    ask(app, act::CopyLink{});
    const std::string link = app.platform().clipboard();
    EXPECT_EQ(link, "#" + app.app().page_fragment());
    EXPECT_NE(link.find("preset=qwen2.5-7b"), std::string::npos) << link;
    EXPECT_NE(link.find("position=300"), std::string::npos) << link;
    EXPECT_NE(link.find("theme=light"), std::string::npos) << link;
    EXPECT_EQ(app.state().status, "Link copied: " + link);
    const rope::session::PageAddress opened = rope::session::parse_page_address(link.substr(1));
    EXPECT_TRUE(opened.errors.empty());
    rope::ParamSet reopened;
    rope::cli::apply_sets(reopened, opened.sets);
    EXPECT_EQ(reopened, app.state().params());
}

// Every format this build writes is offered; the browser's build writes no PDF or pixel animation.
TEST(PageFormats, TheDesktopWritesEveryFormatAndEachHasAType) {
    for (const rope::exporting::FileFormatInfo& f : rope::exporting::file_formats()) {
        EXPECT_TRUE(rope::exporting::writable_here(f)) << f.name;
        EXPECT_NE(f.mime.find('/'), std::string_view::npos) << f.name;
    }
}

}  // namespace
