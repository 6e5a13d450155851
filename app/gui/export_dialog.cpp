#include "gui/export_dialog.hpp"

#include <imgui.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <atomic>
#include <mutex>

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

std::string stem(const std::string& name) {
    const std::size_t dot = name.find_last_of('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

}  // namespace

void open_export_dialog(AppState& state, int index) {
    ExportDialogState& d = state.export_dialog;
    d.open = true;
    d.just_opened = true;
    d.panel = index;
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

void ExportJobs::draw_dialog(AppState& state) {
    ExportDialogState& d = state.export_dialog;
    if (!d.open) return;
    if (d.just_opened) {
        ImGui::OpenPopup("Export figure");
        d.just_opened = false;
    }
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal("Export figure", &d.open, ImGuiWindowFlags_NoSavedSettings)) return;
    const PanelView& panel = state.panels[static_cast<std::size_t>(d.panel)];
    ImGui::Text("Panel %d: %s", d.panel + 1, std::string(panel.figure->title).c_str());
    ImGui::Separator();
    const char* formats[] = {"PNG (picture)", "SVG (vector, editable text)", "PDF (vector)", "CSV (the numbers)"};
    for (int f = 0; f < 4; ++f) {
        if (ImGui::RadioButton(formats[f], d.format == f)) {
            d.format = f;
            const std::string name = stem(d.file_name) + kExtensions[f];
            std::snprintf(d.file_name, sizeof d.file_name, "%s", name.c_str());
        }
    }
    item_tooltip("The file type; the file name's extension follows it.");
    ImGui::BeginDisabled(d.format != 0);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    ImGui::SliderFloat("scale", &d.scale, 0.25f, 8.0f, "%.2gx", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    item_tooltip("PNG pixels per figure pixel: 2 makes a sharp hi-DPI picture of the same layout.");
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
    ImGui::Separator();
    ImGui::BeginDisabled(running());
    const bool go = ImGui::Button("Export") || (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) && !ImGui::IsAnyItemActive());
    ImGui::EndDisabled();
    item_tooltip(running() ? "An export is still being written." : "Write the file now (on a worker: the window stays live).");
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
        d.open = false;
        ImGui::CloseCurrentPopup();
    }
    if (go && !running()) {
        exporting::ExportOptions o;
        std::string folder = d.folder;
        while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
        o.path = folder + "/" + d.file_name;
        o.scale = d.scale;
        // the panel's own size (in figure pixels at scale 1), so the file shows what the screen shows
        o.width = std::clamp(static_cast<int>(std::lround(panel.key.width / state.ui_scale)), exporting::kMinSize, exporting::kMaxSize);
        o.height = std::clamp(static_cast<int>(std::lround(panel.key.height / state.ui_scale)), exporting::kMinSize, exporting::kMaxSize);
        o.theme = d.theme == 0 ? plot::ThemeId::light : plot::ThemeId::dark;
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
