// Internal: small helpers the four "why it works" figures share (scores, pairing, precision,
// sinusoidal): the figure title, the sub-plot style, one-line captions that shrink to fit, and the
// q, k those panels use.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "figures/build_context.hpp"
#include "plot/text_wrap.hpp"
#include "plot/ticks.hpp"
#include "rope/config.hpp"
#include "rope/frequencies.hpp"

namespace rope::figures::detail::why {

// Draws the figure's title (when the style draws titles) and returns the height it takes.
inline float title_space(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    if (!st.draw_titles) return 0;
    ctx.result.list.text({ctx.request.width / 2, st.px(6)}, ctx.title(),
                         st.px(st.title_font), st.theme.text, plot::HAlign::center, plot::VAlign::top);
    return st.px(st.title_font) * 1.4f;
}

// The style of a figure's sub-plots: smaller captions, always drawn (several plots need them).
inline plot::Style sub_style(const plot::Style& st) {
    plot::Style sub = st;
    sub.title_font = st.title_font * 0.8f;
    sub.draw_titles = true;
    return sub;
}

// Font size at which `text` fits in `width` (down to 70% of `size`).
inline float fitted_size(const plot::TextMeasure& measure, const std::string& text, float size, float width, float smallest) {
    const float w = measure.measure(text, size).x;
    if (w > width && w > 0) return std::min(size, std::max({size * 0.7f, size * width / w, smallest}));
    return size;
}

// A caption line centred in [x0, x1] with its bottom at `bottom`; returns the height it takes.
inline float caption(BuildContext& ctx, const std::string& text, float x0, float x1, float bottom, plot::Color color) {
    const plot::Style& st = ctx.request.style;
    const float size = fitted_size(ctx.measure, text, st.px(st.tick_font), x1 - x0 - st.px(8), st.px(st.min_text));
    ctx.result.list.text({(x0 + x1) / 2, bottom}, text, size, color, plot::HAlign::center, plot::VAlign::bottom);
    return size * 1.35f;
}

// Greedy word wrap at spaces (the plot layer's, shared with the app's windows).
using plot::wrap_words;

// A caption wrapped into lines, centred in [x0, x1], its last line's bottom at `bottom`. With
// draw = false it only measures. Returns the height it takes.
inline float wrapped_caption(BuildContext& ctx, const std::string& text, float x0, float x1, float bottom, plot::Color color,
                             bool draw = true) {
    const plot::Style& st = ctx.request.style;
    const float size = st.px(st.tick_font);
    const std::vector<std::string> lines = wrap_words(ctx.measure, text, size, x1 - x0 - st.px(12));
    const float line_h = size * 1.35f;
    if (draw)
        for (std::size_t i = 0; i < lines.size(); ++i)
            ctx.result.list.text({(x0 + x1) / 2, bottom - line_h * static_cast<float>(lines.size() - 1 - i)}, lines[i], size,
                                 color, plot::HAlign::center, plot::VAlign::bottom);
    return line_h * static_cast<float>(lines.size());
}

// The first of `titles` that a sub-plot `width` wide can show (Plot shrinks titles to 70%).
inline std::string pick_title(BuildContext& ctx, const plot::Style& sub, float width, std::vector<std::string> titles) {
    // choose a shorter one before the type gets small (and never count on type under the smallest allowed)
    const float size = std::max(sub.px(sub.title_font) * 0.85f, std::min(sub.px(sub.title_font), sub.px(sub.min_text)));
    for (const std::string& t : titles)
        if (ctx.measure.measure(t, size).x <= width - sub.px(16)) return t;
    return titles.back();
}

// A legend as centred rows of entries (a figure's shared series), its last row's bottom at `bottom`;
// the type shrinks (down to 70%, never below the style's smallest text) to fit one row, and entries
// that still do not fit go on more rows. Returns the height it takes.
inline float legend_row(BuildContext& ctx, const std::vector<plot::LegendEntry>& entries, float x0, float x1, float bottom) {
    const plot::Style& st = ctx.request.style;
    float size = st.px(st.tick_font);
    // (a phone's column: shorter samples, closer entries, so that the row stays one row)
    const float sample = st.px(st.compact ? 16 : 24), inner = st.px(st.compact ? 4 : 6), between = st.px(st.compact ? 10 : 18);
    auto width_of = [&](const plot::LegendEntry& e, float sz) { return sample + inner + ctx.measure.measure(e.label, sz).x; };
    auto total = [&](float sz) {
        float w = 0;
        for (const auto& e : entries) w += width_of(e, sz);
        return w + between * static_cast<float>(entries.size() - 1);
    };
    const float room = x1 - x0 - st.px(8);
    const float wide = total(size);
    if (wide > room && wide > 0) size = std::min(size, std::max({size * 0.7f, size * room / wide, st.px(st.min_text)}));
    // still too wide in the smaller type: more rows, each centred, the last one at `bottom`
    std::vector<std::vector<const plot::LegendEntry*>> rows(1);
    float used = 0;
    for (const auto& e : entries) {
        const float w = width_of(e, size);
        if (!rows.back().empty() && used + between + w > room) {
            rows.emplace_back();
            used = 0;
        }
        used += (rows.back().empty() ? 0 : between) + w;
        rows.back().push_back(&e);
    }
    const float row_h = size * 1.4f;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        float row_w = between * static_cast<float>(rows[r].size() - 1);
        for (const plot::LegendEntry* e : rows[r]) row_w += width_of(*e, size);
        float x = std::max(x0 + st.px(4), (x0 + x1 - row_w) / 2);
        const float y = bottom - size * 0.7f - row_h * static_cast<float>(rows.size() - 1 - r);
        for (const plot::LegendEntry* e : rows[r]) {
            ctx.result.list.add(plot::PolylineCmd{{{x, y}, {x + sample, y}}, e->color, st.px(e->width), false, st.px(e->dash),
                                                  plot::Role::legend});
            x += sample + inner;
            ctx.result.list.text({x, y}, e->label, size, st.theme.text, plot::HAlign::left, plot::VAlign::middle);
            x += ctx.measure.measure(e->label, size).x + between;
        }
    }
    return row_h * static_cast<float>(rows.size());
}

