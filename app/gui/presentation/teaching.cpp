#include "gui/presentation/teaching.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gui/input/shortcuts.hpp"
#include "gui/app/screen_layout.hpp"
#include "gui/app/ui_helpers.hpp"
#include "figures/registry.hpp"
#include "lessons/lessons.hpp"
#include "lessons/panel_help.hpp"
#include "plot/ticks.hpp"
#include "session/session.hpp"

namespace rope::gui {

namespace {

// A toolbar button that goes on the current row if it fits there, else starts the next one (the
// manual wrapping of imgui_demo.cpp); `new_row` starts a row anyway.
bool tool_button(const char* label, const char* tooltip, bool new_row = false, bool enabled = true) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = ImGui::CalcTextSize(label).x + style.FramePadding.x * 2;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (!new_row && ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= right) ImGui::SameLine();
    ImGui::BeginDisabled(!enabled);
    const bool pressed = ImGui::Button(label);
    note_target(std::string("tool:") + label);
    ImGui::EndDisabled();
    item_tooltip(tooltip);
    return pressed;
}

}  // namespace

void draw_shortcut_overlay(const AppState& state, Actions& out) {
    if (!state.show_shortcuts) return;
    bool shown = true;
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(size.x / 2, size.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.96f);
    if (ImGui::Begin("Keyboard shortcuts", &shown,
                     ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
            for (const ShortcutHelp& s : shortcut_list()) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                ImGui::TextUnformatted(s.keys.c_str());
                ImGui::TableSetColumnIndex(1);
                ImGui::TextUnformatted(s.what.c_str());
            }
            ImGui::EndTable();
        }
        ImGui::TextDisabled("Every key has a button in the controls panel. Esc or ? closes this list.");
    }
    ImGui::End();
    if (!shown) out.ask(act::ShowShortcuts{false});
}

