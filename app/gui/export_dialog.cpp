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

#include "export/export.hpp"
#include "gui/panels.hpp"
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
    const std::string name = "rope-" + std::string(figures::figure_name(state.panels[index].id)) + kExtensions[d.format];
    std::snprintf(d.file_name, sizeof d.file_name, "%s", name.c_str());
    if (d.folder[0] == '\0') std::snprintf(d.folder, sizeof d.folder, "%s", default_export_folder().c_str());
}

void draw_export_dialog(AppState& state) {
    ExportDialogState& d = state.export_dialog;
    if (!d.open) return;
    if (d.just_opened) {
        ImGui::OpenPopup("Export figure");
        d.just_opened = false;
    }
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal("Export figure", &d.open, ImGuiWindowFlags_NoSavedSettings)) return;
    const PanelView& panel = state.panels[d.panel];
    ImGui::Text("Panel %d: %s", d.panel + 1, figures::figure_title(panel.id).data());
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
    const bool go = ImGui::Button("Export") || (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) && !ImGui::IsAnyItemActive());
    item_tooltip("Write the file now.");
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
        d.open = false;
        ImGui::CloseCurrentPopup();
    }
    if (go) {
        exporting::ExportOptions o;
        std::string folder = d.folder;
        while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
        o.path = folder + "/" + d.file_name;
        o.scale = d.scale;
        // the panel's own size (in figure pixels at scale 1), so the file shows what the screen shows
        o.width = std::clamp(static_cast<int>(std::lround(panel.width / state.ui_scale)), exporting::kMinSize, exporting::kMaxSize);
        o.height = std::clamp(static_cast<int>(std::lround(panel.height / state.ui_scale)), exporting::kMinSize, exporting::kMaxSize);
        o.theme = d.theme == 0 ? plot::ThemeId::light : plot::ThemeId::dark;
        try {
            const exporting::ExportResult r = exporting::export_figure(panel.id, state.params, o);
            char msg[1024];
            if (r.format == exporting::Format::csv)
                std::snprintf(msg, sizeof msg, "Saved %s (%.0f ms).", r.path.c_str(), r.milliseconds);
            else
                std::snprintf(msg, sizeof msg, "Saved %s (%s, %dx%d, %.0f ms).", r.path.c_str(), exporting::format_name(r.format),
                              r.pixel_width, r.pixel_height, r.milliseconds);
            state.set_status(msg);
            d.open = false;
            ImGui::CloseCurrentPopup();
        } catch (const std::exception& e) {
            state.set_status(std::string("Export failed: ") + e.what(), true);
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
