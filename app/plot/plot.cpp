#include "plot/plot.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <tuple>

#include "plot/axis_pins.hpp"
#include "plot/colormap.hpp"
#include "plot/short_forms.hpp"

namespace rope::plot {

Plot::Plot(DisplayList& list, const TextMeasure& measure, const Style& style, Rect outer, std::string title)
    : list_(list), measure_(measure), style_(style), outer_(outer), title_(std::move(title)) {
    if (style_.pins) pin_index_ = style_.pins->next_plot();
}

void Plot::setup_x(AxisSetup axis) {
    if (!locked_) x_ = std::move(axis);
}
void Plot::setup_y(AxisSetup axis) {
    if (!locked_) y_ = std::move(axis);
}
void Plot::setup_colorbar(ColorbarSetup bar) {
    if (!locked_) {
        bar_ = std::move(bar);
        has_bar_ = true;
    }
}

double Plot::axis_t(const AxisSetup& a, double v) const {
    if (a.log) {
        if (!(v > 0)) return -1e9;
        return (std::log(v) - std::log(a.min)) / (std::log(a.max) - std::log(a.min));
    }
    return (v - a.min) / (a.max - a.min);
}

bool Plot::ticks_fit(const std::vector<Tick>& ticks, const AxisSetup& a, float pixels, bool horizontal, float font) const {
    // neighbouring labels keep a gap: side by side on a horizontal axis, stacked on a vertical one
    float prev_at = 0, prev_half = 0;
    bool have_prev = false;
    for (const Tick& t : ticks) {
        if (t.label.empty()) continue;
        const float at = static_cast<float>(axis_t(a, t.value)) * pixels;
        const float half = horizontal ? measure_.measure(t.label, font).x / 2 : font / 2;
        if (have_prev && std::abs(at - prev_at) < prev_half + half + style_.px(horizontal ? 8 : 2)) return false;
        prev_at = at;
        prev_half = half;
        have_prev = true;
    }
    return true;
}

Plot::AxisTicks Plot::ticks_for(const AxisSetup& a, float pixels, bool horizontal) const {
    AxisTicks out{a.ticks, style_.px(style_.tick_font)};
    if (a.no_ticks) return out;
    const float min_font = std::min(out.font, std::max(style_.px(9), style_.px(style_.min_text)));
    auto count_labelled = [](const std::vector<Tick>& t) {
        return std::count_if(t.begin(), t.end(), [](const Tick& k) { return !k.label.empty(); });
    };
    auto make = [&](int target) {
        std::vector<Tick> t = a.log ? log_ticks(a.min, a.max, target) : linear_ticks(a.min, a.max, target);
        if (!a.integer_ticks) return t;
        std::vector<Tick> kept;
        for (const Tick& k : t)
            if (std::abs(k.value - std::round(k.value)) < 1e-9) kept.push_back(k);
        if (kept.size() < 3)  // a small range: label the whole numbers in it
            for (double v = std::ceil(a.min), step = std::max(1.0, std::ceil((a.max - a.min) / 4)); kept.size() < 3 && v <= a.max;
                 v += step)
                if (std::none_of(kept.begin(), kept.end(), [&](const Tick& k) { return k.value == v; })) kept.push_back({v, tick_label(v, 1)});
        std::sort(kept.begin(), kept.end(), [](const Tick& x, const Tick& y) { return x.value < y.value; });
        return kept;
    };
    int target = 0;
    if (out.ticks.empty()) {
        const float spacing = style_.px(horizontal ? (a.log ? 60.f : 90.f) : 48.f);
        target = std::max(3, static_cast<int>(pixels / spacing));
        out.ticks = make(target);
    }
    // A crowded axis: fewer ticks (never under three labelled ones), then the 2s and 5s of a log
    // axis unlabelled (never its decades), then smaller type.
    while (!ticks_fit(out.ticks, a, pixels, horizontal, out.font)) {
        if (target > 3 && !a.log) {
            std::vector<Tick> fewer = make(--target);
            if (count_labelled(fewer) >= 3) out.ticks = std::move(fewer);
            continue;
        }
        if (a.log && a.ticks.empty()) {
            bool thinned = false;
            for (Tick& t : out.ticks) {
                const double e = std::log10(t.value);
                if (!t.label.empty() && std::abs(e - std::round(e)) > 1e-9 && count_labelled(out.ticks) > 3) {
                    t.label.clear();
                    t.major = false;
                    thinned = true;
                }
            }
            if (thinned) continue;
        }
        if (out.font > min_font) {
            out.font = std::max(min_font, out.font * 0.9f);
            continue;
        }
        // too many labels even in the smallest type (a dozen decades on a short axis): every other
        // one, never fewer than three
        std::vector<Tick> every_other = out.ticks;
        std::size_t n = 0;
        for (Tick& t : every_other)
            if (!t.label.empty() && n++ % 2 == 1) t.label.clear();
        if (count_labelled(every_other) < 3 || count_labelled(every_other) == count_labelled(out.ticks)) {
            // three long labels on a short linear axis (six-digit positions): its two ends and its
            // middle, as far apart as they can be
            if (!a.log && a.ticks.empty()) {
                const double lo = a.integer_ticks ? std::ceil(a.min) : a.min, hi = a.integer_ticks ? std::floor(a.max) : a.max;
                const double mid = a.integer_ticks ? std::round((lo + hi) / 2) : (lo + hi) / 2;
                const double step = std::max(1e-300, (hi - lo) / 2);
                std::vector<Tick> spread{{lo, tick_label(lo, a.integer_ticks ? 1 : step)},
                                         {mid, tick_label(mid, a.integer_ticks ? 1 : step)},
                                         {hi, tick_label(hi, a.integer_ticks ? 1 : step)}};
                if (hi > lo && ticks_fit(spread, a, pixels, horizontal, out.font)) out.ticks = std::move(spread);
            } else if (a.log && a.ticks.empty() && a.max > a.min && a.min > 0) {
                // the ends and the middle in one format: three decades (powers of ten) when the
                // axis spans two or more, else three plain numbers
                const double e0 = std::ceil(std::log10(a.min) - 1e-9), e1 = std::floor(std::log10(a.max) + 1e-9);
                std::vector<Tick> spread;
                if (e1 - e0 >= 2) {
                    for (double e : {e0, std::round((e0 + e1) / 2), e1}) spread.push_back({std::pow(10.0, e), decade_label(std::pow(10.0, e))});
                } else {
                    const double lo = a.min, hi = a.max, mid = std::sqrt(lo * hi);
                    spread = {{lo, readout_number(lo, 2)}, {mid, readout_number(mid, 2)}, {hi, readout_number(hi, 2)}};
                }
                if (ticks_fit(spread, a, pixels, horizontal, out.font)) out.ticks = std::move(spread);
            }
            break;
        }
        out.ticks = std::move(every_other);
    }
    return out;
}

std::pair<std::string, float> Plot::fitted(const std::string& text, float size, float room, float smallest) const {
    smallest = std::min(size, std::max(smallest, style_.px(style_.min_text)));
    // the text a little smaller, then its short forms (plot/short_forms.hpp) the same, then each form
    // down to `smallest`; a word cut with "…" only when even the shortest form is too wide
    std::vector<std::string> forms{text};
    for (std::string& f : short_forms(text)) forms.push_back(std::move(f));
    auto shrunk = [&](const std::string& f, float floor) {
        // (measured again at each size: hinted type does not scale exactly)
        float s = size, wide = measure_.measure(f, s).x;
        while (wide > room && s > floor) {
            s = std::max(floor, s * std::max(0.8f, std::min(0.97f, room / wide)));
            wide = measure_.measure(f, s).x;
        }
        return std::pair{wide <= room, s};
    };
    for (const float floor : {std::max(smallest, size * 0.85f), smallest})
        for (const std::string& f : forms)
            if (const auto [fits, s] = shrunk(f, floor); fits) return {f, s};
    std::string out = forms.back();
    float wide = measure_.measure(out, smallest).x;
    for (std::string words = out; wide > room && words.rfind(' ') != std::string::npos;) {
        words = words.substr(0, words.rfind(' '));
        out = words + "…";
        wide = measure_.measure(out, smallest).x;
    }
    return {out, smallest};
}

void Plot::draw_title(float pad) {
    if (!titled()) return;
    // a title wider than its plot loses its "(aside)", then shrinks (to 10 px at scale 1, never below
    // the style's smallest text), then is cut at a word, rather than run into its neighbour
    const float size = style_.px(style_.title_font);
    const auto [title, fitted_size] = fitted(title_, size, outer_.width() - 2 * pad, std::min(size * 0.7f, style_.px(10)));
    list_.text({(outer_.x0 + outer_.x1) / 2, outer_.y0 + pad}, title, fitted_size, style_.theme.text, HAlign::center, VAlign::top);
}

Rect Plot::equal_units(Rect r) const {
    // equal units on both axes: shrink one side and centre it
    const double ux = (x_.max - x_.min) / r.width(), uy = (y_.max - y_.min) / r.height();
    if (ux > uy) {
        const float h = static_cast<float>((y_.max - y_.min) / ux), c = (r.y0 + r.y1) / 2;
        r.y0 = c - h / 2;
        r.y1 = c + h / 2;
    } else {
        const float w = static_cast<float>((x_.max - x_.min) / uy), c = (r.x0 + r.x1) / 2;
        r.x0 = c - w / 2;
        r.x1 = c + w / 2;
    }
    return r;
}

void Plot::widen_to_equal_units(const Rect& r, const AxisSetup& x_set, const AxisSetup& y_set) {
    x_ = x_set;
    y_ = y_set;
    if (r.width() <= 0 || r.height() <= 0) return;  // no room for a plot at all: nothing to fill
    // the side with fewer data units per pixel widens about its centre to the other's units
    const double ux = (x_.max - x_.min) / r.width(), uy = (y_.max - y_.min) / r.height();
    AxisSetup& widened = ux < uy ? x_ : y_;
    const double span = std::max(ux, uy) * (ux < uy ? r.width() : r.height()), centre = (widened.min + widened.max) / 2;
    widened.min = centre - span / 2;
    widened.max = centre + span / 2;
}

// A compact picture's x-axis label: this far under the plot area, just clear of its tick labels
// (font `tf`, which start where draw_axes puts them for a y-axis font of at most `tf`).
float Plot::compact_x_label_top(float tf) const {
    return std::max(style_.px(5) + style_.px(2), tf / 2 + style_.px(1.5f)) + tf + style_.px(1);
}

// The room left of the plot area: the vertical axis label and the widest tick label (of the ticks an
// area `height` pixels tall has).
float Plot::left_margin(float height) const {
    float widest = 0;
    const AxisTicks y_ticks = ticks_for(y_, height, false);
    for (const Tick& t : y_ticks.ticks) widest = std::max(widest, measure_.measure(t.label, y_ticks.font).x);
    const float y_label = y_.label.empty() ? 0 : style_.px(style_.label_font) * (style_.compact ? 1.25f : 1.4f);
    return y_label + widest + style_.px(style_.compact ? 6 : 8);
}

void Plot::layout() {
    if (locked_) return;
    locked_ = true;
    if (style_.pins) style_.pins->visit(pin_index_, x_, y_, has_bar_ ? &bar_ : nullptr);
    const float pad = style_.px(style_.compact ? 3 : 8);
    Rect r{outer_.x0 + pad, outer_.y0 + pad, outer_.x1 - pad, outer_.y1 - pad};
    if (titled()) r.y0 += style_.px(style_.title_font) * 1.5f;
    if (!legend_above_.empty()) {  // room for the legend (the plot's left margin is not known yet: guess it)
        legend_above_y_ = r.y0;
        const float rows_h = legend_above_height(r.width() - style_.px(70)), column = legend_column_width();
        const float row = style_.px(style_.tick_font) * 1.4f;
        legend_beside_ = rows_h > row * 1.5f + style_.px(4) && r.width() - column >= std::max(r.width() * 2 / 3, style_.px(200)) &&
                         row * static_cast<float>(legend_above_.size()) <= r.height() * 0.6f;
        // rows that would take a third of the plot's height: short names go at the lines' ends
        const float plot_h = r.height() - style_.px(style_.tick_font) * 1.5f - style_.px(style_.label_font) * 1.5f;
        float widest = 0;
        for (const std::string& l : legend_above_) widest = std::max(widest, measure_.measure(l, style_.px(style_.tick_font)).x);
        legend_direct_ = !legend_beside_ && axes_ && rows_h > plot_h / 3 && widest <= (r.width() - style_.px(70)) / 3;
        if (legend_beside_) {
            r.x1 -= column;
            legend_beside_x_ = r.x1 + style_.px(12);
        } else if (!legend_direct_) {
            r.y0 += rows_h;
        }
    }
    if (!axes_) {
        r.y0 += style_.px(2);
        if (square_) r = equal_units(r);
        area_ = r;
        list_.push_clip(area_);
        return;
    }
    // bottom: tick labels + axis label
    // (a compact picture's rows are as close as its texts allow: a phone's column needs the height for the data)
    const float tf = style_.px(style_.tick_font), lf = style_.px(style_.label_font);
    if (style_.compact) r.y1 -= compact_x_label_top(tf) + (x_.label.empty() ? 0 : lf * 1.15f);
    else r.y1 -= tf * 1.5f + (x_.label.empty() ? 0 : lf * 1.5f);
    r.y0 += style_.px(style_.compact ? 3 : 6);
    const float left = r.x0;
    r.x0 += left_margin(r.height());
    r.x1 -= style_.px(style_.compact ? 5 : 10);
    if (has_bar_) {
        float bar_widest = 0;
        std::vector<Tick> bt = bar_.ticks.empty() ? linear_ticks(bar_.vmin, bar_.vmax, 5) : bar_.ticks;
        for (const Tick& t : bt) bar_widest = std::max(bar_widest, measure_.measure(t.label, style_.px(style_.tick_font)).x);
        const bool fades = !bar_.fade_note.empty();
        const bool notes = !style_.compact;  // compact: the key's label and note are the readout's
        const float bar_w = style_.px(fades ? (notes ? 26 : 20) : 16);
        const float total = style_.px(notes ? 14 : 8) + bar_w + style_.px(6) + bar_widest +
                            (bar_.label.empty() || !notes ? 0 : style_.px(style_.label_font) * 1.5f) +
                            (fades && notes ? style_.px(style_.tick_font) * 1.4f : 0);
        r.x1 -= total;
        // a fading key keeps its "1 0 |mean|" scale under the bar above the x axis' tick labels
        const float key_h = fades && notes ? style_.px(style_.tick_font) * 2.4f + style_.px(4) : 0;
        const float gap = style_.px(notes ? 14 : 8);
        bar_rect_ = {r.x1 + gap, r.y0, r.x1 + gap + bar_w, std::max(r.y0 + style_.px(20), r.y1 - key_h)};
    }
    if (square_ && widen_range_) {
        const AxisSetup x_set = x_, y_set = y_;
        widen_to_equal_units(r, x_set, y_set);
        // a widened y range can have wider tick labels: make room for them, then widen again
        const float needed = left + left_margin(r.height());
        if (needed > r.x0) {
            r.x0 = needed;
            widen_to_equal_units(r, x_set, y_set);
        }
    } else if (square_) {
        r = equal_units(r);
    }
    area_ = r;
    if (style_.fill_plot_area) list_.rect(area_, style_.theme.plot_fill);
    draw_axes();
    if (has_bar_) draw_colorbar();
    list_.push_clip(area_);
}

const Rect& Plot::area() {
    layout();
    return area_;
}

float Plot::x_px(double x) {
    layout();
    return area_.x0 + static_cast<float>(axis_t(x_, x)) * area_.width();
}
float Plot::y_px(double y) {
    layout();
    return area_.y1 - static_cast<float>(axis_t(y_, y)) * area_.height();
}
Vec2 Plot::to_px(double x, double y) { return {x_px(x), y_px(y)}; }

double Plot::x_from_px(float px) {
    layout();
    const double t = (px - area_.x0) / area_.width();
    return x_.log ? std::exp(std::log(x_.min) + t * (std::log(x_.max) - std::log(x_.min))) : x_.min + t * (x_.max - x_.min);
}
double Plot::y_from_px(float py) {
    layout();
    const double t = (area_.y1 - py) / area_.height();
    return y_.log ? std::exp(std::log(y_.min) + t * (std::log(y_.max) - std::log(y_.min))) : y_.min + t * (y_.max - y_.min);
}

void Plot::draw_axes() {
    const Theme& th = style_.theme;
    const float tick_len = style_.px(5);
    const float tf = style_.px(style_.tick_font);
    // grid and ticks; an x label starts low enough to clear the lowest y label beside it
    const AxisTicks xt = ticks_for(x_, area_.width(), true), yt = ticks_for(y_, area_.height(), false);
    const float x_label_top = area_.y1 + std::max(tick_len + style_.px(2), yt.font / 2 + style_.px(1.5f));
    for (const Tick& t : xt.ticks) {
        const float px = std::round(area_.x0 + static_cast<float>(axis_t(x_, t.value)) * area_.width()) + 0.5f;
        if (px < area_.x0 - 1 || px > area_.x1 + 1) continue;
        if (t.major) list_.add(PolylineCmd{{{px, area_.y0}, {px, area_.y1}}, th.grid, style_.px(1), false, 0, Role::grid});
        list_.add(PolylineCmd{{{px, area_.y1}, {px, area_.y1 + (t.major ? tick_len : tick_len * 0.6f)}}, th.axis, style_.px(1), false, 0,
                              Role::axis});
        if (t.label.empty()) continue;
        // a wide label at an end of the axis moves in rather than leave the figure
        const float half = measure_.measure(t.label, xt.font).x / 2;
        const float at = std::max(outer_.x0 + half + 1, std::min(px, outer_.x1 - half - 1));
        list_.add(TextCmd{{at, x_label_top}, t.label, xt.font, th.muted, HAlign::center, VAlign::top, false, Role::tick_x});
    }
    float widest = 0;
    for (const Tick& t : yt.ticks) {
        const float py = std::round(area_.y1 - static_cast<float>(axis_t(y_, t.value)) * area_.height()) + 0.5f;
        if (py < area_.y0 - 1 || py > area_.y1 + 1) continue;
        if (t.major) list_.add(PolylineCmd{{{area_.x0, py}, {area_.x1, py}}, th.grid, style_.px(1), false, 0, Role::grid});
        list_.add(PolylineCmd{{{area_.x0 - tick_len, py}, {area_.x0, py}}, th.axis, style_.px(1), false, 0, Role::axis});
        if (!t.label.empty())
            list_.add(TextCmd{{area_.x0 - tick_len - style_.px(3), py}, t.label, yt.font, th.muted, HAlign::right, VAlign::middle, false,
                              Role::tick_y});
        widest = std::max(widest, measure_.measure(t.label, yt.font).x);
    }
    // axis labels centred on their axis, no longer than the plot's box allows on either side
    const float lf = style_.px(style_.label_font);
    // a long label shrinks a little before it is cut, never below the smallest text
    const float smallest_label = std::min(lf, std::max(lf * 0.8f, style_.px(style_.min_text)));
    if (!x_.label.empty()) {
        const float cx = (area_.x0 + area_.x1) / 2;
        const auto [label, size] = fitted(x_.label, lf, 2 * std::min(cx - outer_.x0, outer_.x1 - cx) - style_.px(4), smallest_label);
        const float top = style_.compact ? compact_x_label_top(tf) : tf * 1.5f + style_.px(4);
        list_.text({cx, area_.y1 + top}, label, size, th.text, HAlign::center, VAlign::top);
    }
    if (!y_.label.empty()) {
        const auto [label, size] = fitted(y_.label, lf, area_.height() + style_.px(12), smallest_label);
        list_.text({area_.x0 - tick_len - widest - style_.px(style_.compact ? 7 : 10), (area_.y0 + area_.y1) / 2}, label, size, th.text, HAlign::center,
                   VAlign::bottom, true);
    }
}

void Plot::draw_colorbar() {
    const Theme& th = style_.theme;
    // A fading bar is a key in two dimensions: the value up the bar, the weight (1 .. 0) across it.
    const bool fades = !bar_.fade_note.empty();
    const int cols = fades ? 8 : 1;
    std::vector<float> values(256 * static_cast<std::size_t>(cols)), weights;
    for (int i = 0; i < 256; ++i)
        for (int c = 0; c < cols; ++c)  // top = vmax
            values[i * cols + c] = static_cast<float>(bar_.vmax - (bar_.vmax - bar_.vmin) * (i + 0.5) / 256.0);
    if (fades) {
        weights.resize(values.size());
        for (int i = 0; i < 256; ++i)
            for (int c = 0; c < cols; ++c) weights[i * cols + c] = 1.0f - static_cast<float>(c) / (cols - 1);
    }
    list_.add(ImageCmd{bar_rect_, cols, 256, std::move(values), bar_.colormap, static_cast<float>(bar_.vmin),
                       static_cast<float>(bar_.vmax), std::move(weights)});
    list_.rect(bar_rect_, {0, 0, 0, 0}, th.axis, style_.px(1));
    float tf = style_.px(style_.tick_font);
    std::vector<Tick> ticks = bar_.ticks.empty() ? linear_ticks(bar_.vmin, bar_.vmax, 5) : bar_.ticks;
    // a short bar: smaller type, then every other label (the middle one kept), never fewer than three
    auto crowded = [&] {
        float prev = -1e9f;
        for (const Tick& t : ticks) {
            if (t.label.empty()) continue;
            const float py = static_cast<float>((t.value - bar_.vmin) / (bar_.vmax - bar_.vmin)) * bar_rect_.height();
            if (std::abs(py - prev) < tf + style_.px(2)) return true;
            prev = py;
        }
        return false;
    };
    while (crowded()) {
        if (tf > style_.px(style_.tick_font) * 0.8f && tf * 0.9f >= style_.px(style_.min_text)) {
            tf *= 0.9f;
            continue;
        }
        std::vector<Tick> thinned = ticks;
        const std::size_t middle = thinned.size() / 2;
        int kept = 0;
        for (std::size_t i = 0; i < thinned.size(); ++i) {
            if ((i % 2) != (middle % 2)) thinned[i].label.clear();
            kept += !thinned[i].label.empty();
        }
        if (kept < 3 || kept == static_cast<int>(std::count_if(ticks.begin(), ticks.end(), [](const Tick& t) { return !t.label.empty(); })))
            break;
        ticks = std::move(thinned);
    }
    float widest = 0;
    for (const Tick& t : ticks) {
        const float py = bar_rect_.y1 - static_cast<float>((t.value - bar_.vmin) / (bar_.vmax - bar_.vmin)) * bar_rect_.height();
        list_.segment({bar_rect_.x1, py}, {bar_rect_.x1 + style_.px(4), py}, th.axis, style_.px(1));
        if (!t.label.empty()) list_.text({bar_rect_.x1 + style_.px(6), py}, t.label, tf, th.muted, HAlign::left, VAlign::middle);
        widest = std::max(widest, measure_.measure(t.label, tf).x);
    }
    const float label_x = bar_rect_.x1 + style_.px(8) + widest + style_.px(6);
    // along the bar; a text longer than a short bar runs on down the key's column to the plot's
    // bottom edge (the column is the key's alone) rather than lose its words
    auto along_key = [&](const std::string& text, float size, Color colour, float x) {
        auto [fit, fit_size] = fitted(text, size, bar_rect_.height() + style_.px(8), size * 0.8f);
        float mid = (bar_rect_.y0 + bar_rect_.y1) / 2;
        if (fit != text) {
            const float column_y1 = outer_.y1 - style_.px(8);
            std::tie(fit, fit_size) = fitted(text, size, column_y1 - bar_rect_.y0, size * 0.8f);
            mid = (bar_rect_.y0 + column_y1) / 2;
        }
        list_.text({x, mid}, fit, fit_size, colour, HAlign::center, VAlign::top, true);
    };
    if (!bar_.label.empty() && !style_.compact) along_key(bar_.label, style_.px(style_.label_font), th.text, label_x);
    if (fades && !style_.compact) {
        // under the bar: its horizontal scale; beside the label: what the grey means
        list_.text({bar_rect_.x0, bar_rect_.y1 + style_.px(3)}, "1", tf, th.muted, HAlign::center, VAlign::top);
        list_.text({bar_rect_.x1, bar_rect_.y1 + style_.px(3)}, "0", tf, th.muted, HAlign::center, VAlign::top);
        list_.text({(bar_rect_.x0 + bar_rect_.x1) / 2, bar_rect_.y1 + style_.px(3) + tf * 1.2f}, "|mean|", tf, th.muted,
                   HAlign::center, VAlign::top);
        const float note_x = label_x + (bar_.label.empty() ? 0 : style_.px(style_.label_font) * 1.3f);
        if (!style_.compact) along_key(bar_.fade_note, tf, th.muted, note_x);
    }
}

void Plot::line(const double* xs, const double* ys, std::size_t count, std::size_t stride, Color color,
                const std::string& legend, float width, float dash) {
    layout();
    if (width < 0) width = style_.line_width;
    width = style_.px(width);
    std::vector<Vec2> pts;
    pts.reserve(std::min<std::size_t>(count, static_cast<std::size_t>(area_.width()) * 4 + 8));
    auto flush_points = [&] {
        if (pts.size() >= 2) list_.add(PolylineCmd{pts, color, width, false, style_.px(dash)});
        pts.clear();
    };
    // per-column state
    long column = LONG_MIN;
    Vec2 first{}, last{}, lo{}, hi{};
    int in_column = 0;
    // A column with many points becomes a band from its minimum to its maximum (one thin filled
    // rectangle) and the line runs on through its first and last points: the envelope is exact,
    // a million points cost what the plot's width does, and a noisy stretch costs its area once
    // instead of a zigzag of strokes painting it over and over.
    std::vector<Rect> bands;
    auto emit_column = [&] {
        if (in_column == 0) return;
        if (in_column >= 3 && lo.y - hi.y > width) {
            // dense: the band carries the envelope; the line runs through its middle, so it does
            // not zigzag across the band (software GL pays for every pixel such strokes repaint)
            const float x0 = std::floor(first.x);
            bands.push_back({x0 + 0.5f - width * 0.5f, hi.y - width * 0.5f, x0 + 0.5f + width * 0.5f, lo.y + width * 0.5f});
            pts.push_back({x0 + 0.5f, (hi.y + lo.y) * 0.5f});
        } else {
            pts.push_back(first);
            if (in_column >= 2) pts.push_back(last);
        }
        in_column = 0;
    };
    const double x_lo = std::min(x_.min, x_.max), x_hi = std::max(x_.min, x_.max);
    bool prev_outside_left = false;
    Vec2 prev_px{};
    bool have_prev = false;
    for (std::size_t i = 0; i < count; ++i) {
        const double x = xs ? xs[i * stride] : static_cast<double>(i);
        const double y = ys[i * stride];
        if (!std::isfinite(x) || !std::isfinite(y) || (x_.log && !(x > 0)) || (y_.log && !(y > 0))) {
            emit_column();
            flush_points();
            have_prev = false;
            continue;
        }
        const Vec2 p = to_px(x, y);
        if (x < x_lo) {  // cull, keeping the last point before the range so the line reaches the edge
            prev_outside_left = true;
            prev_px = p;
            have_prev = true;
            continue;
        }
        if (prev_outside_left && have_prev) {
            pts.push_back(prev_px);
            prev_outside_left = false;
        }
        const long col = static_cast<long>(std::floor(p.x));
        if (col != column) {
            emit_column();
            column = col;
            first = last = lo = hi = p;
            in_column = 1;
        } else {
            last = p;
            if (p.y < hi.y) hi = p;  // screen y grows downward: smaller y is a larger value
            if (p.y > lo.y) lo = p;
            ++in_column;
        }
        if (x > x_hi) break;  // one point past the range is enough
    }
    emit_column();
    flush_points();
    for (const Rect& r : bands) list_.rect(r, color);
    if (!legend.empty()) legend_.push_back({legend, color, width / style_.scale, dash});
    if (legend_direct_ && !legend.empty()) {
        // the last point inside the plot: its name goes there
        for (std::size_t i = count; i-- > 0;) {
            const double x = xs ? xs[i * stride] : static_cast<double>(i), y = ys[i * stride];
            if (!std::isfinite(y) || x < std::min(x_.min, x_.max) || x > std::max(x_.min, x_.max) || (x_.log && x <= 0) || (y_.log && y <= 0))
                continue;
            line_ends_.push_back({legend, to_px(x, std::clamp(y, std::min(y_.min, y_.max), std::max(y_.min, y_.max)))});
            break;
        }
    }
}

void Plot::heatmap(std::vector<float> values, int cols, int rows, double x0, double x1, double y0, double y1,
                   ColormapId colormap, float vmin, float vmax, std::vector<float> weights) {
    layout();
    if (style_.pins) style_.pins->visit_cells(pin_index_, heatmaps_++, colormap, vmin, vmax);
    Rect r{x_px(x0), y_px(y1), x_px(x1), y_px(y0)};
    list_.add(ImageCmd{r, cols, rows, std::move(values), colormap, vmin, vmax, std::move(weights)});
}

void Plot::vline(double x, Color color, const std::string& label, float width, float dash) {
    layout();
    const float px = x_px(x);
    list_.segment({px, area_.y0}, {px, area_.y1}, color, style_.px(width < 0 ? style_.line_width : width), style_.px(dash));
    if (!label.empty()) legend_.push_back({label, color, width < 0 ? style_.line_width : width, dash});
}

void Plot::hline(double y, Color color, const std::string& label, float width, float dash) {
    layout();
    const float py = y_px(y);
    list_.segment({area_.x0, py}, {area_.x1, py}, color, style_.px(width < 0 ? style_.line_width : width), style_.px(dash));
    if (!label.empty()) legend_.push_back({label, color, width < 0 ? style_.line_width : width, dash});
}

void Plot::marker_x(double x, Color color, const std::string& tag, float width, float dash) {
    layout();
    const float px = x_px(x);
    if (px < area_.x0 - 1 || px > area_.x1 + 1) return;
    list_.segment({px, area_.y0}, {px, area_.y1}, color, style_.px(width < 0 ? style_.line_width : width), style_.px(dash));
    if (!tag.empty()) annotations_.push_back({Annotation::Kind::tag_x, {px, area_.y0}, tag, color});
}

void Plot::marker_y(double y, Color color, const std::string& tag, float width, float dash) {
    layout();
    const float py = y_px(y);
    if (py < area_.y0 - 1 || py > area_.y1 + 1) return;
    list_.segment({area_.x0, py}, {area_.x1, py}, color, style_.px(width < 0 ? style_.line_width : width), style_.px(dash));
    if (!tag.empty()) annotations_.push_back({Annotation::Kind::tag_y, {area_.x1, py}, tag, color});
}

void Plot::band_x(double x0, double x1, Color fill) {
    layout();
    Rect r{std::max(area_.x0, x_px(x0)), area_.y0, std::min(area_.x1, x_px(x1)), area_.y1};
    if (r.x1 > r.x0) list_.rect(r, fill);
}

void Plot::text(double x, double y, std::string s, Color color, HAlign h, VAlign v, float size) {
    layout();
    text_px(to_px(x, y), std::move(s), color, h, v, size);
}

void Plot::text_px(Vec2 at, std::string s, Color color, HAlign h, VAlign v, float size) {
    layout();
    // leading and trailing spaces were a gap from the anchor: placement keeps its own gap
    const std::size_t first = s.find_first_not_of(' '), last = s.find_last_not_of(' ');
    if (first == std::string::npos) return;
    annotations_.push_back({Annotation::Kind::text, at, s.substr(first, last - first + 1), color, h, v,
                            style_.px(size < 0 ? style_.tick_font : size)});
}

void Plot::draw_at(LabelPlacer& placer, const Rect& box, Vec2 anchor, Color leader) {
    // a label moved away from what it names gets a thin line back to it
    const Vec2 near{std::clamp(anchor.x, box.x0, box.x1), std::clamp(anchor.y, box.y0, box.y1)};
    const float dx = anchor.x - near.x, dy = anchor.y - near.y;
    if (dx * dx + dy * dy > style_.px(14) * style_.px(14))
        list_.add(PolylineCmd{{near, anchor}, leader.with_alpha(0.8f), style_.px(1), false, 0, Role::leader});
    placer.add_box(box);
}

void Plot::place_tag(LabelPlacer& placer, const Annotation& a) {
    const float tf = style_.px(style_.tick_font), pad = style_.px(4), gap = style_.px(6);
    // the tag as given; without a trailing "(...)"; in smaller type
    struct Form {
        std::string text;
        float font;
    };
    std::vector<Form> forms{{a.text, tf}};
    const std::size_t paren = a.text.rfind(" (");
    if (paren != std::string::npos && paren > 0 && a.text.back() == ')') forms.push_back({a.text.substr(0, paren), tf});
    forms.push_back({forms.back().text, std::max(tf * 0.85f, std::min(tf, style_.px(style_.min_text)))});
    auto spots = [&](const Form& f, Vec2* anchor) {
        const Vec2 text = measure_.measure(f.text, f.font);
        const float w = text.x + 2 * pad, h = text.y + pad;
        std::vector<Rect> candidates;
        *anchor = a.at;
        if (a.kind == Annotation::Kind::tag_x) {  // beside a vertical line: top first, then down it, right then left
            for (float y = area_.y0 + gap; y + h <= area_.y1 - style_.px(2); y += h * 0.75f) {
                candidates.push_back({a.at.x + gap, y, a.at.x + gap + w, y + h});
                candidates.push_back({a.at.x - gap - w, y, a.at.x - gap, y + h});
            }
            anchor->y = area_.y0 + gap + h / 2;
        } else {  // on a horizontal line: right end first, above then below, then leftwards along it
            for (float x = area_.x1 - style_.px(8); x - w >= area_.x0 + style_.px(2); x -= w * 0.5f) {
                candidates.push_back({x - w, a.at.y - style_.px(5) - h, x, a.at.y - style_.px(5)});
                candidates.push_back({x - w, a.at.y + style_.px(5), x, a.at.y + style_.px(5) + h});
            }
            *anchor = {area_.x1 - style_.px(8) - w / 2, a.at.y};
        }
        if (candidates.empty()) candidates.push_back(aligned_box(*anchor, {w, h}, HAlign::center, VAlign::middle));
        return candidates;
    };
    auto draw = [&](const Rect& box, const Form& f) {
        const Vec2 on_line = a.kind == Annotation::Kind::tag_x ? Vec2{a.at.x, std::clamp((box.y0 + box.y1) / 2, area_.y0, area_.y1)}
                                                               : Vec2{std::clamp((box.x0 + box.x1) / 2, area_.x0, area_.x1), a.at.y};
        draw_at(placer, box, on_line, a.color);
        list_.rect(box, style_.theme.background.with_alpha(0.85f), a.color, style_.px(1.2f));
        list_.add(TextCmd{{box.x0 + pad, box.y0 + pad / 2}, f.text, f.font, style_.theme.text, HAlign::left, VAlign::top, false,
                          Role::annotation});
    };
    // beside its line in any form; else the nearest free spot with a leader; else the least bad spot
    Vec2 anchor;
    for (const Form& f : forms) {
        const std::vector<Rect> candidates = spots(f, &anchor);
        const int pick = placer.choose(candidates);
        if (pick >= 0 && placer.cost(candidates[static_cast<std::size_t>(pick)]) == 0)
            return draw(candidates[static_cast<std::size_t>(pick)], f);
    }
    for (const Form& f : forms) {
        const std::vector<Rect> candidates = spots(f, &anchor);
        Rect box;
        if (placer.nearest_free(anchor, {candidates.front().width(), candidates.front().height()}, &box)) return draw(box, f);
    }
    // no room inside: in the plot's title line, if it has one
    if (style_.draw_titles && !title_.empty()) {
        title_ += " · " + a.text;
        return;
    }
    // else just above the plot's frame, over the marker, if nothing is there
    if (a.kind == Annotation::Kind::tag_x) {
        const float pad_out = style_.px(4);
        LabelPlacer outside({outer_.x0 + pad_out, outer_.y0 + pad_out, outer_.x1 - pad_out, area_.y0});
        outside.add_list(list_, measure_);
        for (const Form& f : forms) {
            const Vec2 text = measure_.measure(f.text, f.font);
            const float w = text.x + 2 * pad, h = text.y + pad, y1 = area_.y0 - style_.px(1);
            std::vector<Rect> above;  // centred on the marker, then slid either way while it still covers it
            for (float k : {0.5f, 0.25f, 0.75f, 0.f, 1.f}) {
                const float x0 = std::clamp(a.at.x - k * w, outside.bounds().x0, outside.bounds().x1 - w);
                above.push_back({x0, y1 - h, x0 + w, y1});
            }
            const int pick = outside.choose(above);
            if (pick >= 0 && outside.cost(above[static_cast<std::size_t>(pick)]) == 0) return draw(above[static_cast<std::size_t>(pick)], f);
        }
    }
    // a compact picture (a phone's embed) leaves the tag out rather than draw it over other texts: the
    // readout says the same
    if (style_.compact) return;
    const std::vector<Rect> candidates = spots(forms.back(), &anchor);
    draw(candidates[static_cast<std::size_t>(std::max(0, placer.choose(candidates)))], forms.back());
}

void Plot::place_text(LabelPlacer& placer, Annotation a) {
    // wider than the plot: smaller type (down to 10 px at scale 1) rather than spill out of it
    Vec2 size = measure_.measure(a.text, a.size);
    const float room = area_.width() - style_.px(6);
    const float smallest = std::min(a.size, std::max(style_.px(10), style_.px(style_.min_text)));
    while (size.x > room && a.size > smallest) {
        a.size = std::max(smallest, a.size * std::max(0.8f, std::min(0.97f, room / size.x)));
        size = measure_.measure(a.text, a.size);
    }
    const float gap = style_.px(4);
    // one line, or two (split at the space nearest the middle) where one line finds no room
    std::vector<std::vector<std::string>> forms{{a.text}};
    std::size_t split = std::string::npos;
    for (std::size_t i = a.text.find(' '); i != std::string::npos; i = a.text.find(' ', i + 1))
        if (split == std::string::npos || std::abs(static_cast<long>(i) - static_cast<long>(a.text.size() / 2)) <
                                              std::abs(static_cast<long>(split) - static_cast<long>(a.text.size() / 2)))
            split = i;
    if (split != std::string::npos) forms.push_back({a.text.substr(0, split), a.text.substr(split + 1)});
    auto box_size = [&](const std::vector<std::string>& lines) {
        float w = 0;
        for (const std::string& l : lines) w = std::max(w, measure_.measure(l, a.size).x);
        return Vec2{w, a.size * (lines.size() == 1 ? 1.f : 2.2f)};
    };
    // as asked first, then around the anchor (kept inside the plot)
    auto spots = [&](Vec2 sz) {
        std::vector<Rect> candidates{aligned_box(a.at, sz, a.h, a.v)};
        for (HAlign h : {HAlign::left, HAlign::right, HAlign::center})
            for (VAlign v : {VAlign::bottom, VAlign::top, VAlign::middle}) {
                if (h == HAlign::center && v == VAlign::middle) continue;
                const Vec2 at{a.at.x + (h == HAlign::left ? gap : h == HAlign::right ? -gap : 0),
                              a.at.y + (v == VAlign::top ? gap : v == VAlign::bottom ? -gap : 0)};
                candidates.push_back(aligned_box(at, sz, h, v));
            }
        for (Rect& r : candidates) {
            const float dx = std::max(0.f, area_.x0 + 1 - r.x0) - std::max(0.f, r.x1 - area_.x1 + 1);
            const float dy = std::max(0.f, area_.y0 + 1 - r.y0) - std::max(0.f, r.y1 - area_.y1 + 1);
            r = {r.x0 + dx, r.y0 + dy, r.x1 + dx, r.y1 + dy};
        }
        return candidates;
    };
    auto draw = [&](const Rect& box, const std::vector<std::string>& lines) {
        draw_at(placer, box, a.at, a.color);
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const float x = a.h == HAlign::left ? box.x0 : a.h == HAlign::right ? box.x1 : (box.x0 + box.x1) / 2;
            list_.add(TextCmd{{x, box.y0 + static_cast<float>(i) * a.size * 1.2f}, lines[i], a.size, a.color, a.h, VAlign::top, false,
                              Role::annotation});
        }
    };
    for (const auto& lines : forms) {
        const std::vector<Rect> candidates = spots(box_size(lines));
        const int pick = placer.choose(candidates);
        if (pick >= 0 && placer.cost(candidates[static_cast<std::size_t>(pick)]) == 0) return draw(candidates[static_cast<std::size_t>(pick)], lines);
    }
    for (const auto& lines : forms) {
        Rect box;
        if (placer.nearest_free(a.at, box_size(lines), &box)) return draw(box, lines);
    }
    const std::vector<Rect> candidates = spots(box_size(forms.front()));
    draw(candidates[static_cast<std::size_t>(std::max(0, placer.choose(candidates)))], forms.front());
}

