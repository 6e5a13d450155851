#include "gui/presentation/lesson_editor.hpp"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include <nlohmann/json.hpp>

#include "gui/app/ui_helpers.hpp"
#include "lessons/lessons.hpp"
#include "session/session.hpp"

namespace rope::gui {

std::string captured_parameters(const ParamSet& params) {
    const ParamSet defaults;
    const std::string fewest = session::parameters_json(params, &defaults);
    try {  // a preset resets the keys it sets: a key left at its default after one must be said
        if (session::parse_session_json("{\"parameters\": " + fewest + "}", "view").params == params) return fewest;
    } catch (const session::SessionError&) {
    }
    return session::parameters_json(params);
}

namespace {

const figures::FigureDescriptor* first_panel_of_page(int page) {
    for (int i = 0; i < figures::figure_count(); ++i)
        if (figures::figure_at(i).page == page) return &figures::figure_at(i);
    return &figures::figure_at(0);
}

}  // namespace

lessons::Step step_from_view(const AppState& state) {
    lessons::Step step;
    step.title = "New step";
    step.text = "Say what this view shows.";
    const figures::FigureDescriptor* open = lesson_panel(state);
    step.panel = state.maximized >= 0 ? &figures::figure_at(state.maximized) : open ? open : first_panel_of_page(state.page);
    if (open == step.panel) step.focus = lesson_focus(state, *open);
    step.parameters_json = captured_parameters(state.params());
    return step;
}

std::string before_from_previous(const lessons::Lesson& lesson, int index) {
    const ParamSet now = lessons::step_parameters(lesson.steps[static_cast<std::size_t>(index)]);
    const ParamSet previous = index > 0 ? lessons::step_parameters(lesson.steps[static_cast<std::size_t>(index - 1)]) : ParamSet();
    return session::parameters_json(previous, &now);
}

namespace {

// An edit of the open step `index` (a copy of it changed by `change`).
act::EditLesson edit_step(const std::string& label, int index, std::function<void(lessons::Step&)> change, std::string gesture = "") {
    return {label, [index, change = std::move(change)](lessons::Lesson& l) { change(l.steps[static_cast<std::size_t>(index)]); }, index, std::move(gesture)};
}

std::string choices_text(const lessons::Question& q) {
    std::string text;
    for (const std::string& c : q.choices) text += (text.empty() ? "" : "\n") + c;
    return text;
}

std::string answer_text(const lessons::Question& q) {
    if (q.is_choice()) return lessons::choice_letter(q.answer_choice);
    return nlohmann::json(q.answer_number).dump();
}

}  // namespace

bool LessonEditor::button(const char* label) {
    const bool pressed = ImGui::Button(label);
    note(label);
    return pressed;
}

bool LessonEditor::checkbox(const char* label, bool* value) {
    const bool pressed = ImGui::Checkbox(label, value);
    note(label);
    return pressed;
}

bool LessonEditor::field(const char* label, std::string& buffer, const std::string& value, float lines) {
    const ImGuiID id = ImGui::GetID(label);
    if (id != typing_) buffer = value;
    const bool typed = lines > 0 ? ImGui::InputTextMultiline(label, &buffer, ImVec2(-1, ImGui::GetTextLineHeight() * lines + ImGui::GetStyle().FramePadding.y * 2))
                                 : ImGui::InputText(label, &buffer);
    if (ImGui::IsItemActive()) typing_next_ = id;
    note(label);
    return typed;
}

void LessonEditor::draw(const AppState& state, Actions& out) {
    if (!state.editing_lesson || state.presentation) return;
    typing_next_ = 0;
    placed_.clear();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.08f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 34, display.y * 0.84f), ImGuiCond_FirstUseEver);
    bool shown = true;
    if (ImGui::Begin("Lesson editor", &shown, ImGuiWindowFlags_NoSavedSettings)) {
        const lessons::Lesson& lesson = state.lesson();
        ImGui::SetNextItemWidth(-ImGui::CalcTextSize("lesson title").x - ImGui::GetStyle().ItemInnerSpacing.x * 2);
        if (field("lesson title", fields_.lesson_title, lesson.title))
            out.ask(act::EditLesson{"lesson title", [t = fields_.lesson_title](lessons::Lesson& l) { l.title = t; }, state.lesson_step(), "lesson title"});
        ImGui::TextDisabled("%s", state.lesson_is_builtin() ? "The built-in lesson: an edit makes a copy; Save lesson writes it to a file."
                                  : state.lesson_file().empty() ? "An unsaved lesson: Save lesson writes it to a file."
                                                                : ("File: " + state.lesson_file()).c_str());
        if (button(state.lesson_is_builtin() ? "Save a copy..." : "Save lesson...")) out.ask(act::OpenFileDialog{act::OpenFileDialog::save_lesson});
        item_tooltip("Write the lesson to a JSON file (the schema of assets/lessons.json); rope-explorer --lessons FILE or Ctrl+O opens it.");
        ImGui::SameLine();
        if (button("New lesson"))
            out.ask(act::EditLesson{"new lesson", [step = step_from_view(state)](lessons::Lesson& l) {
                                        l.title = "My lesson";
                                        l.steps = {step};
                                    }, 0, "", false, true});
        item_tooltip("Start a lesson of your own: one step, this view (Ctrl+Z brings the lesson back).");
        ImGui::SameLine();
        if (button("Open lesson...")) out.ask(act::OpenFileDialog{act::OpenFileDialog::open_session});
        item_tooltip("Open a lesson file (Ctrl+O tells a lesson from a session by its content).");
        if (button("Handout (PDF)...")) out.ask(act::OpenFileDialog{act::OpenFileDialog::save_handout});
        item_tooltip("Write the lesson as a PDF to print or share: a page per step with its title, its picture (vector graphics, light theme), its text and its question with the answer. Written in the background.");
        draw_step_list(state, out);
        ImGui::Separator();
        // the open step's fields scroll; the lesson's buttons above stay in view
        ImGui::BeginChild("step_fields");
        if (state.lesson_step() >= 0) draw_step(state, out);
        else ImGui::TextDisabled("No step open: pick one above, or add this view as a step.");
        ImGui::EndChild();
    }
    ImGui::End();
    typing_ = typing_next_;
    if (!shown) out.ask(act::ToggleLessonEditor{});
}

