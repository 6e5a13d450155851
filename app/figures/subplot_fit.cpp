#include "figures/subplot_fit.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "figures/why_common.hpp"

namespace rope::figures::detail {


namespace {

bool large_enough(const plot::Rect& r, plot::Vec2 min) { return r.width() >= min.x - 0.5f && r.height() >= min.y - 0.5f; }

std::string left_out_note(const BuildContext& ctx, int shown, int total, float width) {
    const std::string n = std::to_string(shown) + " of " + std::to_string(total) + " plots";
    const std::string key = std::to_string(ctx.figure().index + 1);
    const plot::Style& st = ctx.request.style;
    // the room's picture and a touch screen: about the picture alone (no keys, nothing to do)
    const bool about_the_picture = st.presenting || (ctx.request.interactive && !ctx.request.key_hints);
    const std::vector<std::string> notes =
        about_the_picture ? std::vector<std::string>{n + " at this size"}
        : !ctx.request.interactive ? std::vector<std::string>{n + " at this size: a taller export, or --plot NAME for one, shows the others",
                                                            n + " at this size"}
        : ctx.request.maximized  ? std::vector<std::string>{n + " at this size: a larger window or export shows all", n + ": export for all"}
                                 : std::vector<std::string>{n + " at this size: maximise the panel (" + key + "), a larger window or export shows all",
                                                            n + ": maximise (" + key + ") or export for all", n + " (" + key + ": all)"};
    for (const std::string& note : notes) {
        if (ctx.measure.measure(note, st.px(st.tick_font)).x <= width) return note;
    }
    return n;
}

bool in_focus(const BuildContext& ctx, int k) {
    const std::string focus = "," + ctx.request.style.focus + ",";
    return focus.find("," + std::string(ctx.figure().plots[static_cast<std::size_t>(k)].name) + ",") != std::string::npos;
}

// The plots' order when not all fit: the ones the lesson step's focus names first, then by rank.
std::vector<int> fit_order(const BuildContext& ctx, const std::vector<int>& plots) {
    const auto& d = ctx.figure().plots;
    std::vector<int> order = plots;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        if (in_focus(ctx, a) != in_focus(ctx, b)) return in_focus(ctx, a);
        return d[static_cast<std::size_t>(a)].rank < d[static_cast<std::size_t>(b)].rank;
    });
    return order;
}

// What the engine knows of one plot.
struct PlotNeed {
    int index = 0;
    plot::Vec2 min;      // the smallest legible cell (pixels), its colour key included
    float aspect = 1.5f;  // the width / height it reads best at, its colour key included
    float key = 0, key_aspect = 0;  // what its colour key adds to them
    bool shares_key = false;        // one key for a row of such plots (PlotDescriptor::shares_key)
    std::function<float(float)> height_for;  // its best height at a width, where the state decides it
    float weight = 1;     // its claim on spare room
    bool full_width = false;
    bool focus = false;
    bool keeps_shape = false;
    bool strip = false;
};

struct Arrangement {
    std::vector<plot::Rect> cells;  // one per plot of the candidate, in its order
    std::vector<bool> draws_key;    // and whether it draws its colour key
    bool fits = false;              // every cell at least its plot's minimum
    float score = 0;                // the plots' legible sizes, weighted
    float focus_share = 0;          // the share of the area the focus plots can use
    float focus_room = 1e9f;        // the focus plots' least cell, in multiples of their minimum (width or height);
                                    // plots that keep their shape, and strips, not counted
};

// How much of a cell a plot of `aspect` can use: the largest box of its shape inside the cell.
float usable_area(plot::Rect c, float aspect) {
    const float w = std::min(c.width(), c.height() * aspect);
    return w * (w / aspect);
}

