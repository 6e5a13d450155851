#include "lessons/lessons.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "asset_sources.hpp"

namespace rope::lessons {

using nlohmann::json;

Lesson parse_lesson(const std::string& text, const std::string& name) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw session::SessionError("lesson '" + name + "': not valid JSON (" + e.what() + ")");
    }
    auto fail = [&](const std::string& what) { throw session::SessionError("lesson '" + name + "': " + what); };
    if (!j.is_object() || !j.contains("steps") || !j["steps"].is_array()) fail("expected an object with a \"steps\" array");
    Lesson lesson;
    lesson.title = j.value("title", "Lesson");
    int index = 0;
    for (const json& s : j["steps"]) {
        ++index;
        const std::string where = "step " + std::to_string(index);
        if (!s.is_object()) fail(where + " is not an object");
        Step step;
        if (!s.contains("title") || !s["title"].is_string()) fail(where + ": no title");
        if (!s.contains("text") || !s["text"].is_string()) fail(where + ": no text");
        if (!s.contains("panel") || !s["panel"].is_string() || !(step.panel = figures::find_figure(s["panel"].get<std::string>())))
            fail(where + ": \"panel\" must name a panel (" + figures::figure_names() + ")");
        if (!s.contains("parameters") || !s["parameters"].is_object()) fail(where + ": no \"parameters\" object");
        step.title = s["title"];
        step.text = s["text"];
        step.parameters_json = s["parameters"].dump();
        if (s.contains("focus")) {
            if (!s["focus"].is_string()) fail(where + ": \"focus\" must be a string of the panel's plot names");
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
        // every parameter a step sets must be a valid key and value
        try {
            step_parameters(step);
        } catch (const session::SessionError& e) {
            fail(where + ": " + e.what());
        }
        lesson.steps.push_back(std::move(step));
    }
    if (lesson.steps.empty()) fail("no steps");
    return lesson;
}

const Lesson& builtin_lesson() {
    static const Lesson lesson = parse_lesson(kAsset_lessons_json, "assets/lessons.json");
    return lesson;
}

ParamSet step_parameters(const Step& step) {
    const std::string doc = "{\"parameters\": " + step.parameters_json + "}";
    return session::parse_session_json(doc, step.title).params;
}

}  // namespace rope::lessons
