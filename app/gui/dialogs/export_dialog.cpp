#include "gui/dialogs/export_dialog.hpp"

#include <imgui.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <tuple>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <atomic>
#include <mutex>
#include <vector>

#include "export/export.hpp"
#include "gui/app/ui_helpers.hpp"
#include "gui/dialogs/dialog_layout.hpp"
#include "gui/dialogs/page_files.hpp"
#include "export/animation.hpp"
#include "gui/dialogs/recording_fields.hpp"
#include "io/atomic_file.hpp"
#include "tasks/background.hpp"

namespace rope::gui {

namespace {

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


}  // namespace

void ExportJobs::open(const AppState& state, int index, bool recording) {
    ExportDialogState& d = dialog_;
    const figures::FigureDescriptor& figure = figures::figure_at(index);
    d.plot = -1;  // the whole figure: another panel has other plots
    d.open = true;
    d.just_opened = true;
    d.recording = false;
    d.panel = index;
    std::tie(d.width, d.height) = figures::default_export_size(figure, state.params());
    d.browsing = false;
    const std::string name = "rope-" + std::string(figure.name) + std::string(exporting::file_format(d.format).extension);
    std::snprintf(d.file_name, sizeof d.file_name, "%s", name.c_str());
    if (download_) std::snprintf(d.folder, sizeof d.folder, "%s", std::filesystem::path(download_path("x")).parent_path().c_str());
    else if (d.folder[0] == '\0') std::snprintf(d.folder, sizeof d.folder, "%s", default_export_folder().c_str());
    if (download_ && !exporting::writable_here(exporting::file_format(d.format))) d.format = exporting::FileFormat::png;
    if (!recording) return;
    d.recording = true;
    default_recording(state, figure, d.rec);
    if (!exporting::writable_here(exporting::file_format(d.rec.format)))  // the browser: an HTML page with a slider
        for (const exporting::FileFormatInfo* f : exporting::formats_of(exporting::FormatKind::animation))
            if (exporting::writable_here(*f)) {
                d.rec.format = f->id;
                break;
            }
    d.file_name_typed = false;
    std::snprintf(d.file_name, sizeof d.file_name, "%s", recording_file_name(figure, d.rec).c_str());
}

struct ExportJobs::Job {
    std::atomic<bool> done{false};
    std::atomic<bool> cancel{false};
    std::atomic<int> frames_done{0}, frames_total{0};  // a recording's progress (0 of 0: one picture)
    std::atomic<bool> drawing{false};  // past the first stage (the axis ranges): frames are written
    std::string target;   // the file, for the progress line
    std::mutex mutex;
    std::string message;  // the status line's words once done
    bool failed = false;
};

// One alt text being worked out: a detached worker owns it with the dialog; the dialog shows the
// newest and never waits for an older one (a large heatmap can take a while).
struct ExportJobs::AltText {
    const figures::FigureDescriptor* figure = nullptr;
    ParamSet params;
    exporting::ExportOptions options;  // the fields that change the picture (the path left out)
    std::atomic<bool> done{false};
    std::string text;  // once done
    bool same_request(const figures::FigureDescriptor* f, const ParamSet& p, const exporting::ExportOptions& o) const {
        return figure == f && params == p && options.width == o.width && options.height == o.height && options.theme == o.theme &&
               options.clean == o.clean && options.no_title == o.no_title && options.plot == o.plot;
    }
};

const std::string& ExportJobs::alt_text() const {
    static const std::string none;
    return alt_ && alt_->done.load() ? alt_->text : none;
}

void ExportJobs::draw_alt_text(const AppState& state, const exporting::ExportOptions& o) {
    const figures::FigureDescriptor* figure = &figures::figure_at(dialog_.panel);
    if (!alt_ || !alt_->same_request(figure, state.params(), o)) {
        auto job = std::make_shared<AltText>();
        job->figure = figure;
        job->params = state.params();
        job->options = o;
        job->options.path.clear();
        job->options.read_trained = cache_.trained_reader();
        tasks::background().post(
            [job, wake = wake_] {
                try {
                    job->text = exporting::figure_alt_text(*job->figure, job->params, job->options);
                } catch (const std::exception& e) {
                    job->text = std::string("(no description: ") + e.what() + ")";
                }
                job->done = true;
                if (wake) wake();
            },
            tasks::Priority::pictures);
        alt_jobs_.erase(std::remove_if(alt_jobs_.begin(), alt_jobs_.end(), [](const auto& j) { return j->done.load(); }), alt_jobs_.end());
        alt_jobs_.push_back(job);
        alt_ = std::move(job);
    }
    ImGui::TextUnformatted("Alt text");
    item_tooltip("What the picture shows, in words, for readers who cannot see it: PNG, SVG, PDF and HTML files carry it "
                 "(export --alt prints it). Paste it as the alt text where you put the picture.");
    ImGui::SameLine();
    const bool done = alt_->done.load();
    ImGui::BeginDisabled(!done);
    if (ImGui::SmallButton("Copy")) ImGui::SetClipboardText(alt_->text.c_str());
    ImGui::EndDisabled();
    item_tooltip("Copy the alt text to the clipboard.");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", done ? alt_->text.c_str() : "…");
    ImGui::PopStyleColor();
}

// Waits for posted work to end (work that is not concurrent, the browser's, never started: nothing to wait for).
void ExportJobs::wait_for(const std::atomic<bool>& done) {
    while (!done.load() && tasks::background().concurrent()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

ExportJobs::~ExportJobs() {
    // the workers are detached: wait for those still working (each a figure build), since they call wake_
    for (const auto& job : alt_jobs_) wait_for(job->done);
    if (!job_) return;
    job_->cancel = true;  // a recording stops at its next frame and leaves nothing behind
    wait_for(job_->done);
}

bool ExportJobs::running() const { return job_ && !job_->done.load(); }
bool ExportJobs::recording() const { return running() && job_->frames_total.load() > 0; }

void ExportJobs::cancel() {
    if (running()) job_->cancel = true;
}

bool ExportJobs::poll(Actions& out) {
    if (!job_ || !job_->done.load()) return false;
    std::string message;
    bool failed = false;
    {
        std::lock_guard<std::mutex> lock(job_->mutex);
        message = job_->message;
        failed = job_->failed;
    }
    if (download_ && !failed && !job_->cancel.load()) {  // the page offers it: "Downloaded NAME (...)"
        const exporting::FileFormatInfo* format = exporting::format_for_path(job_->target);
        const std::string name = std::filesystem::path(job_->target).filename().string(), saved = "Saved " + job_->target;
        download_(job_->target, name, format ? std::string(format->mime) : "application/octet-stream");
        if (message.rfind(saved, 0) == 0) message = "Downloaded " + name + message.substr(saved.size());
    }
    out.ask(act::SetStatus{message, failed});
    job_.reset();
    return true;
}

void ExportJobs::draw_progress() {
    if (!recording()) return;
    const int done = job_->frames_done.load(), total = job_->frames_total.load();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float pad = ImGui::GetFontSize();
    ImGui::SetNextWindowPos(ImVec2(display.x - pad, display.y - pad), ImGuiCond_Always, ImVec2(1, 1));
    ImGui::SetNextWindowBgAlpha(0.95f);
    ImGui::Begin("##recording", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                             ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
    ImGui::TextColored(ImVec4(0.95f, 0.3f, 0.25f, 1), "●");
    ImGui::SameLine();
    ImGui::Text("Recording %s", job_->target.c_str());
    // the bar: a tenth for the axis ranges' pass, the rest for the frames written
    char overlay[64];
    float fraction = 0;
    if (!job_->drawing.load()) {
        std::snprintf(overlay, sizeof overlay, "axis ranges: %d of %d", done, total);
        fraction = 0.1f * static_cast<float>(done) / static_cast<float>(total);
    } else if (done < total) {
        std::snprintf(overlay, sizeof overlay, "frame %d of %d", done, total);
        fraction = 0.1f + 0.9f * static_cast<float>(done) / static_cast<float>(total);
    } else {
        std::snprintf(overlay, sizeof overlay, "finishing the file");
        fraction = 1;
    }
    ImGui::ProgressBar(fraction, ImVec2(ImGui::GetFontSize() * dialog_em::kProgressBar, 0), overlay);
    ImGui::SameLine();
    if (ImGui::Button(job_->cancel.load() ? "Cancelling…" : "Cancel")) cancel();
    item_tooltip("Stop the recording; nothing is written (Ctrl+R).");
    ImGui::End();
}

namespace {

// Where the dialog's fields write: a file, or for a PNG sequence a folder (the path ends with /).
std::string target_path(const ExportDialogState& d) {
    std::string path = child_of(d.folder, d.file_name);
    if (d.recording && d.rec.format == exporting::FileFormat::png_folder) path += "/";
    return path;
}

// What the dialog's fields ask for, as the command line's options.
exporting::ExportOptions options_of(const ExportDialogState& d) {
    const figures::FigureDescriptor& figure = figures::figure_at(d.panel);
    exporting::ExportOptions o;
    o.path = target_path(d);
    o.scale = d.recording ? d.rec.scale : d.scale;
    o.width = d.width;
    o.height = d.height;
    o.theme = d.theme;
    // a table holds the numbers: the picture's options do not apply
    const bool picture = d.recording || exporting::file_format(d.format).kind != exporting::FormatKind::table;
    o.clean = picture && d.clean;
    o.no_title = picture && d.no_title;
    if (picture && d.plot >= 0 && d.plot < static_cast<int>(figure.plots.size())) o.plot = figure.plots[static_cast<std::size_t>(d.plot)].name;
    return o;
}

}  // namespace

// The fields' problem for a recording, worked out again only when the fields or the parameters
// change (it validates every frame's parameters).
const std::string& ExportJobs::recording_problem_now(const ParamSet& params) {
    const figures::FigureDescriptor* figure = &figures::figure_at(dialog_.panel);
    if (problem_inputs_.figure != figure || !(problem_inputs_.rec == dialog_.rec) || problem_inputs_.params != params) {
        problem_inputs_ = {params, dialog_.rec, figure};
        recording_problem_ = recording_problem(params, *figure, dialog_.rec);
    }
    return recording_problem_;
}

namespace {

// "" if the fields can be exported, but for a recording's own problem; else what to fix, in one line.
std::string options_problem(const ExportDialogState& d, const exporting::ExportOptions& o) {
    if (o.width < exporting::kMinSize || o.width > exporting::kMaxSize || o.height < exporting::kMinSize || o.height > exporting::kMaxSize)
        return "Width and height must be " + range_words(exporting::kMinSize, exporting::kMaxSize) + " pixels.";
    const bool scaled = exporting::file_format(d.recording ? d.rec.format : d.format).raster;
    if (scaled && !(o.scale >= exporting::kMinScale && o.scale <= exporting::kMaxScale)) return "Scale must be " + range_words(exporting::kMinScale, exporting::kMaxScale) + ".";
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

namespace {

const char* dialog_title(const ExportDialogState& d) { return d.recording ? "Record animation" : "Export figure"; }

void draw_format_choice(ExportDialogState& d) {
    std::vector<const exporting::FileFormatInfo*> formats = exporting::formats_of(exporting::FormatKind::picture);
    for (const exporting::FileFormatInfo* f : exporting::formats_of(exporting::FormatKind::table)) formats.push_back(f);
    if (const exporting::FileFormatInfo* f = format_choices(formats, d.format)) {
        d.format = f->id;
        set_text(d.file_name, sizeof d.file_name, exporting::with_extension(d.file_name, *f));
    }
}

// Size, scale, one plot alone, clean, no title: what a picture (or each frame) looks like.
void draw_picture_fields(ExportDialogState& d, const AppState& state, const PanelView& panel, const exporting::ExportOptions& o,
                         bool problem_free) {
    const float field = ImGui::GetFontSize() * dialog_em::kNumberField;
    ImGui::SetNextItemWidth(field);
    ImGui::InputInt("width", &d.width, 0);
    const std::string sizes = range_words(exporting::kMinSize, exporting::kMaxSize);
    item_tooltip(("Figure width in pixels at scale 1, " + sizes + ".").c_str());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(field);
    ImGui::InputInt("height", &d.height, 0);
    item_tooltip(("Figure height in pixels at scale 1, " + sizes + ".").c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("default")) std::tie(d.width, d.height) = figures::default_export_size(*panel.figure, state.params());
    item_tooltip("The figure's own export size (as `rope-explorer export` uses; twice as tall with model B under A).");
    ImGui::SameLine();
    if (ImGui::SmallButton("as on screen")) {
        d.width = std::clamp(static_cast<int>(std::lround(panel.key.width / state.ui_scale)), exporting::kMinSize, exporting::kMaxSize);
        d.height = std::clamp(static_cast<int>(std::lround(panel.key.height / state.ui_scale)), exporting::kMinSize, exporting::kMaxSize);
    }
    item_tooltip("The panel's size on screen, so the file is laid out as the panel is.");
    const bool scaled = exporting::file_format(d.recording ? d.rec.format : d.format).raster;  // an HTML page is vector
    ImGui::BeginDisabled(!scaled);
    ImGui::SetNextItemWidth(field);
    ImGui::InputFloat("scale", d.recording ? &d.rec.scale : &d.scale, 0, 0, "%.2f");
    item_tooltip(d.recording ? "Pixels per figure pixel, 0.25 to 8: 1 for a small GIF, 2 for a sharp video."
                             : "PNG pixels per figure pixel, 0.25 to 8: 2 makes a sharp hi-DPI picture of the same layout.");
    if (scaled && problem_free) {
        ImGui::SameLine();
        ImGui::TextDisabled("= %ld x %ld pixels", std::lround(o.width * o.scale), std::lround(o.height * o.scale));
    }
    ImGui::EndDisabled();
    const std::vector<figures::PlotDescriptor>& plots = panel.figure->plots;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * dialog_em::kSecondColumn);
    const std::string shown = d.plot < 0 ? std::string("the whole figure") : std::string(plots[static_cast<std::size_t>(d.plot)].name);
    if (ImGui::BeginCombo("plot", shown.c_str())) {
        if (ImGui::Selectable("the whole figure", d.plot < 0)) d.plot = -1;
        for (int i = 0; i < static_cast<int>(plots.size()); ++i)
            if (ImGui::Selectable(std::string(plots[static_cast<std::size_t>(i)].name).c_str(), d.plot == i)) d.plot = i;
        ImGui::EndCombo();
    }
    item_tooltip("One plot of the figure alone, at the width and height above (export --plot).");
    ImGui::Checkbox("clean", &d.clean);
    item_tooltip("Leave out the cursor and selection marks: the position and distance lines, the selected pair, the score matrix's box (export --clean).");
    ImGui::SameLine();
    ImGui::Checkbox("no title", &d.no_title);
    item_tooltip("Leave out the figure's title; with one plot, its title too (export --no-title).");
}

// Theme, file name and folder (a download has no folder).
void draw_file_fields(ExportDialogState& d, bool download) {
    // light first: what a file is most often for
    for (plot::ThemeId id : {plot::ThemeId::light, plot::ThemeId::dark, plot::ThemeId::high_contrast}) {
        if (ImGui::RadioButton(plot::theme_name(id), d.theme == id)) d.theme = id;
        ImGui::SameLine();
    }
    ImGui::TextUnformatted("theme");
    item_tooltip("Colours of the file: light (white background) suits blog posts and print; high_contrast is white on black.");
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * dialog_em::kLabelRoom);
    const bool folder = d.recording && d.rec.format == exporting::FileFormat::png_folder;
    if (ImGui::InputText(folder ? "folder name" : "file name", d.file_name, sizeof d.file_name)) d.file_name_typed = true;
    item_tooltip(download ? "The name the download is given; the browser puts it where it puts downloads."
                 : folder ? "The new folder the frames go into (frame-0001.png, ...); it is written whole or not at all."
                          : "The file to write; it is written whole or not at all.");
    if (download) return;
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * dialog_em::kLabelRoom);
    ImGui::InputText("folder", d.folder, sizeof d.folder);
    item_tooltip("Where the file goes (it must exist); by default your Pictures folder or the current one.");
    if (ImGui::SmallButton(d.browsing ? "Hide folders" : "Browse…")) d.browsing = !d.browsing;
    item_tooltip("Pick the folder from a list: a click opens a folder, .. goes up.");
    if (d.browsing) draw_folder_list(d);
}

void show_problem(const std::string& text) {
    if (text.empty()) return;
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", text.c_str());
    ImGui::PopTextWrapPos();
}

// The status line's words for a file written.
std::string saved_message(const exporting::ExportResult& r, const ExportDialogState& d) {
    char msg[1400];
    if (d.recording)
        std::snprintf(msg, sizeof msg, "Saved %s (%s, %d frames at %d fps, %dx%d, %.1f s).", r.path.c_str(), std::string(exporting::file_format(d.rec.format).name).c_str(),
                      d.rec.frames, d.rec.fps, r.pixel_width, r.pixel_height, r.milliseconds / 1000);
    else if (exporting::file_format(r.format).kind == exporting::FormatKind::table)
        std::snprintf(msg, sizeof msg, "Saved %s (%.0f ms).", r.path.c_str(), r.milliseconds);
    else
        std::snprintf(msg, sizeof msg, "Saved %s (%s, %dx%d, %.0f ms).", r.path.c_str(), std::string(exporting::file_format(r.format).name).c_str(), r.pixel_width,
                      r.pixel_height, r.milliseconds);
    return msg;
}

}  // namespace

void ExportJobs::start(const AppState& state, const exporting::ExportOptions& asked, Actions& out) {
    const ExportDialogState& d = dialog_;
    exporting::ExportOptions o = asked;
    o.read_trained = cache_.trained_reader();  // a recording's own cache reads model folders as the app's does
    auto job = std::make_shared<Job>();
    job_ = job;
    job->target = o.path;
    const bool recording = d.recording;
    if (recording) job->frames_total = d.rec.frames;
    out.ask(act::SetStatus{(recording ? "Recording " : "Exporting ") + o.path + " …"});
    // the parameters as they are now: changes made while the file is written do not reach it
    tasks::background().post([job, figure = &figures::figure_at(d.panel), params = state.params(), o, dialog = d, cache = &cache_,
                               wake = wake_] {
        std::string message;
        bool failed = false;
        try {
            exporting::ExportResult r;
            if (dialog.recording) {
                auto progress = [&job, &wake](exporting::AnimationStage stage, int done, int) {
                    job->drawing = stage == exporting::AnimationStage::frames;
                    job->frames_done = done;
                    if (wake) wake();
                    return !job->cancel.load();
                };
                r = exporting::export_animation(*figure, params, animation_of(dialog.rec), o, progress);
            } else {
                r = exporting::export_figure(*figure, params, o, cache);
            }
            message = saved_message(r, dialog);
        } catch (const exporting::AnimationCancelled&) {
            message = "Recording cancelled: nothing was written.";
        } catch (const std::exception& e) {
            message = std::string(dialog.recording ? "Recording failed: " : "Export failed: ") + e.what();
            failed = true;
        }
        {
            std::lock_guard<std::mutex> lock(job->mutex);
            job->message = message;
            job->failed = failed;
        }
        job->done = true;
        if (wake) wake();
    }, tasks::Priority::pictures);
}

void ExportJobs::write_now(const AppState& state, int index, bool recording, bool numbers, Actions& out) {
    if (!recording) dialog_.format = numbers ? exporting::FileFormat::csv : exporting::FileFormat::png;
    open(state, index, recording);
    dialog_.open = dialog_.just_opened = false;
    const exporting::ExportOptions o = options_of(dialog_);
    std::string problem = running() ? "An export is still being written." : options_problem(dialog_, o);
    if (problem.empty() && recording) problem = recording_problem_now(state.params());
    if (!problem.empty()) return out.ask(act::SetStatus{problem, true});
    start(state, o, out);
}

void ExportJobs::draw_dialog(const AppState& state, const PanelSet& panels, Actions& out) {
    ExportDialogState& d = dialog_;
    if (!d.open) return;
    if (d.just_opened) {
        ImGui::OpenPopup(dialog_title(d));
        d.just_opened = false;
    }
    // a fixed width, the height of what is shown (it grows with the folder list)
    const float width = ImGui::GetFontSize() * dialog_em::kExportWidth;
    ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, FLT_MAX));
    if (!ImGui::BeginPopupModal(dialog_title(d), &d.open, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize)) return;
    const PanelView& panel = panels[d.panel];
    ImGui::Text("Panel %d: %s", d.panel + 1, std::string(panel.figure->title).c_str());
    ImGui::Separator();
    if (d.recording) {
        draw_recording_fields(state, *panel.figure, d.rec, d.file_name, sizeof d.file_name);
        if (!d.file_name_typed) std::snprintf(d.file_name, sizeof d.file_name, "%s", recording_file_name(*panel.figure, d.rec).c_str());
    }
    else draw_format_choice(d);
    const exporting::ExportOptions o = options_of(d);
    std::string problem = options_problem(d, o);
    if (problem.empty() && d.recording) problem = recording_problem_now(state.params());
    ImGui::Separator();
    ImGui::BeginDisabled(!d.recording && exporting::file_format(d.format).kind == exporting::FormatKind::table);  // the numbers only
    draw_picture_fields(d, state, panel, o, problem.empty());
    ImGui::EndDisabled();
    draw_file_fields(d, static_cast<bool>(download_));
    if (!d.recording && problem.empty() && exporting::file_format(d.format).kind != exporting::FormatKind::table) {
        ImGui::Separator();
        draw_alt_text(state, o);
    }
    ImGui::Separator();
    const bool ready = problem.empty() && !running();
    ImGui::BeginDisabled(!ready);
    const char* action = d.recording ? "Record" : "Export";
    const bool go = ImGui::Button(action) || (ready && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) && !ImGui::IsAnyItemActive());
    ImGui::EndDisabled();
    item_tooltip(running() ? "An export is still being written."
                           : d.recording ? "Write the frames now (on a worker: the window stays live; Cancel stops it)."
                                         : "Write the file now (on a worker: the window stays live).");
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
        d.open = false;
        ImGui::CloseCurrentPopup();
    }
    show_problem(problem);
    if (go && ready) {
        start(state, o, out);
        d.open = false;
        ImGui::CloseCurrentPopup();
    }
    if (state.status_error) show_problem(state.status);
    ImGui::EndPopup();
}

}  // namespace rope::gui
