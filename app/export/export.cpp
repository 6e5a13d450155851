#include "export/export.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "figures/alt_text.hpp"
#include "io/atomic_file.hpp"
#include "session/file_metadata.hpp"
#include "plot/label_placer.hpp"
#include "rope/number_format.hpp"

namespace rope::exporting {

namespace {


// The smallest box around a command, to keep only what a cut-out plot shows (vertical text by its anchor).
plot::Rect bounds(const plot::Command& c, const plot::TextMeasure& measure) {
    plot::Rect b{INFINITY, INFINITY, -INFINITY, -INFINITY};
    auto add = [&](plot::Vec2 p, float r = 0) {
        b.x0 = std::min(b.x0, p.x - r), b.y0 = std::min(b.y0, p.y - r);
        b.x1 = std::max(b.x1, p.x + r), b.y1 = std::max(b.y1, p.y + r);
    };
    if (const auto* l = std::get_if<plot::PolylineCmd>(&c)) for (const plot::Vec2& p : l->points) add(p);
    else if (const auto* g = std::get_if<plot::PolygonCmd>(&c)) for (const plot::Vec2& p : g->points) add(p);
    else if (const auto* r = std::get_if<plot::RectCmd>(&c)) add({r->rect.x0, r->rect.y0}), add({r->rect.x1, r->rect.y1});
    else if (const auto* i = std::get_if<plot::ImageCmd>(&c)) add({i->rect.x0, i->rect.y0}), add({i->rect.x1, i->rect.y1});
    else if (const auto* o = std::get_if<plot::CircleCmd>(&c)) add(o->center, o->radius);
    else if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
        add(t->pos);
        if (!t->vertical) {
            const plot::Rect box = plot::text_box(*t, measure);
            add({box.x0, box.y0}), add({box.x1, box.y1});
        }
    }
    return b;
}


// The plot `g` of `full` alone, scaled to fit width x height and centred: what lies outside its
// frame (the other plots, the figure's title and shared captions) is left out, not just hidden.
// A margin of a few pixels keeps a tick label centred on the frame's edge whole. A key the figure's
// plots share (precision's legend row) goes along, centred below the plot, at the same scale.
figures::FigureResult cut_out(const figures::FigureResult& full, const figures::PlotGeometry& g, int width, int height,
                              const plot::TextMeasure& measure) {
    constexpr float margin = 4;
    const plot::Rect& key_rect = full.shared_key;
    plot::DisplayList key;
    plot::Rect key_box{INFINITY, INFINITY, -INFINITY, -INFINITY};
    if (key_rect.height() > 0)
        for (const plot::Command& c : full.list.commands) {
            const plot::Rect b = bounds(c, measure);
            if (std::holds_alternative<plot::ClipCmd>(c) || !plot::overlaps(b, key_rect, -0.5f)) continue;
            key.add(c);
            key_box = {std::min(key_box.x0, b.x0), std::min(key_box.y0, b.y0), std::max(key_box.x1, b.x1), std::max(key_box.y1, b.y1)};
        }
    const float key_h = key.commands.empty() ? 0 : key_rect.height();
    const float s = std::min((width - 2 * margin) / g.frame.width(), (height - 2 * margin) / (g.frame.height() + key_h));
    const float top = (height - (g.frame.height() + key_h) * s) / 2;
    const plot::Vec2 offset{(width - g.frame.width() * s) / 2 - g.frame.x0 * s, top - g.frame.y0 * s};
    const plot::Rect shown{g.frame.x0 - margin / s, g.frame.y0 - margin / s, g.frame.x1 + margin / s, g.frame.y1 + margin / s};
    figures::FigureResult out;
    out.list.background = full.list.background;
    out.list.push_clip(shown);
    for (const plot::Command& c : full.list.commands)
        if (std::holds_alternative<plot::ClipCmd>(c) || plot::overlaps(bounds(c, measure), g.frame, -0.5f)) out.list.add(c);
    out.list.pop_clip();
    plot::transform(out.list, s, offset);
    // the key at the plot's scale, or smaller where it would be wider than the picture
    const float ks = key.commands.empty() ? s : std::min(s, (width - 2 * margin) / std::max(1.0f, key_box.width()));
    plot::transform(key, ks, {width / 2.0f - (key_box.x0 + key_box.x1) / 2 * ks,
                              top + g.frame.height() * s + (key_h * s - key_rect.height() * ks) / 2 - key_rect.y0 * ks});
    for (plot::Command& c : key.commands) out.list.add(std::move(c));
    out.list.width = static_cast<float>(width);
    out.list.height = static_cast<float>(height);
    figures::PlotGeometry moved = g;
    auto move = [&](plot::Rect r) {
        return plot::Rect{r.x0 * s + offset.x, r.y0 * s + offset.y, r.x1 * s + offset.x, r.y1 * s + offset.y};
    };
    moved.area = move(g.area);
    moved.frame = move(g.frame);
    out.plots.push_back(moved);
    if (key_h > 0) out.shared_key = {0, top + g.frame.height() * s, static_cast<float>(width), top + (g.frame.height() + key_h) * s};
    out.table = full.table;
    out.incomplete = full.incomplete;
    out.error = full.error;
    return out;
}


}  // namespace

