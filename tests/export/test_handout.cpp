// export lesson: the lesson as a PDF handout, read back by poppler's own tools (pdfinfo, pdftotext,
// pdfimages) as a reader's viewer would.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "lessons/lessons.hpp"
#include "support/files.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using rope::test::ProcessResult;
using rope::test::run_process;

namespace {

using Handout = rope::test::TempDirTest;

// Runs of whitespace as one space: pdftotext breaks lines where the page does.
std::string one_line(const std::string& text) {
    std::string out;
    for (char c : text) {
        const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\f';
        if (space && (out.empty() || out.back() == ' ')) continue;
        out += space ? ' ' : c;
    }
    return out;
}

// The words of a step's text as the handout prints them: {colour:...} as its word, {plot:...} as its caption.
std::string printed(const rope::lessons::Step& step) {
    std::string text = rope::lessons::displayed_text(step, rope::plot::theme_by_id(rope::plot::ThemeId::light)).text;
    const std::string swatch = std::string(rope::lessons::kSwatchMark) + "\u00A0";
    for (std::size_t at = text.find(swatch); at != std::string::npos; at = text.find(swatch, at)) text.erase(at, swatch.size());
    return one_line(text);
}

}  // namespace

// The built-in lesson: one page per step, each step's title and text (and question and answer) found
// by pdftotext on its own page, the pictures vector (images only where a heatmap or map is drawn).
TEST_F(Handout, OnePagePerStepWithSearchableTextAndVectorPictures) {
    const std::string pdf = path("handout.pdf");
    const ProcessResult r = run_process({ROPE_EXPLORER_BINARY, "export", "lesson", "--out", pdf});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto& steps = rope::lessons::builtin_lesson().steps;
    const std::string info = run_process({"/usr/bin/pdfinfo", pdf}).out;
    const auto field = [&](const std::string& name) {
        const std::size_t at = info.find(name + ":");
        if (at == std::string::npos) return std::string();
        const std::size_t value = info.find_first_not_of(' ', at + name.size() + 1), end = info.find('\n', at);
        return info.substr(value, end - value);
    };
    EXPECT_EQ(field("Pages"), std::to_string(steps.size())) << info;
    EXPECT_EQ(field("Title"), "How RoPE works") << info;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string page = std::to_string(i + 1);
        const std::string text = one_line(run_process({"/usr/bin/pdftotext", "-f", page, "-l", page, pdf, "-"}).out);
        EXPECT_NE(text.find(one_line(steps[i].title)), std::string::npos) << "page " << page;
        // the text's first and last words (a picture's labels may stand between pdftotext's lines)
        const std::string body = printed(steps[i]);
        EXPECT_NE(text.find(body.substr(0, 60)), std::string::npos) << "page " << page << ": " << body.substr(0, 60);
        EXPECT_NE(text.find(body.substr(body.size() - 40)), std::string::npos) << "page " << page << ": " << body.substr(body.size() - 40);
        if (steps[i].question) {
            EXPECT_NE(text.find(one_line("Question: " + steps[i].question->ask)), std::string::npos) << "page " << page;
            EXPECT_NE(text.find(one_line(rope::lessons::answer_line(*steps[i].question))), std::string::npos) << "page " << page;
        }
    }
    // the rotated vectors (step 1) are lines and text only; the angle heatmap's page (step 4) has images (the map, its colour bar)
    const auto images = [&](int page) {
        const std::string list = run_process({"/usr/bin/pdfimages", "-list", "-f", std::to_string(page), "-l", std::to_string(page), pdf}).out;
        return static_cast<int>(rope::test::split_lines(list).size()) - 2;  // two header lines
    };
    EXPECT_EQ(images(1), 0);
    EXPECT_GE(images(4), 1);
}

// A lesson file of one's own; a bad one, or a path that is no PDF, is one line and exit 2, and nothing is written.
TEST_F(Handout, ALessonFileAndItsRefusals) {
    std::ofstream(path("mine.json")) << R"({"title": "Mine", "steps": [
        {"title": "Only step", "panel": "decay", "parameters": {"dim": 64}, "text": "The bound of a 64-dim head.",
         "question": {"ask": "Where does it start?", "answer": 16.5, "tolerance": 0.5, "why": "(d/2 + 1)/2 = 16.5."}}]})";
    const ProcessResult ok = run_process({ROPE_EXPLORER_BINARY, "export", "lesson", "--lessons", path("mine.json"), "--out", path("mine.pdf")});
    ASSERT_EQ(ok.exit_code, 0) << ok.err;
    const std::string text = one_line(run_process({"/usr/bin/pdftotext", path("mine.pdf"), "-"}).out);
    EXPECT_NE(text.find("Mine - step 1 of 1"), std::string::npos) << text;
    EXPECT_NE(text.find("Answer: 16.5 (give or take 0.5). (d/2 + 1)/2 = 16.5."), std::string::npos) << text;
    std::ofstream(path("bad.json")) << R"({"steps": [{"title": "t", "text": "x", "panel": "decay", "parameters": {"dimm": 4}}]})";
    struct Case {
        std::vector<std::string> args;
        std::string says;
    };
    for (const Case& c : std::vector<Case>{
             {{"--lessons", path("bad.json"), "--out", path("bad.pdf")}, "lesson '" + path("bad.json") + "': step 1: parameters.dimm: unknown key"},
             {{"--out", path("bad.png")}, "a handout is a PDF"},
             {{"--out", path("bad.pdf"), "--width", "900"}, "export lesson: --width is a figure's option; a handout takes --lessons FILE, --out FILE.pdf and --theme"},
             {{"--lessons", path("none.json"), "--out", path("bad.pdf")}, "cannot read"},
         }) {
        std::vector<std::string> args = {ROPE_EXPLORER_BINARY, "export", "lesson"};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const ProcessResult r = run_process(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    }
    EXPECT_FALSE(rope::test::exists(path("bad.pdf")));
    EXPECT_FALSE(rope::test::exists(path("bad.png")));
    const ProcessResult lessons_elsewhere = run_process({ROPE_EXPLORER_BINARY, "export", "vectors", "--lessons", path("mine.json"), "--out", path("v.png")});
    EXPECT_EQ(lessons_elsewhere.exit_code, 2);
}
