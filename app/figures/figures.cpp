#include "figures/figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <type_traits>

#include "figures/build_context.hpp"
#include "figures/compared_build.hpp"
#include "figures/subplot_fit.hpp"

namespace rope::figures {

double PlotGeometry::x_at(float p) const {
    const double t = (p - area.x0) / area.width();
    return x_log ? std::exp(std::log(x_min) + t * (std::log(x_max) - std::log(x_min))) : x_min + t * (x_max - x_min);
}

double PlotGeometry::y_at(float p) const {
    const double t = (area.y1 - p) / area.height();
    return y_log ? std::exp(std::log(y_min) + t * (std::log(y_max) - std::log(y_min))) : y_min + t * (y_max - y_min);
}

plot::Vec2 PlotGeometry::px(double x, double y) const {
    const double tx = x_log ? (std::log(x) - std::log(x_min)) / (std::log(x_max) - std::log(x_min)) : (x - x_min) / (x_max - x_min);
    const double ty = y_log ? (std::log(y) - std::log(y_min)) / (std::log(y_max) - std::log(y_min)) : (y - y_min) / (y_max - y_min);
    return {area.x0 + static_cast<float>(tx) * area.width(), area.y1 - static_cast<float>(ty) * area.height()};
}

const PlotGeometry* FigureResult::plot(std::string_view name) const {
    for (const PlotGeometry& g : plots)
        if (g.name == name) return &g;
    return nullptr;
}

std::array<double, 5> sweep_bases(double base) {
    std::array<double, 5> b{};
    for (int i = 0; i < 5; ++i) b[i] = base * std::pow(10.0, 0.5 * (i - 2));
    for (double& v : b) v = std::max(v, 1.0 + 1e-9);
    return b;
}

namespace detail {

std::string BuildContext::title() const { return figure_title(*request.figure, params); }

PlotGeometry plot_geometry(const BuildContext& ctx, int index) {
    const PlotDescriptor& d = ctx.figure().plots.at(static_cast<std::size_t>(index));
    PlotGeometry g;
    g.name = std::string(d.name);
    g.tag = index;
    g.x_role = d.x_role;
    g.y_role = d.y_role;
    return g;
}

void record_geometry(BuildContext& ctx, plot::Plot& p, int index) {
    const plot::AxisSetup& x = p.x_axis();
    const plot::AxisSetup& y = p.y_axis();
    PlotGeometry g = plot_geometry(ctx, index);
    g.area = p.area();
    g.frame = p.outer();
    g.x_min = x.min;
    g.x_max = x.max;
    g.y_min = y.min;
    g.y_max = y.max;
    g.x_log = x.log;
    g.y_log = y.log;
    ctx.result.plots.push_back(g);
}

std::string angle_text(double radians) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.4f rad (%.1f°)", radians, radians * 180.0 / kPi);
    std::string s = buf;
    if (s[0] == '-') s = "−" + s.substr(1);
    return s;
}

}  // namespace detail

namespace {

// A NoPE layer turns no pair: a figure about rotation shows, instead of flat curves and one-colour
// maps, why there is nothing to rotate (its table keeps the numbers, all of them unrotated).
void nope_note(detail::BuildContext& ctx) {
    FigureResult& r = ctx.result;
    r.list.commands.clear();
    r.plots.clear();
    r.shared_key = {};
    const plot::Style& st = ctx.request.style;
    float top = 0;
    if (st.draw_titles) {
        r.list.text({ctx.request.width / 2, st.px(6)}, ctx.title(), st.px(st.title_font), st.theme.text, plot::HAlign::center,
                    plot::VAlign::top);
        top = st.px(st.title_font) * 1.4f;
    }
    const PositionEncoding encoding = ctx.params[P::position_encoding];
    if (encoding != PositionEncoding::rope) {  // a model without RoPE at all (BLOOM, MPT, T5)
        const std::string bias = encoding == PositionEncoding::alibi ? "ALiBi: a bias of minus a slope times the distance, one slope per head"
                                                                     : "T5's relative buckets: a learned bias per bucket of distances and head";
        detail::centred_note(ctx, {0, top, ctx.request.width, ctx.request.height},
                             "This model has no RoPE (nope = true): nothing rotates, so there is nothing to show here. Position "
                             "reaches its scores through " + bias + ". RoPE and its relatives (panel 19) draws it beside RoPE; "
                             "pick a RoPE model to see this panel.",
                             true);
        return;
    }
    detail::centred_note(ctx, {0, top, ctx.request.width, ctx.request.height},
                         "This layer is NoPE (nope = true): every pair has frequency 0, so nothing rotates and there is "
                         "nothing to show here. Its q and k reach attention as they are; position reaches the score only "
                         "through the causal mask (Llama 4 also scales the queries with position: see Model anatomy). "
                         "Pick a RoPE layer there, or set nope = false, to see this panel.",
                         true);
}

}  // namespace