std::string picture_options_problem(const figures::FigureDescriptor& figure, const ExportOptions& o, const FileFormatInfo& format) {
    if (!o.plot.empty() && !figures::find_plot(figure, o.plot))
        return "--plot " + shorten_for_message(o.plot) + ": " + std::string(figure.name) + " has the plots " + figures::plot_names(figure);
    if (format.kind == FormatKind::table) {
        const char* flag = !o.plot.empty() ? "--plot" : o.clean ? "--clean" : o.no_title ? "--no-title" : nullptr;
        if (flag) return std::string(flag) + ": changes the picture only; a .csv holds the whole figure's numbers (leave it out)";
    }
    return "";
}

plot::Style file_style_for(const ExportOptions& o) {
    plot::Style style = plot::file_style(o.theme);
    // A blog shows a picture about 700 px wide whatever its size: type grows with the width so that
    // tick labels stay kBlogTickPx tall there, and crowded labels shrink no further than that.
    const float legible = plot::kBlogTickPx * static_cast<float>(o.width) / plot::kBlogColumnPx;
    style.scale = std::max(1.0f, legible / style.tick_font);
    style.min_text = std::max(style.min_text, legible / style.scale);
    style.draw_titles = !o.no_title;
    style.draw_captions = !(o.no_title && !o.plot.empty());
    return style;
}

figures::FigureResult build_for_file(const figures::FigureDescriptor& figure, const ParamSet& params, const ExportOptions& o,
                                     const plot::TextMeasure& measure, bool with_table, figures::FigureCache& cache,
                                     plot::AxisPins* pins) {
    if (figure.file_problem)
        if (const std::string problem = figure.file_problem(params); !problem.empty()) throw std::invalid_argument(problem);
    figures::FigureRequest request;
    request.figure = &figure;
    request.width = static_cast<float>(o.width);
    request.height = static_cast<float>(o.height);
    request.style = file_style_for(o);
    request.measure = &measure;
    request.with_table = with_table;
    request.show_cursor = !o.clean;
    request.interactive = false;
    request.full_resolution = o.full_resolution;
    if (o.plot.empty()) {
        request.style.pins = pins;
        return figures::build_figure(request, params, cache);
    }
    // Built once to learn what share of the figure the plot takes, then at the size that makes the
    // plot about width x height, so its fonts and lines come out at their usual size.
    figures::FigureResult probe = figures::build_figure(request, params, cache);
    const figures::PlotGeometry* g = probe.plot(o.plot);
    // a figure too small for all its plots leaves some out: probe it larger until the plot is there
    for (float grow = 2; !g && grow <= 8; grow *= 2) {
        request.width = static_cast<float>(std::max(o.width, figure.export_width)) * grow / 2;
        request.height = static_cast<float>(std::max(o.height, figure.export_height)) * grow / 2;
        probe = figures::build_figure(request, params, cache);
        g = probe.plot(o.plot);
    }
    if (!g) throw std::invalid_argument("--plot " + o.plot + ": not drawn by " + std::string(figure.name) + " with these parameters");
    const float grow_x = request.width / std::max(1.0f, g->frame.width()), grow_y = request.height / std::max(1.0f, g->frame.height());
    request.width = std::min(request.width * grow_x, 4.0f * kMaxSize);
    request.height = std::min(request.height * grow_y, 4.0f * kMaxSize);
    request.style.pins = pins;
    const figures::FigureResult full = figures::build_figure(request, params, cache);
    const figures::PlotGeometry* sized = full.plot(o.plot);
    return sized ? cut_out(full, *sized, o.width, o.height, measure) : cut_out(probe, *g, o.width, o.height, measure);
}

