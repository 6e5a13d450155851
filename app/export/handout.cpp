#include "export/handout.hpp"

#include <cairo-pdf.h>
#include <cairo.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "export/cairo_canvas.hpp"
#include "export/export.hpp"
#include "export/pdf_stream.hpp"
#include "figures/figure_cache.hpp"

namespace rope::exporting {

namespace {

// A4 in points, and the page's margin.
constexpr double kPageWidth = 595.276, kPageHeight = 841.89, kMargin = 50;
constexpr double kContentWidth = kPageWidth - 2 * kMargin;
constexpr double kBodySize = 10.5, kTitleSize = 17, kSmallSize = 8.5, kLineSpacing = 1.38;

// Text set with cairo's own text API (a real text layer: pdftotext and search find it).
class PageText {
public:
    explicit PageText(cairo_t* cr) : cr_(cr) {}
    mutable int carried_over = 0;  // pages begun by words that went on over the page
    // Lines of `text` that fit `width` at `size` (words kept whole; a word wider than the line alone on it).
    // (a line break in the text starts a new line)
    std::vector<std::string> wrap(const std::string& text, double size, bool bold = false) const {
        font(size, bold);
        std::vector<std::string> lines;
        std::size_t start = 0;
        while (start <= text.size()) {
            std::size_t stop = text.find('\n', start);
            if (stop == std::string::npos) stop = text.size();
            wrap_paragraph(text.substr(start, stop - start), lines);
            start = stop + 1;
        }
        return lines;
    }
    double height(const std::vector<std::string>& lines, double size) const { return static_cast<double>(lines.size()) * size * kLineSpacing; }
    // Draws the lines from `y` (their top) down; returns the y under them.
    double draw(const std::vector<std::string>& lines, double y, double size, bool bold = false, double grey = 0) const {
        font(size, bold);
        cairo_set_source_rgb(cr_, grey, grey, grey);
        for (const std::string& line : lines) {
            cairo_move_to(cr_, kMargin, y + size);
            cairo_show_text(cr_, line.c_str());
            y += size * kLineSpacing;
        }
        return y;
    }

