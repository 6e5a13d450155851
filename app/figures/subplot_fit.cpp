#include "figures/subplot_fit.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "figures/why_common.hpp"

namespace rope::figures::detail {


namespace {

bool large_enough(const plot::Rect& r, plot::Vec2 min) { return r.width() >= min.x - 0.5f && r.height() >= min.y - 0.5f; }


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

namespace {

// The plots' order when not all fit: the ones the lesson step's focus names first, then by rank.
std::vector<int> fit_order(const BuildContext& ctx, int count) {
    const auto& plots = ctx.figure().plots;
    std::vector<int> by_rank(static_cast<std::size_t>(count));
    for (int k = 0; k < count; ++k) by_rank[static_cast<std::size_t>(k)] = k;
    std::stable_sort(by_rank.begin(), by_rank.end(),
                     [&](int a, int b) { return plots[static_cast<std::size_t>(a)].rank < plots[static_cast<std::size_t>(b)].rank; });
    std::vector<int> order;
    const std::string focus = "," + ctx.request.style.focus + ",";
    for (int k : by_rank)
        if (focus.find("," + std::string(plots[static_cast<std::size_t>(k)].name) + ",") != std::string::npos) order.push_back(k);
    for (int k : by_rank)
        if (std::find(order.begin(), order.end(), k) == order.end()) order.push_back(k);
    return order;
}

}  // namespace

SubplotFit fit_plots(BuildContext& ctx, plot::Rect area, const std::vector<plot::Rect>& own, plot::Vec2 min_px) {
    const plot::Style& st = ctx.request.style;
    const auto& plots = ctx.figure().plots;
    auto min_of = [&](int k) {
        const PlotDescriptor& d = plots[static_cast<std::size_t>(k)];
        return min_px.x > 0 && min_px.y > 0 ? min_px : plot::Vec2{st.px(d.min_size.x), st.px(d.min_size.y)};
    };
    auto key_of = [&](int k) { return st.px(plots[static_cast<std::size_t>(k)].key_width); };
    SubplotFit fit;
    fit.cells = own;
    fit.shown = static_cast<int>(own.size());
    bool own_fits = true;
    for (int k = 0; k < fit.shown; ++k) own_fits = own_fits && large_enough(own[static_cast<std::size_t>(k)], {min_of(k).x + key_of(k), min_of(k).y});
    if (own_fits) return fit;

    const std::vector<int> order = fit_order(ctx, fit.shown);
    // all of them in a plain grid if that fits; else as many as fit above a note saying so
    plot::Rect room = area;
    // the cells of a grid are alike: each as wide and tall as the largest need of the plots in it
    auto need = [&](int count) {
        plot::Vec2 n{0, 0};
        for (int i = 0; i < count; ++i) {
            const int k = order[static_cast<std::size_t>(i)];
            n.x = std::max(n.x, min_of(k).x + key_of(k));
            n.y = std::max(n.y, min_of(k).y);
        }
        return n;
    };
    auto max_cols = [&](int count) {
        for (int i = 0; i < count; ++i)
            if (plots[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])].full_width) return 1;
        return 0;
    };
    int cols = 1, rows = 1, count = static_cast<int>(order.size());
    if (!best_grid(count, room, need(count), max_cols(count), cols, rows)) {
        room.y1 -= st.px(st.tick_font) * 1.7f;
        while (count > 1 && !best_grid(count, room, need(count), max_cols(count), cols, rows)) --count;
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
