// A lesson as a handout: a PDF with one A4 page per step (the lesson and the step's number, its
// title, its picture as vector graphics with the step's parameters, its text, and its question with
// the answer and why), text set with cairo so that it is searchable.
#pragma once

#include <string>

#include "lessons/lessons.hpp"
#include "plot/style.hpp"

namespace rope::exporting {

struct HandoutResult {
    int pages = 0;
    double milliseconds = 0;
};

// Writes the handout atomically (whole, or the file is left as it was). Throws io::IoError.
HandoutResult write_handout(const lessons::Lesson& lesson, const std::string& path, plot::ThemeId theme = plot::ThemeId::light);

}  // namespace rope::exporting
