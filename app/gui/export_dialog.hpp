// The Export action of every panel: a small dialog (format, scale, theme, file name, folder) that
// writes the panel's figure through the same figure code as the screen and the command line. The
// file is written on a worker thread with the app's own cache (what is on screen is not computed
// again); the window stays live and the status line says where the file went.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "gui/app_state.hpp"

namespace rope::gui {

// The user's Pictures folder (XDG_PICTURES_DIR, ~/Pictures), else the current directory.
std::string default_export_folder();

// Opens the dialog for panel `index` (the Export button, or Ctrl+E over a panel).
void open_export_dialog(AppState& state, int index);

// Exports run one at a time, off the UI thread.
class ExportJobs {
public:
    explicit ExportJobs(std::function<void()> wake) : wake_(std::move(wake)) {}
    ~ExportJobs();  // waits for a running export: a file is never left half-written
    ExportJobs(const ExportJobs&) = delete;
    ExportJobs& operator=(const ExportJobs&) = delete;
    // Draws the dialog when open; starts the export on confirmation.
    void draw_dialog(AppState& state);
    // Puts a finished export's outcome on the status line; true while one is running.
    bool poll(AppState& state);
    bool running() const;

private:
    struct Job;
    std::shared_ptr<Job> job_;
    std::function<void()> wake_;
};

}  // namespace rope::gui