void draw_panel_help(const AppState& state, Actions& out) {
    if (state.help_panel < 0 || state.help_panel >= figures::figure_count() || state.presentation) return;
    const figures::FigureDescriptor& figure = *figures::all_figures()[static_cast<std::size_t>(state.help_panel)];
    const lessons::PanelHelp help = lessons::panel_help(figure.name);
    bool shown = true;
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    const float width = std::min(size.x * 0.9f, ImGui::GetFontSize() * 40);
    ImGui::SetNextWindowPos(ImVec2(size.x / 2, size.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, size.y * 0.9f));
    ImGui::SetNextWindowBgAlpha(0.96f);
    const std::string title = (help.heading.empty() ? std::string(figure.title) : help.heading) + "###panel_help";
    if (ImGui::Begin(title.c_str(), &shown, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(help.text.empty() ? "No words for this panel yet." : help.text.c_str());
        ImGui::PopTextWrapPos();
        ImGui::Spacing();
        ImGui::TextDisabled("Esc or F1 closes this. The same words are in docs/user-guide.md.");
    }
    ImGui::End();
    if (!shown) out.ask(act::TogglePanelHelp{state.help_panel});
}

void draw_toolbar(const AppState& state, Actions& out) {
    // Play / pause and speed
    if (ImGui::Button(state.playing ? "Pause" : "Play")) out.ask(act::TogglePlay{});
    item_tooltip("Play or pause the position animation (Space); it loops at max_position.");
    ImGui::SameLine();
    float speed = static_cast<float>(state.speed);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderFloat("##speed", &speed, static_cast<float>(session::kMinSpeed), static_cast<float>(session::kMaxSpeed),
                           "%.3g tokens/s", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        out.ask(act::SetSpeed{speed});
    item_tooltip("Animation speed in tokens per second, from 0.5 to 10000.");
    // position, pair and base steps
    if (tool_button("m-10", "Position m down by 10 (Shift+Left).", true)) out.ask(act::StepPosition{-10});
    if (tool_button("m-1", "Position m down by 1 (Left).")) out.ask(act::StepPosition{-1});
    if (tool_button("m+1", "Position m up by 1 (Right).")) out.ask(act::StepPosition{1});
    if (tool_button("m+10", "Position m up by 10 (Shift+Right).")) out.ask(act::StepPosition{10});
    if (tool_button("i-1", "Selected pair down by 1 (Down).", true)) out.ask(act::StepPair{-1});
    if (tool_button("i+1", "Selected pair up by 1 (Up).")) out.ask(act::StepPair{1});
    if (tool_button("base-", "Base down one notch, a tenth of a decade ([).")) out.ask(act::BaseNotch{-1});
    if (tool_button("base+", "Base up one notch, a tenth of a decade (]).")) out.ask(act::BaseNotch{1});
    // undo and redo, with what they would undo in the tooltip
    const auto& undo = state.history().undo_entries();
    const auto& redo = state.history().redo_entries();
    const std::string undo_tip = undo.empty() ? "Nothing to undo (Ctrl+Z)." : "Undo: " + undo.back().label + " (Ctrl+Z).";
    const std::string redo_tip = redo.empty() ? "Nothing to redo (Ctrl+Shift+Z or Ctrl+Y)." : "Redo: " + redo.back().label + " (Ctrl+Shift+Z or Ctrl+Y).";
    // always drawn alike (a greyed-out Undo would make a state look different by how it was
    // reached); with nothing to undo the status line says so
    if (tool_button("Undo", undo_tip.c_str(), true)) out.ask(act::Undo{});
    if (tool_button("Redo", redo_tip.c_str())) out.ask(act::Redo{});
    // modes and files
    if (tool_button("Lessons", "Open or close the guided tour of RoPE (Page Down / Page Up step through it).")) {
        if (state.lesson_step() >= 0) out.ask(act::CloseLesson{});
        else out.ask(act::OpenLesson{});
    }
    if (tool_button("Edit lesson", "Write your own lesson: add this view as a step, edit the texts, ask questions, reorder; Save lesson writes it to a file."))
        out.ask(act::ToggleLessonEditor{});
    if (tool_button("Present", "Presentation mode: large type, high contrast, controls hidden (P).")) out.ask(act::TogglePresentation{});
    if (tool_button("Presenter",
                    state.on_page ? "The presenter's own window (the step's text, your notes, the answer, a timer) is the desktop app's: "
                                    "a page cannot open a window on your other screen. Present shows the lesson full screen here."
                                  : "Presentation mode with a second window for you: the step's text, your notes, the answer to the question being "
                                    "asked, the next step and a timer; the audience's window shows the picture (Shift+P).",
                    false, !state.on_page))
        out.ask(act::TogglePresenterView{});
    if (tool_button("Full", "Fullscreen on or off (F11).")) out.ask(act::ToggleFullscreen{});
    if (tool_button("Keys", "List every keyboard shortcut (? or F1).")) out.ask(act::ToggleShortcuts{});
    if (tool_button("Save", "Save the session: parameters and view, as JSON (Ctrl+S).", true))
        out.ask(act::OpenFileDialog{act::OpenFileDialog::save_session});
    if (tool_button("Open", "Open a session file, or a PNG the app exported (Ctrl+O).")) out.ask(act::OpenFileDialog{act::OpenFileDialog::open_session});
    if (tool_button("Config", "Open a Hugging Face config.json: the model's head dim, base and context extension."))
        out.ask(act::OpenFileDialog{act::OpenFileDialog::open_config});
    if (state.on_page) {  // a page is closed by its browser; its address is the state to share
        if (tool_button("Copy link", "Copy this view's link: the page's address with the parameters and the view in it (a lesson "
                                     "step, the page, the theme); whoever opens it sees what you see."))
            out.ask(act::CopyLink{});
    } else if (tool_button("Quit", "Quit; the state is kept for the next start (Ctrl+Q).")) {
        out.ask(act::Quit{});
    }
}

namespace {

const lessons::Step* open_step(const AppState& state) {
    const auto& lesson = state.lesson();
    const int index = state.lesson_step();
    if (index < 0 || index >= static_cast<int>(lesson.steps.size())) return nullptr;
    return &lesson.steps[static_cast<std::size_t>(index)];
}

}  // namespace

std::string step_heading(const AppState& state) {
    const auto& lesson = state.lesson();
    // no-break spaces: a narrow column breaks the heading after the title, never inside "step 1 of 4"
    const std::string nbsp = "\u00A0";
    return lesson.title + "  -  step" + nbsp + std::to_string(state.lesson_step() + 1) + nbsp + "of" + nbsp + std::to_string(lesson.steps.size());
}

namespace {

// The step's words in the theme its panel is drawn in (the colours it names are those drawn).
lessons::DisplayedText shown_text(const AppState& state, const lessons::Step& step) {
    return lessons::displayed_text(step, plot::theme_by_id(effective_theme(state)));
}

// A filled square of `colour` where the swatch mark stands, outlined in the text's colour so that it
// shows on any background.
void swatch(plot::Color colour) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImVec2 size = ImGui::CalcTextSize(lessons::kSwatchMark.data(), lessons::kSwatchMark.data() + lessons::kSwatchMark.size());
    const float side = std::min(size.x, ImGui::GetFontSize() * 0.8f);
    const ImVec2 a{at.x + (size.x - side) / 2, at.y + (size.y - side) / 2};
    const ImVec2 b{a.x + side, a.y + side};
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(a, b, to_imgui_color(colour, 1));
    draw->AddRect(a, b, ImGui::GetColorU32(ImGuiCol_Text), 0, 0, std::max(1.0f, ImGui::GetFontSize() / 16));
    ImGui::Dummy(size);
}

// The lines of wrap_at_spaces with a swatch of each named colour where its mark stands.
void text_with_swatches(const lessons::DisplayedText& shown, float width) {
    const std::string_view mark = lessons::kSwatchMark;
    std::size_t next = 0;
    for (const std::string& line : wrap_at_spaces(shown.text, width)) {
        std::size_t at = 0;
        for (bool first = true;; first = false) {
            const std::size_t found = line.find(mark, at);
            const std::string piece = line.substr(at, found == std::string::npos ? std::string::npos : found - at);
            if (!first) ImGui::SameLine(0, 0);
            ImGui::TextUnformatted(piece.c_str(), piece.c_str() + piece.size());
            if (found == std::string::npos) break;
            ImGui::SameLine(0, 0);
            swatch(next < shown.colours.size() ? shown.colours[next].drawn : plot::Color{0.5f, 0.5f, 0.5f, 1});
            ++next;
            at = found + mark.size();
        }
    }
}

std::string look_at(const lessons::Step& step) {
    return "Look at: " + std::string(step.panel->title) + " (panel " + std::to_string(step.panel->index + 1) + ")";
}

// While a question is asked the window shows it and its choices instead of the text; once revealed,
// the answer (and how the audience's guess fared) comes before the text.
const lessons::Question* asked(const AppState& state, const lessons::Step& step) {
    return state.asking() && step.question ? &*step.question : nullptr;
}
// (`in_band`: presenting, where the column has no room for it, the answer is the band over the picture)
const lessons::Question* answered(const AppState& state, const lessons::Step& step, bool in_band) {
    return !state.asking() && !(state.presentation && in_band) && step.question ? &*step.question : nullptr;
}

// A choice's height: its lines, and on a touch screen no less than a thumb's target (a frame's height).
float choice_height(std::size_t lines, bool touch) {
    const float text = static_cast<float>(lines) * ImGui::GetTextLineHeight();
    return touch ? std::max(text, ImGui::GetFrameHeight()) : text;
}

std::string choice_label(const lessons::Question& q, int i) {
    return lessons::choice_letter(i) + ") " + q.choices[static_cast<std::size_t>(i)];
}

}  // namespace

std::string answer_text(const AppState& state, const lessons::Question& q) {
    std::string text = lessons::answer_line(q);
    if (q.is_choice() && state.guess_choice >= 0)
        text += state.guess_choice == q.answer_choice ? " (Your guess, " + lessons::choice_letter(state.guess_choice) + ", is right.)"
                                                      : " (Your guess was " + lessons::choice_letter(state.guess_choice) + ".)";
    if (!q.is_choice() && state.guessed_number) {
        const double off = std::abs(state.guess_number - q.answer_number);
        text += " (Your guess, " + plot::readout_number(state.guess_number, 6) + ", is " +
                (off <= q.tolerance ? std::string("close enough.)") : plot::readout_number(off, 4) + " off.)");
    }
    return text;
}

namespace {

// The height of the asked question: its words, each choice (wrapped), the guess field for a number.
float question_height(const lessons::Question& q, float inner, bool touch) {
    const float line = ImGui::GetTextLineHeightWithSpacing();
    float h = static_cast<float>(wrap_at_spaces(q.ask, inner).size()) * line;
    for (int i = 0; i < static_cast<int>(q.choices.size()); ++i)
        h += choice_height(wrap_at_spaces(choice_label(q, i), inner).size(), touch) + ImGui::GetStyle().ItemSpacing.y;
    if (!q.is_choice()) h += ImGui::GetFrameHeightWithSpacing();
    return h;
}

void draw_question(const AppState& state, const lessons::Question& q, Actions& out) {
    const float inner = ImGui::GetContentRegionAvail().x;
    text_wrapped_at_spaces(q.ask, inner);
    for (int i = 0; i < static_cast<int>(q.choices.size()); ++i) {
        const std::vector<std::string> lines = wrap_at_spaces(choice_label(q, i), inner);
        std::string label;
        for (const std::string& l : lines) label += (label.empty() ? "" : "\n") + l;
        label += "##choice" + std::to_string(i);
        if (ImGui::Selectable(label.c_str(), state.guess_choice == i, 0, ImVec2(inner, choice_height(lines.size(), state.touch))))
            out.ask(act::Guess{i});
        note_target("choice:" + std::to_string(i));
        if (!state.presentation) item_tooltip("The class's guess (optional): the answer says whether it was right. Page Down reveals.");
    }
    if (!q.is_choice()) {
        double guess = state.guess_number;
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
        if (ImGui::InputDouble("your guess", &guess, 0, 0, "%.6g")) out.ask(act::Guess{-1, guess, true});
        if (!state.presentation) item_tooltip("The class's guess (optional): the answer says how far it was. Page Down reveals.");
    }
}

// In presentation mode the lesson is part of the slide: no title bar, and the whole text shown.
ImGuiWindowFlags lesson_window_flags(const AppState& state) {
    return state.presentation ? kFixedWindow
                              : ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
}

}  // namespace

namespace {

// The Back, Next and Close buttons' width, and whether they go at the right of the heading's line
// (presentation mode, where they fit: a strip of text below the panel keeps a line for the text).
float step_buttons_width() {
    const ImGuiStyle& style = ImGui::GetStyle();
    return ImGui::CalcTextSize("< Back").x + ImGui::CalcTextSize("Reveal >").x + ImGui::CalcTextSize("Close").x + style.FramePadding.x * 6 +
           style.ItemSpacing.x * 2;
}
// Presenting on the desktop the room sees no buttons: Page Down / Page Up (a clicker) and the presenter
// view's buttons step the lesson. A page keeps them: a tablet has no keys.
bool step_buttons_shown(const AppState& state) { return !state.presentation || state.on_page; }
bool buttons_beside_heading(const AppState& state, float inner) {
    return state.presentation && step_buttons_shown(state) && ImGui::CalcTextSize(step_heading(state).c_str()).x + ImGui::GetFontSize() * 2 + step_buttons_width() <= inner;
}

// "Look at" names the step's panel, shown apart from the others outside presentation mode (which
// shows that panel alone).
bool says_look_at(const AppState& state) { return !state.presentation; }

float measure_lesson_panel(const AppState& state, const lessons::Step& step, float width, ImFont* title_font, bool in_band) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float inner = width - style.WindowPadding.x * 2;
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const bool buttons_up = buttons_beside_heading(state, inner);
    float h = style.WindowPadding.y * 2;
    if (!state.presentation) h += ImGui::GetFrameHeight();  // title bar
    // the heading (the buttons beside it, or below the text), the step's title in bold type, a
    // separator, the text, "Look at"
    h += buttons_up ? ImGui::GetFrameHeightWithSpacing() : static_cast<float>(wrap_at_spaces(step_heading(state), inner).size()) * line;
    ImGui::PushFont(title_font);
    h += static_cast<float>(wrap_at_spaces(step.title, inner).size()) * ImGui::GetTextLineHeightWithSpacing();
    ImGui::PopFont();
    h += style.ItemSpacing.y;
    if (const lessons::Question* q = asked(state, step)) {
        h += question_height(*q, inner, state.touch);
    } else {
        if (const lessons::Question* a = answered(state, step, in_band)) h += static_cast<float>(wrap_at_spaces(answer_text(state, *a), inner).size()) * line + style.ItemSpacing.y;
        h += static_cast<float>(wrap_at_spaces(shown_text(state, step).text, inner).size()) * line;
    }
    if (says_look_at(state)) h += static_cast<float>(wrap_at_spaces(look_at(step), inner).size()) * line;
    if (!buttons_up && step_buttons_shown(state)) h += style.ItemSpacing.y + ImGui::GetFrameHeightWithSpacing();
    return std::ceil(h);
}

void step_buttons(int index, int count, bool asking, Actions& out) {
    ImGui::BeginDisabled(index == 0);
    if (ImGui::Button("< Back")) out.ask(act::StepLesson{-1});
    note_target("lesson:Back");
    ImGui::EndDisabled();
    item_tooltip("The previous step (Page Up).");
    ImGui::SameLine();
    ImGui::BeginDisabled(index + 1 >= count && !asking);
    if (ImGui::Button(asking ? "Reveal >" : "Next >")) out.ask(act::StepLesson{1});
    note_target("lesson:Next");
    ImGui::EndDisabled();
    item_tooltip(asking ? "Show the answer: the step's change applied, and why (Page Down)." : "The next step (Page Down).");
    ImGui::SameLine();
    if (ImGui::Button("Close")) out.ask(act::CloseLesson{});
    note_target("lesson:Close");
    item_tooltip("Close the lesson; the parameters stay as they are.");

}

}  // namespace