// Spare height to the rows as their cells' shapes ask for it; the whole height is used, except what
// only `capped` rows (plots that keep their shape) could take beyond their ideal: that is left over.
std::vector<float> row_heights(const std::vector<float>& mins, const std::vector<float>& ideals, const std::vector<bool>& capped, float height) {
    float sum_min = 0, sum_want = 0;
    for (std::size_t r = 0; r < mins.size(); ++r) {
        sum_min += mins[r];
        sum_want += std::max(0.0f, ideals[r] - mins[r]);
    }
    const float spare = height - sum_min;
    std::vector<float> h(mins.size());
    for (std::size_t r = 0; r < mins.size(); ++r) {
        const float want = std::max(0.0f, ideals[r] - mins[r]);
        h[r] = sum_want >= spare ? mins[r] + (sum_want > 0 ? spare * want / sum_want : 0) : mins[r] + want;
    }
    // what is left after every row has its ideal goes to the rows that can use it
    float open_ideal = 0;
    for (std::size_t r = 0; r < mins.size(); ++r) open_ideal += capped[r] ? 0.0f : ideals[r];
    if (sum_want < spare)
        for (std::size_t r = 0; r < mins.size(); ++r)
            if (!capped[r]) h[r] += (spare - sum_want) * ideals[r] / std::max(1e-3f, open_ideal);
    return h;
}

// `plots` in rows of `row_sizes` cells filling `area`; each row's width shared by the cells' weights
// and shapes above their minimums.
Arrangement arrange_rows(const std::vector<PlotNeed>& given, const std::vector<int>& row_sizes, plot::Rect area) {
    Arrangement a;
    a.cells.resize(given.size());
    a.draws_key.assign(given.size(), true);
    const float W = area.width();
    std::vector<float> mins, ideals, widths(given.size());
    // a row of plots that share a colour key draws it once, beside its rightmost one
    std::vector<PlotNeed> plots = given;
    for (std::size_t first = 0, r = 0; r < row_sizes.size(); first += static_cast<std::size_t>(row_sizes[r++])) {
        std::size_t last_sharing = first + static_cast<std::size_t>(row_sizes[r]);
        for (std::size_t i = first; i < first + static_cast<std::size_t>(row_sizes[r]); ++i)
            if (plots[i].shares_key) last_sharing = i;
        for (std::size_t i = first; i < first + static_cast<std::size_t>(row_sizes[r]); ++i) {
            if (!plots[i].shares_key || i == last_sharing) continue;
            plots[i].min.x -= plots[i].key;
            plots[i].aspect -= plots[i].key_aspect;
            a.draws_key[i] = false;
        }
    }
    std::vector<bool> capped;  // rows of plots that keep their shape: no taller than their cells use
    a.fits = true;
    std::size_t first = 0;
    for (int n : row_sizes) {
        float need = 0, claim = 0, tallest = 0;
        for (std::size_t i = first; i < first + static_cast<std::size_t>(n); ++i) {
            if (plots[i].full_width && n > 1) return {};
            need += plots[i].min.x;
            claim += plots[i].weight * plots[i].aspect;
            tallest = std::max(tallest, plots[i].min.y);
        }
        a.fits = a.fits && need <= W + 0.5f;
        float ideal = tallest;
        for (std::size_t i = first; i < first + static_cast<std::size_t>(n); ++i) {
            widths[i] = need <= W ? plots[i].min.x + (W - need) * plots[i].weight * plots[i].aspect / claim
                                  : W * plots[i].min.x / need;
            // a strip only spreads its rows when taller: a little over its need is all it uses
            ideal = std::max(ideal, plots[i].strip        ? plots[i].min.y * 1.1f
                                    : plots[i].height_for ? plots[i].height_for(widths[i])
                                                          : widths[i] / plots[i].aspect);
        }
        bool all_keep_shape = true;
        for (std::size_t i = first; i < first + static_cast<std::size_t>(n); ++i)
            all_keep_shape = all_keep_shape && (plots[i].keeps_shape || plots[i].strip);
        mins.push_back(tallest);
        ideals.push_back(ideal);
        capped.push_back(all_keep_shape);
        first += static_cast<std::size_t>(n);
    }
    float sum_min = 0;
    for (float m : mins) sum_min += m;
    a.fits = a.fits && sum_min <= area.height() + 0.5f;
    std::vector<float> heights = row_heights(mins, ideals, capped, area.height());
    if (!a.fits && sum_min > 0)
        for (std::size_t r = 0; r < heights.size(); ++r) heights[r] = area.height() * mins[r] / sum_min;
    float used = 0;
    for (float h : heights) used += h;
    // what nobody can use: spread evenly above, between and below the rows (no one large empty band)
    const float gap = std::max(0.0f, area.height() - used) / static_cast<float>(row_sizes.size() + 1);
    float y = area.y0 + gap;
    first = 0;
    for (std::size_t r = 0; r < row_sizes.size(); ++r) {
        float x = area.x0;
        for (std::size_t i = first; i < first + static_cast<std::size_t>(row_sizes[r]); ++i) {
            a.cells[i] = {x, y, x + widths[i], y + heights[r]};
            x += widths[i];
            const float use = usable_area(a.cells[i], plots[i].aspect);
            a.score += plots[i].weight * std::sqrt(use);
            if (plots[i].focus) a.focus_share += use / std::max(1.0f, area.width() * area.height());
            // (a map that keeps its shape or a strip does not grow with its cell: no room asked for it)
            if (plots[i].focus && !plots[i].keeps_shape && !plots[i].strip) {
                a.focus_room = std::min({a.focus_room, widths[i] / std::max(1.0f, plots[i].min.x), heights[r] / std::max(1.0f, plots[i].min.y)});
            }
        }
        first += static_cast<std::size_t>(row_sizes[r]);
        y += heights[r] + gap;
    }
    return a;
}

