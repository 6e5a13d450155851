// Presentation mode on the projectors people have (1280x720, 1024x768, 1920x1080) and the app at
// 1280x720 outside it, as a teacher clicks through the lesson in one sitting: every step's text
// shown whole (no scrollbar) beside or below its panel, no window over another, and no text smaller
// than the rule: 1/36 of the window's height when presenting (20 px at 720p, 30 px at 1080p), 13 px
// otherwise. Presenting, the audience's window holds no control and no word on what a click, a key
// or an export does, on every page and at every lesson step; the presenter view says it instead.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <stdlib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "figures/registry.hpp"
#include "gui/app/ui_helpers.hpp"
#include "gui/presentation/presenter_view.hpp"
#include "gui/presentation/teaching.hpp"
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

// Every glyph the window drew this frame, in the order drawn (a space draws nothing), by the window
// that drew it: the figures' words and the app's own (headers, the lesson, tooltips) as the room sees
// them. Read from the draw lists: a glyph is a quad whose texture corners are the glyph's in the font atlas.
std::vector<std::pair<std::string, std::string>> drawn_glyphs() {
    std::map<std::array<float, 4>, unsigned int> glyphs;  // (u0, v0, u1, v1): the character
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
        for (const ImFontGlyph& g : font->Glyphs)
            if (g.Visible) glyphs[{g.U0, g.V0, g.U1, g.V1}] = g.Codepoint;
    std::vector<std::pair<std::string, std::string>> out;
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; data && l < data->CmdListsCount; ++l) {
        out.emplace_back(data->CmdLists[l]->_OwnerName ? data->CmdLists[l]->_OwnerName : "", "");
        const ImVector<ImDrawVert>& v = data->CmdLists[l]->VtxBuffer;
        for (int i = 0; i + 3 < v.Size; ++i) {
            const auto at = glyphs.find({v[i].uv.x, v[i].uv.y, v[i + 2].uv.x, v[i + 2].uv.y});
            if (at == glyphs.end() || v[i + 1].uv.x != v[i + 2].uv.x || v[i + 1].uv.y != v[i].uv.y) continue;
            char utf8[5];
            out.back().second += ImTextCharToUtf8(utf8, at->second);
            i += 3;
        }
    }
    return out;
}

// The buttons' labels, and with them the words on what a click, a drag, a key or an export does, as
// drawn (a space draws nothing; any case).
const std::vector<std::string> kButtons{"record", "export", "maximise", "restore", "<back", "next>", "reveal>", "close"};
const std::vector<std::string> kHints = [] {
    std::vector<std::string> hints{"click", "drag", "maximis", "ctrl+", "--set", "--plot", "(aonly)", "(a only)", "(1:all)", "intheheader"};
    hints.insert(hints.end(), kButtons.begin(), kButtons.end());
    return hints;
}();

// The first of `found` in `words` (any case), with the words around it; "" if none.
std::string first_of(const std::string& words, const std::vector<std::string>& found) {
    std::string lower = words;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const std::string& word : found) {
        const std::size_t at = lower.find(word);
        if (at != std::string::npos) return "\"" + word + "\" in \"" + words.substr(at < 40 ? 0 : at - 40, 100) + "\"";
    }
    return "";
}

// A control or a word on the UI the room would read ("" if none): a button's label, a hint on a click,
// a drag, a key or an export, the page tabs or the controls. The lesson's own words are the teacher's
// (a step may say "Click a layer"): its window is checked for buttons only.
std::string control_or_hint(HeadlessApp& app) {
    for (const auto& [window, glyphs] : drawn_glyphs()) {
        const std::string found = first_of(glyphs, window.rfind("Lesson", 0) == 0 ? kButtons : kHints);
        if (!found.empty()) return "window " + window + ": " + found;
    }
    for (const auto& picture : app.pictures())  // the figures' words with their spaces, as built
        for (const auto& c : picture.list.commands)
            if (const auto* t = std::get_if<rope::plot::TextCmd>(&c); t && !first_of(t->text, kHints).empty())
                return std::string(rope::figures::figure_at(picture.panel).name) + ": " + first_of(t->text, kHints);
    for (const ImGuiWindow* w : GImGui->Windows)
        if (w->WasActive && !w->Hidden && (std::string(w->Name) == "##pages" || std::string(w->Name) == "Controls"))
            return std::string("the window ") + w->Name;
    return "";
}

// The pointer over the middle of each plot of each shown panel, a frame each: "" if no tooltip (a
// readout) says what a click or a drag does, else where one does.
std::string hint_under_pointer(HeadlessApp& app) {
    for (const rope::gui::PanelView& p : app.app().panels().views) {
        if (!p.shown) continue;
        for (const auto& g : p.result.plots) {
            app.move(p.screen.x0 + (g.area.x0 + g.area.x1) / 2, p.screen.y0 + (g.area.y0 + g.area.y1) / 2);
            app.frame();
            app.frame();
            std::string found;
            for (const auto& [window, glyphs] : drawn_glyphs())
                if (found.empty() && window.rfind("##Tooltip", 0) == 0) found = first_of(glyphs, kHints);
            if (!found.empty()) return "over panel " + std::to_string(p.figure->index + 1) + "'s " + g.name + ": " + found;
        }
    }
    app.move(-1, -1);
    app.frame();
    return "";
}

}  // namespace

