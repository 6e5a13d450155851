// A compact plotting layer in the manner of ImPlot: set up the axes (and colour bar), then add
// items, then finish. Layout is locked at the first item. Everything goes into a DisplayList.
//
//   Plot p(list, measure, style, rect, "Long-range decay");
//   p.setup_x({"relative distance n - m (tokens)", 0, 4096});
//   p.setup_y({"bound (sum |S_j| / (d/2))", 0, 33});
//   p.line(x, y, n, 1, color, "RoFormer bound");
//   p.finish();
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "plot/display_list.hpp"
#include "plot/label_placer.hpp"
#include "plot/style.hpp"
#include "plot/ticks.hpp"

namespace rope::plot {

struct AxisSetup {
    AxisSetup() = default;
    AxisSetup(std::string label_, double min_, double max_, bool log_ = false)
        : label(std::move(label_)), min(min_), max(max_), log(log_) {}
    std::string label;  // with units, e.g. "position m (tokens)"
    double min = 0, max = 1;
    bool log = false;
    bool integer_ticks = false;  // ticks only at whole numbers (pair indices)
    std::vector<Tick> ticks;     // custom ticks (replace the automatic ones when non-empty)
    bool no_ticks = false;       // none at all, not even automatic ones (its rows named by a key instead)
    // An animation holds every axis at the union of its frames' ranges (plot/axis_pins.hpp) except
    // this one: its range is what the animation shows (pair indices, which another dim rescales).
    bool moves_in_animation = false;
};

struct ColorbarSetup {
    ColorbarSetup() = default;
    ColorbarSetup(std::string label_, ColormapId map, double lo, double hi, std::vector<Tick> ticks_ = {})
        : label(std::move(label_)), colormap(map), vmin(lo), vmax(hi), ticks(std::move(ticks_)) {}
    std::string label;
    ColormapId colormap = ColormapId::sequential;
    double vmin = 0, vmax = 1;
    std::vector<Tick> ticks;  // empty: automatic
    // The heatmap fades cells by weight (ImageCmd::weights): the bar becomes a key of two
    // dimensions, full colour at its left edge fading to grey at its right, and this note (e.g.
    // "grey: turns within one cell") is written along it below the label.
    std::string fade_note;
};

struct LegendEntry {
    LegendEntry() = default;
    LegendEntry(std::string label_, Color color_, float width_ = 2, float dash_ = 0)
        : label(std::move(label_)), color(color_), width(width_), dash(dash_) {}
    std::string label;
    Color color;
    float width = 2;
    float dash = 0;
};

class Plot {
public:
    Plot(DisplayList& list, const TextMeasure& measure, const Style& style, Rect outer, std::string title = "");

    void setup_x(AxisSetup axis);
    void setup_y(AxisSetup axis);
    void setup_colorbar(ColorbarSetup bar);
    void setup_square(bool square) { square_ = square; }  // equal units on x and y (vector plots)
    // Equal units on x and y kept by widening the data range of the longer side until the plot
    // fills its rectangle (matplotlib's adjustable='datalim'), rather than shrinking the rectangle
    // to the data's shape: the axes and grid run on into room that would otherwise stay empty.
    void setup_square_widening_range() { square_ = widen_range_ = true; }
    void setup_legend_bottom_left() {
        legend_left_ = true;
        legend_bottom_ = true;
    }
    void setup_legend_bottom_right() {
        legend_left_ = false;
        legend_bottom_ = true;
    }
    void setup_legend_top_left() {
        legend_left_ = true;
        legend_bottom_ = false;
    }
    // The legend outside the plot (for plots whose curves leave no corner free): these labels, given
    // now so the layout can make room; lines added later with one of them as legend go there. In a
    // column beside the plot where the cell is wide (the plot keeps two thirds of its width) and the
    // entries would take more than a row above it; else in rows above, unless those rows would take
    // more than a third of the plot's height and the names are short (a third of its width): then
    // each line is named at its right end, inside the plot. A compact picture (Style::compact) keeps
    // its height for the data: its legend goes inside the plot, where the data leaves room.
    void setup_legend_above(std::vector<std::string> labels) {
        if (!locked_ && !style_.compact) legend_above_ = std::move(labels);
    }
    void setup_no_axes() { axes_ = false; }  // a bare drawing area (unit-circle views): no ticks, no margins

    // The plotting rectangle (locks the layout).
    const Rect& area();
    Vec2 to_px(double x, double y);
    float x_px(double x);
    float y_px(double y);
    double x_from_px(float px);
    double y_from_px(float py);

