#include "lessons/lessons.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>

#include <nlohmann/json.hpp>

#include "asset_sources.hpp"
#include "io/atomic_file.hpp"
#include "plot/colour_words.hpp"
#include "rope/number_parse.hpp"

namespace rope::lessons {

using nlohmann::json;

namespace {

// A value as a refusal names it: as the file writes it, shortened to a line.
std::string shown(const json& v) { return shorten_for_message(v.dump()); }

template <class Fail>
Question parse_question(const json& q, const std::string& where, const Fail& fail) {
    if (!q.is_object()) fail(where + " is " + shown(q) + "; it must be an object (ask, choices, answer, tolerance, why, before)");
    for (const auto& item : q.items()) {
        static const char* const keys[] = {"ask", "choices", "answer", "tolerance", "why", "before"};
        if (std::none_of(std::begin(keys), std::end(keys), [&](const char* k) { return item.key() == k; }))
            fail(where + ": \"" + item.key() + "\" is not a key of a question (ask, choices, answer, tolerance, why, before)");
    }
    Question out;
    for (const auto& [key, what] : {std::pair<const char*, const char*>{"ask", "the question"}, {"why", "one line said with the answer"}}) {
        if (!q.contains(key)) fail(where + ": no \"" + key + "\" (" + what + ", a string)");
        if (!q[key].is_string() || q[key].template get<std::string>().empty())
            fail(where + "." + key + " is " + shown(q[key]) + "; it must be " + what + ", a string that is not empty");
    }
    out.ask = q["ask"];
    out.why = q["why"];
    if (q.contains("choices")) {
        const json& c = q["choices"];
        if (!c.is_array() || c.size() < 2 || c.size() > 6)
            fail(where + ".choices is " + (c.is_array() ? "a list of " + std::to_string(c.size()) : shown(c)) + "; it must be a list of 2 to 6 strings");
        for (const json& choice : c) {
            if (!choice.is_string() || choice.get<std::string>().empty())
                fail(where + ".choices has " + shown(choice) + "; each choice is a string that is not empty");
            out.choices.push_back(choice);
        }
        const std::string last = choice_letter(static_cast<int>(out.choices.size()) - 1);
        const json& a = q.value("answer", json());
        const std::string letter = a.is_string() ? a.get<std::string>() : "";
        if (letter.size() != 1 || letter[0] < 'A' || letter[0] > last[0])
            fail(where + ".answer is " + (q.contains("answer") ? shown(a) : std::string("missing")) + "; with choices it is the right one's letter, A to " + last);
        out.answer_choice = letter[0] - 'A';
        if (q.contains("tolerance")) fail(where + ".tolerance is for a number's answer, not for choices");
    } else {
        if (!q.contains("answer") || !q["answer"].is_number())
            fail(where + ".answer is " + (q.contains("answer") ? shown(q["answer"]) : std::string("missing")) + "; without choices it must be a number (or give \"choices\" and the right one's letter)");
        out.answer_number = q["answer"];
        if (q.contains("tolerance") && (!q["tolerance"].is_number() || q["tolerance"].get<double>() < 0))
            fail(where + ".tolerance is " + shown(q["tolerance"]) + "; it is how far a guess may be from the answer, a number >= 0");
        out.tolerance = q.value("tolerance", 0.0);
    }
    if (q.contains("before") && !q["before"].is_object()) fail(where + ".before is " + shown(q["before"]) + "; it must be an object of parameters (shown while asking)");
    out.before_json = q.contains("before") ? q["before"].dump() : "{}";
    return out;
}

nlohmann::ordered_json question_json(const Question& q) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    j["ask"] = q.ask;
    if (q.is_choice()) {
        j["choices"] = q.choices;
        j["answer"] = choice_letter(q.answer_choice);
    } else {
        j["answer"] = q.answer_number;
        if (q.tolerance > 0) j["tolerance"] = q.tolerance;
    }
    j["why"] = q.why;
    const auto before = nlohmann::ordered_json::parse(q.before_json);
    if (!before.empty()) j["before"] = before;
    return j;
}

}  // namespace

std::string choice_letter(int index) { return std::string(1, static_cast<char>('A' + index)); }

std::string answer_line(const Question& q) {
    std::string answer;
    if (q.is_choice()) {
        answer = choice_letter(q.answer_choice) + ") " + q.choices[static_cast<std::size_t>(q.answer_choice)];
    } else {
        json n = q.answer_number;
        answer = n.dump();
        if (q.tolerance > 0) answer += " (give or take " + json(q.tolerance).dump() + ")";
    }
    const char last = answer.empty() ? '.' : answer.back();
    return "Answer: " + answer + (last == '.' || last == '?' || last == '!' ? " " : ". ") + q.why;
}

