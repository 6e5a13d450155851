// Everything the window shows, in plain structs that tests and export code can reach: the
// parameters (the one vocabulary), the view state, and each panel's cached figure.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "figures/figures.hpp"
#include "gui/heatmap_renderer.hpp"
#include "plot/style.hpp"
#include "rope/params.hpp"

namespace rope::gui {

struct PanelView {
    figures::FigureId id = figures::FigureId::vectors;
    plot::Rect screen;  // where the figure sits in the window (pixels)
    // cached figure and what it was built from
    bool valid = false;
    std::uint64_t version = 0;
    std::uint64_t generation = 0;  // the cache's background generation it was built at
    float width = 0, height = 0, scale = 0;
    plot::ThemeId theme = plot::ThemeId::dark;
    figures::FigureResult figure;
    std::vector<HeatmapTexture> textures;
};

struct ExportDialogState {
    bool open = false;
    bool just_opened = false;
    int panel = 0;
    int format = 0;  // png, svg, pdf, csv
    float scale = 2;
    int theme = 0;   // light, dark
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

struct AppState {
    ParamSet params;
    plot::ThemeId theme = plot::ThemeId::dark;
    float ui_scale = 1;
    int maximized = -1;  // panel index, or -1 for the page's grid
    int page = 0;        // which page of panels the grid shows (kPages)
    std::string status = "Ready. Drag the sliders; Ctrl+click a slider to type a value.";
    bool status_error = false;
    std::array<PanelView, figures::kAllFigures.size()> panels;
    figures::FigureCache cache;
    bool dragging_vector = false;
    bool dragging_key = false;  // the k arrow of the vectors panel's q-k view
    // linked views: the pair and position under the mouse in any panel (-1: none), highlighted in
    // every panel; `next` collects this frame's, shown from the next frame on
    struct Linked {
        int pair = -1;
        std::int64_t position = -1;
        bool operator==(const Linked& o) const { return pair == o.pair && position == o.position; }
        bool operator!=(const Linked& o) const { return !(*this == o); }
    };
    Linked linked, linked_next;
    std::uint64_t figure_builds = 0;
    std::uint64_t figure_errors = 0;  // figures that could not be built, or held a NaN (soak counts them)
    ExportDialogState export_dialog;
    SessionDialogState session_dialog;

    // teaching: presentation mode, animation, lessons, the shortcut overlay
    float base_scale = 1;        // the monitor's content scale (x the user's factor)
    bool presentation = false;   // large type, high contrast, no controls
    bool fullscreen = false;
    bool playing = false;
    double speed = 10;           // tokens per second
    double play_position = 0;    // fractional position while playing
    int lesson_step = -1;        // -1: no lesson open
    bool show_shortcuts = false;
    bool quit_requested = false;
    bool screenshot_requested = false;  // F12
    std::string session_path;    // the file Ctrl+S writes (last opened or saved)

    // the lesson step's parameters and the panel to look at
    void go_to_lesson_step(int step);
    float effective_scale() const { return base_scale * (presentation ? kPresentationScale : 1.0f); }
    static constexpr float kPresentationScale = 1.6f;  // how many times a figure was rebuilt (tests: idle means none)

    AppState();
    // Sets one parameter from the UI, validated like --set; on error nothing changes and the status
    // line says why. Returns true if applied.
    bool apply(const std::string& key, const std::string& text);
    bool apply_number(const std::string& key, double value);
    void set_status(std::string text, bool error = false);
};

// Pages of panels: the basics (1-4), the context-extension view (5), why RoPE works (6-9).
struct PanelPage {
    const char* name;
    int first, count;  // panel indices first .. first+count-1
};
inline constexpr std::array<PanelPage, 3> kPages = {PanelPage{"Basics", 0, 4}, PanelPage{"Context extension", 4, 1},
                                                    PanelPage{"Why it works", 5, 4}};
inline int page_of_panel(int panel) {
    for (int i = 0; i < static_cast<int>(kPages.size()); ++i)
        if (panel >= kPages[i].first && panel < kPages[i].first + kPages[i].count) return i;
    return 0;
}
// Maximise a panel (or restore the grid if it is the maximised one), showing its page.
inline void toggle_maximized(AppState& state, int panel) {
    state.page = page_of_panel(panel);
    state.maximized = state.maximized == panel ? -1 : panel;
}

plot::Style screen_style(const AppState& state);
plot::ThemeId effective_theme(const AppState& state);

}  // namespace rope::gui
