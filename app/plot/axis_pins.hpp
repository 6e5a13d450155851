// Axis ranges held still over several builds of one figure (the frames of an animation), so that
// its tick labels, titles and colour bars stay put while the animated parameter moves.
//
// Pass 1 builds every frame in `collect` mode: each Plot reports its final x/y ranges and colour
// bar, keyed by the order in which the build creates its plots (plot 0, 1, 2...). Pass 2 builds
// them in `apply` mode: each Plot takes the union of its ranges over all the frames. An axis is
// pinned only where every frame agrees on what it is (label, log or linear, automatic ticks; for a
// bar, its label, colormap and automatic ticks): custom ticks are made for one range, so such an
// axis keeps each frame's own, and so does an axis marked AxisSetup::moves_in_animation. A Plot finds
// the pins through Style::pins (null on screen).
//
// A figure that fits something to its data before any Plot sees it (a colour scale shared by
// several maps, the ends hand-made ticks are made for, a width measured from the labels of a range)
// holds that range itself, by name (hold, hold_flag): then all it builds on it is the same in every
// frame, the plots' ranges included.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "plot/plot.hpp"

namespace rope::plot {

class AxisPins {
public:
    enum class Mode { collect, apply };

    // Before each build of the figure: collect starts a new frame's record, apply starts over at plot 0.
    void start_build(Mode mode);
    Mode mode() const { return mode_; }
    int next_plot() { return next_plot_++; }

    // Called by Plot when its layout is locked: collect notes the setups, apply replaces the ranges
    // of the pinned axes (bar may be null: no colour bar).
    void visit(int plot, AxisSetup& x, AxisSetup& y, ColorbarSetup* bar);

    // The same for the colour range of the plot's `ordinal`-th heatmap (cells and bar then agree
    // wherever they agree in every frame).
    void visit_cells(int plot, int ordinal, ColormapId colormap, float& vmin, float& vmax);

    // A range the figure fits to its data, `name` saying which (one name, one range, in every frame):
    // collect notes [lo, hi], apply widens it to the union over all the frames. Non-finite ends are
    // left as they are.
    void hold(const std::string& name, double& lo, double& hi);
    // A yes/no the figure reads from its data (e.g. "some value is exact"): apply makes it true in
    // every frame when it is true in one.
    void hold_flag(const std::string& name, bool& flag);

    // Takes in the frames `other` collected as frames after this one's (two builds collected apart,
    // on two threads, then pinned as one run).
    void absorb(const AxisPins& other);

    // Two models' pictures share an axis only while each one's own range covers at least `share` of
    // the range they would share: a model whose data would be a sliver of it (4096 positions on an
    // axis to 131072) keeps its own range instead. Call between collecting and applying; returns the
    // axes left to each frame's own range, for the note that says so.
    struct OwnAxis {
        int plot = 0;
        bool x = true;
        std::string label;                          // the axis's label
        std::vector<std::pair<double, double>> ranges;  // each frame's own, [frame]
    };
    std::vector<OwnAxis> keep_thin_axes_own(double share);

    int frames() const { return static_cast<int>(built_.size()); }
    // Whether the frame collected as number `frame` comes out the same in apply mode (no pinned
    // range differs from its own): then its pass-1 build can be used as it is.
    bool frame_unchanged(int frame) const;

private:
    struct Range {
        double lo = 0, hi = 1;
    };
    struct Pin {  // one axis (or bar) of one plot over all frames
        bool seen = false, agree = true;
        std::string kind;  // label, log flag, ticks, colormap: what every frame must share
        std::string label;
        bool log = false;
        Range range;
    };
    struct PlotPins {
        Pin x, y, bar;
        std::vector<Pin> cells;  // per heatmap of the plot
    };
    struct PlotBuilt {  // one plot's own ranges in one frame
        Range x, y, bar;
        bool has_bar = false;
        std::vector<Range> cells;
    };

    static std::string axis_kind(const AxisSetup& a);
    static std::string bar_kind(const ColorbarSetup& b);
    static void merge(Pin& pin, const std::string& kind, Range r);
    static void merge_axis(Pin& pin, const AxisSetup& a);
    static void merge(Pin& pin, const Pin& other);
    PlotPins* pins_for(int plot);
    const PlotPins* pins_for(int plot) const;

    Mode mode_ = Mode::collect;
    int next_plot_ = 0;
    std::vector<PlotPins> pins_;
    std::vector<std::vector<PlotBuilt>> built_;  // [frame][plot]
    std::map<std::string, Range> held_;                      // the figure's own ranges over all frames
    std::vector<std::map<std::string, Range>> held_built_;   // [frame]: each frame's own
};

// pins->hold(name, lo, hi) in an animation's build; nothing on screen (no pins).
inline void hold_range(AxisPins* pins, const std::string& name, double& lo, double& hi) {
    if (pins) pins->hold(name, lo, hi);
}
inline void hold_flag(AxisPins* pins, const std::string& name, bool& flag) {
    if (pins) pins->hold_flag(name, flag);
}

}  // namespace rope::plot