Lesson parse_lesson(const std::string& text, const std::string& name) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw session::SessionError("lesson '" + name + "': not valid JSON (" + e.what() + ")");
    }
    auto fail = [&](const std::string& what) { throw session::SessionError("lesson '" + name + "': " + what); };
    if (!j.is_object()) fail("the file holds " + shown(j) + "; a lesson is an object with a \"steps\" array");
    if (!j.contains("steps")) fail("no \"steps\" (a lesson is an object with a \"steps\" array)");
    if (!j["steps"].is_array()) fail("\"steps\" is " + shown(j["steps"]) + "; it must be an array of steps");
    // a key this build does not know is a typo or a newer file: said, not skipped
    auto known_keys = [&](const json& object, std::initializer_list<const char*> keys, const std::string& where) {
        for (const auto& item : object.items())
            if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return item.key() == k; })) {
                std::string allowed;
                for (const char* k : keys) allowed += (allowed.empty() ? "" : ", ") + std::string(k);
                fail(where + "\"" + item.key() + "\" is not a key of " + (where.empty() ? "a lesson" : "a step") + " (" + allowed + ")");
            }
    };
    known_keys(j, {"version", "title", "steps"}, "");
    if (j.contains("version") && (!j["version"].is_number_integer() || j["version"].get<std::int64_t>() != kLessonVersion))
        fail("\"version\" is " + shown(j["version"]) + "; this build reads lesson files of version " + std::to_string(kLessonVersion));
    if (j.contains("title") && !j["title"].is_string()) fail("\"title\" is " + shown(j["title"]) + "; it must be a string (the lesson's name)");
    Lesson lesson;
    lesson.title = j.value("title", "Lesson");
    int index = 0;
    for (const json& s : j["steps"]) {
        ++index;
        const std::string where = "step " + std::to_string(index);
        if (!s.is_object()) fail(where + " is " + shown(s) + "; a step is an object (title, text, panel, parameters, ...)");
        known_keys(s, {"title", "text", "panel", "focus", "parameters", "question", "notes"}, where + ": ");
        Step step;
        for (const char* key : {"title", "text"}) {
            if (!s.contains(key)) fail(where + ": no \"" + key + "\" (a string)");
            if (!s[key].is_string()) fail(where + ": \"" + key + "\" is " + shown(s[key]) + "; it must be a string");
        }
        const std::string panels = "it must name a panel (" + figures::figure_names() + ")";
        if (!s.contains("panel")) fail(where + ": no \"panel\"; " + panels);
        if (!s["panel"].is_string() || !(step.panel = figures::find_figure(s["panel"].get<std::string>())))
            fail(where + ": \"panel\" is " + shown(s["panel"]) + "; " + panels);
        if (!s.contains("parameters")) fail(where + ": no \"parameters\" object");
        if (!s["parameters"].is_object())
            fail(where + ": \"parameters\" is " + shown(s["parameters"]) + "; it must be an object of keys and values, as in a session");
        step.title = s["title"];
        step.text = s["text"];
        step.parameters_json = s["parameters"].dump();
        if (s.contains("focus")) {
            if (!s["focus"].is_string())
                fail(where + ": \"focus\" is " + shown(s["focus"]) + "; it must be a string of the panel's plot names, comma-separated (" +
                     figures::plot_names(*step.panel) + ")");
            step.focus = s["focus"];
            const std::string allowed = figures::plot_names(*step.panel);
            std::size_t at = 0;
            while (at <= step.focus.size()) {
                std::size_t end = step.focus.find(',', at);
                if (end == std::string::npos) end = step.focus.size();
                const std::string plot = step.focus.substr(at, end - at);
                if (!figures::find_plot(*step.panel, plot))
                    fail(where + ": \"focus\" names \"" + plot + "\", not a plot of " + std::string(step.panel->name) + " (" +
                         (allowed.empty() ? "it has one plot" : allowed) + ")");
                at = end + 1;
            }
        }
        if (s.contains("notes")) {
            if (!s["notes"].is_string()) fail(where + ": \"notes\" is " + shown(s["notes"]) + "; it must be a string (the presenter's notes)");
            step.notes = s["notes"];
        }
        if (s.contains("question")) step.question = parse_question(s["question"], where + ": question", fail);
        // every placeholder must name a colour its panel draws or a plot of its panel
        try {
            displayed_text(step, plot::dark_theme());
        } catch (const session::SessionError& e) {
            fail(where + ": " + e.what());
        }
        // every parameter a step sets must be a valid key and value
        try {
            step_parameters(step);
        } catch (const session::SessionError& e) {
            // (the session reader names the step's title as its file: the step's number says where)
            std::string message = e.what();
            const std::string reader = "session '" + step.title + "': ";
            if (message.rfind(reader, 0) == 0) message.erase(0, reader.size());
            fail(where + ": " + message);
        }
        if (step.question) try {
                question_parameters(step);
            } catch (const session::SessionError& e) {
                std::string message = e.what();
                const std::string reader = "session '" + step.title + "': ", keys = "parameters.";
                if (message.rfind(reader, 0) == 0) message.erase(0, reader.size());
                if (message.rfind(keys, 0) == 0) message.replace(0, keys.size(), "question.before.");
                else message = "question.before: " + message;
                fail(where + ": " + message);
            }
        lesson.steps.push_back(std::move(step));
    }
    if (lesson.steps.empty()) fail("no steps");
    return lesson;
}

