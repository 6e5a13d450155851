// The guided tour: steps of a few sentences, each with the parameter state it sets and the panel
// to look at. The texts are data (assets/lessons.json, compiled in), not code.
#pragma once

#include <string>
#include <vector>

#include "figures/registry.hpp"
#include "session/session.hpp"

namespace rope::lessons {

struct Step {
    std::string title;
    std::string text;
    const figures::FigureDescriptor* panel = nullptr;  // the panel to look at
    std::string parameters_json;  // the step's "parameters" object
    std::string focus;            // its panel's sub-plots the text speaks of, comma-separated ("" = the panel's own order)
};

struct Lesson {
    std::string title;
    std::vector<Step> steps;
};

// Parses lesson JSON; throws session::SessionError naming `name` and the problem.
Lesson parse_lesson(const std::string& json_text, const std::string& name);
// The lesson shipped in assets/lessons.json.
const Lesson& builtin_lesson();
// The parameters of a step, on top of the defaults (validated like --set).
ParamSet step_parameters(const Step& step);

}  // namespace rope::lessons