// A spread or drift for people: "≈ 0" when it is rounding noise next to `scale`.
inline std::string spread_text(double value, double scale) {
    return value <= 1e-9 * std::max(std::abs(scale), 1e-300) ? "≈ 0" : plot::readout_number(value, 3);
}

// A half-ellipse from xa to xb at baseline y, bulging up (dir = -1) or down (+1), as `segments` lines:
// the arc that joins the two dims of a pair.
inline void pair_arc(plot::DisplayList& list, float xa, float xb, float y, float height, float dir, plot::Color c, float width,
                     int segments) {
    std::vector<plot::Vec2> pts;
    const float cx = (xa + xb) / 2, rx = std::abs(xb - xa) / 2;
    for (int i = 0; i <= segments; ++i) {
        const double a = kPi * i / segments;
        pts.push_back({cx - rx * static_cast<float>(std::cos(a)), y + dir * height * static_cast<float>(std::sin(a))});
    }
    list.line(std::move(pts), c, width);
}

inline Pairing other_layout(Pairing p) { return p == Pairing::interleaved ? Pairing::half : Pairing::interleaved; }
inline std::string layout_name(Pairing p) { return p == Pairing::interleaved ? "interleaved" : "half-split"; }

// q and k of these panels: the `vector` and `key_vector` parameters (all ones, and k = q, unless
// set), as on the vectors panel, so the score is the one its q-k view reads out.
inline Eigen::VectorXd as_eigen(const std::vector<double>& v) {
    return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}
inline Eigen::VectorXd q_vector(const ParamSet& params) { return as_eigen(params.vector()); }
inline Eigen::VectorXd k_vector(const ParamSet& params) { return as_eigen(params.key_vector()); }
inline std::string qk_text(const ParamSet& params) {
    return params.has(P::key_vector) ? "q = the vector x, k = the key vector" : "q = k = the vector x";
}

}  // namespace rope::figures::detail::why