namespace {

// {colour:NAME}: the swatch, then the word for the colour drawn in `theme`.
void add_colour(DisplayedText& out, const Step& step, const std::string& name, const plot::Theme& theme) {
    const figures::NamedColourSpec* spec = figures::find_named_colour(name);
    if (!spec || spec->figure != step.panel->name)
        throw session::SessionError("{colour:" + name + "} names no colour that " + std::string(step.panel->name) + " draws");
    const plot::Color drawn = spec->colour(theme);
    const std::string word(plot::colour_word(drawn));
    out.text += std::string(kSwatchMark) + "\u00A0" + word;  // a no-break space: the swatch never ends a line
    out.colours.push_back({spec, word, drawn});
}

// {plot:NAME}: the plot's short title in quotes.
void add_plot(DisplayedText& out, const Step& step, const std::string& name) {
    const figures::PlotDescriptor* plot = figures::find_plot(*step.panel, name);
    if (!plot) throw session::SessionError("{plot:" + name + "} is not a plot of " + std::string(step.panel->name));
    out.text += "“" + std::string(plot->short_title) + "”";
    out.plots.push_back({plot, std::string(plot->short_title)});
}

}  // namespace

DisplayedText displayed_text(const Step& step, const plot::Theme& theme) {
    DisplayedText out;
    std::size_t at = 0;
    while (at < step.text.size()) {
        const std::size_t open = step.text.find('{', at);
        if (open == std::string::npos) break;
        const std::size_t close = step.text.find('}', open);
        if (close == std::string::npos) throw session::SessionError("a '{' without its '}'");
        out.text += step.text.substr(at, open - at);
        const std::string inside = step.text.substr(open + 1, close - open - 1);
        const std::size_t colon = inside.find(':');
        const std::string kind = inside.substr(0, colon), name = colon == std::string::npos ? "" : inside.substr(colon + 1);
        if (kind == "colour") add_colour(out, step, name, theme);
        else if (kind == "plot") add_plot(out, step, name);
        else throw session::SessionError("{" + inside + "}: a placeholder is {colour:NAME} or {plot:NAME}");
        at = close + 1;
    }
    if (at < step.text.size()) out.text += step.text.substr(at);
    return out;
}

const Lesson& builtin_lesson() { return *builtin_lesson_shared(); }

std::shared_ptr<const Lesson> builtin_lesson_shared() {
    static const std::shared_ptr<const Lesson> lesson = std::make_shared<const Lesson>(parse_lesson(kAsset_lessons_json, "assets/lessons.json"));
    return lesson;
}

std::shared_ptr<const Lesson> read_lesson_file(const std::string& path) {
    std::string text;
    try {
        text = io::read_file(path);
    } catch (const io::IoError& e) {
        throw session::SessionError(std::string("lesson: ") + e.what());
    }
    return std::make_shared<const Lesson>(parse_lesson(text, path));
}

ParamSet step_parameters(const Step& step) {
    const std::string doc = "{\"parameters\": " + step.parameters_json + "}";
    return session::parse_session_json(doc, step.title).params;
}

ParamSet question_parameters(const Step& step) {
    if (!step.question) return step_parameters(step);
    json parameters = json::parse(step.parameters_json);
    parameters.update(json::parse(step.question->before_json));
    const std::string doc = "{\"parameters\": " + parameters.dump() + "}";
    return session::parse_session_json(doc, step.title).params;
}

std::string lesson_json(const Lesson& lesson) {
    using ordered = nlohmann::ordered_json;  // the keys in the order people read a step
    ordered j = ordered::object();
    j["version"] = kLessonVersion;
    j["title"] = lesson.title;
    j["steps"] = ordered::array();
    for (const Step& step : lesson.steps) {
        ordered s = ordered::object();
        s["title"] = step.title;
        s["panel"] = step.panel->name;
        if (!step.focus.empty()) s["focus"] = step.focus;
        s["parameters"] = ordered::parse(step.parameters_json);
        s["text"] = step.text;
        if (step.question) s["question"] = question_json(*step.question);
        if (!step.notes.empty()) s["notes"] = step.notes;
        j["steps"].push_back(std::move(s));
    }
    return j.dump(2) + "\n";
}

}  // namespace rope::lessons
