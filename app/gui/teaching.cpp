#include "gui/teaching.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>

#include "gui/export_dialog.hpp"
#include "gui/panels.hpp"
#include "io/atomic_file.hpp"
#include "lessons/lessons.hpp"
#include "session/hf_config.hpp"

namespace rope::gui {

namespace {

struct Shortcut {
    const char* keys;
    const char* what;
};

const Shortcut kShortcuts[] = {
    {"Right / Left", "position m +1 / -1 (with Shift: +10 / -10)"},
    {"Up / Down", "selected pair +1 / -1"},
    {"] / [", "base up / down one notch (a tenth of a decade)"},
    {"Space", "play / pause the position animation"},
    {"P", "presentation mode: large type, high contrast, no controls"},
    {"F11", "fullscreen"},
    {"1 … 9", "maximise that panel (showing its page); again (or Esc) to restore"},
    {"Tab / Shift+Tab", "next / previous page of panels"},
    {"Page Down / Page Up", "next / previous lesson step (presenter clickers send these)"},
    {"Ctrl+S / Ctrl+O", "save / open a session"},
    {"Ctrl+E", "export the panel under the mouse"},
    {"F12", "screenshot of the window into your Pictures folder"},
    {"Ctrl+Q", "quit (the state is kept for next time)"},
    {"? or F1", "this list"},
    {"Ctrl+click a slider", "type a value"},
};

void step_position(AppState& state, std::int64_t delta) {
    const std::int64_t max_position = state.params.integer("max_position");
    const std::int64_t m = std::clamp<std::int64_t>(state.params.integer("position") + delta, 0, max_position - 1);
    state.apply_number("position", static_cast<double>(m));
    state.play_position = static_cast<double>(m);
}

void step_pair(AppState& state, int delta) {
    const int pairs = state.cache.frequencies(state.params).pairs();
    const std::int64_t i = std::clamp<std::int64_t>(state.params.integer("pair") + delta, 0, pairs - 1);
    state.apply_number("pair", static_cast<double>(i));
}

void toggle_play(AppState& state) {
    state.playing = !state.playing;
    state.play_position = static_cast<double>(state.params.integer("position"));
}

void lesson_step(AppState& state, int delta) {
    const int n = static_cast<int>(lessons::builtin_lesson().steps.size());
    const int next = state.lesson_step < 0 ? 0 : std::clamp(state.lesson_step + delta, 0, n - 1);
    state.go_to_lesson_step(next);
}

std::string default_session_path() {
    char cwd[4096];
    return std::string(getcwd(cwd, sizeof cwd) ? cwd : ".") + "/rope-session.json";
}

}  // namespace

void base_notch(AppState& state, int direction) {
    const ParamSpec* spec = find_param("base");
    const double b = state.params.real("base") * std::pow(10.0, 0.1 * direction);
    state.apply_number("base", std::clamp(b, spec->slider_min, spec->slider_max));
}

void handle_shortcuts(AppState& state) {
    ImGuiIO& io = ImGui::GetIO();
    // these work even while a text field has the keyboard
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Q, false)) state.quit_requested = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_F12, false)) state.screenshot_requested = true;
    if (io.WantTextInput) return;
    const bool ctrl = io.KeyCtrl;
    if (!ctrl) {
        if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) step_position(state, io.KeyShift ? 10 : 1);
        if (ImGui::IsKeyPressed(GLFW_KEY_LEFT)) step_position(state, io.KeyShift ? -10 : -1);
        if (ImGui::IsKeyPressed(GLFW_KEY_UP)) step_pair(state, 1);
        if (ImGui::IsKeyPressed(GLFW_KEY_DOWN)) step_pair(state, -1);
        if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT_BRACKET)) base_notch(state, 1);
        if (ImGui::IsKeyPressed(GLFW_KEY_LEFT_BRACKET)) base_notch(state, -1);
        if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) toggle_play(state);
        if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) state.presentation = !state.presentation;
        if (ImGui::IsKeyPressed(GLFW_KEY_F11, false)) state.fullscreen = !state.fullscreen;
        if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) state.show_shortcuts = !state.show_shortcuts;
        if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_DOWN, false)) lesson_step(state, 1);
        if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_UP, false)) lesson_step(state, -1);
        for (int k = 0; k < static_cast<int>(state.panels.size()); ++k)
            if (ImGui::IsKeyPressed(GLFW_KEY_1 + k, false)) toggle_maximized(state, k);
        if (ImGui::IsKeyPressed(GLFW_KEY_TAB, false)) {
            // next page (Shift+Tab: previous)
            const int n = static_cast<int>(kPages.size());
            state.page = (state.page + (io.KeyShift ? n - 1 : 1)) % n;
            state.maximized = -1;
        }
        if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) {
            if (state.show_shortcuts) state.show_shortcuts = false;
            else state.maximized = -1;
        }
        for (ImWchar c : io.InputQueueCharacters)
            if (c == '?') state.show_shortcuts = !state.show_shortcuts;
    } else {
        if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) open_session_dialog(state, true);
        if (ImGui::IsKeyPressed(GLFW_KEY_O, false)) open_session_dialog(state, false);
        if (ImGui::IsKeyPressed(GLFW_KEY_E, false)) {
            // the panel under the mouse
            for (int k = 0; k < static_cast<int>(state.panels.size()); ++k) {
                const plot::Rect& r = state.panels[k].screen;
                const bool shown = state.maximized >= 0 ? state.maximized == k : page_of_panel(k) == state.page;
                if (shown && r.contains({io.MousePos.x, io.MousePos.y}))
                    open_export_dialog(state, k);
            }
        }
    }
}