// The best rows for `plots` (in their order): every split into rows is tried (at most 64 for 7 plots).
Arrangement best_rows(const std::vector<PlotNeed>& plots, plot::Rect area, float min_focus_share) {
    Arrangement best;
    bool have = false;
    const int n = static_cast<int>(plots.size());
    for (unsigned breaks = 0; breaks < (1u << (n - 1)); ++breaks) {
        std::vector<int> rows{1};
        for (int i = 1; i < n; ++i) {
            if (breaks & (1u << (i - 1))) rows.push_back(1);
            else ++rows.back();
        }
        Arrangement a = arrange_rows(plots, rows, area);
        if (a.cells.empty()) continue;
        const bool good = a.fits && a.focus_share >= min_focus_share;
        const bool best_good = have && best.fits && best.focus_share >= min_focus_share;
        if (!have || (good && !best_good) || (good == best_good && a.score > best.score)) {
            best = std::move(a);
            have = true;
        }
    }
    return best;
}

PlotNeed need_of(const BuildContext& ctx, int k, const FitOptions& o) {
    const plot::Style& st = ctx.request.style;
    const PlotDescriptor& d = ctx.figure().plots[static_cast<std::size_t>(k)];
    PlotNeed p;
    p.index = k;
    p.min = {st.px(d.min_size.x), st.px(d.min_size.y)};
    for (const auto& [plot_index, min] : o.min_of)
        if (plot_index == k) p.min = {std::max(p.min.x, min.x), std::max(p.min.y, min.y)};
    p.key = st.px(d.key_width);
    p.min.x += p.key;
    // a colour bar beside the plot widens the shape its cell reads best at
    p.key_aspect = d.key_width / d.min_size.y;
    p.aspect = d.aspect + p.key_aspect;
    p.shares_key = d.shares_key;
    for (const auto& [plot_index, height_for] : o.height_for_width)
        if (plot_index == k) p.height_for = height_for;
    p.keeps_shape = d.keeps_shape;
    p.strip = d.role == PlotRole::strip;
    p.full_width = d.full_width || d.role == PlotRole::strip;  // a strip is a band across the figure
    p.focus = in_focus(ctx, k);
    p.weight = d.role == PlotRole::main ? 1.5f : 1.0f;
    if (std::find(o.keep.begin(), o.keep.end(), k) != o.keep.end()) p.weight *= 1.5f;
    if (p.focus) p.weight *= st.presenting ? 3.0f : 1.5f;
    return p;
}

// The choices of `count` of `order`'s plots (most important first) that keep its first `must` (a
// lesson step's focus and the plots the figure keeps; only their first `count` when fewer): the ones
// that keep more important plots first (lexicographic in `order`).
std::vector<std::vector<int>> subsets_of(const std::vector<int>& order, int count, int must) {
    if (count <= must) return {std::vector<int>(order.begin(), order.begin() + count)};
    const int n = static_cast<int>(order.size()), pick = count - must;
    std::vector<std::vector<int>> out;
    std::vector<int> at(static_cast<std::size_t>(pick));  // positions in order[must..n) of the chosen ones, increasing
    for (int i = 0; i < pick; ++i) at[static_cast<std::size_t>(i)] = must + i;
    while (true) {
        std::vector<int> subset(order.begin(), order.begin() + must);
        for (int i : at) subset.push_back(order[static_cast<std::size_t>(i)]);
        out.push_back(std::move(subset));
        int i = pick - 1;  // the last position that can still move right
        while (i >= 0 && at[static_cast<std::size_t>(i)] == n - pick + i) --i;
        if (i < 0) return out;
        ++at[static_cast<std::size_t>(i)];
        for (int j = i + 1; j < pick; ++j) at[static_cast<std::size_t>(j)] = at[static_cast<std::size_t>(j - 1)] + 1;
    }
}

