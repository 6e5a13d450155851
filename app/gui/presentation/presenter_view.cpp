#include "gui/presentation/presenter_view.hpp"

#include <cmath>
#include <cstdio>

#include "gui/app/ui_helpers.hpp"
#include "gui/app/ui_theme.hpp"
#include "gui/presentation/teaching.hpp"
#include "lessons/lessons.hpp"
#include "plot/style.hpp"

namespace rope::gui {

namespace {

const lessons::Step* step_at(const AppState& state, int index) {
    const auto& steps = state.lesson().steps;
    return index >= 0 && index < static_cast<int>(steps.size()) ? &steps[static_cast<std::size_t>(index)] : nullptr;
}

// The step's words as the audience reads them, the swatch marks (and the no-break space after each) left out.
std::string plain_words(const AppState& state, const lessons::Step& step) {
    std::string text;
    try {
        text = lessons::displayed_text(step, plot::theme_by_id(effective_theme(state))).text;
    } catch (const std::exception&) {
        text = step.text;  // a lesson is checked when read: only a panel without that colour gets here
    }
    const std::string mark = std::string(lessons::kSwatchMark) + "\xc2\xa0";
    for (std::size_t at = text.find(mark); at != std::string::npos; at = text.find(mark, at)) text.erase(at, mark.size());
    return text;
}

// The first sentence or two: enough to say what comes next.
std::string opening(const std::string& text, std::size_t at_most = 160) {
    if (text.size() <= at_most) return text;
    const std::size_t stop = text.rfind(". ", at_most);
    if (stop != std::string::npos && stop > at_most / 3) return text.substr(0, stop + 1);
    const std::size_t space = text.rfind(' ', at_most);
    return text.substr(0, space == std::string::npos ? at_most : space) + " ...";
}

// "7. Title": the step's number, unless its title starts with it (the built-in lesson's do).
std::string numbered(int index, const lessons::Step& step) {
    const std::string number = std::to_string(index + 1) + ".";
    return step.title.rfind(number, 0) == 0 ? step.title : number + " " + step.title;
}

}  // namespace

std::vector<std::string> room_notes(const AppState& state, const PanelSet& panels) {
    std::vector<std::string> notes;
    if (state.page_parts > 1 && state.lesson_step() < 0 && state.maximized < 0)
        notes.push_back(std::string(figures::pages()[static_cast<std::size_t>(state.page)]) + ": part " + std::to_string(state.page_part + 1) +
                        " of " + std::to_string(state.page_parts) + " (Tab / Shift+Tab: the next / previous part)");
    for (const PanelView& p : panels.views) {
        if (!p.shown || !p.built) continue;
        std::string left_out = p.result.left_out;
        if (!p.result.hidden_b.empty()) left_out += (left_out.empty() ? "" : "; ") + std::string("model A alone (B, ") + p.result.hidden_b + ", beside it needs more room)";
        if (left_out.empty()) continue;
        const std::string number = std::to_string(p.figure->index + 1);
        notes.push_back(number + " " + std::string(p.figure->title) + ": " + left_out + " at this size; " +
                        (state.maximized == p.figure->index ? "Ctrl+E over it exports all" : "key " + number + " maximises it, Ctrl+E over it exports all"));
    }
    notes.push_back(kPresentingKeys);
    return notes;
}

PresenterText presenter_text(const AppState& state) {
    PresenterText t;
    t.on_screen = state.room_notes;
    t.status = state.status;
    const int index = state.lesson_step();
    const lessons::Step* step = step_at(state, index);
    if (!step) {
        t.heading = "No lesson step open: Page Down (or Lessons in the toolbar) starts \"" + state.lesson().title + "\"";
        if (const lessons::Step* first = step_at(state, 0)) t.next = "Next: " + numbered(0, *first), t.next_text = opening(plain_words(state, *first));
        return t;
    }
    t.heading = step_heading(state);
    t.title = step->title;
    t.text = plain_words(state, *step);
    if (step->question) {
        if (state.asking()) {
            t.question = step->question->ask;
            for (int i = 0; i < static_cast<int>(step->question->choices.size()); ++i)
                t.choices.push_back(lessons::choice_letter(i) + ") " + step->question->choices[static_cast<std::size_t>(i)]);
        }
        t.answer = answer_text(state, *step->question);
    }
    t.notes = step->notes;
    if (const lessons::Step* next = step_at(state, index + 1)) {
        t.next = "Next: " + numbered(index + 1, *next) + (next->question ? " (asks first)" : "");
        t.next_text = opening(plain_words(state, *next));
    } else {
        t.next = "Last step";
    }
    return t;
}

std::string timer_text(double seconds) {
    const long total = std::lround(std::max(0.0, std::floor(seconds)));
    char out[32];
    if (total >= 3600) std::snprintf(out, sizeof out, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
    else std::snprintf(out, sizeof out, "%ld:%02ld", total / 60, total % 60);
    return out;
}

namespace {

void section(const char* name) {
    ImGui::Spacing();
    ImGui::TextDisabled("%s", name);
    ImGui::Separator();
}

// The heading's line: where the lesson is, Back and Next (or Reveal), and the timer at the right.
void heading_line(const AppState& state, const PresenterText& t, double elapsed, ImFont* title_font, bool& reset_timer, Actions& out) {
    const std::string timer = timer_text(elapsed);
    ImGui::PushFont(title_font);
    const float timer_w = ImGui::CalcTextSize("00:00:00").x;
    ImGui::PopFont();
    const float reset_w = ImGui::CalcTextSize("Reset").x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::BeginDisabled(state.lesson_step() <= 0);
    if (ImGui::Button("< Back")) out.ask(act::StepLesson{-1});
    ImGui::EndDisabled();
    item_tooltip("The previous step (Page Up; the keys work in this window too).");
    ImGui::SameLine();
    const bool last = state.lesson_step() + 1 >= static_cast<int>(state.lesson().steps.size());
    ImGui::BeginDisabled(last && !state.asking());
    if (ImGui::Button(state.asking() ? "Reveal >" : "Next >")) out.ask(act::StepLesson{1});
    ImGui::EndDisabled();
    item_tooltip(state.asking() ? "Show the audience the answer (Page Down)." : "The next step (Page Down).");
    ImGui::SameLine();
    ImGui::TextWrapped("%s", t.heading.c_str());
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - timer_w - reset_w - ImGui::GetStyle().ItemSpacing.x);
    ImGui::PushFont(title_font);
    ImGui::TextUnformatted(timer.c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    if (ImGui::Button("Reset")) reset_timer = true;
    item_tooltip("Start the timer again from 0:00 (it counts from when this view opened).");
}

}  // namespace

void draw_presenter_view(const AppState& state, double elapsed, ImFont* title_font, bool& reset_timer, Actions& out) {
    const PresenterText t = presenter_text(state);
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("Presenter", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
    heading_line(state, t, elapsed, title_font, reset_timer, out);
    ImGui::Separator();
    const float next_h = ImGui::GetTextLineHeightWithSpacing() * 6;
    ImGui::BeginChild("##now", ImVec2(0, ImGui::GetContentRegionAvail().y - next_h));
    if (!t.title.empty()) {
        ImGui::PushFont(title_font);
        ImGui::TextWrapped("%s", t.title.c_str());
        ImGui::PopFont();
    }
    if (!t.question.empty()) {
        section("Asking now (the audience sees the question and the picture before)");
        ImGui::TextWrapped("%s", t.question.c_str());
        for (const std::string& c : t.choices) ImGui::BulletText("%s", c.c_str());
        ImGui::TextWrapped("%s (for you: the audience sees it once revealed)", t.answer.c_str());
        section("The text, shown once revealed");
    } else if (!t.answer.empty()) {
        ImGui::TextWrapped("%s", t.answer.c_str());
        ImGui::Spacing();
    }
    ImGui::TextWrapped("%s", t.text.c_str());
    section("Notes");
    if (t.notes.empty()) ImGui::TextDisabled("(none for this step: Edit lesson, Notes)");
    else ImGui::TextWrapped("%s", t.notes.c_str());
    section("The audience's window (no buttons or hints there)");
    for (const std::string& line : t.on_screen) {  // (wrapped: a note names a panel, what it leaves out and the keys)
        ImGui::Bullet();
        ImGui::TextWrapped("%s", line.c_str());
    }
    ImGui::EndChild();
    ImGui::Separator();
    ImGui::TextUnformatted(t.next.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", t.next_text.c_str());
    ImGui::PopStyleColor();
    ImGui::Separator();
    ImGui::TextUnformatted(t.status.c_str());  // the status line: the audience's window has none while presenting
    ImGui::End();
}

}  // namespace rope::gui