void LessonEditor::draw_step_list(const AppState& state, Actions& out) {
    const lessons::Lesson& lesson = state.lesson();
    const int open = state.lesson_step(), count = static_cast<int>(lesson.steps.size());
    ImGui::BeginChild("steps", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 5), true);
    for (int i = 0; i < count; ++i) {
        const std::string row = std::to_string(i + 1) + ". " + lesson.steps[static_cast<std::size_t>(i)].title + "##step" + std::to_string(i);
        if (ImGui::Selectable(row.c_str(), i == open)) out.ask(act::GoToLessonStep{i});
        note("step " + std::to_string(i + 1));
        if (i == open && ImGui::IsWindowAppearing()) ImGui::SetScrollHereY();
    }
    ImGui::EndChild();
    const int at = std::max(0, open), added = open < 0 ? count : open + 1;
    if (button("Add this view as a step"))
        out.ask(act::EditLesson{"add step " + std::to_string(added + 1), [step = step_from_view(state), added](lessons::Lesson& l) {
                                    l.steps.insert(l.steps.begin() + added, step);
                                }, added});
    item_tooltip("A new step after the open one (at the end if none is open): the parameters as they are now (the keys unlike the defaults), the panel maximised (or this step's) and its focus.");
    ImGui::BeginDisabled(open < 0);
    ImGui::SameLine();
    if (button("Duplicate"))
        out.ask(act::EditLesson{"duplicate step " + std::to_string(at + 1), [at](lessons::Lesson& l) { l.steps.insert(l.steps.begin() + at + 1, l.steps[static_cast<std::size_t>(at)]); }, at + 1});
    ImGui::SameLine();
    ImGui::BeginDisabled(open <= 0);
    if (button("Up")) out.ask(act::EditLesson{"move step " + std::to_string(at + 1) + " up", [at](lessons::Lesson& l) { std::swap(l.steps[static_cast<std::size_t>(at)], l.steps[static_cast<std::size_t>(at - 1)]); }, at - 1});
    ImGui::EndDisabled();
    item_tooltip("Move this step before the one above it.");
    ImGui::SameLine();
    ImGui::BeginDisabled(open < 0 || open + 1 >= count);
    if (button("Down")) out.ask(act::EditLesson{"move step " + std::to_string(at + 1) + " down", [at](lessons::Lesson& l) { std::swap(l.steps[static_cast<std::size_t>(at)], l.steps[static_cast<std::size_t>(at + 1)]); }, at + 1});
    ImGui::EndDisabled();
    item_tooltip("Move this step after the one below it.");
    ImGui::SameLine();
    ImGui::BeginDisabled(count <= 1);
    if (button("Delete")) out.ask(act::EditLesson{"delete step " + std::to_string(at + 1), [at](lessons::Lesson& l) { l.steps.erase(l.steps.begin() + at); }, std::max(0, at - 1), "", true});
    ImGui::EndDisabled();
    item_tooltip("Delete this step (Ctrl+Z brings it back).");
    ImGui::EndDisabled();
}