namespace {
// A legend box's candidate spots: the asked-for corner, the other corners, the middles of the sides.
std::vector<Rect> legend_spots(const Rect& area, float margin, float w, float h, bool left_first, bool bottom_first) {
    const float left = area.x0 + margin, right = area.x1 - margin - w, top = area.y0 + margin, bottom = area.y1 - margin - h;
    const float mid_x = (area.x0 + area.x1 - w) / 2, mid_y = (area.y0 + area.y1 - h) / 2;
    std::vector<Rect> spots;
    for (Vec2 c : {Vec2{left_first ? left : right, bottom_first ? bottom : top}, Vec2{right, top}, Vec2{left, top}, Vec2{right, bottom},
                   Vec2{left, bottom}, Vec2{mid_x, top}, Vec2{mid_x, bottom}, Vec2{left, mid_y}, Vec2{right, mid_y}})
        spots.push_back({c.x, c.y, c.x + w, c.y + h});
    return spots;
}
}  // namespace

bool Plot::find_spot(LabelPlacer& placer, const std::vector<Rect>& spots, Rect* box) const {
    const int pick = placer.choose(spots);
    if (pick >= 0 && placer.cost(spots[static_cast<std::size_t>(pick)]) == 0) {
        *box = spots[static_cast<std::size_t>(pick)];
        return true;
    }
    const Rect& first = spots.front();
    if (placer.nearest_free({(first.x0 + first.x1) / 2, (first.y0 + first.y1) / 2}, {first.width(), first.height()}, box)) return true;
    *box = spots[static_cast<std::size_t>(std::max(pick, 0))];
    return false;
}

