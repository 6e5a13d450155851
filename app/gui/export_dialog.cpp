#include "gui/export_dialog.hpp"

#include <imgui.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <atomic>
#include <mutex>
#include <vector>

#include "export/export.hpp"
#include "gui/ui_helpers.hpp"
#include "io/atomic_file.hpp"

namespace rope::gui {

namespace {

const char* kExtensions[] = {".png", ".svg", ".pdf", ".csv"};

bool is_folder(const std::string& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string without_trailing_slash(std::string folder) {
    while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
    return folder;
}

std::string parent_of(const std::string& folder) {
    const std::string f = without_trailing_slash(folder);
    const std::size_t slash = f.find_last_of('/');
    if (slash == std::string::npos) return "..";
    return slash == 0 ? "/" : f.substr(0, slash);
}

std::string child_of(const std::string& folder, const std::string& name) {
    const std::string f = without_trailing_slash(folder);
    return f == "/" ? "/" + name : f + "/" + name;
}

void set_text(char* buffer, std::size_t size, const std::string& text) { std::snprintf(buffer, size, "%s", text.c_str()); }

}  // namespace

std::string default_export_folder() {
    // the user's Pictures folder (XDG), else the current directory
    if (const char* xdg = std::getenv("XDG_PICTURES_DIR"); xdg && is_folder(xdg)) return xdg;
    if (const char* home = std::getenv("HOME")) {
        const std::string pictures = std::string(home) + "/Pictures";
        if (is_folder(pictures)) return pictures;
    }
    char cwd[4096];
    return getcwd(cwd, sizeof cwd) ? cwd : ".";
}

namespace {

std::vector<std::string> subfolders(const std::string& folder) {
    std::vector<std::string> names;
    if (DIR* dir = opendir(folder.c_str())) {
        while (const dirent* e = readdir(dir)) {
            const std::string name = e->d_name;
            if (name.empty() || name[0] == '.') continue;  // ., .. and hidden folders
            if (is_folder(child_of(folder, name))) names.push_back(name);
        }
        closedir(dir);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string stem(const std::string& name) {
    const std::size_t dot = name.find_last_of('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

}  // namespace

void open_export_dialog(AppState& state, int index) {
    ExportDialogState& d = state.export_dialog;
    const figures::FigureDescriptor& figure = *state.panels[static_cast<std::size_t>(index)].figure;
    d.plot = -1;  // the whole figure: another panel has other plots
    d.open = true;
    d.just_opened = true;
    d.panel = index;
    d.width = figure.export_width;
    d.height = figure.export_height;
    d.browsing = false;
    const std::string name = "rope-" + std::string(state.panels[static_cast<std::size_t>(index)].figure->name) + kExtensions[d.format];
    std::snprintf(d.file_name, sizeof d.file_name, "%s", name.c_str());
    if (d.folder[0] == '\0') std::snprintf(d.folder, sizeof d.folder, "%s", default_export_folder().c_str());
}

struct ExportJobs::Job {
    std::thread thread;
    std::atomic<bool> done{false};
    std::mutex mutex;
    std::string message;  // the status line's words once done
    bool failed = false;
};

ExportJobs::~ExportJobs() {
    if (job_ && job_->thread.joinable()) job_->thread.join();
}

bool ExportJobs::running() const { return job_ && !job_->done.load(); }

bool ExportJobs::poll(AppState& state) {
    if (!job_) return false;
    if (!job_->done.load()) return true;
    job_->thread.join();
    {
        std::lock_guard<std::mutex> lock(job_->mutex);
        state.set_status(job_->message, job_->failed);
    }
    job_.reset();
    return false;
}

namespace {

// What the dialog's fields ask for, as the command line's options.
exporting::ExportOptions options_of(const AppState& state) {
    const ExportDialogState& d = state.export_dialog;
    const figures::FigureDescriptor& figure = *state.panels[static_cast<std::size_t>(d.panel)].figure;
    exporting::ExportOptions o;
    o.path = child_of(d.folder, d.file_name);
    o.scale = d.scale;
    o.width = d.width;
    o.height = d.height;
    o.theme = d.theme == 0 ? plot::ThemeId::light : plot::ThemeId::dark;
    const bool picture = d.format != 3;  // a CSV holds the numbers: the picture's options do not apply
    o.clean = picture && d.clean;
    o.no_title = picture && d.no_title;
    if (picture && d.plot >= 0 && d.plot < static_cast<int>(figure.plots.size())) o.plot = figure.plots[static_cast<std::size_t>(d.plot)];
    return o;
}

// "" if the fields can be exported; else what to fix, in one line.
std::string options_problem(const AppState& state, const exporting::ExportOptions& o) {
    const ExportDialogState& d = state.export_dialog;
    if (o.width < exporting::kMinSize || o.width > exporting::kMaxSize || o.height < exporting::kMinSize || o.height > exporting::kMaxSize)
        return "Width and height must be from 200 to 8000 pixels.";
    if (d.format == 0 && !(o.scale >= exporting::kMinScale && o.scale <= exporting::kMaxScale)) return "Scale must be from 0.25 to 8.";
    if (d.file_name[0] == '\0' || std::strchr(d.file_name, '/')) return "The file name must be a name (no folder in it).";
    if (!is_folder(d.folder)) return "The folder does not exist: " + std::string(d.folder);
    return "";
}

// The folder browser: .. and the subfolders of the folder field; a click opens one.
void draw_folder_list(ExportDialogState& d) {
    const std::string folder = d.folder;
    ImGui::BeginChild("folders", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 8), true);
    if (ImGui::Selectable("..")) set_text(d.folder, sizeof d.folder, parent_of(folder));
    if (is_folder(folder))
        for (const std::string& name : subfolders(folder))
            if (ImGui::Selectable((name + "/").c_str())) set_text(d.folder, sizeof d.folder, child_of(folder, name));
    ImGui::EndChild();
}

}  // namespace

void ExportJobs::draw_dialog(AppState& state) {
    ExportDialogState& d = state.export_dialog;
    if (!d.open) return;
    if (d.just_opened) {
        ImGui::OpenPopup("Export figure");
        d.just_opened = false;
    }
    // a fixed width, the height of what is shown (it grows with the folder list)
    const float width = ImGui::GetFontSize() * 36;
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, FLT_MAX));
    if (!ImGui::BeginPopupModal("Export figure", &d.open, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize)) return;
    const PanelView& panel = state.panels[static_cast<std::size_t>(d.panel)];
    ImGui::Text("Panel %d: %s", d.panel + 1, std::string(panel.figure->title).c_str());
    ImGui::Separator();
    const char* formats[] = {"PNG (picture)", "SVG (vector, editable text)", "PDF (vector)", "CSV (the numbers)"};
    for (int f = 0; f < 4; ++f) {
        if (ImGui::RadioButton(formats[f], d.format == f)) {
            d.format = f;
            set_text(d.file_name, sizeof d.file_name, stem(d.file_name) + kExtensions[f]);
        }
        if (f % 2 == 0) ImGui::SameLine(ImGui::GetFontSize() * 14);
    }
    item_tooltip("The file type; the file name's extension follows it.");
    const bool picture = d.format != 3;
    const exporting::ExportOptions o = options_of(state);
    const std::string problem = options_problem(state, o);

    ImGui::BeginDisabled(!picture);
    const float field = ImGui::GetFontSize() * 6;
    ImGui::SetNextItemWidth(field);
    ImGui::InputInt("width", &d.width, 0);
    item_tooltip("Figure width in pixels at scale 1, 200 to 8000.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(field);
    ImGui::InputInt("height", &d.height, 0);
    item_tooltip("Figure height in pixels at scale 1, 200 to 8000.");
    ImGui::SameLine();
    if (ImGui::SmallButton("default")) d.width = panel.figure->export_width, d.height = panel.figure->export_height;
    item_tooltip("The figure's own export size (as `rope-explorer export` uses).");
    ImGui::SameLine();
    if (ImGui::SmallButton("as on screen")) {
        d.width = std::clamp(static_cast<int>(std::lround(panel.key.width / state.ui_scale)), exporting::kMinSize, exporting::kMaxSize);
        d.height = std::clamp(static_cast<int>(std::lround(panel.key.height / state.ui_scale)), exporting::kMinSize, exporting::kMaxSize);
    }
    item_tooltip("The panel's size on screen, so the file is laid out as the panel is.");
    ImGui::BeginDisabled(d.format != 0);
    ImGui::SetNextItemWidth(field);
    ImGui::InputFloat("scale", &d.scale, 0, 0, "%.2f");
    item_tooltip("PNG pixels per figure pixel, 0.25 to 8: 2 makes a sharp hi-DPI picture of the same layout.");
    if (d.format == 0 && problem.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("= %ld x %ld pixels", std::lround(o.width * o.scale), std::lround(o.height * o.scale));
    }
    ImGui::EndDisabled();
    const std::vector<std::string_view>& plots = panel.figure->plots;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    const std::string shown = d.plot < 0 ? std::string("the whole figure") : std::string(plots[static_cast<std::size_t>(d.plot)]);
    if (ImGui::BeginCombo("plot", shown.c_str())) {
        if (ImGui::Selectable("the whole figure", d.plot < 0)) d.plot = -1;
        for (int i = 0; i < static_cast<int>(plots.size()); ++i)
            if (ImGui::Selectable(std::string(plots[static_cast<std::size_t>(i)]).c_str(), d.plot == i)) d.plot = i;
        ImGui::EndCombo();
    }
    item_tooltip("One plot of the figure alone, at the width and height above (export --plot).");
    ImGui::Checkbox("clean", &d.clean);
    item_tooltip("Leave out the cursor and selection marks: the position and distance lines, the selected pair, the score matrix's box (export --clean).");
    ImGui::SameLine();
    ImGui::Checkbox("no title", &d.no_title);
    item_tooltip("Leave out the figure's title; with one plot, its title too (export --no-title).");
    ImGui::EndDisabled();
    ImGui::RadioButton("light", &d.theme, 0);
    ImGui::SameLine();
    ImGui::RadioButton("dark", &d.theme, 1);
    ImGui::SameLine();
    ImGui::TextUnformatted("theme");
    item_tooltip("Colours of the file: light (white background) suits blog posts and print.");
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    ImGui::InputText("file name", d.file_name, sizeof d.file_name);
    item_tooltip("The file to write; it is written whole or not at all.");
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    ImGui::InputText("folder", d.folder, sizeof d.folder);
    item_tooltip("Where the file goes (it must exist); by default your Pictures folder or the current one.");
    if (ImGui::SmallButton(d.browsing ? "Hide folders" : "Browse…")) d.browsing = !d.browsing;
    item_tooltip("Pick the folder from a list: a click opens a folder, .. goes up.");
    if (d.browsing) draw_folder_list(d);
    ImGui::Separator();
    const bool ready = problem.empty() && !running();
    ImGui::BeginDisabled(!ready);
    const bool go = ImGui::Button("Export") || (ready && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) && !ImGui::IsAnyItemActive());
    ImGui::EndDisabled();
    item_tooltip(running() ? "An export is still being written." : "Write the file now (on a worker: the window stays live).");
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
        d.open = false;
        ImGui::CloseCurrentPopup();
    }
    if (!problem.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", problem.c_str());
        ImGui::PopTextWrapPos();
    }
    if (go && ready) {
        auto job = std::make_shared<Job>();
        job_ = job;
        state.set_status("Exporting " + o.path + " …");
        job->thread = std::thread([job, figure = panel.figure, params = state.params(), o, cache = &state.cache, wake = wake_] {
            std::string message;
            bool failed = false;
            try {
                const exporting::ExportResult r = exporting::export_figure(*figure, params, o, cache);
                char msg[1200];
                if (r.format == exporting::Format::csv)
                    std::snprintf(msg, sizeof msg, "Saved %s (%.0f ms).", r.path.c_str(), r.milliseconds);
                else
                    std::snprintf(msg, sizeof msg, "Saved %s (%s, %dx%d, %.0f ms).", r.path.c_str(), exporting::format_name(r.format),
                                  r.pixel_width, r.pixel_height, r.milliseconds);
                message = msg;
            } catch (const std::exception& e) {
                message = std::string("Export failed: ") + e.what();
                failed = true;
            }
            {
                std::lock_guard<std::mutex> lock(job->mutex);
                job->message = message;
                job->failed = failed;
            }
            job->done = true;
            if (wake) wake();
        });
        d.open = false;
        ImGui::CloseCurrentPopup();
    }
    if (state.status_error) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", state.status.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::EndPopup();
}

}  // namespace rope::gui
