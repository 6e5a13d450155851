// The panels' pictures and how they are on screen: one PanelView per figure, written by the panels'
// code alone (panel_figures.cpp asks for, receives and shows pictures; panel_grid.cpp places and
// draws them; panel_ui.cpp keeps a drag's handle). The rest of the app reads them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "figures/registry.hpp"
#include "gui/platform/heatmap_texture.hpp"
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
    bool maximized = false;          // the panel fills the window (its notes do not suggest maximising it)
    bool presenting = false;         // the room's picture: no words on clicks, keys or exports
    bool touch = false;              // pointed at by touch: no words on keys
    bool small_screen = false;       // a phone, an embed in a column: a small picture is compact
    bool operator==(const FigureKey& o) const {
        return width == o.width && height == o.height && scale == o.scale && theme == o.theme && inputs == o.inputs &&
               focus == o.focus && maximized == o.maximized && presenting == o.presenting && touch == o.touch &&
               small_screen == o.small_screen;
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

// Every panel, in panel order, and what their pictures have cost.
struct PanelSet {
    PanelSet();  // one view per figure
    std::vector<PanelView> views;
    std::uint64_t figure_builds = 0;  // how many times a figure was built (tests: idle means none)
    std::uint64_t figure_errors = 0;  // figures that could not be built, or held a NaN (soak counts them)
    PanelView& operator[](int index) { return views[static_cast<std::size_t>(index)]; }
    const PanelView& operator[](int index) const { return views[static_cast<std::size_t>(index)]; }
    // The panel shown under `point` (window pixels), or -1.
    int panel_at(plot::Vec2 point) const;
};

}  // namespace rope::gui
