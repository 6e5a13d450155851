// export lesson: the lesson as a PDF handout, read back by poppler's own tools (pdfinfo, pdftotext,
// pdfimages) as a reader's viewer would.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "export/handout.hpp"
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


// pdftotext's text of the whole file, on one line.
std::string pdf_text(const std::string& pdf) { return one_line(run_process({"/usr/bin/pdftotext", pdf, "-"}).out); }

// A PDF's pages, as pdfinfo counts them.
int pdf_pages(const std::string& pdf) {
    const std::string info = run_process({"/usr/bin/pdfinfo", pdf}).out;
    const std::size_t at = info.find("Pages:");
    return at == std::string::npos ? -1 : std::stoi(info.substr(at + 6));
}

ProcessResult export_lesson(const std::vector<std::string>& more) {
    std::vector<std::string> args = {ROPE_EXPLORER_BINARY, "export", "lesson"};
    args.insert(args.end(), more.begin(), more.end());
    return run_process(args);
}

// The words of a lesson a student must not be given before class: every answer with its why, the
// why alone, and the text of every step that asks (it tells what the reveal shows).
std::vector<std::string> answers_of(const rope::lessons::Lesson& lesson) {
    std::vector<std::string> words;
    for (const rope::lessons::Step& step : lesson.steps) {
        if (!step.question) continue;
        words.push_back(one_line(rope::lessons::answer_line(*step.question)));
        words.push_back(one_line(step.question->why));
        const std::string text = printed(step);
        words.push_back(text.substr(0, 50));
        words.push_back(text.substr(text.size() - std::min<std::size_t>(text.size(), 40)));
    }
    return words;
}

}  // namespace

// The students' handout (the default) of the built-in lesson holds no answer: no step's answer, why or
// revealed text is in its text anywhere; each question and its choices are, and each step's title;
// the steps that do not ask keep their text. The pictures are vector (images only for a heatmap or map).
TEST_F(Handout, TheStudentsHandoutHoldsNoAnswer) {
    const std::string pdf = path("students.pdf");
    const ProcessResult r = export_lesson({"--out", pdf});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const rope::lessons::Lesson& lesson = rope::lessons::builtin_lesson();
    const std::string text = pdf_text(pdf);
    for (const std::string& answer : answers_of(lesson)) EXPECT_EQ(text.find(answer), std::string::npos) << "the students' handout says: " << answer;
    EXPECT_EQ(text.find("Answer:"), std::string::npos);
    int asking = 0;
    for (const rope::lessons::Step& step : lesson.steps) {
        EXPECT_NE(text.find(one_line(step.title)), std::string::npos) << step.title;
        if (!step.question) {
            const std::string body = printed(step);
            EXPECT_NE(text.find(body.substr(0, 60)), std::string::npos) << step.title << ": " << body.substr(0, 60);
            continue;
        }
        ++asking;
        EXPECT_NE(text.find(one_line("Question: " + step.question->ask)), std::string::npos) << step.title;
        for (const std::string& choice : step.question->choices) EXPECT_NE(text.find(one_line(choice)), std::string::npos) << choice;
    }
    EXPECT_GT(asking, 3) << "the built-in lesson asks first at several steps";
    const std::string info = run_process({"/usr/bin/pdfinfo", pdf}).out;
    EXPECT_NE(one_line(info).find("Title: How RoPE works Subject: The students' handout"), std::string::npos) << info;
    EXPECT_LT(pdf_pages(pdf), static_cast<int>(lesson.steps.size())) << "steps share pages";
    // page 1 begins with the rotated vectors (lines and text only); the angle heatmap draws images
    const auto images = [&](int page) {
        const std::string list = run_process({"/usr/bin/pdfimages", "-list", "-f", std::to_string(page), "-l", std::to_string(page), pdf}).out;
        return static_cast<int>(rope::test::split_lines(list).size()) - 2;  // two header lines
    };
    EXPECT_EQ(images(1), 0);
    int pages_with_images = 0;
    for (int page = 1; page <= pdf_pages(pdf); ++page) pages_with_images += images(page) > 0;
    EXPECT_GT(pages_with_images, 0);
}