// The engine: as many plots as keep their minimums (the focus and `keep` always), in the rows that
// give them the most legible room; in presentation the focus plots get most of the area.
SubplotFit solve(BuildContext& ctx, plot::Rect area, const std::vector<int>& plots, const FitOptions& o, int total) {
    const plot::Style& st = ctx.request.style;
    std::vector<int> order = fit_order(ctx, plots);
    // after the focus, the plots the figure keeps (the model's own map)
    std::stable_partition(order.begin(), order.end(), [&](int k) {
        return in_focus(ctx, k) || std::find(o.keep.begin(), o.keep.end(), k) != o.keep.end();
    });
    int must = 0;
    for (int k : order)
        if (in_focus(ctx, k) || std::find(o.keep.begin(), o.keep.end(), k) != o.keep.end()) ++must;
    must = std::max(must, 1);
    const bool focus_first = st.presenting && !st.focus.empty();
    const float note_h = st.px(st.tick_font) * 1.5f;
    Arrangement chosen;
    std::vector<int> shown;
    // the most plots that fit at their minimums; of as many, those that keep the more important (a
    // smaller plot of lower rank is shown where a larger one has no room: a plot is left out only when
    // the others at their minimums leave it none). The focus and kept plots are left out only when
    // even their minimums cannot fit: then the most important of them that do (a squeezed plot would
    // be unreadable), and the note says so
    // a compact picture shows its lead plot alone (with the focus and the plots the figure keeps)
    const int most = st.compact ? must : static_cast<int>(order.size());
    for (int count = most; count >= 1 && !chosen.fits; --count)
        for (const std::vector<int>& subset : subsets_of(order, count, must)) {
            shown = subset;
            std::sort(shown.begin(), shown.end());  // the figure's own reading order
            std::vector<PlotNeed> needs;
            for (int k : shown) needs.push_back(need_of(ctx, k, o));
            plot::Rect room = area;
            if (count < static_cast<int>(plots.size()) && !st.compact) room.y1 -= note_h;
            const bool some_focus = std::any_of(needs.begin(), needs.end(), [](const PlotNeed& p) { return p.focus; });
            // presenting, plots beside the focus only where the focus keeps room to spare (a fifth over
            // its minimums) and most of the area
            const bool others = focus_first && some_focus && count > must;
            const float share = others ? 0.45f : 0.0f;
            Arrangement a = best_rows(needs, room, share);
            if (count == 1 || (a.fits && a.focus_share >= share && (!others || a.focus_room >= 1.2f))) {
                chosen = std::move(a);
                break;
            }
        }
    SubplotFit fit;
    fit.cells.assign(static_cast<std::size_t>(total), plot::Rect{});
    fit.draws_key.assign(static_cast<std::size_t>(total), false);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        fit.cells[static_cast<std::size_t>(shown[i])] = chosen.cells[i];
        fit.draws_key[static_cast<std::size_t>(shown[i])] = chosen.draws_key[i];
    }
    fit.shown = static_cast<int>(shown.size());
    if (fit.shown < static_cast<int>(plots.size()) && st.presenting) {
        ctx.result.left_out = std::to_string(fit.shown) + " of " + std::to_string(plots.size()) + " plots";
    } else if (fit.shown < static_cast<int>(plots.size()) && !st.compact) {
        const std::string note = left_out_note(ctx, fit.shown, static_cast<int>(plots.size()), area.width() - st.px(8));
        ctx.result.list.text({(area.x0 + area.x1) / 2, area.y1 - note_h / 2}, note, st.px(st.tick_font), st.theme.muted,
                             plot::HAlign::center, plot::VAlign::middle);
    }
    return fit;
}

}  // namespace