// Presenting at each projector size, with model A alone and beside model B: on every page (each
// part of it), with the pointer over each plot, and at every lesson step (asked and revealed), the
// audience's window shows no button, tab or hint; the presenter view lists what the panels leave out.
TEST_F(Presentation, TheRoomSeesNoControlsOrHints) {
    for (const auto& [w, h] : {std::pair{1024.f, 768.f}, std::pair{1280.f, 720.f}, std::pair{1920.f, 1080.f}}) {
        const std::string size = std::to_string(static_cast<int>(w)) + "x" + std::to_string(static_cast<int>(h));
        for (const std::string b : {"", "llama-3-8b"}) {
            std::vector<std::string> args{"--fresh", "--set", "preset=llama-2-7b"};
            if (!b.empty()) args.insert(args.end(), {"--set", "compare_to=" + b});
            HeadlessApp app(args, w, h);
            app.state().presentation = true;
            for (int page = 0; page < static_cast<int>(rope::figures::pages().size()); ++page) {
                app.state().page = page;
                app.state().page_part = 0;
                ASSERT_TRUE(app.settle()) << size << " page " << page + 1;
                for (int part = 0; part < app.state().page_parts; ++part) {
                    app.state().page_part = part;
                    ASSERT_TRUE(app.settle());
                    const std::string where = size + (b.empty() ? "" : " with B") + " page " + std::to_string(page + 1) + " part " + std::to_string(part + 1);
                    EXPECT_EQ(control_or_hint(app), "") << where;
                    EXPECT_EQ(hint_under_pointer(app), "") << where;
                    // the presenter's view ends with the keys the panels' buttons stand for
                    const auto notes = rope::gui::presenter_text(app.state()).on_screen;
                    ASSERT_FALSE(notes.empty()) << where;
                    EXPECT_EQ(notes.back(), rope::gui::kPresentingKeys) << where;
                }
            }
            if (!b.empty()) continue;
            for (int n = 1, asked = 0; n <= steps(); n += asked ? 0 : 1) {
                app.key(GLFW_KEY_PAGE_DOWN);
                ASSERT_TRUE(app.settle()) << size << " step " << n;
                asked = app.state().asking();
                const std::string where = size + " step " + std::to_string(n) + (asked ? " asked" : "");
                EXPECT_EQ(control_or_hint(app), "") << where;
            }
        }
    }
}

// The checks see what the window draws: outside presentation mode, the panels' buttons, the tabs and a
// readout's "drag"; and a panel's title among the glyphs.
TEST_F(Presentation, TheChecksSeeControlsAndHints) {
    HeadlessApp app({"--fresh", "--set", "preset=llama-2-7b"}, 1280, 720);
    ASSERT_TRUE(app.settle());
    std::string glyphs;
    for (const auto& [window, drawn] : drawn_glyphs()) glyphs += drawn;
    EXPECT_NE(glyphs.find("Rotatedvectors"), std::string::npos) << glyphs.substr(0, 200);
    EXPECT_NE(control_or_hint(app), "");
    EXPECT_NE(hint_under_pointer(app), "");
}

// What a panel leaves out at a projector's size is the presenter's to read, not the room's: at
// 1024x768 some page leaves plots or model B out, and the presenter view names that panel.
TEST_F(Presentation, WhatThePanelsLeaveOutIsThePresenters) {
    HeadlessApp app({"--fresh", "--set", "preset=llama-2-7b", "--set", "compare_to=llama-3-8b"}, 1024, 768);
    app.state().presentation = true;
    int named = 0;
    for (int page = 0; page < static_cast<int>(rope::figures::pages().size()); ++page) {
        app.state().page = page;
        app.state().page_part = 0;
        ASSERT_TRUE(app.settle());
        for (const rope::gui::PanelView& p : app.app().panels().views) {
            if (!p.shown || (p.result.left_out.empty() && p.result.hidden_b.empty())) continue;
            const auto notes = rope::gui::presenter_text(app.state()).on_screen;
            const std::string number = std::to_string(p.figure->index + 1) + " ";
            EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.rfind(number, 0) == 0; }))
                << "page " << page + 1 << ": panel " << number << "leaves something out and the presenter view does not say so";
            ++named;
        }
    }
    EXPECT_GT(named, 0) << "no panel left anything out at 1024x768: the test shows nothing";
}

// The lesson's heading breaks after the title, never inside "step 1 of 4": in the column beside the
// picture at every projector size, and at any width.
TEST_F(Presentation, TheStepHeadingKeepsStepNOfMOnOneLine) {
    HeadlessApp app({"--fresh"}, 1024, 768);
    app.state().presentation = true;
    app.state().go_to_lesson_step(0);
    ASSERT_TRUE(app.settle());
    ImGui::NewFrame();
    const std::string heading = rope::gui::step_heading(app.state());
    const std::string count = "step\u00A01\u00A0of\u00A0" + std::to_string(steps());
    ASSERT_NE(heading.find(count), std::string::npos) << heading;
    for (float width = 20; width <= 900; width += 7) {
        const std::vector<std::string> lines = rope::gui::wrap_at_spaces(heading, width);
        const bool whole = std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(count) != std::string::npos; });
        EXPECT_TRUE(whole) << "at width " << width << ": \"" << lines.back() << "\"";
    }
    ImGui::EndFrame();
}

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
