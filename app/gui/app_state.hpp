// Everything the window shows, in plain structs that tests and the drivers can reach: the
// parameters (the one vocabulary; changed only through AppState's methods, each change one undo
// step), the view state, and each panel's picture with the values it was built from.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "export/export_options.hpp"
#include "figures/registry.hpp"
#include "gui/heatmap_texture.hpp"
#include "gui/history.hpp"
#include "plot/style.hpp"
#include "rope/params.hpp"

namespace rope::gui {

// What a panel's picture is built from: the values of the parameters its figure reads, its size,
// the UI scale and the theme. A picture is current when its key equals the key it would have now.
struct FigureKey {
    float width = 0, height = 0, scale = 0;
    plot::ThemeId theme = plot::ThemeId::dark;
    std::vector<ParamValue> inputs;  // in the order of the descriptor's `reads`
    std::string focus;               // the sub-plots the lesson step speaks of (its panel only)
    bool operator==(const FigureKey& o) const {
        return width == o.width && height == o.height && scale == o.scale && theme == o.theme && inputs == o.inputs &&
               focus == o.focus;
    }
    bool operator!=(const FigureKey& o) const { return !(*this == o); }
};

struct PanelView {
    const figures::FigureDescriptor* figure = nullptr;
    plot::Rect screen;      // where the figure sits in the window (pixels), while shown
    plot::Vec2 size;        // the figure's size in the layout (whole pixels)
    bool shown = false;     // drawn in the last frame
    bool built = false;     // `result` holds a picture
    FigureKey key;          // what `result` was built from
    figures::FigureResult result;  // the picture on screen
    std::vector<HeatmapTexture> textures;
    // a newer picture, built and waiting for its frame (a few new pictures are shown per frame)
    bool has_next = false;
    FigureKey next_key;
    figures::FigureResult next;
    std::uint64_t next_change = 0, arrived_frame = 0;
    double next_ms = 0;
    double next_cost = 0;  // what drawing it is estimated to take (ms)
    bool missed_spare_time = false;  // it was ready, but the time between frames ran out
    std::uint64_t asked_change = 0;  // the parameters' serial of the newest build asked for (its order)
    // what is drawn over a picture: the "updating" cue, the linked views' highlight
    struct Overlay {
        bool cue = false;
        int pair = -1;
        std::int64_t position = -1;
        bool operator==(const Overlay& o) const { return cue == o.cue && pair == o.pair && position == o.position; }
        bool operator!=(const Overlay& o) const { return !(*this == o); }
    };
    // the back buffer holds `result` at `drawn` with `overlay` over it: a frame that would draw the
    // same need not draw it
    bool on_screen = false;
    plot::Rect drawn;
    Overlay overlay;
    double stale_since = -1;     // since when the picture is behind the parameters
    double shown_at = -1;        // when the picture on screen was shown
    int grab = 0;           // the figure's drag handle while the button is held
    // for the frame benchmark and the order pictures are drawn in (never for deciding what is
    // current): the serial of the parameters `result` was built from, the newest serial it is the
    // final picture of, how long the build took
    std::uint64_t built_change = 0, final_change = 0;
    double build_ms = 0;
    bool just_built = false;
    double replay_ms = -1;  // this frame's replay of the picture into ImGui (-1: left on screen as it was)
    plot::Rect clip;        // the clip rectangle the picture was drawn within, in the last frame
};

// What a recording moves and how (the Record dialog): `key` from `from` to `to` over `frames`
// frames at `fps`, into a GIF, an MP4, a WebM or a folder of PNGs.
struct RecordingFields {
    exporting::FileFormat format = exporting::FileFormat::gif;  // an animation's format
    std::optional<ParamId> key = ParamId::position;  // none: the figure has no number to move
    double from = 0, to = 0;
    int frames = 60, fps = 30;
    float scale = 1;  // a recording's own: GIFs for blogs are small
    bool operator==(const RecordingFields& o) const {
        return format == o.format && key == o.key && from == o.from && to == o.to && frames == o.frames && fps == o.fps &&
               scale == o.scale;
    }
};

struct ExportDialogState {
    bool open = false;
    bool recording = false;  // the Record dialog: an animation instead of one picture
    RecordingFields rec;
    bool just_opened = false;
    int panel = 0;
    exporting::FileFormat format = exporting::FileFormat::png;  // a picture's or a table's format
    float scale = 2;
    int theme = 0;   // light, dark
    int width = 800, height = 480;  // figure pixels at scale 1 (the figure's export size when opened)
    int plot = -1;                  // one plot alone (index into FigureDescriptor::plots), -1 the whole figure
    bool clean = false;             // leave out the cursor and selection marks
    bool no_title = false;
    bool browsing = false;          // the folder list is shown
    char file_name[256] = {};
    char folder[1024] = {};
};

struct SessionDialogState {
    bool open = false;
    bool just_opened = false;
    bool saving = true;  // save (Ctrl+S) or open (Ctrl+O)
    bool config = false; // open a Hugging Face config.json instead of a session
    char path[1024] = {};
};

class AppState {
public:
    AppState();