    // Draws the lines from `y` down, going on at the top of a new page where one would pass the bottom margin.
    double draw_flowing(const std::vector<std::string>& lines, double y, double size, bool bold = false, double grey = 0) const {
        for (const std::string& line : lines) {
            if (y + size * kLineSpacing > kPageHeight - kMargin + 0.5) {  // (a page planned full to the margin stays one page)
                cairo_show_page(cr_);
                ++carried_over;
                y = kMargin;
            }
            y = draw({line}, y, size, bold, grey);
        }
        return y;
    }

private:
    void wrap_paragraph(const std::string& text, std::vector<std::string>& lines) const {
        std::string line;
        std::size_t at = 0;
        while (at < text.size()) {
            std::size_t end = text.find(' ', at);
            if (end == std::string::npos) end = text.size();
            const std::string word = text.substr(at, end - at);
            const std::string longer = line.empty() ? word : line + " " + word;
            if (!line.empty() && advance(longer) > kContentWidth) {
                lines.push_back(line);
                line = word;
            } else {
                line = longer;
            }
            at = end + 1;
        }
        lines.push_back(line);
    }
    void font(double size, bool bold) const {
        cairo_set_font_face(cr_, dejavu_face(bold));
        cairo_set_font_size(cr_, size);
    }
    double advance(const std::string& s) const {
        cairo_text_extents_t e;
        cairo_text_extents(cr_, s.c_str(), &e);
        return e.x_advance;
    }
    cairo_t* cr_;
};

// The step's words as the handout prints them: each {colour:NAME} as the word for the colour the
// picture draws in `theme` (the screen's swatch is left out), each {plot:NAME} as its caption's words.
std::string printed_text(const lessons::Step& step, plot::ThemeId theme) {
    std::string text = lessons::displayed_text(step, plot::theme_by_id(theme)).text;
    const std::string swatch = std::string(lessons::kSwatchMark) + "\u00A0";
    for (std::size_t at = text.find(swatch); at != std::string::npos; at = text.find(swatch, at)) text.erase(at, swatch.size());
    return text;
}

constexpr double kRoom = kPageHeight - 2 * kMargin;  // from the top margin to the bottom one
constexpr double kStepGap = 26;                      // between two steps on a page (a thin rule in the middle)
constexpr double kPictureGap = 10;                   // above and below a picture
constexpr double kRuleSpacing = 24;                  // the students' lines to write on
constexpr int kFewestRules = 5;

// Lines in one font: a heading, a paragraph, a choice.
struct Run {
    std::vector<std::string> lines;
    double size = kBodySize;
    bool bold = false;
    double grey = 0;
    double space_before = 0;
    double height() const { return space_before + static_cast<double>(lines.size()) * size * kLineSpacing; }
};

// One step as the handout lays it out: its words above the picture and below it, measured, and the
// lines to write on; the page chooses the picture's height, from `picture_min` to `picture_max`.
struct StepBlock {
    std::vector<Run> above, below;
    int rules = 0;  // lines to write on (students, where the step asks); more where the page has room
    ParamSet params;  // what the picture shows: before the reveal for the students, after it for the teacher
    const figures::FigureDescriptor* figure = nullptr;
    double pixel_width = 0, pixel_height = 0;  // the figure's own export size
    double picture_min = 0, picture_max = 0;   // points
    double words() const {
        double h = 2 * kPictureGap + rules * kRuleSpacing + (rules > 0 ? kBodySize * kLineSpacing : 0);
        for (const Run& r : above) h += r.height();
        for (const Run& r : below) h += r.height();
        return h;
    }
};

Run run(const PageText& text, const std::string& words, double size, bool bold = false, double grey = 0, double space_before = 0) {
    return {text.wrap(words, size, bold), size, bold, grey, space_before};
}

// The words of a step for `kind`'s reader (see handout.hpp: the students' never hold an answer).
void add_words(StepBlock& b, const PageText& text, const lessons::Lesson& lesson, int index, HandoutKind kind, plot::ThemeId theme) {
    const lessons::Step& step = lesson.steps[static_cast<std::size_t>(index)];
    const bool asks_first = step.question && kind == HandoutKind::student;
    b.above.push_back(run(text, "Step " + std::to_string(index + 1) + " of " + std::to_string(lesson.steps.size()), kSmallSize, false, 0.4));
    b.above.push_back(run(text, step.title, kTitleSize, true));
    // the step's text tells what the reveal shows, so a step that asks keeps it for the teacher
    if (!asks_first) b.below.push_back(run(text, printed_text(step, theme), kBodySize));
    if (step.question) {
        const lessons::Question& q = *step.question;
        b.below.push_back(run(text, "Question: " + q.ask, kBodySize, true, 0, asks_first ? 0 : 8));
        for (int i = 0; i < static_cast<int>(q.choices.size()); ++i)
            b.below.push_back(run(text, std::string(asks_first ? "\u2610 " : "") + lessons::choice_letter(i) + ") " + q.choices[static_cast<std::size_t>(i)],
                                  kBodySize));
        if (asks_first) b.rules = kFewestRules;
        else b.below.push_back(run(text, lessons::answer_line(q), kBodySize, true, 0, 4));
    }
    // the notes are the teacher's own (the lesson editor and the presenter view show them, nothing else)
    if (kind == HandoutKind::teacher && !step.notes.empty()) b.below.push_back(run(text, "Notes: " + step.notes, kBodySize, false, 0.35, 6));
}

// The figure as it would be drawn `height` points tall across the page (its own width in pixels, so its
// words keep one size on every page).
figures::FigureResult build_picture(const StepBlock& b, double height, plot::ThemeId theme, const CairoTextMeasure& measure,
                                    figures::FigureCache& cache) {
    ExportOptions o;
    o.width = static_cast<int>(b.pixel_width);
    o.height = static_cast<int>(std::lround(height * b.pixel_width / kContentWidth));
    o.theme = theme;
    return build_for_file(*b.figure, b.params, o, measure, false, cache);
}

// The picture's heights: at most twice as tall as its own size (the figure lays its plots out anew for
// the shape, as a window's panel does) and what the page leaves its words, at least the shortest that
// still draws every plot (and both models) its own size draws.
void size_picture(StepBlock& b, plot::ThemeId theme, const CairoTextMeasure& measure, figures::FigureCache& cache) {
    const double natural = b.pixel_height * kContentWidth / b.pixel_width;
    b.picture_max = std::min(2 * natural, kRoom - b.words());
    b.picture_min = std::min(natural, b.picture_max);
    const figures::FigureResult whole = build_picture(b, b.picture_min, theme, measure, cache);
    for (const double share : {0.7, 0.8, 0.9}) {
        const figures::FigureResult smaller = build_picture(b, share * natural, theme, measure, cache);
        if (smaller.plots.size() >= whole.plots.size() && smaller.hidden_b.empty() == whole.hidden_b.empty()) {
            b.picture_min = std::min(share * natural, b.picture_max);
            return;
        }
    }
}

// The step's picture, `height` points tall across the page at (kMargin, y).
void draw_picture(cairo_t* cr, const StepBlock& b, double y, double height, plot::ThemeId theme, const CairoTextMeasure& measure,
                  figures::FigureCache& cache) {
    const figures::FigureResult figure = build_picture(b, height, theme, measure, cache);
    const double s = kContentWidth / b.pixel_width;
    cairo_save(cr);
    cairo_translate(cr, kMargin, y);
    cairo_rectangle(cr, 0, 0, kContentWidth, height);
    cairo_clip(cr);
    cairo_scale(cr, s, s);
    replay_cairo(figure.list, cr);
    cairo_restore(cr);
}

// A page's steps and how tall each picture is drawn, and the room between its steps.
struct PagePlan {
    std::vector<std::size_t> steps;
    std::vector<double> picture;
    double gap = kStepGap;
};

double used(const std::vector<StepBlock>& blocks, const PagePlan& page) {
    double h = kStepGap * static_cast<double>(page.steps.size() - 1);
    for (std::size_t i = 0; i < page.steps.size(); ++i) h += blocks[page.steps[i]].words() + page.picture[i];
    return h;
}

// Steps follow on while they fit at their smallest pictures; then the page's room goes to the pictures
// (evenly, each up to its largest), to the lines to write on, and what is left between the steps.
std::vector<PagePlan> plan_pages(std::vector<StepBlock>& blocks) {
    std::vector<PagePlan> pages;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const double need = blocks[i].words() + blocks[i].picture_min;
        if (pages.empty() || used(blocks, pages.back()) + kStepGap + need > kRoom) pages.emplace_back();
        pages.back().steps.push_back(i);
        pages.back().picture.push_back(blocks[i].picture_min);
    }
    for (PagePlan& page : pages) {
        for (int round = 0; round < 8; ++round) {  // a picture at its largest leaves its share to the others
            const double spare = kRoom - used(blocks, page);
            std::size_t growing = 0;
            for (std::size_t i = 0; i < page.steps.size(); ++i) growing += page.picture[i] < blocks[page.steps[i]].picture_max;
            if (spare < 1 || growing == 0) break;
            for (std::size_t i = 0; i < page.steps.size(); ++i)
                page.picture[i] = std::min(page.picture[i] + spare / static_cast<double>(growing), blocks[page.steps[i]].picture_max);
        }
        std::size_t writing = 0;
        for (std::size_t s : page.steps) writing += blocks[s].rules > 0;
        const double spare = std::max(0.0, kRoom - used(blocks, page));
        for (std::size_t s : page.steps)
            if (blocks[s].rules > 0) blocks[s].rules += static_cast<int>(spare / static_cast<double>(writing) / kRuleSpacing);
        if (page.steps.size() > 1 && &page != &pages.back())
            page.gap += std::max(0.0, kRoom - used(blocks, page)) / static_cast<double>(page.steps.size() - 1);
    }
    return pages;
}

// Draws the runs from `y` down, going on over the page where one would pass the bottom margin; returns the y under them.
double draw_runs(const PageText& text, const std::vector<Run>& runs, double y, std::string& words) {
    for (const Run& r : runs) {
        y = text.draw_flowing(r.lines, y + r.space_before, r.size, r.bold, r.grey);
        for (const std::string& line : r.lines) words += line + "\n";
    }
    return y;
}

// The students' lines to write on, under a small label.
double draw_rules(cairo_t* cr, const PageText& text, int rules, double y, std::string& words) {
    y = text.draw({"Your answer, and why:"}, y, kSmallSize, false, 0.4);
    words += "Your answer, and why:\n";
    cairo_set_source_rgb(cr, 0.72, 0.72, 0.72);
    cairo_set_line_width(cr, 0.6);
    for (int i = 0; i < rules; ++i) {
        y += kRuleSpacing;
        cairo_move_to(cr, kMargin, y);
        cairo_line_to(cr, kMargin + kContentWidth, y);
        cairo_stroke(cr);
    }
    return y + kBodySize * kLineSpacing - kSmallSize * kLineSpacing;
}

// One page's running head: the lesson, whose handout, the page.
void draw_running_head(const PageText& text, const lessons::Lesson& lesson, HandoutKind kind, int page, int pages) {
    const std::string whose = kind == HandoutKind::student ? "students' handout" : "teacher's handout";
    text.draw({lesson.title + "  -  " + whose + "  -  page " + std::to_string(page) + " of " + std::to_string(pages)}, kMargin - 22, kSmallSize,
              false, 0.55);
}

}  // namespace

