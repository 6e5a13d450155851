#include "gui/dialogs/page_files.hpp"

#include <cctype>
#include <filesystem>

#include "io/atomic_file.hpp"
#include "lessons/lessons.hpp"
#include "session/session.hpp"

namespace rope::gui {

namespace {

using Kind = act::OpenFileDialog::Kind;

// Writes `text` as `name` and hands it over; the status line says so (or why not).
void download_text(Platform& platform, const std::string& name, const std::string& text, const std::string& what, Actions& out) {
    try {
        const std::string path = download_path(name);
        io::write_file_atomically(path, text);
        platform.download(path, name, "application/json");
        out.ask(act::SetStatus{what + " downloaded as " + name + "."});
    } catch (const std::exception& e) {
        out.ask(act::SetStatus{e.what(), true});
    }
}

}  // namespace

std::string file_stem(const std::string& title, const char* fallback) {
    std::string name;
    for (const char c : title) {
        if (std::isalnum(static_cast<unsigned char>(c))) name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else if (!name.empty() && name.back() != '-') name += '-';
    }
    while (!name.empty() && name.back() == '-') name.pop_back();
    return name.empty() ? fallback : name;
}

std::string download_path(const std::string& name) {
    std::error_code ec;
    std::filesystem::path folder = std::filesystem::temp_directory_path(ec);
    if (ec) folder = "/tmp";
    folder /= "rope-explorer-downloads";
    std::filesystem::create_directories(folder, ec);
    return (folder / name).string();
}

void page_file_dialog(const AppState& state, Kind kind, Platform& platform, Actions& out) {
    switch (kind) {
    case Kind::open_session:  // a session, a lesson file or a PNG the app exported
        platform.pick_file(".json,.png,application/json,image/png", false);
        break;
    case Kind::open_config:
        platform.pick_file(".json,application/json", false);
        break;
    case Kind::open_config_b:
        platform.pick_file(".json,application/json", true);
        break;
    case Kind::save_session:
        // a session's name ends in .rope.json, the MIME type's glob: the desktop app opens it
        download_text(platform, "session.rope.json", session::session_json(current_session(state)), "Session", out);
        break;
    case Kind::save_lesson: {
        const lessons::Lesson& lesson = state.lesson();
        download_text(platform, file_stem(lesson.title, "my-lesson") + ".json", lessons::lesson_json(lesson),
                      "Lesson \"" + lesson.title + "\" (" + std::to_string(lesson.steps.size()) + " steps)", out);
        break;
    }
    case Kind::save_handout:
        out.ask(act::SetStatus{"Handouts are PDFs, which the desktop app writes (rope-explorer export lesson); "
                               "save the lesson here and make its handout there.",
                               true});
        break;
    }
}

}  // namespace rope::gui