    const ParamSet& params() const { return params_; }
    int lesson_step() const { return lesson_step_; }
    const History& history() const { return history_; }

    // The starting state (command line, session, lesson): no undo step.
    void start_from(const ParamSet& params, int lesson_step = -1);
    // Applies one change to a copy, validates it like --set and keeps it only if it holds; a kept
    // change is one undo step named `label` (or part of the open `gesture`). Refused: the status
    // line says why and nothing changes.
    bool change(const std::string& label, const std::function<void(ParamSet&)>& edit, const std::string& gesture = "");
    bool apply(ParamId key, const std::string& text, const std::string& gesture = "");
    bool apply_number(ParamId key, double value, const std::string& gesture = "");
    // Replaces the whole set (a session, a config.json): one undo step. `params` is already valid.
    void replace(const std::string& label, const ParamSet& params) { replace(label, params, lesson_step_); }
    // ... and the lesson step with it (a session opens at its own step).
    void replace(const std::string& label, const ParamSet& params, int lesson_step);
    // A lesson step's parameters, page and panel (one undo step); -1 closes the lesson.
    void go_to_lesson_step(int step);
    void close_lesson();
    // The gesture the last changes belong to has ended (the slider or the mouse button was let go).
    void end_gesture();
    bool undo();
    bool redo();

    // the view: not undone
    plot::ThemeId theme = plot::ThemeId::dark;
    float base_scale = 1;  // the monitor's content scale (x the user's factor)
    float ui_scale = 1;    // base_scale, or effective_scale() in presentation mode
    int maximized = -1;    // panel index, or -1 for the page's grid
    int page = 0;          // which page of panels the grid shows (figures::pages())
    bool presentation = false;  // large type, high contrast, no controls
    bool fullscreen = false;
    bool playing = false;
    double speed = 10;          // tokens per second
    double play_position = 0;   // fractional position while playing
    bool show_shortcuts = false;
    std::string session_path;   // the file Ctrl+S writes (last opened or saved)
    ParamId selected_key = ParamId::position;  // the numeric slider last used: what Record sweeps

    std::string status = "Ready. Drag the sliders; Ctrl+click a slider to type a value.";
    bool status_error = false;
    void set_status(std::string text, bool error = false);

    std::vector<PanelView> panels;  // one per figure, in panel order
    figures::FigureCache cache;
    // linked views: the pair and position under the mouse in any panel (-1: none), highlighted in
    // every panel; `linked_next` collects this frame's, shown from the next frame on
    struct Linked {
        int pair = -1;
        std::int64_t position = -1;
        bool operator==(const Linked& o) const { return pair == o.pair && position == o.position; }
        bool operator!=(const Linked& o) const { return !(*this == o); }
    };
    Linked linked, linked_next;
    std::uint64_t figure_builds = 0;  // how many times a figure was built (tests: idle means none)
    std::uint64_t change_serial = 0;  // goes up when the parameters change (the frame benchmark's clock)
    std::uint64_t figure_errors = 0;  // figures that could not be built, or held a NaN (soak counts them)
    ExportDialogState export_dialog;
    SessionDialogState session_dialog;
    bool quit_requested = false;
    bool recording_running = false;  // a recording is being written (the app sets it each frame)
    bool cancel_recording = false;   // Ctrl+R while recording: the app stops it
    bool screenshot_requested = false;  // F12

    // Presentation mode sizes type for the back row: the smallest text (a panel's tick labels,
    // kSmallestText px at scale 1) is at least 1/36 of the window's height (20 px at 720p, 30 px
    // at 1080p), and never smaller than the usual type.
    static constexpr float kSmallestText = plot::kPresentingSmallestText;
    float effective_scale(float window_height) const {
        if (!presentation) return base_scale;
        return std::max(base_scale, std::ceil(window_height / 36.0f) / kSmallestText);
    }

private:
    void restore(const Snapshot& s);
    Snapshot snapshot() const { return {params_, lesson_step_}; }

    ParamSet params_;
    int lesson_step_ = -1;  // -1: no lesson open
    History history_;
};

// Maximise a panel (or restore the grid if it is the maximised one), showing its page.
void toggle_maximized(AppState& state, int panel);
// The panel the open lesson step points at (null when no lesson is open).
const figures::FigureDescriptor* lesson_panel(const AppState& state);
bool panel_shown(const AppState& state, int panel);

// The figures' style on screen; for the panel the open lesson step points at, with its focus.
plot::Style screen_style(const AppState& state, const figures::FigureDescriptor* figure = nullptr);
// The sub-plots the open lesson step speaks of, if `figure` is its panel ("" otherwise).
std::string lesson_focus(const AppState& state, const figures::FigureDescriptor& figure);
plot::ThemeId effective_theme(const AppState& state);

}  // namespace rope::gui