const std::vector<HandoutKindInfo>& handout_kinds() {
    static const std::vector<HandoutKindInfo> kinds = {
        {HandoutKind::student, "student",
         "to give out before class: each step's title, picture and text; where a step asks, its question, its choices, the "
         "picture before the reveal and lines to write on instead (no answer, why, revealed picture or text anywhere)"},
        {HandoutKind::teacher, "teacher", "each step's revealed picture and text, its question with the answer and why, and its notes"},
    };
    return kinds;
}

const HandoutKindInfo* find_handout_kind(std::string_view name) {
    for (const HandoutKindInfo& k : handout_kinds())
        if (k.name == name) return &k;
    return nullptr;
}

const HandoutKindInfo& handout_kind(HandoutKind kind) {
    for (const HandoutKindInfo& k : handout_kinds())
        if (k.kind == kind) return k;
    return handout_kinds().front();
}

std::string handout_kind_names(std::string_view separator) {
    std::string s;
    for (const HandoutKindInfo& k : handout_kinds()) s += (s.empty() ? "" : std::string(separator)) + std::string(k.name);
    return s;
}

HandoutResult write_handout(const lessons::Lesson& lesson, const std::string& path, HandoutKind kind, plot::ThemeId theme) {
    const auto start = std::chrono::steady_clock::now();
    io::AtomicFile file(path);
    PdfSink sink{&file, {}};
    cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(write_pdf_stream, &sink, kPageWidth, kPageHeight);
    const std::string whose = kind == HandoutKind::student ? "The students' handout" : "The teacher's handout";
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, lesson.title.c_str());
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "RoPE Explorer " ROPE_EXPLORER_VERSION);
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, (whose + " of the lesson \"" + lesson.title + "\"").c_str());
    cairo_t* cr = cairo_create(surface);
    const CairoTextMeasure measure;
    figures::FigureCache cache;
    const PageText text(cr);
    std::vector<StepBlock> blocks(lesson.steps.size());
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const lessons::Step& step = lesson.steps[i];
        StepBlock& b = blocks[i];
        add_words(b, text, lesson, static_cast<int>(i), kind, theme);
        b.figure = step.panel;
        b.params = kind == HandoutKind::student ? lessons::question_parameters(step) : lessons::step_parameters(step);
        const auto [w, h] = figures::default_export_size(*step.panel, b.params);
        b.pixel_width = w;
        b.pixel_height = h;
        size_picture(b, theme, measure, cache);
    }
    const std::vector<PagePlan> pages = plan_pages(blocks);
    HandoutResult r;
    for (std::size_t p = 0; p < pages.size(); ++p) {
        const PagePlan& page = pages[p];
        draw_running_head(text, lesson, kind, static_cast<int>(p + 1), static_cast<int>(pages.size()));
        double y = kMargin;
        for (std::size_t i = 0; i < page.steps.size(); ++i) {
            const StepBlock& b = blocks[page.steps[i]];
            if (i > 0) {  // a thin rule halfway between two steps
                cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
                cairo_set_line_width(cr, 0.5);
                cairo_move_to(cr, kMargin, y + page.gap / 2);
                cairo_line_to(cr, kMargin + kContentWidth, y + page.gap / 2);
                cairo_stroke(cr);
                y += page.gap;
            }
            y = draw_runs(text, b.above, y, r.words) + kPictureGap;
            draw_picture(cr, b, y, page.picture[i], theme, measure, cache);
            y = draw_runs(text, b.below, y + page.picture[i] + kPictureGap, r.words);
            if (b.rules > 0) y = draw_rules(cr, text, b.rules, y, r.words);
        }
        r.page_fill.push_back((y - kMargin) / kRoom);
        cairo_show_page(cr);
    }
    cairo_destroy(cr);
    finish_pdf(surface, sink, path);
    file.commit();
    r.pages = static_cast<int>(pages.size()) + text.carried_over;
    r.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace rope::exporting
