#include "export/gif_palette.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <unordered_set>

#include "export/export.hpp"
#include "plot/colormap.hpp"

namespace rope::exporting {

namespace {

// cairo keeps a source colour as 16 bits a channel and paints its top 8.
std::uint32_t painted(plot::Color c) {
    auto b = [](float v) { return static_cast<std::uint32_t>(std::floor(std::clamp(v, 0.f, 1.f) * 65535.0 + 0.5)) >> 8; };
    return b(c.r) << 16 | b(c.g) << 8 | b(c.b);
}

// An image cell's colour as cairo_canvas's image_surface writes it.
std::uint32_t cell_colour(plot::Color c) {
    auto b = [](float v) { return static_cast<std::uint32_t>(std::lround(std::fmin(1.f, std::fmax(0.f, v)) * 255)); };
    return b(c.r) << 16 | b(c.g) << 8 | b(c.b);
}

struct ColormapUse {
    double pixels = 0, faded_pixels = 0;  // image area, and the part whose cells show under 80% colour
};

// `count` colours evenly along the map at colour strength `strength` (plot::faded's weight^2).
void sample(plot::ColormapId id, int count, double strength, std::vector<std::uint32_t>& out) {
    const bool cyclic = id == plot::ColormapId::cyclic;
    for (int i = 0; i < count; ++i) {
        const double t = cyclic ? (i + 0.5) / count : count > 1 ? static_cast<double>(i) / (count - 1) : 0.5;
        out.push_back(cell_colour(plot::faded(plot::colormap_color(id, t), std::sqrt(strength))));
    }
}

}  // namespace

std::vector<std::uint32_t> gif_reserved_colours(const plot::DisplayList& list) {
    std::vector<std::uint32_t> flat;
    auto opaque = [&](plot::Color c) {
        if (c.a >= 0.999f) flat.push_back(painted(c));
    };
    opaque(list.background);
    std::map<plot::ColormapId, ColormapUse> maps;
    for (const plot::Command& command : list.commands) {
        if (const auto* p = std::get_if<plot::PolylineCmd>(&command)) opaque(p->color);
        else if (const auto* g = std::get_if<plot::PolygonCmd>(&command)) opaque(g->fill);
        else if (const auto* r = std::get_if<plot::RectCmd>(&command)) opaque(r->fill), opaque(r->stroke);
        else if (const auto* c = std::get_if<plot::CircleCmd>(&command)) opaque(c->fill), opaque(c->stroke);
        else if (const auto* t = std::get_if<plot::TextCmd>(&command)) opaque(t->color);
        else if (const auto* img = std::get_if<plot::ImageCmd>(&command)) {
            if (img->cols <= 0 || img->rows <= 0) continue;
            ColormapUse& use = maps[img->colormap];
            const double cell = std::abs(static_cast<double>(img->rect.width()) * img->rect.height()) / (static_cast<double>(img->cols) * img->rows);
            use.pixels += cell * static_cast<double>(img->values.size());
            for (float w : img->weights)
                if (w * w < 0.8f) use.faded_pixels += cell;
        }
    }
    std::vector<std::uint32_t> out;
    std::unordered_set<std::uint32_t> seen;
    auto keep = [&](const std::vector<std::uint32_t>& colours) {
        for (std::uint32_t c : colours)
            if (seen.insert(c).second) out.push_back(c);
    };
    keep(flat);
    if (maps.empty()) return out;
    const int budget = kColormapSamples / static_cast<int>(maps.size());
    for (const auto& [id, use] : maps) {
        std::vector<std::uint32_t> samples;
        // Faded cells common (5% of the image or more): rings at strengths 1, 4/5, 3/5, 2/5 and 1/5,
        // each with samples in proportion to its length (1 + 4/5 + ... + 1/5 = 3), and the grey itself.
        // (Measured on the heatmap: five rings gave the lowest 99th percentile error; four or six
        // left larger hue errors in the faded rows.)
        if (use.faded_pixels >= 0.05 * use.pixels) {
            const int full = budget / 3;
            for (int fifth = 5; fifth >= 1; --fifth) sample(id, full * fifth / 5, fifth / 5.0, samples);
            samples.push_back(cell_colour(plot::fade_color()));
        } else {
            sample(id, budget, 1.0, samples);
        }
        keep(samples);
    }
    return out;
}

std::vector<std::uint32_t> gif_reserved_colours(const figures::FigureDescriptor& figure, const ParamSet& params, const ExportOptions& o) {
    const std::unique_ptr<plot::TextMeasure> measure_owner = file_text_measure();
    const plot::TextMeasure& measure = *measure_owner;
    figures::FigureCache cache(o.read_trained);
    return gif_reserved_colours(build_for_file(figure, params, o, measure, false, cache).list);
}

}  // namespace rope::exporting