void LessonPanel::place_answer(const AppState& state, ImVec2 display, ImFont* title_font) {
    answer_in_band_ = false;
    const lessons::Step* step = open_step(state);
    if (!state.presentation || !step || !step->question || state.asking()) return;
    if (state.presenter_view) return void(answer_in_band_ = true);  // the step's text is the presenter's
    // in the text's column if the column (up to 45% of the window) holds it, else the band
    answer_in_band_ = height(state, column_width(state, display.x, display.y, title_font), title_font) > display.y;
}

float LessonPanel::band_height(const AppState& state, float width) const {
    const lessons::Step* step = open_step(state);
    if (!answer_in_band_ || !state.presentation || !step || !step->question || state.asking()) return 0;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float lines = static_cast<float>(wrap_at_spaces(answer_text(state, *step->question), width - style.WindowPadding.x * 2).size());
    return std::ceil(lines * ImGui::GetTextLineHeightWithSpacing() + style.WindowPadding.y * 2);
}

void LessonPanel::draw_band(const AppState& state, ImVec2 pos, ImVec2 size) const {
    if (size.y <= 0) return;
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    ImGui::Begin("Answer", nullptr, kFixedWindow | ImGuiWindowFlags_NoScrollbar);
    text_wrapped_at_spaces(answer_text(state, *open_step(state)->question), ImGui::GetContentRegionAvail().x);
    ImGui::End();
}

