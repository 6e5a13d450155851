#include "figures/subplot_fit.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "figures/why_common.hpp"

namespace rope::figures::detail {

plot::Vec2 min_subplot_cell(const plot::Style& st) {
    // caption, tick labels and axis label take about 95 px of height and 90 px of width at scale 1;
    // what is left must still show a curve's shape (a smaller cell gave plots 30 px tall)
    return {st.px(240), st.px(200)};
}

namespace {

bool large_enough(const plot::Rect& r, plot::Vec2 min) { return r.width() >= min.x - 0.5f && r.height() >= min.y - 0.5f; }

float extra_width(const std::vector<float>& wider, int plot, const plot::Style& st) {
    return static_cast<std::size_t>(plot) < wider.size() ? st.px(wider[static_cast<std::size_t>(plot)]) : 0.0f;
}

// The grid (columns x rows) that gives `count` cells the most room in `area`, if any holds `min`.
bool best_grid(int count, plot::Rect area, plot::Vec2 min, int max_cols, int& cols_out, int& rows_out) {
    float best = 0;
    for (int cols = 1; cols <= (max_cols > 0 ? std::min(count, max_cols) : count); ++cols) {
        const int rows = (count + cols - 1) / cols;
        const float w = area.width() / static_cast<float>(cols), h = area.height() / static_cast<float>(rows);
        if (w < min.x || h < min.y) continue;
        const float room = std::min(w / min.x, h / min.y);
        if (room > best) {
            best = room;
            cols_out = cols;
            rows_out = rows;
        }
    }
    return best > 0;
}

std::string left_out_note(const BuildContext& ctx, int shown, int total, float width) {
    const std::string n = std::to_string(shown) + " of " + std::to_string(total) + " plots";
    const std::string key = std::to_string(ctx.figure().index + 1);
    const plot::Style& st = ctx.request.style;
    for (const std::string& note : {n + " at this size: maximise the panel (" + key + "), a larger window or export shows all",
                                    n + ": maximise (" + key + ") or export for all", n + " (" + key + ": all)"}) {
        if (ctx.measure.measure(note, st.px(st.tick_font)).x <= width) return note;
    }
    return n;
}

}  // namespace

SubplotFit fit_subplots(BuildContext& ctx, plot::Rect area, const std::vector<plot::Rect>& own, const std::vector<int>& priority,
                        plot::Vec2 min, int max_cols, const std::vector<float>& wider) {
    const plot::Style& st = ctx.request.style;
    if (min.x <= 0 || min.y <= 0) min = min_subplot_cell(st);
    SubplotFit fit;
    fit.cells = own;
    fit.shown = static_cast<int>(own.size());
    bool own_fits = true;
    for (std::size_t k = 0; k < own.size(); ++k)
        own_fits = own_fits && large_enough(own[k], {min.x + extra_width(wider, static_cast<int>(k), st), min.y});
    if (own_fits) return fit;

    // the plots a lesson step speaks of first
    std::vector<int> order;
    const auto& names = ctx.figure().plots;
    const std::string focus = "," + st.focus + ",";
    for (int k : priority)
        if (static_cast<std::size_t>(k) < names.size() && focus.find("," + std::string(names[static_cast<std::size_t>(k)]) + ",") != std::string::npos)
            order.push_back(k);
    for (int k : priority)
        if (std::find(order.begin(), order.end(), k) == order.end()) order.push_back(k);
    // all of them in a plain grid if that fits; else as many as fit above a note saying so
    plot::Rect room = area;
    // the cells of a grid are alike: each as wide as the widest need of the plots in it
    auto need = [&](int count) {
        float extra = 0;
        for (int k = 0; k < count; ++k) extra = std::max(extra, extra_width(wider, order[static_cast<std::size_t>(k)], st));
        return plot::Vec2{min.x + extra, min.y};
    };
    int cols = 1, rows = 1, count = static_cast<int>(order.size());
    if (!best_grid(count, room, need(count), max_cols, cols, rows)) {
        room.y1 -= st.px(st.tick_font) * 1.7f;
        while (count > 1 && !best_grid(count, room, need(count), max_cols, cols, rows)) --count;
    }
    if (count == 1) cols = rows = 1;  // one plot, however small: the figure's most important one
    for (plot::Rect& r : fit.cells) r = {};
    const float w = room.width() / static_cast<float>(cols), h = room.height() / static_cast<float>(rows);
    for (int k = 0; k < count; ++k) {
        const float x0 = room.x0 + w * static_cast<float>(k % cols), y0 = room.y0 + h * static_cast<float>(k / cols);
        fit.cells[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = {x0, y0, x0 + w, y0 + h};
    }
    fit.shown = count;
    if (fit.all()) return fit;
    const float note_h = area.y1 - room.y1;
    const std::string note = left_out_note(ctx, count, static_cast<int>(own.size()), area.width() - st.px(8));
    ctx.result.list.text({(area.x0 + area.x1) / 2, area.y1 - note_h / 2}, note, st.px(st.tick_font), st.theme.muted,
                         plot::HAlign::center, plot::VAlign::middle);
    return fit;
}

void centred_note(BuildContext& ctx, plot::Rect area, const std::string& text) {
    const plot::Style& st = ctx.request.style;
    const float size = st.px(st.tick_font), width = std::max(st.px(60), area.width() - st.px(40));
    const std::vector<std::string> lines = why::wrap_words(ctx.measure, text, size, width);
    float widest = 0;
    for (const std::string& l : lines) widest = std::max(widest, ctx.measure.measure(l, size).x);
    const float row = size * 1.35f, h = row * static_cast<float>(lines.size());
    const float cx = (area.x0 + area.x1) / 2, y0 = (area.y0 + area.y1) / 2 - h / 2;
    ctx.result.list.rect({cx - widest / 2 - st.px(10), y0 - st.px(8), cx + widest / 2 + st.px(10), y0 + h + st.px(8)},
                         st.theme.background.with_alpha(0.92f), st.theme.grid, st.px(1));
    for (std::size_t i = 0; i < lines.size(); ++i)
        ctx.result.list.text({cx, y0 + row * static_cast<float>(i)}, lines[i], size, st.theme.text, plot::HAlign::center,
                             plot::VAlign::top);
}

}  // namespace rope::figures::detail
