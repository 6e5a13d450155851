// Presentation mode on the projectors people have (1280x720, 1024x768, 1920x1080) and the app at
// 1280x720 outside it, as a teacher clicks through the lesson in one sitting: every step's text
// shown whole (no scrollbar) beside or below its panel, no window over another, and no text smaller
// than the rule: 1/36 of the window's height when presenting (20 px at 720p, 30 px at 1080p), 13 px
// otherwise.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "figures/registry.hpp"
#include "gui/app/ui_helpers.hpp"
#include "lessons/lessons.hpp"
#include "support/headless_app.hpp"
#include "support/temp_dir.hpp"

using rope::test::HeadlessApp;

namespace {

class Presentation : public rope::test::TempDirTest {
protected:
    void SetUp() override {
        TempDirTest::SetUp();
        setenv("XDG_STATE_HOME", path("state").c_str(), 1);
    }
    int steps() const { return static_cast<int>(rope::lessons::builtin_lesson().steps.size()); }
};

struct Smallest {
    float size = 1e9f;
    std::string what;
    void see(float s, const std::string& w) {
        if (s < size) size = s, what = w;
    }
};

// The smallest text on screen: the figures' text (drawn at the display list's sizes) and the type of
// the app's own windows (the UI font, the bold one of titles).
Smallest smallest_text(HeadlessApp& app) {
    Smallest s;
    for (const auto& picture : app.pictures())
        for (const auto& c : picture.list.commands)
            if (const auto* t = std::get_if<rope::plot::TextCmd>(&c))
                s.see(t->size, std::string(rope::figures::figure_at(picture.panel).name) + ": \"" + t->text + "\"");
    const ImGuiContext& g = *GImGui;
    for (const ImGuiWindow* w : g.Windows) {
        if (!w->WasActive || w->Hidden) continue;
        s.see(w->FontWindowScale * ImGui::GetIO().FontDefault->FontSize, std::string("window ") + w->Name);
    }
    return s;
}

// The app's fixed windows drawn this frame (panels, lesson, formula strip, controls), by name.
std::vector<const ImGuiWindow*> placed_windows() {
    std::vector<const ImGuiWindow*> out;
    for (const ImGuiWindow* w : GImGui->Windows) {
        if (!w->WasActive || w->Hidden || (w->Flags & ImGuiWindowFlags_ChildWindow)) continue;
        const std::string n = w->Name;
        if (n.rfind("##panel", 0) == 0 || n == "Lesson" || n == "##formula" || n == "Controls") out.push_back(w);
    }
    return out;
}

std::string overlap_or_outside(float width, float height) {
    const auto windows = placed_windows();
    for (std::size_t a = 0; a < windows.size(); ++a) {
        const ImRect ra = windows[a]->Rect();
        if (ra.Min.x < -0.5f || ra.Min.y < -0.5f || ra.Max.x > width + 0.5f || ra.Max.y > height + 0.5f)
            return std::string(windows[a]->Name) + " leaves the window";
        for (std::size_t b = a + 1; b < windows.size(); ++b) {
            const ImRect rb = windows[b]->Rect();
            const float w = std::min(ra.Max.x, rb.Max.x) - std::max(ra.Min.x, rb.Min.x);
            const float h = std::min(ra.Max.y, rb.Max.y) - std::max(ra.Min.y, rb.Min.y);
            if (w > 1 && h > 1) return std::string(windows[a]->Name) + " overlaps " + windows[b]->Name;
        }
    }
    return "";
}

// How far the lesson's text would scroll (0: all of it shown).
float lesson_text_scroll() {
    for (const ImGuiWindow* w : GImGui->Windows)
        if (w->WasActive && std::string(w->Name).rfind("Lesson/", 0) == 0 && std::string(w->Name).find("lesson_text") != std::string::npos)
            return w->ScrollMax.y;
    return -1;  // no lesson text drawn
}

}  // namespace

// Page Down through the whole lesson in presentation mode at each projector size.
TEST_F(Presentation, EveryStepReadableOnAProjector) {
    for (const auto& [w, h] : {std::pair{1280.f, 720.f}, std::pair{1024.f, 768.f}, std::pair{1920.f, 1080.f}}) {
        const std::string size = std::to_string(static_cast<int>(w)) + "x" + std::to_string(static_cast<int>(h));
        HeadlessApp app({"--fresh"}, w, h);
        app.state().presentation = true;
        ASSERT_TRUE(app.settle());
        for (int n = 1, asked = 0; n <= steps(); n += asked ? 0 : 1) {
            app.key(GLFW_KEY_PAGE_DOWN);
            ASSERT_TRUE(app.settle()) << size << " step " << n;
            asked = app.state().asking();  // a question: checked as asked, and again once revealed
            const std::string where = size + " step " + std::to_string(n) + (asked ? " asked" : "");
            EXPECT_EQ(lesson_text_scroll(), 0.0f) << where << ": the lesson text needs a scrollbar";
            EXPECT_EQ(overlap_or_outside(w, h), "") << where;
            const Smallest s = smallest_text(app);
            EXPECT_GE(s.size, std::ceil(h / 36.0f) - 0.01f) << where << ": " << s.what;
            // the lesson's panel is the one shown, and it is most of the screen
            ASSERT_EQ(app.pictures().size(), 1u) << where;
            const auto& panel = app.app().panels()[app.pictures()[0].panel];
            EXPECT_GE(panel.size.x * panel.size.y, 0.4f * w * h) << where << ": the panel is too small";
        }
    }
}

// Every page at 1280x720 outside presentation mode, and with the lesson open.
TEST_F(Presentation, EveryPageReadableAt720p) {
    HeadlessApp app({"--fresh"}, 1280, 720);
    for (int lesson_step : {-1, 6}) {
        if (lesson_step >= 0) app.state().go_to_lesson_step(lesson_step);
        for (int page = 0; page < static_cast<int>(rope::figures::pages().size()); ++page) {
            app.state().page = page;
            ASSERT_TRUE(app.settle()) << "page " << page;
            const std::string where = "page " + std::to_string(page) + (lesson_step >= 0 ? " with the lesson" : "");
            EXPECT_EQ(overlap_or_outside(1280, 720), "") << where;
            const Smallest s = smallest_text(app);
            EXPECT_GE(s.size, 13.0f) << where << ": " << s.what;
        }
    }
}

// Text is broken into lines only at spaces: "0.11957" or "(1, 2)" never across two lines.
TEST_F(Presentation, LinesBreakOnlyAtSpaces) {
    HeadlessApp app({"--fresh"}, 1280, 720);
    app.frame();
    ImGui::NewFrame();
    const std::string text = "θ₀ = 10000^(−2·0/128) = 0.11957 rad/token, R(m·θ₀)·(x₀, x₁) = (0.5·1 − (−0.25)·2, 1.5)";
    for (float width : {40.f, 90.f, 150.f, 260.f, 600.f}) {
        std::string joined;
        const std::vector<std::string> lines = rope::gui::wrap_at_spaces(text, width);
        for (const std::string& line : lines) {
            joined += (joined.empty() ? "" : " ") + line;
            // a line is wider than the width only when it is one word
            if (line.find(' ') != std::string::npos) {
                EXPECT_LE(ImGui::CalcTextSize(line.c_str()).x, width) << line;
            }
        }
        EXPECT_EQ(joined, text) << "at width " << width;
        if (width < 600) {
            EXPECT_GT(lines.size(), 1u) << "at width " << width;
        }
    }
    ImGui::EndFrame();
}