    // A series: x may be null (then x = index). Thinned per pixel column (first, min, max, last)
    // and culled outside the x range, so a million points cost about as much as the plot's width.
    void line(const double* x, const double* y, std::size_t count, std::size_t stride, Color color,
              const std::string& legend = "", float width = -1, float dash = 0);
    // Values[r * cols + c], row 0 at the top, covering data [x0, x1] x [y0, y1].
    void heatmap(std::vector<float> values, int cols, int rows, double x0, double x1, double y0, double y1,
                 ColormapId colormap, float vmin, float vmax, std::vector<float> weights = {});
    void vline(double x, Color color, const std::string& label = "", float width = -1, float dash = 0);
    void hline(double y, Color color, const std::string& label = "", float width = -1, float dash = 0);
    // A marker line with a small tag (e.g. "m = 120") inside the plot instead of a legend entry. Tags,
    // text() and the legend are placed at finish(), where they cover no other text and no data line:
    // the first free of several positions, else the nearest free spot with a leader line.
    void marker_x(double x, Color color, const std::string& tag, float width = -1, float dash = 0);
    void marker_y(double y, Color color, const std::string& tag, float width = -1, float dash = 0);
    void band_x(double x0, double x1, Color fill);  // shaded vertical band
    void text(double x, double y, std::string s, Color color, HAlign h = HAlign::left, VAlign v = VAlign::bottom,
              float size = -1);
    // text() anchored at a pixel (e.g. beyond an arrow's tip); placed like text().
    void text_px(Vec2 at, std::string s, Color color, HAlign h, VAlign v, float size = -1);
    void add_legend(LegendEntry e) { legend_.push_back(std::move(e)); }
    // A shape the legend, tags and texts keep clear of, besides texts and data lines (an arrowhead).
    void keep_clear(const Rect& r) { clear_.push_back(r); }

    void finish();  // legend, frame; pops the clip

    const Rect& outer() const { return outer_; }  // the rectangle the plot was given
    // The axes as drawn (locks the layout): a plot that widens its range shows more than it was set
    // up with, and readouts and pointer input must map pixels with these.
    const AxisSetup& x_axis() {
        layout();
        return x_;
    }
    const AxisSetup& y_axis() {
        layout();
        return y_;
    }
    DisplayList& list() { return list_; }
    const Style& style() const { return style_; }
    const TextMeasure& measure() const { return measure_; }

private:
    struct AxisTicks {
        std::vector<Tick> ticks;
        float font = 0;  // the tick labels' size: smaller on a crowded axis, down to a minimum
    };
    struct Annotation {  // a tag or text waiting for finish() to place it
        enum class Kind { tag_x, tag_y, text } kind = Kind::text;
        Vec2 at;  // tag_x: (line x, -); tag_y: (-, line y); text: its anchor
        std::string text;
        Color color;
        HAlign h = HAlign::left;
        VAlign v = VAlign::bottom;
        float size = 0;
    };

    void layout();
    Rect equal_units(Rect r) const;
    void widen_to_equal_units(const Rect& r, const AxisSetup& x_set, const AxisSetup& y_set);
    float left_margin(float height) const;
    float compact_x_label_top(float tick_font_px) const;
    bool titled() const { return style_.draw_titles && style_.draw_captions && !title_.empty(); }
    void draw_title(float pad);
    // `text` at `size` made to fit `room` pixels: smaller type (down to `smallest`, never below the
    // style's smallest text), then without a trailing "(aside)", then cut at a word with "…".
    std::pair<std::string, float> fitted(const std::string& text, float size, float room, float smallest) const;
    double axis_t(const AxisSetup& a, double v) const;
    AxisTicks ticks_for(const AxisSetup& a, float pixels, bool horizontal) const;
    bool ticks_fit(const std::vector<Tick>& ticks, const AxisSetup& a, float pixels, bool horizontal, float font) const;
    void place_labels();  // the legend, tags and texts, at finish()
    void place_legend(LabelPlacer& placer);
    // The first free of `spots`, else the free spot nearest the first, else the cheapest (false).
    bool find_spot(LabelPlacer& placer, const std::vector<Rect>& spots, Rect* box) const;
    void draw_legend_box(const Rect& box, const std::vector<LegendEntry>& entries, float tf, float row);
    float legend_above_height(float width) const;
    float legend_column_width() const;
    void draw_legend_above(std::vector<LegendEntry> entries);
    void place_tag(LabelPlacer& placer, const Annotation& a);
    void place_text(LabelPlacer& placer, Annotation a);
    void draw_at(LabelPlacer& placer, const Rect& box, Vec2 anchor, Color leader);
    void draw_axes();
    void draw_colorbar();

    DisplayList& list_;
    const TextMeasure& measure_;
    Style style_;
    Rect outer_;
    std::string title_;
    AxisSetup x_, y_;
    ColorbarSetup bar_;
    bool has_bar_ = false;
    bool square_ = false;
    bool widen_range_ = false;  // square_ by widening a data range (setup_square_widening_range)
    bool legend_left_ = false;
    bool legend_bottom_ = false;
    bool axes_ = true;
    bool locked_ = false;
    bool finished_ = false;
    int pin_index_ = -1;                        // this plot's number in the build, for style_.pins
    int heatmaps_ = 0;                          // heatmaps drawn so far (their number for style_.pins)
    Rect area_;
    Rect bar_rect_;
    std::vector<LegendEntry> legend_;
    std::vector<Annotation> annotations_;
    std::vector<Rect> clear_;  // keep_clear's shapes
    std::vector<std::string> legend_above_;
    float legend_above_y_ = 0;
    bool legend_beside_ = false;  // the named entries in a column at the plot's right, not in rows above
    float legend_beside_x_ = 0;
    bool legend_direct_ = false;  // the named lines labelled at their right ends instead
    std::vector<std::pair<std::string, Vec2>> line_ends_;  // each named line's last point in the plot
};

}  // namespace rope::plot