void Plot::draw_legend_box(const Rect& box, const std::vector<LegendEntry>& entries, float tf, float row) {
    const Theme& th = style_.theme;
    const float sample = style_.px(26);
    list_.rect(box, th.background.with_alpha(0.88f), th.grid.with_alpha(0.5f), style_.px(1));
    float y = box.y0 + style_.px(4) + row / 2;
    for (const auto& e : entries) {
        list_.add(PolylineCmd{{{box.x0 + style_.px(7), y}, {box.x0 + style_.px(7) + sample, y}}, e.color, style_.px(e.width), false,
                              style_.px(e.dash), Role::legend});
        list_.add(TextCmd{{box.x0 + style_.px(7) + sample + style_.px(8), y}, e.label, tf, th.text, HAlign::left, VAlign::middle, false,
                          Role::legend});
        y += row;
    }
}

void Plot::place_legend(LabelPlacer& placer) {
    float tf = style_.px(style_.tick_font);
    const float sample = style_.px(26), margin = style_.px(8);
    float widest = 0;
    for (const auto& e : legend_) widest = std::max(widest, measure_.measure(e.label, tf).x);
    // a legend wider than its plot gets smaller type (down to 70%) rather than spill out of it
    const float room = area_.width() - style_.px(16) - sample - style_.px(22);
    if (widest > room && widest > 0) {
        const float k = std::max({0.7f, room / widest, std::min(1.0f, style_.px(style_.min_text) / tf)});
        tf *= k;
        widest *= k;
    }
    const float row = tf * 1.35f;
    auto entry_width = [&](float text) { return sample + style_.px(8) + text + style_.px(14); };
    const float w = entry_width(widest), h = row * static_cast<float>(legend_.size()) + style_.px(8);
    Rect box{};
    if (find_spot(placer, legend_spots(area_, margin, w, h, legend_left_, legend_bottom_), &box) || legend_.size() == 1) {
        placer.add_box(box);
        draw_legend_box(box, legend_, tf, row);
        return;
    }
    // no room for the whole box: each entry in a box of its own, wherever one is free; where none is
    // free of the data (a small picture), the spot that covers the least of it, clear of the entries
    // placed so far
    std::vector<Rect> placed;
    for (const LegendEntry& e : legend_) {
        const float ew = entry_width(measure_.measure(e.label, tf).x), eh = row + style_.px(8);
        const std::vector<Rect> spots = legend_spots(area_, margin, ew, eh, legend_left_, legend_bottom_);
        if (!find_spot(placer, spots, &box)) {
            float least = -1;
            for (const Rect& s : spots) {
                if (std::any_of(placed.begin(), placed.end(), [&](const Rect& p) { return overlaps(p, s); })) continue;
                const float cost = placer.cost(s);
                if (least < 0 || cost < least) least = cost, box = s;
            }
        }
        placed.push_back(box);
        placer.add_box(box);
        draw_legend_box(box, {e}, tf, row);
    }
}