std::pair<int, int> size_keeping_aspect(std::pair<int, int> own, int width, int height) {
    const auto follow = [](int given, int along, int across) {  // the side across `given`, at along:across
        const long side = std::lround(static_cast<double>(given) * across / along);
        return static_cast<int>(std::clamp<long>(side, kMinSize, kMaxSize));
    };
    if (width > 0 && height > 0) return {width, height};
    if (width > 0) return {width, follow(width, own.first, own.second)};
    if (height > 0) return {follow(height, own.second, own.first), height};
    return own;
}

std::string figure_alt_text(const figures::FigureDescriptor& figure, const ParamSet& params, const ExportOptions& o) {
    const std::unique_ptr<plot::TextMeasure> measure = file_text_measure();
    figures::FigureCache cache(o.read_trained);
    return figures::alt_text(figure, params, build_for_file(figure, params, o, *measure, false, cache));
}

ExportResult export_figure(const figures::FigureDescriptor& figure, const ParamSet& params, const ExportOptions& o,
                           figures::FigureCache* shared_cache) {
    const auto t0 = std::chrono::steady_clock::now();
    const FileFormatInfo* format = format_for_path(o.path);
    if (!format || format->kind == FormatKind::animation)
        throw std::invalid_argument("'" + o.path + "': unknown file type; use " + extensions_text({FormatKind::picture, FormatKind::table}));
    if (!(o.scale >= kMinScale && o.scale <= kMaxScale)) throw std::invalid_argument("scale must be from 0.25 to 8");
    if (o.width < kMinSize || o.width > kMaxSize || o.height < kMinSize || o.height > kMaxSize)
        throw std::invalid_argument("width and height must be from 200 to 8000 pixels");
    if (const std::string problem = picture_options_problem(figure, o, *format); !problem.empty()) throw std::invalid_argument(problem);
    if (o.full_resolution && format->kind != FormatKind::table)
        throw std::invalid_argument("--full-resolution: only for a .csv file (pictures show one colour per cell)");
    if (o.full_resolution && !figure.full_resolution_table)
        throw std::invalid_argument("--full-resolution: only the heatmap has a table per position, not '" + std::string(figure.name) + "'");
    const std::unique_ptr<plot::TextMeasure> measure_owner = file_text_measure();
    const plot::TextMeasure& measure = *measure_owner;
    std::unique_ptr<figures::FigureCache> own_cache;
    if (!shared_cache) own_cache = std::make_unique<figures::FigureCache>(o.read_trained);
    figures::FigureCache& cache = shared_cache ? *shared_cache : *own_cache;
    const figures::FigureResult fig = build_for_file(figure, params, o, measure, format->kind == FormatKind::table, cache);
    const io::TextChunks meta = session::parameter_metadata(params, figure.name);
    ExportResult result;
    result.path = o.path;
    result.format = format->id;
    result.alt = figures::alt_text(figure, params, fig);
    format->write_still({fig, o, meta, "RoPE Explorer: " + figures::figure_title(figure, params), measure, &figure, result.alt}, result);
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

}  // namespace rope::exporting