void LessonEditor::draw_step(const AppState& state, Actions& out) {
    const int index = state.lesson_step();
    const lessons::Step& step = state.lesson().steps[static_cast<std::size_t>(index)];
    const std::string n = std::to_string(index + 1);
    ImGui::Text("Step %d", index + 1);
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4);
    if (field("title", fields_.title, step.title))
        out.ask(edit_step("title of step " + n, index, [t = fields_.title](lessons::Step& s) { s.title = t; }, "title " + n));
    ImGui::TextUnformatted("Text ({colour:NAME} and {plot:NAME} name what the panel draws):");
    if (field("##text", fields_.text, step.text, 5))
        out.ask(edit_step("text of step " + n, index, [t = fields_.text](lessons::Step& s) { s.text = t; }, "text " + n));
    // the panel and focus: the view's panel taken over, the focus picked among its plots
    ImGui::Text("Panel: %s", std::string(step.panel->title).c_str());
    if (state.maximized >= 0 && state.maximized != step.panel->index) {
        ImGui::SameLine();
        if (ImGui::SmallButton("use the maximised panel"))
            out.ask(edit_step("panel of step " + n, index, [p = &figures::figure_at(state.maximized)](lessons::Step& s) { s.panel = p, s.focus.clear(); }));
    }
    if (step.panel->plots.size() > 1 && ImGui::BeginCombo("focus", step.focus.empty() ? "(the panel's own order)" : step.focus.c_str())) {
        if (ImGui::Selectable("(the panel's own order)", step.focus.empty())) out.ask(edit_step("focus of step " + n, index, [](lessons::Step& s) { s.focus.clear(); }));
        for (const figures::PlotDescriptor& p : step.panel->plots) {
            const std::string name(p.name);
            if (ImGui::Selectable((name + " (" + std::string(p.short_title) + ")").c_str(), step.focus == name))
                out.ask(edit_step("focus of step " + n, index, [name](lessons::Step& s) { s.focus = name; }));
        }
        ImGui::EndCombo();
    }
    // (worked out again only when the parameters changed: it reads the set back through the session parser)
    if (!captured_for_ || !(*captured_for_ == state.params())) captured_for_ = state.params(), captured_ = captured_parameters(state.params());
    const std::string& captured = captured_;
    ImGui::BeginDisabled(captured == step.parameters_json);
    if (button("Use this view's parameters"))
        out.ask(edit_step("parameters of step " + n, index, [captured](lessons::Step& s) { s.parameters_json = captured; }));
    ImGui::EndDisabled();
    item_tooltip("The step sets the parameters as they are now (the keys unlike the defaults).");
    ImGui::TextUnformatted("Notes (the presenter's only):");
    if (field("##notes", fields_.notes, step.notes, 2))
        out.ask(edit_step("notes of step " + n, index, [t = fields_.notes](lessons::Step& s) { s.notes = t; }, "notes " + n));
    ImGui::Separator();
    draw_question(state, out);
}

