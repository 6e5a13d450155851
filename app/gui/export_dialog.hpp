// The Export action of every panel: a small dialog (format, scale, theme, file name, folder) that
// writes the panel's figure through the same figure code as the screen and the command line. The
// file is written on a worker thread with the app's own cache (what is on screen is not computed
// again); the window stays live and the status line says where the file went.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "export/export.hpp"
#include "gui/app_state.hpp"

namespace rope::gui {

// The user's Pictures folder (XDG_PICTURES_DIR, ~/Pictures), else the current directory.
std::string default_export_folder();

// Opens the dialog for panel `index` (the Export button, or Ctrl+E over a panel).
void open_export_dialog(AppState& state, int index);
// The same dialog as "Record animation" (the Record button, or Ctrl+R): GIF, MP4, WebM or PNG
// frames while one parameter moves.
void open_record_dialog(AppState& state, int index);

// Exports and recordings run one at a time, off the UI thread.
class ExportJobs {
public:
    explicit ExportJobs(std::function<void()> wake) : wake_(std::move(wake)) {}
    ~ExportJobs();  // stops a recording, waits for an export: a file is never left half-written
    ExportJobs(const ExportJobs&) = delete;
    ExportJobs& operator=(const ExportJobs&) = delete;
    // Draws the dialog when open; starts the export on confirmation.
    void draw_dialog(AppState& state);
    // Puts a finished export's outcome on the status line; true if one finished.
    bool poll(AppState& state);
    bool running() const;
    bool recording() const;  // a recording is being written
    void cancel();           // stops a recording at its next frame; nothing is written
    // While a recording runs: a small window in the corner with its progress and Cancel.
    void draw_progress();

private:
    void start(AppState& state, const exporting::ExportOptions& options);
    struct Job;
    std::shared_ptr<Job> job_;
    std::function<void()> wake_;
};

}  // namespace rope::gui
