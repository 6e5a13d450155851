#include "export/handout.hpp"

#include <cairo-pdf.h>
#include <cairo.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <tuple>
#include <utility>
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
    double draw_flowing(const std::vector<std::string>& lines, double y, double size, bool bold = false) const {
        for (const std::string& line : lines) {
            if (y + size * kLineSpacing > kPageHeight - kMargin) {
                cairo_show_page(cr_);
                ++carried_over;
                y = kMargin;
            }
            y = draw({line}, y, size, bold);
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

// The question, its choices, and the answer with why: the lines to print.
std::vector<std::pair<std::string, bool>> question_lines(const lessons::Question& q) {
    std::vector<std::pair<std::string, bool>> out{{"Question: " + q.ask, true}};
    for (int i = 0; i < static_cast<int>(q.choices.size()); ++i)
        out.push_back({lessons::choice_letter(i) + ") " + q.choices[static_cast<std::size_t>(i)], false});
    out.push_back({lessons::answer_line(q), false});
    return out;
}

// The step's picture, scaled to `width` x at most `max_height` points at (kMargin, y); returns its height.
double draw_picture(cairo_t* cr, const lessons::Step& step, plot::ThemeId theme, double y, double max_height, const CairoTextMeasure& measure,
                    figures::FigureCache& cache) {
    const ParamSet params = lessons::step_parameters(step);
    ExportOptions o;
    std::tie(o.width, o.height) = figures::default_export_size(*step.panel, params);
    o.theme = theme;
    const figures::FigureResult figure = build_for_file(*step.panel, params, o, measure, false, cache);
    const double s = std::min(kContentWidth / o.width, max_height / o.height);
    const double w = o.width * s, h = o.height * s;
    cairo_save(cr);
    cairo_translate(cr, kMargin + (kContentWidth - w) / 2, y);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    cairo_scale(cr, s, s);
    replay_cairo(figure.list, cr);
    cairo_restore(cr);
    return h;
}

// Returns the pages it took (more than one where the words went on over the page).
int draw_step_page(cairo_t* cr, const lessons::Lesson& lesson, int index, plot::ThemeId theme, const CairoTextMeasure& measure,
                   figures::FigureCache& cache) {
    const lessons::Step& step = lesson.steps[static_cast<std::size_t>(index)];
    const PageText text(cr);
    const auto header = text.wrap(lesson.title + "  -  step " + std::to_string(index + 1) + " of " + std::to_string(lesson.steps.size()), kSmallSize);
    const auto title = text.wrap(step.title, kTitleSize, true);
    const auto body = text.wrap(printed_text(step, theme), kBodySize);
    std::vector<std::pair<std::vector<std::string>, bool>> question;
    double question_h = 0;
    if (step.question)
        for (const auto& [line, bold] : question_lines(*step.question)) {
            question.push_back({text.wrap(line, kBodySize, bold), bold});
            question_h += text.height(question.back().first, kBodySize);
        }
    double y = kMargin;
    y = text.draw(header, y, kSmallSize, false, 0.4) + 4;
    y = text.draw(title, y, kTitleSize, true) + 8;
    // the picture takes what the words leave, up to half the page
    const double words = text.height(body, kBodySize) + (question.empty() ? 0 : question_h + 12) + 16;
    const double room = std::min((kPageHeight - 2 * kMargin) * 0.5, kPageHeight - kMargin - y - words);
    y += draw_picture(cr, step, theme, y, std::max(room, 160.0), measure, cache) + 14;
    // (words that do not fit under the smallest picture go on over the page)
    y = text.draw_flowing(body, y, kBodySize);
    if (!question.empty()) {
        y += 12;
        for (const auto& [lines, bold] : question) y = text.draw_flowing(lines, y, kBodySize, bold);
    }
    cairo_show_page(cr);
    return 1 + text.carried_over;
}

}  // namespace

HandoutResult write_handout(const lessons::Lesson& lesson, const std::string& path, plot::ThemeId theme) {
    const auto start = std::chrono::steady_clock::now();
    io::AtomicFile file(path);
    PdfSink sink{&file, {}};
    cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(write_pdf_stream, &sink, kPageWidth, kPageHeight);
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, lesson.title.c_str());
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "RoPE Explorer " ROPE_EXPLORER_VERSION);
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, ("Handout of the lesson \"" + lesson.title + "\"").c_str());
    cairo_t* cr = cairo_create(surface);
    const CairoTextMeasure measure;
    figures::FigureCache cache;
    int pages = 0;
    for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) pages += draw_step_page(cr, lesson, i, theme, measure, cache);
    cairo_destroy(cr);
    finish_pdf(surface, sink, path);
    file.commit();
    HandoutResult r;
    r.pages = pages;
    r.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace rope::exporting