void draw_shortcut_overlay(AppState& state) {
    if (!state.show_shortcuts) return;
    const ImVec2 size = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(size.x / 2, size.y / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.96f);
    if (ImGui::Begin("Keyboard shortcuts", &state.show_shortcuts,
                     ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse)) {
        if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
            for (const Shortcut& s : kShortcuts) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                ImGui::TextUnformatted(s.keys);
                ImGui::TableSetColumnIndex(1);
                ImGui::TextUnformatted(s.what);
            }
            ImGui::EndTable();
        }
        ImGui::TextDisabled("Every key has a button in the controls panel. Esc or ? closes this list.");
    }
    ImGui::End();
}

void draw_toolbar(AppState& state) {
    // Play / pause and speed
    if (ImGui::Button(state.playing ? "Pause" : "Play")) toggle_play(state);
    item_tooltip("Play or pause the position animation (Space); it loops at max_position.");
    ImGui::SameLine();
    float speed = static_cast<float>(state.speed);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderFloat("##speed", &speed, static_cast<float>(session::kMinSpeed), static_cast<float>(session::kMaxSpeed),
                           "%.3g tokens/s", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        state.speed = speed;
    item_tooltip("Animation speed in tokens per second, from 0.5 to 10000.");
    // position, pair and base steps
    if (ImGui::Button("m-10")) step_position(state, -10);
    item_tooltip("Position m down by 10 (Shift+Left).");
    ImGui::SameLine();
    if (ImGui::Button("m-1")) step_position(state, -1);
    item_tooltip("Position m down by 1 (Left).");
    ImGui::SameLine();
    if (ImGui::Button("m+1")) step_position(state, 1);
    item_tooltip("Position m up by 1 (Right).");
    ImGui::SameLine();
    if (ImGui::Button("m+10")) step_position(state, 10);
    item_tooltip("Position m up by 10 (Shift+Right).");
    if (ImGui::Button("i-1")) step_pair(state, -1);
    item_tooltip("Selected pair down by 1 (Down).");
    ImGui::SameLine();
    if (ImGui::Button("i+1")) step_pair(state, 1);
    item_tooltip("Selected pair up by 1 (Up).");
    ImGui::SameLine();
    if (ImGui::Button("base-")) base_notch(state, -1);
    item_tooltip("Base down one notch, a tenth of a decade ([).");
    ImGui::SameLine();
    if (ImGui::Button("base+")) base_notch(state, 1);
    item_tooltip("Base up one notch, a tenth of a decade (]).");
    // modes and files
    if (ImGui::Button("Lessons")) {
        if (state.lesson_step >= 0)
            state.lesson_step = -1;
        else
            state.go_to_lesson_step(0);
    }
    item_tooltip("Open or close the guided tour of RoPE (Page Down / Page Up step through it).");
    ImGui::SameLine();
    if (ImGui::Button("Present")) state.presentation = !state.presentation;
    item_tooltip("Presentation mode: large type, high contrast, controls hidden (P).");
    ImGui::SameLine();
    if (ImGui::Button("Full")) state.fullscreen = !state.fullscreen;
    item_tooltip("Fullscreen on or off (F11).");
    ImGui::SameLine();
    if (ImGui::Button("Keys")) state.show_shortcuts = !state.show_shortcuts;
    item_tooltip("List every keyboard shortcut (? or F1).");
    if (ImGui::Button("Save")) open_session_dialog(state, true);
    item_tooltip("Save the session: parameters and view, as JSON (Ctrl+S).");
    ImGui::SameLine();
    if (ImGui::Button("Open")) open_session_dialog(state, false);
    item_tooltip("Open a session file, or a PNG the app exported (Ctrl+O).");
    ImGui::SameLine();
    if (ImGui::Button("Config")) open_config_dialog(state);
    item_tooltip("Open a Hugging Face config.json: the model's head dim, base and context extension.");
    ImGui::SameLine();
    if (ImGui::Button("Quit")) state.quit_requested = true;
    item_tooltip("Quit; the state is kept for the next start (Ctrl+Q).");
}

void advance_animation(AppState& state, double dt) {
    if (!state.playing) return;
    const double max_position = static_cast<double>(state.params.integer("max_position"));
    state.play_position += state.speed * std::min(dt, 0.25);
    if (state.play_position >= max_position) state.play_position = std::fmod(state.play_position, max_position);
    const double m = std::floor(state.play_position);
    if (m != static_cast<double>(state.params.integer("position"))) state.apply_number("position", m);
}

void draw_lesson_panel(AppState& state, ImVec2 pos, ImVec2 size) {
    const auto& lesson = lessons::builtin_lesson();
    if (state.lesson_step < 0 || state.lesson_step >= static_cast<int>(lesson.steps.size())) return;
    const lessons::Step& step = lesson.steps[state.lesson_step];
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    ImGui::Begin("Lesson", nullptr,
                 ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
    ImGui::TextDisabled("%s  -  step %d of %d", lesson.title.c_str(), state.lesson_step + 1, static_cast<int>(lesson.steps.size()));
    ImGui::TextUnformatted(step.title.c_str());
    ImGui::Separator();
    const float buttons_h = ImGui::GetFrameHeightWithSpacing() * 1.3f;
    ImGui::BeginChild("lesson_text", ImVec2(0, -buttons_h), false);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(step.text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::TextDisabled("Look at: %s (panel %d)", figures::figure_title(step.panel).data(),
                        static_cast<int>(step.panel) + 1);
    ImGui::EndChild();
    ImGui::BeginDisabled(state.lesson_step == 0);
    if (ImGui::Button("< Back")) lesson_step(state, -1);
    ImGui::EndDisabled();
    item_tooltip("The previous step (Page Up).");
    ImGui::SameLine();
    ImGui::BeginDisabled(state.lesson_step + 1 >= static_cast<int>(lesson.steps.size()));
    if (ImGui::Button("Next >")) lesson_step(state, 1);
    ImGui::EndDisabled();
    item_tooltip("The next step (Page Down).");
    ImGui::SameLine();
    if (ImGui::Button("Close")) state.lesson_step = -1;
    item_tooltip("Close the lesson; the parameters stay as they are.");
    ImGui::End();
}

void open_session_dialog(AppState& state, bool saving) {
    SessionDialogState& d = state.session_dialog;
    d.open = true;
    d.just_opened = true;
    d.saving = saving;
    d.config = false;
    const std::string path = state.session_path.empty() ? default_session_path() : state.session_path;
    std::snprintf(d.path, sizeof d.path, "%s", path.c_str());
}

void open_config_dialog(AppState& state) {
    SessionDialogState& d = state.session_dialog;
    d.open = true;
    d.just_opened = true;
    d.saving = false;
    d.config = true;
    char cwd[4096];
    const std::string path = std::string(getcwd(cwd, sizeof cwd) ? cwd : ".") + "/config.json";
    std::snprintf(d.path, sizeof d.path, "%s", path.c_str());
}

void draw_session_dialog(AppState& state) {
    SessionDialogState& d = state.session_dialog;
    if (!d.open) return;
    const char* title = d.config ? "Open config.json" : d.saving ? "Save session" : "Open session";
    if (d.just_opened) {
        ImGui::OpenPopup(title);
        d.just_opened = false;
    }
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 32, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(title, &d.open, ImGuiWindowFlags_NoSavedSettings)) return;
    ImGui::TextUnformatted(d.config ? "Read a Hugging Face config.json (head dim, base, scaling):"
                           : d.saving ? "Write the parameters and the view to a JSON file:"
                                      : "Read a session JSON file, or a PNG the app exported:");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##path", d.path, sizeof d.path, ImGuiInputTextFlags_EnterReturnsTrue);
    item_tooltip("The file's path. Saving replaces the file whole (temporary file, then rename).");
    const bool go = ImGui::Button(d.saving ? "Save" : "Open") || enter;
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) {
        d.open = false;
        ImGui::CloseCurrentPopup();
    }
    if (go) {
        try {
            if (d.config) {
                const session::ConfigImport imported = session::import_hf_config(d.path);
                state.params = session::with_config(state.params, imported, d.path);
                std::string msg = std::string("Config loaded from ") + d.path;
                for (const std::string& w : imported.warnings) msg += "\nWarning: " + w;
                state.set_status(msg);
            } else if (d.saving) {
                session::save_session(d.path, current_session(state));
                state.set_status(std::string("Session saved to ") + d.path);
            } else {
                apply_session(state, session::load_session(d.path));
                state.set_status(std::string("Session opened from ") + d.path);
            }
            if (!d.config) state.session_path = d.path;
            d.open = false;
            ImGui::CloseCurrentPopup();
        } catch (const std::exception& e) {
            state.set_status(e.what(), true);  // the state is unchanged
        }
    }
    if (state.status_error) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", state.status.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::EndPopup();
}

session::Session current_session(const AppState& state) {
    session::Session s;
    s.params = state.params;
    s.view.maximized = state.maximized;
    s.view.page = state.page;
    s.view.theme = state.theme == plot::ThemeId::light ? "light" : "dark";
    s.view.presentation = state.presentation;
    s.view.lesson_step = state.lesson_step;
    s.view.playing = state.playing;
    s.view.speed = state.speed;
    return s;
}

void apply_session(AppState& state, const session::Session& s) {
    state.params = s.params;
    state.maximized = s.view.maximized;
    state.page = state.maximized >= 0 ? page_of_panel(state.maximized) : s.view.page;
    state.theme = s.view.theme == "light" ? plot::ThemeId::light : plot::ThemeId::dark;
    state.presentation = s.view.presentation;
    const int steps = static_cast<int>(lessons::builtin_lesson().steps.size());
    state.lesson_step = s.view.lesson_step < steps ? s.view.lesson_step : -1;
    state.playing = s.view.playing;
    state.speed = s.view.speed;
    state.play_position = static_cast<double>(state.params.integer("position"));
}

}  // namespace rope::gui
