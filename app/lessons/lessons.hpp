// The guided tour: steps of a few sentences, each with the parameter state it sets and the panel
// to look at. The texts are data (assets/lessons.json, compiled in), not code.
#pragma once

#include <memory>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "figures/named_colours.hpp"
#include "figures/registry.hpp"
#include "plot/style.hpp"
#include "session/session.hpp"

namespace rope::lessons {

// Predict, then reveal: a step may ask before it shows. While it asks, the picture shows `before`
// (the step's parameters with the question's "before" keys on top); revealing applies the step's
// own parameters and says the answer and why.
struct Question {
    std::string ask;                   // "What happens to the slow pairs when the base grows?"
    std::vector<std::string> choices;  // multiple choice, shown as A), B), ...; empty: a number
    int answer_choice = -1;            // the right choice's index (the file says its letter)
    double answer_number = 0;          // a number's answer, and how far a guess may be from it
    double tolerance = 0;
    std::string why;                   // one line, shown with the answer
    std::string before_json;           // the "before" object: keys set while asking ("{}" if none)
    bool is_choice() const { return !choices.empty(); }
};

// "B" for choice 1.
std::string choice_letter(int index);
// "Answer: B) they turn more slowly. Why: ..." / "Answer: 4096 (± 400). Why: ...".
std::string answer_line(const Question& q);

struct Step {
    std::string title;
    std::string text;  // as written: with {colour:NAME} and {plot:NAME} (displayed_text resolves them)
    const figures::FigureDescriptor* panel = nullptr;  // the panel to look at
    std::string parameters_json;  // the step's "parameters" object
    std::string focus;            // its panel's sub-plots the text speaks of, comma-separated ("" = the panel's own order)
    std::optional<Question> question;
    std::string notes;  // for the presenter only
};

struct Lesson {
    std::string title;
    std::vector<Step> steps;
};

// A step's text as the lesson window shows it. Words that depend on the theme or the layout are not
// written into lessons.json: {colour:NAME} becomes a swatch and the word for the colour the figure
// draws that series in (figures/named_colours.hpp) in the theme shown, and {plot:NAME} the short title
// of a plot of the step's panel in quotes (the words its caption shows), never "left" or "below".
struct ColourMention {
    const figures::NamedColourSpec* colour = nullptr;
    std::string word;  // "orange"
    plot::Color drawn;  // the colour the figure draws, which the swatch shows
};
struct PlotMention {
    const figures::PlotDescriptor* plot = nullptr;
    std::string words;  // its short title, as the caption on screen says it
};
struct DisplayedText {
    std::string text;                    // a kSwatchMark before each colour word, joined to it by a no-break space
    std::vector<ColourMention> colours;  // one for each kSwatchMark in `text`, in order
    std::vector<PlotMention> plots;
};
// U+25A0 (■), a glyph of the UI font: the text wraps and measures as the window draws it, a swatch in its place.
inline constexpr std::string_view kSwatchMark = "■";
// Throws session::SessionError for a placeholder that names no colour of the step's panel or no plot of it.
DisplayedText displayed_text(const Step& step, const plot::Theme& theme);

// The lesson file format's version: a file may say {"version": 1}; another number is refused.
inline constexpr int kLessonVersion = 1;
// Parses lesson JSON; throws session::SessionError naming `name`, the step and the field.
Lesson parse_lesson(const std::string& json_text, const std::string& name);
// The lesson shipped in assets/lessons.json.
const Lesson& builtin_lesson();
std::shared_ptr<const Lesson> builtin_lesson_shared();
// A lesson file (--lessons FILE, a session's lesson_file); throws session::SessionError naming the
// file, and the step and field where one is wrong.
std::shared_ptr<const Lesson> read_lesson_file(const std::string& path);
// The parameters of a step, on top of the defaults (validated like --set).
ParamSet step_parameters(const Step& step);
// What the picture shows while the step's question is asked: its parameters with the question's
// "before" keys on top (the step's own parameters if it asks nothing).
ParamSet question_parameters(const Step& step);
// The lesson as a lesson file says it (parse_lesson reads it back to an equal lesson).
std::string lesson_json(const Lesson& lesson);

}  // namespace rope::lessons