void LessonEditor::draw_question(const AppState& state, Actions& out) {
    const int index = state.lesson_step();
    const lessons::Step& step = state.lesson().steps[static_cast<std::size_t>(index)];
    const std::string n = std::to_string(index + 1);
    bool asks = step.question.has_value();
    if (checkbox("Ask first (predict, then reveal)", &asks)) {
        const std::string before = before_from_previous(state.lesson(), index);
        out.ask(edit_step(asks ? "question of step " + n : "no question at step " + n, index, [asks, before](lessons::Step& s) {
            if (!asks) return s.question.reset();
            lessons::Question q;
            q.ask = "What will change?";
            q.choices = {"It grows", "It shrinks", "It stays the same"};
            q.answer_choice = 0;
            q.why = "Say why in one line.";
            q.before_json = before;
            s.question = q;
        }));
    }
    item_tooltip("While asking, the picture shows the previous step's values of the keys this step changes; Page Down reveals.");
    if (!step.question) return;
    const lessons::Question& q = *step.question;
    auto edit_question = [&](const char* what, std::function<void(lessons::Question&)> change, const char* gesture) {
        out.ask(edit_step(std::string(what) + " of step " + n, index, [change = std::move(change)](lessons::Step& s) { change(*s.question); }, gesture + n));
    };
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    if (field("question", fields_.ask, q.ask)) edit_question("question", [t = fields_.ask](lessons::Question& x) { x.ask = t; }, "ask ");
    ImGui::TextUnformatted("Choices, one a line (none: the answer is a number):");
    if (field("##choices", fields_.choices, choices_text(q), 3))
        edit_question("choices", [t = fields_.choices](lessons::Question& x) {
            x.choices.clear();
            std::size_t at = 0;
            while (at <= t.size()) {
                const std::size_t end = std::min(t.find('\n', at), t.size());
                if (end > at) x.choices.push_back(t.substr(at, end - at));
                at = end + 1;
            }
            if (x.choices.size() == 1) x.choices.clear();  // one line is no choice: read as a number's question until a second
            x.answer_choice = x.choices.empty() ? -1 : std::min(std::max(x.answer_choice, 0), static_cast<int>(x.choices.size()) - 1);
        }, "choices ");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (field(q.is_choice() ? "answer (letter)" : "answer (number)", fields_.answer, answer_text(q)))
        edit_question("answer", [t = fields_.answer](lessons::Question& x) {
            if (x.is_choice()) {
                const int c = t.size() == 1 ? std::toupper(static_cast<unsigned char>(t[0])) - 'A' : -1;
                if (c < 0 || c >= static_cast<int>(x.choices.size()))
                    throw session::SessionError("answer \"" + t + "\": with choices it is the right one's letter, A to " + lessons::choice_letter(static_cast<int>(x.choices.size()) - 1));
                x.answer_choice = c;
            } else {
                char* end = nullptr;
                const double v = std::strtod(t.c_str(), &end);
                if (t.empty() || *end) throw session::SessionError("answer \"" + t + "\": without choices it is a number");
                x.answer_number = v;
            }
        }, "answer ");
    if (!q.is_choice()) {
        double tolerance = q.tolerance;
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        if (ImGui::InputDouble("give or take", &tolerance, 0, 0, "%.6g"))
            edit_question("tolerance", [tolerance](lessons::Question& x) { x.tolerance = std::max(0.0, tolerance); }, "tolerance ");
    }
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    if (field("why", fields_.why, q.why)) edit_question("why", [t = fields_.why](lessons::Question& x) { x.why = t; }, "why ");
}

}  // namespace rope::gui