SubplotFit fit_plots(BuildContext& ctx, plot::Rect area, const std::vector<plot::Rect>& own, const FitOptions& given) {
    const plot::Style& st = ctx.request.style;
    // the needs the figure declares for this state (FigureDescriptor::plot_needs, which focus_fits
    // reads too), besides those the build states
    FitOptions options = given;
    if (ctx.figure().plot_needs)
        for (const auto& need : ctx.figure().plot_needs(ctx.params, st)) options.min_of.push_back(need);
    const int total = static_cast<int>(own.size());
    std::vector<int> plots;
    for (int k = 0; k < total; ++k)
        if (std::find(options.absent.begin(), options.absent.end(), k) == options.absent.end()) plots.push_back(k);
    // the figure's own arrangement while it holds every plot and no presented step asks for its focus
    bool own_fits = !(st.presenting && !st.focus.empty()) && !st.compact;
    for (int k : plots) {
        const PlotNeed p = need_of(ctx, k, options);
        own_fits = own_fits && large_enough(own[static_cast<std::size_t>(k)], p.min);
    }
    if (own_fits && !plots.empty()) {
        SubplotFit fit;
        fit.cells.assign(own.size(), plot::Rect{});
        fit.draws_key.assign(own.size(), true);  // the figure's own cells hold each plot's key
        for (int k : plots) fit.cells[static_cast<std::size_t>(k)] = own[static_cast<std::size_t>(k)];
        fit.shown = total;  // absent plots count as shown: nothing is left out for want of room
        return fit;
    }
    SubplotFit fit = solve(ctx, area, plots, options, total);
    fit.shown += total - static_cast<int>(plots.size());
    return fit;
}

void centred_note(BuildContext& ctx, plot::Rect area, const std::vector<std::string>& texts) {
    const plot::Style& st = ctx.request.style;
    const float size = st.px(st.tick_font), width = std::max(st.px(60), area.width() - st.px(40));
    for (const std::string& text : texts) {
        const std::vector<std::string> lines = why::wrap_words(ctx.measure, text, size, std::min(width, std::max(size * 22, width * 0.5f)));
        bool fits = size * 1.35f * static_cast<float>(lines.size()) + st.px(16) <= area.height();
        for (const std::string& l : lines) fits = fits && ctx.measure.measure(l, size).x + st.px(20) <= area.width();
        if (fits || &text == &texts.back()) return centred_note(ctx, area, text);
    }
}

void centred_note(BuildContext& ctx, plot::Rect area, const std::string& text, bool fills) {
    const plot::Style& st = ctx.request.style;
    // the note is the picture here: as large as the area lets it be (up to twice the label type),
    // in lines of at most about 45 characters so that it reads as a paragraph
    const float width = std::max(st.px(60), area.width() - st.px(40));
    float size = st.px(st.tick_font);
    for (float s = st.px(st.label_font) * 2; s > size; s *= 0.9f) {
        const std::vector<std::string> trial = why::wrap_words(ctx.measure, text, s, std::min(width, s * 22));
        if (s * 1.35f * static_cast<float>(trial.size()) <= area.height() * 0.75f) {
            size = s;
            break;
        }
    }
    const std::vector<std::string> lines = why::wrap_words(ctx.measure, text, size, std::min(width, std::max(size * 22, width * 0.5f)));
    float widest = 0;
    for (const std::string& l : lines) widest = std::max(widest, ctx.measure.measure(l, size).x);
    const float row = size * 1.35f, h = row * static_cast<float>(lines.size());
    const float cx = (area.x0 + area.x1) / 2, cy = (area.y0 + area.y1) / 2, y0 = cy - h / 2;
    // a note that is the whole picture (fills) is a card over most of the area, however short the
    // paragraph, not a small island in an empty frame; else a box just round the text, off the data
    const float box_w = fills ? std::max(widest + st.px(20), std::min(area.width() * 0.9f, area.width() - st.px(8))) : widest + st.px(20);
    const float box_h = fills ? std::max(h + st.px(16), std::min(area.height() * 0.85f, area.height() - st.px(8))) : h + st.px(16);
    ctx.result.list.rect({cx - box_w / 2, cy - box_h / 2, cx + box_w / 2, cy + box_h / 2},
                         fills ? st.theme.plot_fill : st.theme.background.with_alpha(0.92f), st.theme.grid, st.px(1));
    for (std::size_t i = 0; i < lines.size(); ++i)
        ctx.result.list.text({cx, y0 + row * static_cast<float>(i)}, lines[i], size, st.theme.text, plot::HAlign::center,
                             plot::VAlign::top);
}

}  // namespace rope::figures::detail
