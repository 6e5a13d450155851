#include "gui/session_dialog.hpp"

#include <imgui.h>
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "gui/ui_helpers.hpp"
#include "io/atomic_file.hpp"
#include "lessons/lessons.hpp"
#include "session/hf_config.hpp"

namespace rope::gui {

namespace {

std::string working_folder() {
    char cwd[4096];
    return getcwd(cwd, sizeof cwd) ? cwd : ".";
}

void open_dialog(AppState& state, bool saving, bool config, const std::string& path) {
    SessionDialogState& d = state.session_dialog;
    d.open = true;
    d.just_opened = true;
    d.saving = saving;
    d.config = config;
    std::snprintf(d.path, sizeof d.path, "%s", path.c_str());
}

}  // namespace

void open_session_dialog(AppState& state, bool saving) {
    open_dialog(state, saving, false, state.session_path.empty() ? working_folder() + "/rope-session.json" : state.session_path);
}

void open_config_dialog(AppState& state) { open_dialog(state, false, true, working_folder() + "/config.json"); }

void import_config(AppState& state, const std::string& path) {
    const session::ConfigImport imported = session::import_hf_config(path);
    state.replace("config " + path, session::with_config(state.params(), imported, path));
    std::string msg = "Config loaded from " + path;
    for (const std::string& w : imported.warnings) msg += "\nWarning: " + w;
    state.set_status(msg);
}

namespace {

// A dropped file is a config.json when it is a JSON object that is not a session (no "parameters",
// the key a session file must have); a PNG, a session or a file that does not parse is opened as a
// session, whose loader names what is wrong.
bool is_config_file(const std::string& path) {
    std::string text;
    try {
        text = io::read_file(path);
    } catch (const io::IoError&) {
        return false;
    }
    if (text.size() >= 4 && static_cast<unsigned char>(text[0]) == 0x89 && text.compare(1, 3, "PNG") == 0) return false;
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    return j.is_object() && !j.contains("parameters");
}

}  // namespace

void open_dropped_file(AppState& state, const std::string& path) {
    try {
        if (is_config_file(path)) {
            import_config(state, path);
        } else {
            apply_session(state, session::load_session(path), std::string("open session ") + path);
            state.set_status(std::string("Session opened from ") + path);
            state.session_path = path;
        }
    } catch (const std::exception& e) {
        state.set_status(e.what(), true);  // the state is unchanged
    }
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
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) {
        d.open = false;
        ImGui::CloseCurrentPopup();
    }
    if (go && d.open) {
        try {
            if (d.config) {
                import_config(state, d.path);
            } else if (d.saving) {
                session::save_session(d.path, current_session(state));
                state.set_status(std::string("Session saved to ") + d.path);
            } else {
                apply_session(state, session::load_session(d.path), std::string("open session ") + d.path);
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
    s.params = state.params();
    s.view.maximized = state.maximized;
    s.view.page = state.page;
    s.view.theme = state.theme == plot::ThemeId::light ? "light" : "dark";
    s.view.presentation = state.presentation;
    s.view.lesson_step = state.lesson_step();
    s.view.playing = state.playing;
    s.view.speed = state.speed;
    return s;
}

int session_lesson_step(const session::Session& s) {
    const int steps = static_cast<int>(lessons::builtin_lesson().steps.size());
    return s.view.lesson_step < steps ? s.view.lesson_step : -1;
}

void apply_session(AppState& state, const session::Session& s, const std::string& label) {
    state.replace(label, s.params, session_lesson_step(s));
    apply_view(state, s.view);
}

void apply_view(AppState& state, const session::ViewState& view) {
    state.maximized = view.maximized;
    state.page = state.maximized >= 0 ? figures::figure_at(state.maximized).page : view.page;
    state.theme = view.theme == "light" ? plot::ThemeId::light : plot::ThemeId::dark;
    state.presentation = view.presentation;
    state.playing = view.playing;
    state.speed = view.speed;
    state.play_position = static_cast<double>(state.params()[P::position]);
}

}  // namespace rope::gui
