#include "plot/plot.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "plot/colormap.hpp"

namespace rope::plot {

Plot::Plot(DisplayList& list, const TextMeasure& measure, const Style& style, Rect outer, std::string title)
    : list_(list), measure_(measure), style_(style), outer_(outer), title_(std::move(title)) {}

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

std::vector<Tick> Plot::ticks_for(const AxisSetup& a, float pixels, bool horizontal) const {
    if (!a.ticks.empty()) return a.ticks;
    const float spacing = style_.px(horizontal ? (a.log ? 60.f : 90.f) : 48.f);
    int target = std::max(2, static_cast<int>(pixels / spacing));
    std::vector<Tick> t = a.log ? log_ticks(a.min, a.max, target) : linear_ticks(a.min, a.max, target);
    // on a narrow horizontal axis, fewer ticks until their labels no longer touch (at worst the two ends)
    while (horizontal && t.size() > 2) {
        float widest = 0;
        for (const Tick& k : t) widest = std::max(widest, measure_.measure(k.label, style_.px(style_.tick_font)).x);
        if (pixels / static_cast<float>(t.size() - 1) >= widest + style_.px(10)) break;
        if (target > 2) {
            --target;
            t = a.log ? log_ticks(a.min, a.max, target) : linear_ticks(a.min, a.max, target);
        } else {
            const Tick first = t.front(), last = t.back();
            t = {first, last};
        }
    }
    if (a.integer_ticks) {
        std::vector<Tick> kept;
        for (const Tick& k : t)
            if (std::abs(k.value - std::round(k.value)) < 1e-9) kept.push_back(k);
        if (kept.empty()) {
            // a tiny range: label the whole numbers in it
            for (double v = std::ceil(a.min); v <= a.max; v += 1) kept.push_back({v, tick_label(v, 1)});
        }
        t = kept;
    }
    return t;
}

void Plot::draw_title(float pad) {
    if (!titled()) return;
    // a title wider than its plot shrinks (down to 70%) rather than run into its neighbour
    float size = style_.px(style_.title_font);
    const float room = outer_.width() - 2 * pad;
    const float wide = measure_.measure(title_, size).x;
    if (wide > room && wide > 0) size = std::max({size * 0.7f, size * room / wide, style_.px(style_.min_text)});
    list_.text({(outer_.x0 + outer_.x1) / 2, outer_.y0 + pad}, title_, size, style_.theme.text, HAlign::center, VAlign::top);
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

void Plot::layout() {
    if (locked_) return;
    locked_ = true;
    const float pad = style_.px(8);
    Rect r{outer_.x0 + pad, outer_.y0 + pad, outer_.x1 - pad, outer_.y1 - pad};
    if (titled()) r.y0 += style_.px(style_.title_font) * 1.5f;
    if (!axes_) {
        r.y0 += style_.px(2);
        if (square_) r = equal_units(r);
        area_ = r;
        draw_title(pad);
        list_.push_clip(area_);
        return;
    }
    // left: vertical axis label + widest tick label
    float widest = 0;
    for (const Tick& t : ticks_for(y_, r.height(), false))
        widest = std::max(widest, measure_.measure(t.label, style_.px(style_.tick_font)).x);
    const float y_label = y_.label.empty() ? 0 : style_.px(style_.label_font) * 1.4f;
    r.x0 += y_label + widest + style_.px(8);
    // bottom: tick labels + axis label
    r.y1 -= style_.px(style_.tick_font) * 1.5f + (x_.label.empty() ? 0 : style_.px(style_.label_font) * 1.5f);
    r.y0 += style_.px(6);
    r.x1 -= style_.px(10);
    if (has_bar_) {
        float bar_widest = 0;
        std::vector<Tick> bt = bar_.ticks.empty() ? linear_ticks(bar_.vmin, bar_.vmax, 5) : bar_.ticks;
        for (const Tick& t : bt) bar_widest = std::max(bar_widest, measure_.measure(t.label, style_.px(style_.tick_font)).x);
        const bool fades = !bar_.fade_note.empty();
        const float bar_w = style_.px(fades ? 26 : 16);
        const float total = style_.px(14) + bar_w + style_.px(6) + bar_widest +
                            (bar_.label.empty() ? 0 : style_.px(style_.label_font) * 1.5f) +
                            (fades ? style_.px(style_.tick_font) * 1.4f : 0);
        r.x1 -= total;
        bar_rect_ = {r.x1 + style_.px(14), r.y0, r.x1 + style_.px(14) + bar_w, r.y1};
    }
    if (square_) r = equal_units(r);
    area_ = r;
    draw_title(pad);
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
    // grid and ticks
    for (const Tick& t : ticks_for(x_, area_.width(), true)) {
        const float px = std::round(area_.x0 + static_cast<float>(axis_t(x_, t.value)) * area_.width()) + 0.5f;
        if (px < area_.x0 - 0.5f || px > area_.x1 + 0.5f) continue;
        if (t.major) list_.segment({px, area_.y0}, {px, area_.y1}, th.grid, style_.px(1));
        list_.segment({px, area_.y1}, {px, area_.y1 + (t.major ? tick_len : tick_len * 0.6f)}, th.axis, style_.px(1));
        if (!t.label.empty())
            list_.text({px, area_.y1 + tick_len + style_.px(2)}, t.label, tf, th.muted, HAlign::center, VAlign::top);
    }
    for (const Tick& t : ticks_for(y_, area_.height(), false)) {
        const float py = std::round(area_.y1 - static_cast<float>(axis_t(y_, t.value)) * area_.height()) + 0.5f;
        if (py < area_.y0 - 0.5f || py > area_.y1 + 0.5f) continue;
        if (t.major) list_.segment({area_.x0, py}, {area_.x1, py}, th.grid, style_.px(1));
        list_.segment({area_.x0 - tick_len, py}, {area_.x0, py}, th.axis, style_.px(1));
        if (!t.label.empty())
            list_.text({area_.x0 - tick_len - style_.px(3), py}, t.label, tf, th.muted, HAlign::right, VAlign::middle);
    }
    if (!x_.label.empty())
        list_.text({(area_.x0 + area_.x1) / 2, area_.y1 + tf * 1.5f + style_.px(4)}, x_.label,
                   style_.px(style_.label_font), th.text, HAlign::center, VAlign::top);
    if (!y_.label.empty()) {
        float widest = 0;
        for (const Tick& t : ticks_for(y_, area_.height(), false))
            widest = std::max(widest, measure_.measure(t.label, tf).x);
        list_.text({area_.x0 - tick_len - widest - style_.px(10), (area_.y0 + area_.y1) / 2}, y_.label,
                   style_.px(style_.label_font), th.text, HAlign::center, VAlign::bottom, true);
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
    const float tf = style_.px(style_.tick_font);
    std::vector<Tick> ticks = bar_.ticks.empty() ? linear_ticks(bar_.vmin, bar_.vmax, 5) : bar_.ticks;
    float widest = 0;
    for (const Tick& t : ticks) {
        const float py = bar_rect_.y1 - static_cast<float>((t.value - bar_.vmin) / (bar_.vmax - bar_.vmin)) * bar_rect_.height();
        list_.segment({bar_rect_.x1, py}, {bar_rect_.x1 + style_.px(4), py}, th.axis, style_.px(1));
        list_.text({bar_rect_.x1 + style_.px(6), py}, t.label, tf, th.muted, HAlign::left, VAlign::middle);
        widest = std::max(widest, measure_.measure(t.label, tf).x);
    }
    const float label_x = bar_rect_.x1 + style_.px(8) + widest + style_.px(6);
    if (!bar_.label.empty())
        list_.text({label_x, (bar_rect_.y0 + bar_rect_.y1) / 2}, bar_.label, style_.px(style_.label_font), th.text,
                   HAlign::center, VAlign::top, true);
    if (fades) {
        // under the bar: its horizontal scale; beside the label: what the grey means
        list_.text({bar_rect_.x0, bar_rect_.y1 + style_.px(3)}, "1", tf, th.muted, HAlign::center, VAlign::top);
        list_.text({bar_rect_.x1, bar_rect_.y1 + style_.px(3)}, "0", tf, th.muted, HAlign::center, VAlign::top);
        list_.text({(bar_rect_.x0 + bar_rect_.x1) / 2, bar_rect_.y1 + style_.px(3) + tf * 1.2f}, "|mean|", tf, th.muted,
                   HAlign::center, VAlign::top);
        const float note_x = label_x + (bar_.label.empty() ? 0 : style_.px(style_.label_font) * 1.3f);
        list_.text({note_x, (bar_rect_.y0 + bar_rect_.y1) / 2}, bar_.fade_note, tf, th.muted, HAlign::center, VAlign::top, true);
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
}

void Plot::heatmap(std::vector<float> values, int cols, int rows, double x0, double x1, double y0, double y1,
                   ColormapId colormap, float vmin, float vmax, std::vector<float> weights) {
    layout();
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

namespace {
void tag_box(DisplayList& list, const TextMeasure& measure, const Style& st, Vec2 at, const std::string& tag, Color color,
             HAlign h, VAlign v) {
    const float tf = st.px(st.tick_font);
    const Vec2 size = measure.measure(tag, tf);
    const float pad = st.px(4);
    float x0 = h == HAlign::left ? at.x : h == HAlign::center ? at.x - size.x / 2 : at.x - size.x;
    float y0 = v == VAlign::top ? at.y : v == VAlign::middle ? at.y - size.y / 2 : at.y - size.y;
    list.rect({x0 - pad, y0 - pad * 0.5f, x0 + size.x + pad, y0 + size.y + pad * 0.5f}, st.theme.background.with_alpha(0.85f),
              color, st.px(1.2f));
    list.text({x0, y0}, tag, tf, st.theme.text);
}
}  // namespace

void Plot::marker_x(double x, Color color, const std::string& tag, float width, float dash) {
    layout();
    const float px = x_px(x);
    if (px < area_.x0 - 1 || px > area_.x1 + 1) return;
    list_.segment({px, area_.y0}, {px, area_.y1}, color, style_.px(width < 0 ? style_.line_width : width), style_.px(dash));
    if (tag.empty()) return;
    const float w = measure_.measure(tag, style_.px(style_.tick_font)).x;
    const bool right = px + w + style_.px(12) < area_.x1;
    float tag_x = px + (right ? style_.px(6) : -style_.px(6));
    // keep the whole tag inside the plot even when the line is near an edge of a narrow plot
    if (!right) tag_x = std::max(tag_x, area_.x0 + w + style_.px(6));
    tag_box(list_, measure_, style_, {tag_x, area_.y0 + style_.px(6)}, tag, color, right ? HAlign::left : HAlign::right,
            VAlign::top);
}

void Plot::marker_y(double y, Color color, const std::string& tag, float width, float dash) {
    layout();
    const float py = y_px(y);
    if (py < area_.y0 - 1 || py > area_.y1 + 1) return;
    list_.segment({area_.x0, py}, {area_.x1, py}, color, style_.px(width < 0 ? style_.line_width : width), style_.px(dash));
    if (tag.empty()) return;
    const bool above = py - style_.px(style_.tick_font) * 1.6f > area_.y0;
    tag_box(list_, measure_, style_, {area_.x1 - style_.px(8), py + (above ? -style_.px(5) : style_.px(5))}, tag, color,
            HAlign::right, above ? VAlign::bottom : VAlign::top);
}

void Plot::band_x(double x0, double x1, Color fill) {
    layout();
    Rect r{std::max(area_.x0, x_px(x0)), area_.y0, std::min(area_.x1, x_px(x1)), area_.y1};
    if (r.x1 > r.x0) list_.rect(r, fill);
}

void Plot::text(double x, double y, std::string s, Color color, HAlign h, VAlign v, float size) {
    layout();
    list_.text(to_px(x, y), std::move(s), style_.px(size < 0 ? style_.tick_font : size), color, h, v);
}

void Plot::finish() {
    if (finished_) return;
    layout();
    finished_ = true;
    list_.pop_clip();
    const Theme& th = style_.theme;
    if (axes_) list_.rect(area_, {0, 0, 0, 0}, th.axis, style_.px(style_.axis_width));
    if (legend_.empty()) return;
    float tf = style_.px(style_.tick_font);
    const float sample = style_.px(26);
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
    const float w = sample + style_.px(8) + widest + style_.px(14);
    const float h = row * static_cast<float>(legend_.size()) + style_.px(8);
    const float x0 = legend_left_ ? area_.x0 + style_.px(8) : area_.x1 - w - style_.px(8);
    const float y0 = legend_bottom_ ? area_.y1 - style_.px(8) - h : area_.y0 + style_.px(8);
    Rect box{x0, y0, x0 + w, y0 + h};
    list_.rect(box, th.background.with_alpha(0.88f), th.grid.with_alpha(0.5f), style_.px(1));
    float y = box.y0 + style_.px(4) + row / 2;
    for (const auto& e : legend_) {
        list_.segment({box.x0 + style_.px(7), y}, {box.x0 + style_.px(7) + sample, y}, e.color, style_.px(e.width),
                      style_.px(e.dash));
        list_.text({box.x0 + style_.px(7) + sample + style_.px(8), y}, e.label, tf, th.text, HAlign::left, VAlign::middle);
        y += row;
    }
}

}  // namespace rope::plot
