// Authoring a lesson in the window: the steps listed (go to, add this view, duplicate, move, delete),
// the open step's title, text, panel, focus, question and notes edited in place. Every edit is an
// EditLesson action (one undo step; typing into one field is one gesture) and the lesson window shows
// it as it is typed: that is the preview. The built-in lesson is not changed: an edit makes a copy,
// which Save lesson writes to a file of the teacher's.
#pragma once

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"

namespace rope::gui {

// The parameters a step made of the current view keeps: the keys that differ from the defaults (a
// step's parameters are set on top of the defaults, so the step alone shows this view), or every key
// where fewer would not read back to the same set.
std::string captured_parameters(const ParamSet& params);
// A step made of the current view: its parameters, the panel shown (maximised, else the open step's,
// else the page's first) and the focus of the open step when it is the same panel.
lessons::Step step_from_view(const AppState& state);
// The "before" of a question for step `index`: the values the previous step (the defaults for the
// first) has for the keys this step changes, so that asking shows the state before the change.
std::string before_from_previous(const lessons::Lesson& lesson, int index);

class LessonEditor {
public:
    void draw(const AppState& state, Actions& out);
    // Where the editor drew its controls last frame, by label (what a test clicks, as a person would).
    struct Placed {
        std::string label;
        ImVec2 min, max;
    };
    const std::vector<Placed>& placed() const { return placed_; }

private:
    void note(const std::string& label) { placed_.push_back({label, ImGui::GetItemRectMin(), ImGui::GetItemRectMax()}); }
    // The text fields hold what is typed; a field not being typed into follows the lesson (an undo, another step).
    struct Fields {
        std::string lesson_title, title, text, notes, ask, choices, answer, why;
    };
    bool button(const char* label);
    bool checkbox(const char* label, bool* value);
    // A text field showing `value` (the lesson's) unless it is being typed into; true when typed into.
    bool field(const char* label, std::string& buffer, const std::string& value, float lines = 0);
    void draw_step_list(const AppState& state, Actions& out);
    void draw_step(const AppState& state, Actions& out);
    void draw_question(const AppState& state, Actions& out);
    Fields fields_;
    std::vector<Placed> placed_;
    std::optional<ParamSet> captured_for_;  // the parameters `captured_` was made of (kept by their values)
    std::string captured_;
    ImGuiID typing_ = 0;       // the field typed into last frame (0: none)
    ImGuiID typing_next_ = 0;  // ... and this frame
};

}  // namespace rope::gui