float LessonPanel::height(const AppState& state, float width, ImFont* title_font) {
    const lessons::Step* step = open_step(state);
    if (!step) return 0;
    // (the panel too: the "Look at" line and the {plot:} words are its)
    std::string words = step_heading(state) + "\n" + step->title + "\n" + std::string(step->panel->name) + "\n";
    if (const lessons::Question* q = asked(state, *step)) {
        words += q->ask;
        for (const std::string& c : q->choices) words += "\n" + c;
    } else {
        if (const lessons::Question* a = answered(state, *step, answer_in_band_)) words += answer_text(state, *a) + "\n";
        words += step->text;
    }
    const float font = ImGui::GetFontSize(), title = title_font ? title_font->FontSize : 0;
    const plot::ThemeId theme = effective_theme(state);  // the colour words differ by theme
    for (const Known& k : known_)
        if (k.words == words && k.width == width && k.font == font && k.title_font == title && k.presentation == state.presentation &&
            k.theme == theme)
            return k.height;
    if (known_.size() >= kKnownHeights) known_.clear();
    known_.push_back({std::move(words), width, font, title, state.presentation, theme, measure_lesson_panel(state, *step, width, title_font, answer_in_band_)});
    return known_.back().height;
}

float LessonPanel::column_width(const AppState& state, float window_width, float window_height, ImFont* title_font) {
    float fraction = 0.28f;
    // wide enough for the whole text, and for the Back / Next (Reveal) / Close row under it
    const float buttons = step_buttons_shown(state) ? step_buttons_width() + ImGui::GetStyle().WindowPadding.x * 2 : 0.0f;
    while (fraction < 0.45f && (height(state, std::round(window_width * fraction), title_font) > window_height || window_width * fraction < buttons))
        fraction += 0.01f;
    return std::round(window_width * fraction);
}

