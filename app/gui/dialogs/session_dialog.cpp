#include "gui/dialogs/session_dialog.hpp"

#include <filesystem>

#include "weights/trained_weights.hpp"

#include <imgui.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "gui/app/ui_helpers.hpp"
#include "gui/dialogs/dialog_layout.hpp"
#include "gui/dialogs/export_dialog.hpp"
#include "gui/dialogs/page_files.hpp"
#include "io/atomic_file.hpp"
#include "session/recent_configs.hpp"
#include "lessons/lessons.hpp"
#include "session/hf_config.hpp"

namespace rope::gui {

namespace {

std::string working_folder() {
    char cwd[4096];
    return getcwd(cwd, sizeof cwd) ? cwd : ".";
}

using session::FileKind;
using session::file_kind;

// A session and the lesson it names (read now: a lesson file that is gone refuses the session).
act::OpenSession session_action(const std::string& path) {
    session::Session s = session::load_session(path);
    std::shared_ptr<const lessons::Lesson> lesson =
        s.view.lesson_file.empty() ? lessons::builtin_lesson_shared() : lessons::read_lesson_file(s.view.lesson_file);
    return {"open session " + path, std::move(s), path, std::move(lesson)};
}

// A Hugging Face config.json over the current model, with its warnings for the status line.
act::ReplaceParams config_action(const AppState& state, const std::string& path) {
    const session::ConfigImport imported = session::import_hf_config(path);
    std::string message = "Config loaded from " + path;
    for (const std::string& w : imported.warnings) message += "\nWarning: " + w;
    return {"config " + path, session::with_config(state.params(), imported, path), message};
}

// A model folder (config.json and *.safetensors): its RoPE as a config loads it, and model=DIR for
// the Trained model panel, which then reads its weights in the background. One undo step.
act::ReplaceParams model_folder_action(const AppState& state, const std::string& path) {
    std::vector<std::string> warnings;
    ParamSet next = weights::with_model_folder(state.params(), path, &warnings);
    std::string message = "Model folder " + path + " loaded: the Trained model panel reads its weights";
    for (const std::string& w : warnings) message += "\nWarning: " + w;
    return {"model " + path, next, message};
}

// A config.json as model B (compare_to its path): one undo step; A is left as it is.
act::ReplaceParams config_b_action(const AppState& state, const std::string& path) {
    ParamSet next = state.params();
    next.set(P::compare_to, path);  // reads the file (the services' importer); throws ParamError naming it
    next.validate();
    return {"compare with " + path, next, "Model B: " + next.compared_model_name() + " (" + path + ")"};
}

}  // namespace

void open_config_as_b(const AppState& state, const std::string& path, Actions& out) {
    try {
        out.ask(config_b_action(state, path));
        session::remember_config(path);
    } catch (const std::exception& e) {
        out.ask(act::SetStatus{e.what(), true});  // the state is unchanged
    }
}

void save_lesson(const AppState& state, const std::string& path, Actions& out) {
    try {
        io::write_file_atomically(path, lessons::lesson_json(state.lesson()));
        out.ask(act::LessonSaved{path});
        out.ask(act::SetStatus{"Lesson \"" + state.lesson().title + "\" (" + std::to_string(state.lesson().steps.size()) + " steps) saved to " + path});
    } catch (const std::exception& e) {
        out.ask(act::SetStatus{e.what(), true});  // the file is left as it was
    }
}

void open_file(const AppState& state, const std::string& path, bool as_config, Actions& out) {
    try {
        if (std::error_code ec; std::filesystem::is_directory(path, ec)) {
            out.ask(model_folder_action(state, path));
        } else if (as_config) {
            out.ask(config_action(state, path));
            session::remember_config(path);
        } else if (file_kind(path) == FileKind::lesson) {  // Ctrl+O: a lesson file opens as the lesson
            out.ask(act::UseLesson{lessons::read_lesson_file(path), path});
        } else {
            out.ask(session_action(path));
            out.ask(act::SetStatus{"Session opened from " + path});
        }
    } catch (const std::exception& e) {
        out.ask(act::SetStatus{e.what(), true});  // the state is unchanged
    }
}

void open_dropped_file(const AppState& state, const std::string& path, bool as_b, Actions& out) {
    if (std::error_code ec; std::filesystem::is_directory(path, ec)) return open_file(state, path, false, out);  // a model folder
    const FileKind kind = file_kind(path);
    if (kind == FileKind::config && as_b) return open_config_as_b(state, path, out);
    open_file(state, path, kind == FileKind::config, out);
}

void SessionDialog::open(const AppState& state, Kind kind) {
    open_ = true;
    just_opened_ = true;
    kind_ = kind;
    // a session's name ends in .rope.json, the MIME type's glob: a file manager opens it with the app
    const std::string path = kind == Kind::open_config || kind == Kind::open_config_b ? working_folder() + "/config.json"
                             : kind == Kind::save_lesson  ? (state.lesson_file().empty() ? working_folder() + "/my-lesson.json" : state.lesson_file())
                             : kind == Kind::save_handout ? default_export_folder() + "/" + file_stem(state.lesson().title, "lesson") + "-handout.pdf"
                             : state.session_path.empty() ? working_folder() + "/session.rope.json"
                                                          : state.session_path;
    std::snprintf(path_, sizeof path_, "%s", path.c_str());
}

void SessionDialog::draw(const AppState& state, Actions& out) {
    if (!open_) return;
    const bool lesson = kind_ == Kind::save_lesson, handout = kind_ == Kind::save_handout;
    const bool saving = kind_ == Kind::save_session || lesson || handout, config = kind_ == Kind::open_config, config_b = kind_ == Kind::open_config_b;
    const char* title = config_b ? "Open config.json as model B" : config ? "Open config.json" : lesson ? "Save lesson" : handout ? "Save handout" : saving ? "Save session" : "Open session";
    if (just_opened_) {
        ImGui::OpenPopup(title);
        just_opened_ = false;
    }
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * dialog_em::kFileWidth, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(title, &open_, ImGuiWindowFlags_NoSavedSettings)) return;
    ImGui::TextUnformatted(config_b ? "Compare with the model of a Hugging Face config.json (model B):"
                           : config ? "Read a Hugging Face config.json (head dim, base, scaling):"
                           : lesson ? "Write the lesson's steps to a lesson file (JSON; --lessons FILE opens it):"
                           : handout ? "Write the students' PDF handout: each step's picture and text, its question and lines to write on, no answers:"
                           : saving ? "Write the parameters and the view to a JSON file:"
                                    : "Read a session JSON file, or a PNG the app exported:");
    ImGui::SetNextItemWidth(-1);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##path", path_, sizeof path_, ImGuiInputTextFlags_EnterReturnsTrue);
    item_tooltip("The file's path. Saving replaces the file whole (temporary file, then rename).");
    const bool go = ImGui::Button(saving ? "Save" : "Open") || enter;
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) {
        open_ = false;
        ImGui::CloseCurrentPopup();
    }
    if (go && open_) {
        Actions done;
        if (lesson) {
            save_lesson(state, path_, done);
        } else if (handout) {
            done.ask(act::WriteHandout{path_});  // its status says whether it worked
        } else if (saving) {
            try {
                session::save_session(path_, current_session(state));
                done.ask(act::SetStatus{std::string("Session saved to ") + path_});
                done.ask(act::SetSessionPath{path_});
            } catch (const std::exception& e) {
                done.ask(act::SetStatus{e.what(), true});  // the file is left as it was
            }
        } else if (config_b) {
            open_config_as_b(state, path_, done);
        } else {
            open_file(state, path_, config, done);
        }
        // the last action says whether it worked: an error keeps the dialog open to fix the path
        const auto* status = std::get_if<act::SetStatus>(&done.list().back());
        const bool failed = status && status->error;
        for (Action& a : done.take()) out.ask(std::move(a));
        if (!failed) {
            open_ = false;
            ImGui::CloseCurrentPopup();
        }
    }
    if (state.status_error) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", state.status.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::EndPopup();
}

}  // namespace rope::gui