namespace {
struct LegendFlow {
    std::vector<Vec2> at;  // each entry's top-left, relative to the first
    float height = 0;
};
// Entries side by side, wrapping to a new row where the next would not fit in `width`.
LegendFlow flow_legend(const std::vector<float>& widths, float width, float row) {
    LegendFlow f;
    float x = 0, y = 0;
    for (float w : widths) {
        if (x > 0 && x + w > width) {
            x = 0;
            y += row;
        }
        f.at.push_back({x, y});
        x += w;
    }
    f.height = widths.empty() ? 0 : y + row;
    return f;
}
}  // namespace

float Plot::legend_above_height(float width) const {
    const float tf = style_.px(style_.tick_font);
    std::vector<float> widths;
    for (const std::string& l : legend_above_) widths.push_back(style_.px(26 + 8 + 18) + measure_.measure(l, tf).x);
    return flow_legend(widths, width, tf * 1.4f).height + style_.px(4);
}

float Plot::legend_column_width() const {
    const float tf = style_.px(style_.tick_font);
    float widest = 0;
    for (const std::string& l : legend_above_) widest = std::max(widest, measure_.measure(l, tf).x);
    return style_.px(12 + 26 + 8) + widest + style_.px(4);
}

void Plot::draw_legend_above(std::vector<LegendEntry> entries) {
    const Theme& th = style_.theme;
    if (legend_beside_) {  // one entry a row, from the top of the plot down
        const float f = style_.px(style_.tick_font), row = f * 1.4f, sample = style_.px(26);
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const float x = legend_beside_x_, y = area_.y0 + row * (static_cast<float>(i) + 0.5f);
            list_.add(PolylineCmd{{{x, y}, {x + sample, y}}, entries[i].color, style_.px(entries[i].width), false, style_.px(entries[i].dash),
                                  Role::legend});
            list_.add(TextCmd{{x + sample + style_.px(8), y}, entries[i].label, f, th.text, HAlign::left, VAlign::middle, false, Role::legend});
        }
        return;
    }
    const float room_h = area_.y0 - style_.px(4) - legend_above_y_;
    const float sample = style_.px(26);
    // the rows were reserved before the plot's left margin was known: smaller type if they need more
    for (float tf = style_.px(style_.tick_font), k = 1; k >= 0.69f; k -= 0.1f) {
        const float f = std::max(tf * k, std::min(tf, style_.px(style_.min_text))), row = f * 1.4f;
        std::vector<float> widths;
        for (const LegendEntry& e : entries) widths.push_back(sample + style_.px(8 + 18) + measure_.measure(e.label, f).x);
        // rows from the plot's left edge, or further left where an entry would not fit otherwise
        const float widest = widths.empty() ? 0 : *std::max_element(widths.begin(), widths.end());
        const float x0 = std::max(outer_.x0 + style_.px(8), std::min(area_.x0, outer_.x1 - style_.px(8) - widest));
        const float room_w = outer_.x1 - style_.px(8) - x0;
        const LegendFlow flow = flow_legend(widths, room_w, row);
        if ((flow.height > room_h + 0.5f || widest > room_w) && k > 0.75f) continue;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const float x = x0 + flow.at[i].x, y = legend_above_y_ + flow.at[i].y + row / 2;
            list_.add(PolylineCmd{{{x, y}, {x + sample, y}}, entries[i].color, style_.px(entries[i].width), false,
                                  style_.px(entries[i].dash), Role::legend});
            list_.add(TextCmd{{x + sample + style_.px(8), y}, entries[i].label, f, th.text, HAlign::left, VAlign::middle, false,
                              Role::legend});
        }
        return;
    }
}