// The teacher's handout holds each step's title and revealed text, each answer with its why, and each note.
TEST_F(Handout, TheTeachersHandoutHoldsEveryAnswerAndNote) {
    const std::string pdf = path("teacher.pdf");
    const ProcessResult r = export_lesson({"--out", pdf, "--handout", "teacher"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string text = pdf_text(pdf);
    for (const rope::lessons::Step& step : rope::lessons::builtin_lesson().steps) {
        EXPECT_NE(text.find(one_line(step.title)), std::string::npos) << step.title;
        const std::string body = printed(step);
        EXPECT_NE(text.find(body.substr(0, 60)), std::string::npos) << step.title;
        EXPECT_NE(text.find(body.substr(body.size() - 40)), std::string::npos) << step.title;
        if (step.question) {
            EXPECT_NE(text.find(one_line(rope::lessons::answer_line(*step.question))), std::string::npos) << step.title;
        }
        if (!step.notes.empty()) {
            EXPECT_NE(text.find(one_line(step.notes)), std::string::npos) << step.title;
        }
    }
}

// Both kinds fill their pages: on every page but the last the steps reach at least 90% of the way
// down (several steps to a page, pictures as large as the room left), for the built-in lesson and a
// teacher's own; the words the handout prints agree with what it says of answers.
TEST_F(Handout, BothKindsFillTheirPages) {
    const rope::lessons::Lesson own = rope::lessons::parse_lesson(R"({"title": "Mine", "steps": [
        {"title": "Vectors", "panel": "vectors", "parameters": {"dim": 8}, "text": "Two vectors turn.",
         "question": {"ask": "Which turns faster?", "choices": ["pair 0", "pair 3"], "answer": "A", "why": "Pair 0 has the largest theta."}},
        {"title": "Decay", "panel": "decay", "parameters": {"dim": 64}, "text": "The bound of a 64-dim head.", "notes": "Say RoFormer."},
        {"title": "Heatmap", "panel": "heatmap", "parameters": {"dim": 64}, "text": "Every pair's angle."},
        {"title": "Sweep", "panel": "sweep", "parameters": {}, "text": "The base sets the wavelengths.",
         "question": {"ask": "How long is the slowest wavelength at base 10000?", "answer": 54000, "tolerance": 5000, "why": "About 2 pi 10000^(63/64)."}}]})",
                                                                  "mine.json");
    for (const rope::lessons::Lesson* lesson : {&rope::lessons::builtin_lesson(), &own})
        for (const rope::exporting::HandoutKindInfo& kind : rope::exporting::handout_kinds()) {
            const std::string pdf = path(std::string(kind.name) + ".pdf");
            const rope::exporting::HandoutResult r = rope::exporting::write_handout(*lesson, pdf, kind.kind);
            ASSERT_EQ(static_cast<int>(r.page_fill.size()), r.pages) << "no step's words went on over a page";
            EXPECT_EQ(pdf_pages(pdf), r.pages);
            for (std::size_t page = 0; page + 1 < r.page_fill.size(); ++page)
                EXPECT_GE(r.page_fill[page], 0.9) << lesson->title << ", " << kind.name << "'s page " << page + 1 << " of " << r.pages;
            EXPECT_LE(r.page_fill.back(), 1.0 + 1e-9);
            const std::string words = one_line(r.words);
            for (const std::string& answer : answers_of(*lesson))
                EXPECT_EQ(words.find(answer) == std::string::npos, kind.kind == rope::exporting::HandoutKind::student) << kind.name << ": " << answer;
            for (const rope::lessons::Step& step : lesson->steps)  // the notes are the teacher's, with or without a question
                if (!step.notes.empty()) {
                    EXPECT_EQ(words.find("Notes: " + one_line(step.notes)) != std::string::npos, kind.kind == rope::exporting::HandoutKind::teacher)
                        << kind.name << ": " << step.title;
                }
        }
}

