// The Export action of every panel: a small dialog (format, scale, theme, file name, folder) that
// writes the panel's figure through the same figure code as the screen and the command line. The
// file is written on a worker thread with the app's own cache (what is on screen is not computed
// again); the window stays live and the status line says where the file went.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "export/export.hpp"
#include "gui/app/actions.hpp"
#include "gui/app/app_state.hpp"
#include "gui/panels/panel_set.hpp"
#include "gui/dialogs/recording_fields.hpp"

namespace rope::gui {

// The dialog's fields, kept from one opening to the next (format, scale, theme, folder).
struct ExportDialogState {
    bool open = false;
    bool recording = false;  // the Record dialog: an animation instead of one picture
    RecordingFields rec;
    bool just_opened = false;
    int panel = 0;
    exporting::FileFormat format = exporting::FileFormat::png;  // a picture's or a table's format
    float scale = 2;
    plot::ThemeId theme = plot::ThemeId::light;  // light suits blog posts and print
    int width = 800, height = 480;  // figure pixels at scale 1 (the figure's export size when opened)
    int plot = -1;                  // one plot alone (index into FigureDescriptor::plots), -1 the whole figure
    bool clean = false;             // leave out the cursor and selection marks
    bool no_title = false;
    bool browsing = false;          // the folder list is shown
    char file_name[256] = {};
    bool file_name_typed = false;  // a recording's name follows its key and range until typed
    char folder[1024] = {};
};


// The user's Pictures folder (XDG_PICTURES_DIR, ~/Pictures), else the current directory.
std::string default_export_folder();

// The Export dialog (the Export button, or Ctrl+E over a panel) and, as "Record animation" (the
// Record button, or Ctrl+R), the same dialog for a GIF, MP4, WebM or PNG frames while one parameter
// moves; the exports and recordings it starts run one at a time, off the UI thread, with the app's
// figure cache (what is on screen is not computed again).
class ExportJobs {
public:
    ExportJobs(figures::FigureCache& cache, std::function<void()> wake) : cache_(cache), wake_(std::move(wake)) {}
    const std::string& alt_text() const;  // the dialog's alt text once worked out ("" until then); tests read it
    ~ExportJobs();  // stops a recording, waits for an export: a file is never left half-written
    ExportJobs(const ExportJobs&) = delete;
    ExportJobs& operator=(const ExportJobs&) = delete;
    // Opens the dialog for panel `index`: its figure's export size and plots; a recording's fields
    // from what the person is doing (recording_fields.hpp).
    void open(const AppState& state, int index, bool recording);
    // Writes panel `index` now with the dialog's defaults, without showing it: the picture as PNG,
    // the numbers as CSV (`numbers`) or the recording in its default format; a problem goes to the
    // status line.
    void write_now(const AppState& state, int index, bool recording, bool numbers, Actions& out);
    // Draws the dialog when open; a confirmed export starts on a worker and says so on the status line.
    void draw_dialog(const AppState& state, const PanelSet& panels, Actions& out);
    // A finished export's outcome for the status line; true if one finished.
    bool poll(Actions& out);
    const ExportDialogState& dialog() const { return dialog_; }
    ExportDialogState& dialog() { return dialog_; }  // tests fill the fields
    bool running() const;
    bool recording() const;  // a recording is being written
    void cancel();           // stops a recording at its next frame; nothing is written
    // While a recording runs: a small window in the corner with its progress and Cancel.
    void draw_progress();
    // On a page (the browser): files are written in the page's memory and handed to `download`
    // (path, name, MIME type) once whole; the dialog asks for a name and no folder.
    using Download = std::function<void(const std::string& path, const std::string& name, const std::string& mime)>;
    void download_through(Download download) { download_ = std::move(download); }

private:
    void start(const AppState& state, const exporting::ExportOptions& options, Actions& out);
    const std::string& recording_problem_now(const ParamSet& params);
    struct Job;
    std::shared_ptr<Job> job_;
    static void wait_for(const std::atomic<bool>& done);
    figures::FigureCache& cache_;
    std::function<void()> wake_;
    Download download_;  // null on the desktop: the file stays where it was written
    ExportDialogState dialog_;
    // The recording's problem and what it was worked out from (it validates every frame's parameters).
    struct ProblemInputs {
        ParamSet params;
        RecordingFields rec;
        const figures::FigureDescriptor* figure = nullptr;
    } problem_inputs_;
    std::string recording_problem_;
    // The alt text the file will carry (what the picture shows, in words), worked out on a worker
    // for the figure, parameters and fields it was asked for; shown in the dialog with a copy button.
    void draw_alt_text(const AppState& state, const exporting::ExportOptions& options);
    struct AltText;
    std::shared_ptr<AltText> alt_;                   // the one shown
    std::vector<std::shared_ptr<AltText>> alt_jobs_;  // those whose workers may still run

};

}  // namespace rope::gui