void Plot::finish() {
    if (finished_) return;
    layout();
    finished_ = true;
    list_.pop_clip();
    if (axes_) list_.add(RectCmd{area_, {0, 0, 0, 0}, style_.theme.axis, style_.px(style_.axis_width)});
    if (!legend_above_.empty()) {  // the entries named at setup go above the plot (or beside it), the rest inside
        std::vector<LegendEntry> above, inside;
        for (LegendEntry& e : legend_) {
            const bool named = std::find(legend_above_.begin(), legend_above_.end(), e.label) != legend_above_.end();
            const auto end = std::find_if(line_ends_.begin(), line_ends_.end(), [&](const auto& le) { return le.first == e.label; });
            if (legend_direct_ && named && end != line_ends_.end())  // named at its line's end (placed with the tags)
                annotations_.push_back({Annotation::Kind::text, end->second, e.label, e.color, HAlign::right, VAlign::bottom,
                                        style_.px(style_.tick_font)});
            else (named && !legend_direct_ ? above : inside).push_back(std::move(e));
        }
        draw_legend_above(std::move(above));
        legend_ = std::move(inside);
    }
    if (!legend_.empty() || !annotations_.empty()) place_labels();
    draw_title(style_.px(8));  // last: a tag with no room in the plot joins it
}

void Plot::place_labels() {
    // labels go inside the plot, clear of everything drawn so far and of each other
    const float inset = style_.px(2);
    LabelPlacer placer({area_.x0 + inset, area_.y0 + inset, area_.x1 - inset, area_.y1 - inset});
    placer.add_list(list_, measure_);
    for (const Rect& r : clear_) placer.add_box(r);
    if (!legend_.empty()) place_legend(placer);
    for (const Annotation& a : annotations_) {
        if (a.kind == Annotation::Kind::text) place_text(placer, a);
        else place_tag(placer, a);
    }
}

}  // namespace rope::plot