void LessonPanel::draw(const AppState& state, ImVec2 pos, ImVec2 size, ImFont* title_font, Actions& out) {
    const lessons::Step* step = open_step(state);
    if (!step) return;
    const int index = state.lesson_step();
    const int count = static_cast<int>(state.lesson().steps.size());
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    ImGui::Begin("Lesson", nullptr, lesson_window_flags(state));
    const float inner = ImGui::GetContentRegionAvail().x;
    const bool buttons_up = buttons_beside_heading(state, inner);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    if (buttons_up) ImGui::AlignTextToFramePadding();
    text_wrapped_at_spaces(step_heading(state), inner);  // a narrow column breaks it, never clips it
    ImGui::PopStyleColor();
    if (buttons_up) {
        ImGui::SameLine();
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, inner - (ImGui::GetCursorPosX() - ImGui::GetStyle().WindowPadding.x) - step_buttons_width()));
        step_buttons(index, count, state.asking(), out);
    }
    ImGui::PushFont(title_font);
    text_wrapped_at_spaces(step->title, inner);
    ImGui::PopFont();
    ImGui::Separator();
    const float buttons_h = buttons_up || !step_buttons_shown(state) ? 0.0f : ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
    // The whole text where it fits (presentation mode sizes the panel for it); else it scrolls. Each
    // step has its own child, so no step inherits another's scrollbar (which narrows the text, and
    // the narrower text then needs the scrollbar: a walked step would look unlike a fresh one).
    const bool fits = height(state, size.x, title_font) <= size.y;
    ImGui::PushID(index);
    ImGui::BeginChild("lesson_text", ImVec2(0, buttons_up ? 0.0f : -buttons_h), false, fits ? ImGuiWindowFlags_NoScrollbar : 0);
    if (const lessons::Question* q = asked(state, *step)) {
        draw_question(state, *q, out);
    } else {
        if (const lessons::Question* a = answered(state, *step, answer_in_band_)) {
            text_wrapped_at_spaces(answer_text(state, *a), ImGui::GetContentRegionAvail().x);
            ImGui::Spacing();
        }
        text_with_swatches(shown_text(state, *step), ImGui::GetContentRegionAvail().x);
    }
    if (says_look_at(state)) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        text_wrapped_at_spaces(look_at(*step), ImGui::GetContentRegionAvail().x);
        ImGui::PopStyleColor();
    }
    ImGui::EndChild();
    ImGui::PopID();
    if (!buttons_up && step_buttons_shown(state)) step_buttons(index, count, state.asking(), out);
    ImGui::End();
}

}  // namespace rope::gui