// A lesson file of one's own, as either handout; a bad one, a path that is no PDF, a handout of another
// kind, is one line and exit 2, and nothing is written.
TEST_F(Handout, ALessonFileAndItsRefusals) {
    std::ofstream(path("mine.json")) << R"({"title": "Mine", "steps": [
        {"title": "Only step", "panel": "decay", "parameters": {"dim": 64}, "text": "The bound of a 64-dim head.",
         "question": {"ask": "Where does it start?", "answer": 16.5, "tolerance": 0.5, "why": "(d/2 + 1)/2 = 16.5."}}]})";
    for (const char* kind : {"student", "teacher"}) {
        const ProcessResult ok = export_lesson({"--lessons", path("mine.json"), "--handout", kind, "--out", path("mine.pdf")});
        ASSERT_EQ(ok.exit_code, 0) << ok.err;
        const std::string text = pdf_text(path("mine.pdf"));
        EXPECT_NE(text.find("Mine - " + std::string(kind == std::string("student") ? "students'" : "teacher's") + " handout"), std::string::npos) << text;
        EXPECT_NE(text.find("Step 1 of 1"), std::string::npos) << text;
        EXPECT_NE(text.find("Question: Where does it start?"), std::string::npos) << text;
        const bool answered = text.find("Answer: 16.5 (give or take 0.5). (d/2 + 1)/2 = 16.5.") != std::string::npos;
        EXPECT_EQ(answered, kind == std::string("teacher")) << text;
        EXPECT_EQ(text.find("(d/2 + 1)/2 = 16.5.") != std::string::npos, kind == std::string("teacher")) << text;
    }
    std::ofstream(path("bad.json")) << R"({"steps": [{"title": "t", "text": "x", "panel": "decay", "parameters": {"dimm": 4}}]})";
    struct Case {
        std::vector<std::string> args;
        std::string says;
    };
    for (const Case& c : std::vector<Case>{
             {{"--lessons", path("bad.json"), "--out", path("bad.pdf")}, "lesson '" + path("bad.json") + "': step 1: parameters.dimm: unknown key"},
             {{"--out", path("bad.png")}, "a handout is a PDF"},
             {{"--out", path("bad.pdf"), "--width", "900"}, "export lesson: --width is a figure's option; a handout takes --lessons FILE, --out FILE.pdf, --handout student|teacher and --theme"},
             {{"--lessons", path("none.json"), "--out", path("bad.pdf")}, "cannot read"},
             {{"--out", path("bad.pdf"), "--handout", "parent"}, "--handout parent: must be student or teacher"},
             {{"--out", path("bad.pdf"), "--handout", ""}, "--handout : must be student or teacher"},
         }) {
        const ProcessResult r = export_lesson(c.args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    }
    EXPECT_FALSE(rope::test::exists(path("bad.pdf")));
    EXPECT_FALSE(rope::test::exists(path("bad.png")));
    const ProcessResult lessons_elsewhere = run_process({ROPE_EXPLORER_BINARY, "export", "vectors", "--lessons", path("mine.json"), "--out", path("v.png")});
    EXPECT_EQ(lessons_elsewhere.exit_code, 2);
    const ProcessResult handout_elsewhere = run_process({ROPE_EXPLORER_BINARY, "export", "vectors", "--handout", "teacher", "--out", path("v.png")});
    EXPECT_EQ(handout_elsewhere.exit_code, 2);
    EXPECT_NE(handout_elsewhere.err.find("--handout: only export lesson"), std::string::npos) << handout_elsewhere.err;
    EXPECT_FALSE(rope::test::exists(path("v.png")));
}

// --handout is in export's help (which the manual page prints whole), each kind with its words, from the table of kinds.
TEST(HandoutKinds, ExportHelpListsEveryKind) {
    const std::string help = one_line(run_process({ROPE_EXPLORER_BINARY, "export", "--help"}).out);
    EXPECT_NE(help.find("[--handout student|teacher]"), std::string::npos) << help;
    for (const rope::exporting::HandoutKindInfo& kind : rope::exporting::handout_kinds()) {
        EXPECT_NE(help.find(" " + std::string(kind.name) + " " + one_line(std::string(kind.help)).substr(0, 40)), std::string::npos) << kind.name;
    }
}