namespace {

FigureResult build_single(const FigureRequest& request, const ParamSet& params, FigureCache& cache) {
    FigureResult result;
    result.background_stamp = background_stamp();
    result.list.width = request.width;
    result.list.height = request.height;
    result.list.background = request.style.theme.background;
    plot::ApproximateTextMeasure fallback;
    detail::BuildContext ctx{request, params, cache, result, request.measure ? *request.measure : fallback};
    request.figure->build(ctx);
    if (!request.figure->draws_nope && params[P::nope]) nope_note(ctx);  // reads ctx.params
    return result;
}

}  // namespace

// A picture on screen under this many CSS px high, or of less than this area, is compact (plot::Style).
constexpr float kCompactBelowHeight = 330, kCompactBelowArea = 120000;

namespace {

// Words in a curve's, a marker's or an axis' colour (a tag, a curve's name beside it) are written in
// the shade of that colour that reads as text (plot::text_shade): a line needs 3:1, a word 4.5:1.
// Neutral ink (the theme's text, black or white on a cell) is left as it is.
void write_words_in_readable_shades(plot::DisplayList& list, const plot::Theme& theme) {
    for (plot::Command& c : list.commands) {
        auto* t = std::get_if<plot::TextCmd>(&c);
        if (!t) continue;
        const float chroma = std::max({t->color.r, t->color.g, t->color.b}) - std::min({t->color.r, t->color.g, t->color.b});
        if (chroma > 0.08f) t->color = plot::text_shade(t->color, theme);
    }
}

}  // namespace

FigureResult build_figure(const FigureRequest& asked, const ParamSet& params, FigureCache& cache) {
    FigureRequest request = asked;
    const float css_w = request.width / request.style.scale, css_h = request.height / request.style.scale;
    const bool on_screen = request.interactive || request.style.presenting;
    if (on_screen && request.small_screen && (css_h < kCompactBelowHeight || css_w * css_h < kCompactBelowArea)) {
        request.style.compact = true;
        request.style.draw_captions = false;
        // a phone's type (the web's small text): no text under 11 CSS px
        request.style.tick_font = 12;
        request.style.label_font = 13;
        request.style.min_text = 11;
    }
    FigureResult result = [&] {
        if (const std::optional<ParamSet> b = detail::second_picture_model(*request.figure, params))
            return detail::build_compared(request, params, *b, cache, build_single);
        return build_single(request, params, cache);
    }();
    write_words_in_readable_shades(result.list, request.style.theme);
    // the models by name where something names them (values set by hand alone: a table of numbers only)
    const bool b = request.figure->shows_b && detail::model_b(params);
    if (request.with_table && (b || !detail::named_model(params).empty())) {
        result.table.model_names = {detail::model_label(params)};
        if (b) result.table.model_names.push_back(detail::model_label(params, true));
    }
    return result;
}

std::string figure_title(const FigureDescriptor& figure, const ParamSet& params) {
    std::string title(figure.title);
    const std::string a = detail::named_model(params);
    const bool b = figure.shows_b && params[P::compare_to] != "unscaled" && detail::model_b(params).has_value();
    if (b) return title + " · " + detail::model_label(params) + " vs " + detail::model_label(params, true);
    return a.empty() ? title : title + " · " + a;
}

