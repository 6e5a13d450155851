// A lesson as a handout: an A4 PDF, text set with cairo so that it is searchable, pictures as vector
// graphics. Two kinds, for the two people in the room: the students' handout can be given out before
// class (a step that asks shows its question, its choices, the picture before the reveal and room to
// write; no answer, no why, no revealed picture or text), the teacher's says everything (the
// revealed picture and text, the answer with why, the notes). Steps follow on down the page and the
// pictures grow to fill it, so no page is left half empty.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lessons/lessons.hpp"
#include "plot/style.hpp"

namespace rope::exporting {

enum class HandoutKind { student, teacher };

// The kinds, as `export lesson --handout NAME` takes them; the first is the default.
struct HandoutKindInfo {
    HandoutKind kind;
    std::string_view name;
    std::string_view help;  // what its pages hold
};
const std::vector<HandoutKindInfo>& handout_kinds();
const HandoutKindInfo* find_handout_kind(std::string_view name);
const HandoutKindInfo& handout_kind(HandoutKind kind);
// "student or teacher", for a refusal; "student|teacher", for a usage line.
std::string handout_kind_names(std::string_view separator);

struct HandoutResult {
    int pages = 0;
    double milliseconds = 0;
    // How far down each page its content reaches, as a share of the room between the margins.
    std::vector<double> page_fill;
    // Every word printed outside the pictures, in order (what a reader of the handout can read; tests).
    std::string words;
};

// Writes the handout atomically (whole, or the file is left as it was). Throws io::IoError.
HandoutResult write_handout(const lessons::Lesson& lesson, const std::string& path, HandoutKind kind = HandoutKind::student,
                            plot::ThemeId theme = plot::ThemeId::light);

}  // namespace rope::exporting