namespace {

bool same(const plot::Vec2& a, const plot::Vec2& b) { return a.x == b.x && a.y == b.y; }
bool same(const plot::Color& a, const plot::Color& b) { return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a; }
bool same(const plot::Rect& a, const plot::Rect& b) { return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1; }
bool same(const std::vector<plot::Vec2>& a, const std::vector<plot::Vec2>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const auto& p, const auto& q) { return same(p, q); });
}
bool same(const plot::PolylineCmd& a, const plot::PolylineCmd& b) {
    return same(a.points, b.points) && same(a.color, b.color) && a.width == b.width && a.closed == b.closed && a.dash == b.dash;
}
bool same(const plot::PolygonCmd& a, const plot::PolygonCmd& b) { return same(a.points, b.points) && same(a.fill, b.fill); }
bool same(const plot::RectCmd& a, const plot::RectCmd& b) {
    return same(a.rect, b.rect) && same(a.fill, b.fill) && same(a.stroke, b.stroke) && a.stroke_width == b.stroke_width;
}
bool same(const plot::CircleCmd& a, const plot::CircleCmd& b) {
    return same(a.center, b.center) && a.radius == b.radius && same(a.fill, b.fill) && same(a.stroke, b.stroke) &&
           a.stroke_width == b.stroke_width;
}
bool same(const plot::TextCmd& a, const plot::TextCmd& b) {
    return same(a.pos, b.pos) && a.text == b.text && a.size == b.size && same(a.color, b.color) && a.halign == b.halign &&
           a.valign == b.valign && a.vertical == b.vertical;
}
bool same(const plot::ImageCmd& a, const plot::ImageCmd& b) {
    return same(a.rect, b.rect) && a.cols == b.cols && a.rows == b.rows && a.values == b.values && a.colormap == b.colormap &&
           a.vmin == b.vmin && a.vmax == b.vmax && a.weights == b.weights;
}
bool same(const plot::ClipCmd& a, const plot::ClipCmd& b) { return same(a.rect, b.rect) && a.push == b.push; }

std::string describe(const plot::Command& c) {
    std::ostringstream s;
    std::visit(
        [&](const auto& cmd) {
            using T = std::decay_t<decltype(cmd)>;
            if constexpr (std::is_same_v<T, plot::TextCmd>) s << "text '" << cmd.text << "' at " << cmd.pos.x << "," << cmd.pos.y;
            else if constexpr (std::is_same_v<T, plot::PolylineCmd>)
                s << "line of " << cmd.points.size() << " points" << (cmd.points.empty() ? "" : " from ")
                  << (cmd.points.empty() ? 0 : cmd.points[0].x) << "," << (cmd.points.empty() ? 0 : cmd.points[0].y);
            else if constexpr (std::is_same_v<T, plot::PolygonCmd>) s << "polygon of " << cmd.points.size() << " points";
            else if constexpr (std::is_same_v<T, plot::RectCmd>) s << "rect " << cmd.rect.x0 << "," << cmd.rect.y0 << " " << cmd.rect.x1 << "," << cmd.rect.y1;
            else if constexpr (std::is_same_v<T, plot::CircleCmd>) s << "circle at " << cmd.center.x << "," << cmd.center.y;
            else if constexpr (std::is_same_v<T, plot::ImageCmd>) s << "image " << cmd.cols << "x" << cmd.rows;
            else s << (cmd.push ? "push clip" : "pop clip");
        },
        c);
    return s.str();
}

}  // namespace

bool same_picture(const plot::DisplayList& a, const plot::DisplayList& b, std::string* why) {
    auto fail = [&](std::string text) {
        if (why) *why = std::move(text);
        return false;
    };
    if (a.width != b.width || a.height != b.height)
        return fail("sizes differ: " + std::to_string(a.width) + "x" + std::to_string(a.height) + " vs " + std::to_string(b.width) +
                    "x" + std::to_string(b.height));
    if (!same(a.background, b.background)) return fail("backgrounds differ");
    const std::size_t n = std::min(a.commands.size(), b.commands.size());
    for (std::size_t i = 0; i < n; ++i) {
        const bool equal = a.commands[i].index() == b.commands[i].index() &&
                           std::visit([&](const auto& x) { return same(x, std::get<std::decay_t<decltype(x)>>(b.commands[i])); },
                                      a.commands[i]);
        if (!equal) return fail("command " + std::to_string(i) + ": " + describe(a.commands[i]) + " vs " + describe(b.commands[i]));
    }
    if (a.commands.size() != b.commands.size())
        return fail(std::to_string(a.commands.size()) + " commands vs " + std::to_string(b.commands.size()) +
                    (n < a.commands.size() ? ", first extra: " + describe(a.commands[n]) : ", first missing: " + describe(b.commands[n])));
    return true;
}

}  // namespace rope::figures
