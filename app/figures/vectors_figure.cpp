// Rotated vectors: the selected pair's 2D vector at position 0 and at position m (with the trail of
// the positions before), the fan of one token's rotation in every pair, and q at m beside k at n.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "figures/alt_text.hpp"
#include "figures/build_context.hpp"
#include "figures/compared_build.hpp"
#include "figures/named_colours.hpp"
#include "figures/subplot_fit.hpp"
#include "plot/ticks.hpp"
#include "rope/phasor.hpp"
#include "rope/number_format.hpp"
#include "rope/rotation.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::SubplotFit;

enum class VectorsPlot { pair, fan, qk };
enum Grab { kNone = 0, kVector = 1, kKey = 2 };

using plot::Color;
using plot::Vec2;

// An arrow from a to b in pixels; the plot's labels keep clear of its head.
void arrow(plot::Plot& p, Vec2 a, Vec2 b, Color c, float width, float head, float dash = 0) {
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float len = std::sqrt(dx * dx + dy * dy);
    if (len < 1e-3f) return;
    const float ux = dx / len, uy = dy / len;
    const float h = std::min(head, len * 0.5f);
    const Vec2 base{b.x - ux * h, b.y - uy * h};
    const Vec2 left{base.x - uy * h * 0.45f, base.y + ux * h * 0.45f}, right{base.x + uy * h * 0.45f, base.y - ux * h * 0.45f};
    p.list().segment(a, base, c, width, dash);
    p.list().add(plot::PolygonCmd{{b, left, right}, c});
    p.keep_clear({std::min({b.x, left.x, right.x}), std::min({b.y, left.y, right.y}), std::max({b.x, left.x, right.x}), std::max({b.y, left.y, right.y})});
}

// An arc of radius r (pixels) around centre from data angle a0 to a1 (counter-clockwise positive).
void arc(plot::DisplayList& list, Vec2 centre, float r, double a0, double a1, Color c, float width) {
    std::vector<Vec2> pts;
    const int n = std::max(2, static_cast<int>(std::abs(a1 - a0) / 0.05) + 2);
    for (int i = 0; i <= n; ++i) {
        const double a = a0 + (a1 - a0) * i / n;
        pts.push_back({centre.x + r * static_cast<float>(std::cos(a)), centre.y - r * static_cast<float>(std::sin(a))});
    }
    list.line(std::move(pts), c, width);
}

// The label of an arrow from the origin to `tip`.
struct TipLabel {
    Vec2 tip;
    std::string text;
    Color colour;
};

// A label by an arrow's tip (the plot moves it if taken): just beyond it, pushed outward from the
// origin (`side` 0), or beside the arrowhead, across the arrow to its left (`side` 1) or right (-1).
void tip_label(plot::Plot& p, const plot::Style& st, Vec2 origin, const TipLabel& l, int side) {
    float dx = l.tip.x - origin.x, dy = l.tip.y - origin.y;
    const float len = std::sqrt(dx * dx + dy * dy);
    dx = len > 1e-3f ? dx / len : 1.0f, dy = len > 1e-3f ? dy / len : 0.0f;  // a zero vector: as if it pointed right
    // the way the label goes from the tip: along the arrow, or across it (clear of the arrowhead)
    const float ox = side == 0 ? dx : static_cast<float>(side) * dy, oy = side == 0 ? dy : -static_cast<float>(side) * dx;
    const float gap = st.px(side == 0 ? 10 : 12);
    const Vec2 at{l.tip.x + ox * gap, l.tip.y + oy * gap};
    const plot::HAlign h = ox > 0.3f ? plot::HAlign::left : ox < -0.3f ? plot::HAlign::right : plot::HAlign::center;
    const plot::VAlign v = oy > 0.3f ? plot::VAlign::top : oy < -0.3f ? plot::VAlign::bottom : plot::VAlign::middle;
    p.text_px(at, l.text, l.colour, h, v, st.tick_font);
}

// The labels of arrows from `origin`, each by its tip; where tips coincide or nearly (closer than two
// lines of the labels' type: m = n puts k on q), their labels go on either side of the arrows, so that
// neither lies on the other or on the arrowheads.
void tip_labels(plot::Plot& p, const plot::Style& st, Vec2 origin, const std::vector<TipLabel>& labels) {
    const float near = st.px(st.tick_font) * 2;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        int side = 0;
        for (std::size_t j = 0; j < labels.size(); ++j)
            if (j != i && std::hypot(labels[i].tip.x - labels[j].tip.x, labels[i].tip.y - labels[j].tip.y) < near) side = i < j ? 1 : -1;
        tip_label(p, st, origin, labels[i], side);
    }
}

struct Pair2D {
    double x = 1, y = 0;
};

Pair2D rotate2(Pair2D v, double angle) {
    return {v.x * std::cos(angle) - v.y * std::sin(angle), v.x * std::sin(angle) + v.y * std::cos(angle)};
}

// What the three views and the table share: the selected pair's vector at position 0 and turned to m.
struct VectorsData {
    const FrequencyTable& f;
    RopeConfig config;
    int pair = 0;
    std::int64_t m = 0, n = 0;  // q's position and k's
    std::vector<double> vec{};  // the vector x, every dimension
    PairDims dims{};            // the selected pair's two dimensions
    Pair2D v{}, vm{};           // x's components in them, at position 0 and turned to m
    double theta = 0, md = 0;
    double wrapped = 0;         // the turn to m, wrapped
    Eigen::Map<const Eigen::VectorXd> x_full() const {
        return Eigen::Map<const Eigen::VectorXd>(vec.data(), static_cast<Eigen::Index>(vec.size()));
    }
};

VectorsData vectors_data(const ParamSet& params, const FrequencyTable& f) {
    VectorsData data{f, params.config()};
    data.pair = static_cast<int>(std::min<std::int64_t>(params[P::pair], f.pairs() - 1));
    data.m = params[P::position];
    data.n = params[P::key_position];
    data.vec = params.vector();
    data.dims = pair_dims(data.config.pairing, f.rotated_dims, data.pair);
    data.v = {data.vec[data.dims.first], data.vec[data.dims.second]};
    data.theta = f.theta[data.pair];
    data.md = static_cast<double>(data.m);
    // the rotated vector from the core (element-wise form), this pair's two components
    const Eigen::VectorXd rotated = rotate(f, data.config.pairing, data.x_full(), data.md);
    data.vm = {rotated[data.dims.first], rotated[data.dims.second]};
    data.wrapped = wrap_angle(position_angle(data.md, data.theta));
    return data;
}

// One line of the readouts under the pair view and the q-k view.
float readout_line_height(const plot::Style& st) { return st.px(st.tick_font) * 1.35f; }

// The room of the two readout lines under the pair view and the q-k view.
float readouts_height(const plot::Style& st) { return 2 * readout_line_height(st) + st.px(4); }

// Whether `cell` holds the view's plot at its minimum with the readouts under it. A smaller cell (a
// small panel beside a lesson step) gives the plot all of it: the picture matters more than the
// numbers, which the hover readout and the table also give.
bool has_readout_room(BuildContext& ctx, VectorsPlot view, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const float plot_min = st.px(ctx.figure().plots[static_cast<std::size_t>(view)].min_size.y);
    return cell.height() >= plot_min + readouts_height(st) - 0.5f;
}

// A cell below the view's minimum (a panel too small for any plot of the figure, which shows its
// most important one anyway): the plot keeps what room there is for its data.
bool squeezed(BuildContext& ctx, VectorsPlot view, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    return cell.height() < st.px(ctx.figure().plots[static_cast<std::size_t>(view)].min_size.y) - 0.5f;
}

// A view's plot: its cell less the readout lines at its bottom, when it has room for them.
plot::Rect plot_cell(BuildContext& ctx, VectorsPlot view, plot::Rect cell) {
    if (has_readout_room(ctx, view, cell)) cell.y1 -= readouts_height(ctx.request.style);
    return cell;
}

// The first of a readout's forms (longest first) that fits under its view, else the last.
std::string widest_fitting(BuildContext& ctx, plot::Rect cell, const std::vector<std::string>& forms) {
    const plot::Style& st = ctx.request.style;
    for (const std::string& f : forms)
        if (ctx.measure.measure(f, st.px(st.tick_font)).x <= cell.width() - st.px(8)) return f;
    return forms.back();
}

// The two readout lines at the bottom of a view's cell, centred under it.
void readouts(BuildContext& ctx, plot::Rect cell, const std::string& upper, Color upper_color, const std::string& lower,
              Color lower_color) {
    const plot::Style& st = ctx.request.style;
    const float tf = st.px(st.tick_font);
    const float line_h = readout_line_height(st);
    const float cx = (cell.x0 + cell.x1) / 2;
    ctx.result.list.text({cx, cell.y1 - line_h - st.px(2)}, upper, tf, upper_color, plot::HAlign::center, plot::VAlign::bottom);
    ctx.result.list.text({cx, cell.y1 - st.px(2)}, lower, tf, lower_color, plot::HAlign::center, plot::VAlign::bottom);
}

// The axes of a unit-circle view, -lim .. lim both ways: a bare square drawing, no axes.
void setup_circle_view(plot::Plot& p, const plot::AxisSetup& ax, const plot::AxisSetup& ay) {
    p.setup_x(ax);
    p.setup_y(ay);
    p.setup_square(true);
    p.setup_no_axes();
}

// The room a view needs: the pair view and the q-k view have two readout lines under their plot,
// so their cells need that much more than the plot's own minimum.
detail::FitOptions room_with_readouts(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const float readouts = readouts_height(st);
    detail::FitOptions o;
    for (VectorsPlot v : {VectorsPlot::pair, VectorsPlot::qk}) {
        const plot::Vec2 min = ctx.figure().plots[static_cast<std::size_t>(v)].min_size;
        o.min_of.push_back({static_cast<int>(v), {st.px(min.x), st.px(min.y) + readouts}});
    }
    return o;
}

// Model B on the pair's circle: its x (where B's head gives it other components) and its turn to m,
// dashed, by B's θ of the same pair index; the legend names both.
void draw_b_on_pair_plot(BuildContext& ctx, const VectorsData& a, const VectorsData& b, plot::Plot& p, std::vector<TipLabel>& labels) {
    const plot::Style& st = ctx.request.style;
    const Color turned_colour = named_colour(NamedColour::turned_vector, st.theme);
    const Vec2 origin = p.to_px(0, 0), tip0 = p.to_px(b.v.x, b.v.y), tipm = p.to_px(b.vm.x, b.vm.y);
    const float dash = st.px(6);
    if (b.v.x != a.v.x || b.v.y != a.v.y) {
        arrow(p, origin, tip0, st.theme.series[0], st.px(2.5f), st.px(11), dash);
        labels.push_back({tip0, "x (B)", st.theme.series[0]});
    }
    arrow(p, origin, tipm, turned_colour, st.px(2.5f), st.px(11), dash);
    if (b.m != 0) labels.push_back({tipm, "B", turned_colour});
}

// 1. The selected pair at position 0 and at position m.
void draw_pair_plot(BuildContext& ctx, const VectorsData& data, const VectorsData* b, const plot::Style& sub, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const FrequencyTable& f = data.f;
    const Pair2D v = data.v, vm = data.vm;
    const std::int64_t m = data.m;
    const Color turned_colour = named_colour(NamedColour::turned_vector, st.theme);  // the lessons name it
    const double radius = std::max(1e-9, std::hypot(v.x, v.y));
    const double lim = std::max(radius, b ? std::hypot(b->v.x, b->v.y) : 0.0) * 1.35;
    char title[160];
    std::snprintf(title, sizeof title, "pair %d = dims (%d, %d), θ = %s%s%s", data.pair, data.dims.first, data.dims.second,
                  plot::readout_number(data.theta, 4).c_str(), b ? (", B: " + plot::readout_number(b->theta, 4)).c_str() : "",
                  f.rotates(data.pair) ? "" : ": passes through");
    plot::Plot p(ctx.result.list, ctx.measure, sub, plot_cell(ctx, VectorsPlot::pair, cell), title);
    // the grid runs on over the cell's longer side rather than leave it empty (1 unit = 1 unit kept)
    // squeezed, its axes go unnamed: the title names the dims
    const bool named_axes = !squeezed(ctx, VectorsPlot::pair, cell);
    p.setup_x({named_axes ? "x" + std::to_string(data.dims.first) : "", -lim, lim});
    p.setup_y({named_axes ? "x" + std::to_string(data.dims.second) : "", -lim, lim});
    p.setup_square_widening_range();
    const Vec2 origin = p.to_px(0, 0);
    const float r_px = p.x_px(radius) - origin.x;
    // circle of the vector's length: rotation keeps it
    std::vector<Vec2> ring;
    for (int i = 0; i <= 96; ++i) {
        const double a = 2 * kPi * i / 96;
        ring.push_back(p.to_px(radius * std::cos(a), radius * std::sin(a)));
    }
    p.list().line(ring, st.theme.muted.with_alpha(0.6f), st.px(1.5f), st.px(5));
    // trail of earlier positions, fading towards the past
    const std::int64_t trail = std::min<std::int64_t>(m, 48);
    for (std::int64_t k = m - trail; k < m; ++k) {
        const Pair2D t = rotate2(v, wrap_angle(position_angle(static_cast<double>(k), data.theta)));
        const float age = static_cast<float>(m - k) / static_cast<float>(trail + 1);
        p.list().circle(p.to_px(t.x, t.y), st.px(3.5f), turned_colour.with_alpha(0.85f * (1 - age) + 0.1f));
    }
    const float head = st.px(13);
    const Vec2 tip0 = p.to_px(v.x, v.y), tipm = p.to_px(vm.x, vm.y);
    const double a0 = std::atan2(v.y, v.x);
    arc(p.list(), origin, r_px * 0.32f, a0, a0 + data.wrapped, st.theme.text, st.px(2));
    arrow(p, origin, tip0, st.theme.series[0], st.px(3.5f), head);
    arrow(p, origin, tipm, turned_colour, st.px(3.5f), head);
    std::vector<TipLabel> labels{{tip0, "x", st.theme.series[0]}};
    if (m != 0) labels.push_back({tipm, b ? "A" : "R(m)x", turned_colour});
    if (b) draw_b_on_pair_plot(ctx, data, *b, p, labels);
    tip_labels(p, st, origin, labels);
    record_geometry(ctx, p, VectorsPlot::pair);
    p.finish();
    if (!has_readout_room(ctx, VectorsPlot::pair, cell)) return;
    if (b) {  // both turns, each by its own θ of the same pair index; the readouts name the models (no legend: it would take the circle's room)
        const std::string name_a = detail::model_label(ctx.params), name_b = detail::model_label(ctx.params, true);
        const std::string turn_a = detail::angle_text(data.wrapped), turn_b = detail::angle_text(b->wrapped);
        readouts(ctx, cell, widest_fitting(ctx, cell, {"A, " + name_a + ", turns x by " + turn_a, "A, " + name_a + ": " + turn_a, "A: " + turn_a}),
                 turned_colour,
                 widest_fitting(ctx, cell, {"B, " + name_b + " (dashed), by " + turn_b, "B, " + name_b + " (dashed): " + turn_b,
                                            "B (dashed): " + turn_b, "B: " + turn_b}),
                 turned_colour);
        return;
    }
    const std::string angle = "m·θ = " + plot::readout_number(data.md * data.theta, 7) + " rad";
    readouts(ctx, cell, widest_fitting(ctx, cell, {"m = " + std::to_string(m) + ":  " + angle, angle}), st.theme.text,
             widest_fitting(ctx, cell, {"x turned by " + detail::angle_text(data.wrapped), detail::angle_text(data.wrapped)}),
             turned_colour);
}

// The fan's caption: the longest that fits the view (its type would otherwise shrink below readable).
std::string fan_caption(BuildContext& ctx, const plot::Style& sub, std::int64_t m, int shown, plot::Rect cell) {
    const std::string pairs_text = shown == 1 ? "the only pair" : "pairs 0–" + std::to_string(shown - 1);
    std::string caption;
    for (const std::string& c : {"(1, 0) turned at m = " + std::to_string(m) + ", " + pairs_text,
                                 "(1, 0) at m = " + std::to_string(m) + ", " + pairs_text, "m = " + std::to_string(m) + ", " + pairs_text}) {
        caption = c;
        if (ctx.measure.measure(c, sub.px(sub.title_font)).x <= cell.width() - sub.px(16)) break;
    }
    return caption;
}

// The fan's pair numbers, each where it does not cover one already placed.
void fan_labels(BuildContext& ctx, const VectorsData& data, plot::Plot& p, int shown) {
    const plot::Style& st = ctx.request.style;
    const Vec2 origin = p.to_px(0, 0);
    std::vector<Vec2> placed;
    const float label_size = std::max(st.px(st.tick_font) * 0.85f, st.px(st.min_text));
    for (int k = 0; k < shown; ++k) {
        const double a = wrap_angle(position_angle(data.md, data.f.theta[k]));
        // just outside the unit circle: the box's nearest corner clears it by a small gap
        const std::string label = std::to_string(k);
        const float c = static_cast<float>(std::cos(a)), s = static_cast<float>(std::sin(a));
        const float half_w = ctx.measure.measure(label, label_size).x / 2, half_h = label_size / 2;
        const float dist = (p.x_px(1) - origin.x) + st.px(4) + half_w * std::abs(c) + half_h * std::abs(s);
        const Vec2 at{origin.x + c * dist, origin.y - s * dist};
        bool free = true;
        for (const Vec2& q : placed)
            if (std::abs(q.x - at.x) < label_size * 1.4f && std::abs(q.y - at.y) < label_size * 1.0f) free = false;
        if (!free) continue;
        placed.push_back(at);
        const bool selected = k == data.pair && ctx.request.show_cursor;
        p.list().text(at, label, label_size, selected ? st.theme.accent : st.theme.text, plot::HAlign::center,
                      plot::VAlign::middle);
    }
}

// 2. The fan: the unit vector (1, 0) rotated by m*theta_k in each of the first 64 pairs.
void draw_fan(BuildContext& ctx, const VectorsData& data, const VectorsData* b, const plot::Style& sub, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const int shown = std::min(data.f.pairs(), 64);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell, fan_caption(ctx, sub, data.m, shown, cell));
    plot::AxisSetup ax{"", -1.3, 1.3}, ay{"", -1.3, 1.3};
    setup_circle_view(p, ax, ay);
    const Vec2 origin = p.to_px(0, 0);
    std::vector<Vec2> unit;
    for (int i = 0; i <= 96; ++i) unit.push_back(p.to_px(std::cos(2 * kPi * i / 96), std::sin(2 * kPi * i / 96)));
    p.list().line(unit, st.theme.muted.with_alpha(0.5f), st.px(1.2f), st.px(4));
    p.list().segment(origin, p.to_px(1, 0), st.theme.muted, st.px(2), st.px(4));
    for (int k = shown - 1; k >= 0; --k) {
        const double a = wrap_angle(position_angle(data.md, data.f.theta[k]));
        const Color c = plot::ramp_color(st.theme, k / std::max(1.0, shown - 1.0));  // as in the pairing diagram
        p.list().segment(origin, p.to_px(std::cos(a), std::sin(a)), c, st.px(k == data.pair && ctx.request.show_cursor ? 3.5f : 1.8f));
    }
    if (b) {  // B's rays dashed beyond the circle, coloured by the same share of its pairs: where its spectrum points
        const int shown_b = std::min(b->f.pairs(), 64);
        for (int k = shown_b - 1; k >= 0; --k) {
            const double a = wrap_angle(position_angle(b->md, b->f.theta[k]));
            const Color c = plot::ramp_color(st.theme, k / std::max(1.0, shown_b - 1.0));
            p.list().segment(p.to_px(0.55 * std::cos(a), 0.55 * std::sin(a)), p.to_px(std::cos(a), std::sin(a)), c,
                             st.px(k == b->pair && ctx.request.show_cursor ? 3.0f : 1.5f), st.px(4));
        }
    }
    fan_labels(ctx, data, p, shown);
    record_geometry(ctx, p, VectorsPlot::fan);
    p.finish();
}

// "−12.3°": the angle in degrees with a true minus sign.
std::string degrees_text(double radians) {
    char angle_deg[48];
    std::snprintf(angle_deg, sizeof angle_deg, "%.1f°", radians * 180.0 / kPi);
    std::string a = angle_deg;
    if (a[0] == '-') a = "−" + a.substr(1);
    return a;
}

// 3. q at m beside k at n: their angle, and so the score, depends on n - m only. k's pair comes
// from key_vector (the same as q's unless set).
// q turned to m and k turned to n in a model's pair; the full score over every pair.
struct QueryKey {
    Pair2D q, k;
    double score = 0;
    double rel = 0;  // k's angle from q
};

QueryKey query_key(const ParamSet& params, const VectorsData& data) {
    const std::vector<double> key = params.key_vector();
    const Pair2D kv{key[data.dims.first], key[data.dims.second]};
    const Eigen::Map<const Eigen::VectorXd> k_full(key.data(), static_cast<Eigen::Index>(key.size()));
    QueryKey out;
    out.q = rotate2(data.v, data.wrapped);
    out.k = rotate2(kv, wrap_angle(position_angle(static_cast<double>(data.n), data.theta)));
    out.score = attention_score(data.f, data.config.pairing, data.x_full(), data.md, k_full, static_cast<double>(data.n), data.f.attention_factor);
    // (n - m) theta plus the angle k starts at relative to q (0 when k = q), exact at any position
    const double start = params.has(P::key_vector) ? std::atan2(kv.y, kv.x) - std::atan2(data.v.y, data.v.x) : 0.0;
    out.rel = wrap_angle(position_angle(static_cast<double>(data.n - data.m), data.theta) + start);
    return out;
}

void draw_q_and_k(BuildContext& ctx, const VectorsData& data, const VectorsData* b, const ParamSet* b_params, const plot::Style& sub,
                  plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const Pair2D v = data.v;
    const std::int64_t m = data.m, n = data.n;
    const std::vector<double> key = ctx.params.key_vector();
    const Pair2D kv{key[data.dims.first], key[data.dims.second]};
    const QueryKey qk = query_key(ctx.params, data);
    const Pair2D q = qk.q, k = qk.k;
    std::optional<QueryKey> qk_b;
    if (b) qk_b = query_key(*b_params, *b);
    const double radius = std::max({1e-9, std::hypot(v.x, v.y), std::hypot(kv.x, kv.y), qk_b ? std::hypot(qk_b->q.x, qk_b->q.y) : 0.0,
                                    qk_b ? std::hypot(qk_b->k.x, qk_b->k.y) : 0.0});
    const double lim = radius * 1.25;
    plot::Plot p(ctx.result.list, ctx.measure, sub, plot_cell(ctx, VectorsPlot::qk, cell),
                 "q at m = " + std::to_string(m) + ", k at n = " + std::to_string(n));
    plot::AxisSetup ax{"", -lim, lim}, ay{"", -lim, lim};
    setup_circle_view(p, ax, ay);
    const Vec2 origin = p.to_px(0, 0);
    const float r_px = p.x_px(radius) - origin.x;
    const float head = st.px(11);
    const double aq = std::atan2(q.y, q.x), rel = qk.rel;
    arc(p.list(), origin, r_px * 0.4f, aq, aq + rel, st.theme.text, st.px(2));
    const Vec2 tq = p.to_px(q.x, q.y), tk = p.to_px(k.x, k.y);
    arrow(p, origin, tq, st.theme.accent, st.px(3), head);
    arrow(p, origin, tk, st.theme.marker, st.px(3), head);
    tip_labels(p, st, origin, {{tq, "q", st.theme.accent}, {tk, "k", st.theme.marker}});
    if (qk_b) {  // B's q and k dashed, on the same circle (the pair view's legend says dashed is B)
        const Vec2 bq = p.to_px(qk_b->q.x, qk_b->q.y), bk = p.to_px(qk_b->k.x, qk_b->k.y);
        arrow(p, origin, bq, st.theme.accent, st.px(2.5f), head, st.px(6));
        arrow(p, origin, bk, st.theme.marker, st.px(2.5f), head, st.px(6));
    }
    record_geometry(ctx, p, VectorsPlot::qk);
    p.finish();
    if (!has_readout_room(ctx, VectorsPlot::qk, cell)) return;
    const std::string a = degrees_text(rel);
    const std::string score = plot::readout_number(qk.score, 6);
    if (qk_b) {
        const std::string score_b = plot::readout_number(qk_b->score, 6);
        readouts(ctx, cell, widest_fitting(ctx, cell, {"A: angle " + a + ", ⟨q, k⟩ = " + score, "A: ⟨q, k⟩ = " + score}), st.theme.text,
                 widest_fitting(ctx, cell, {"B: angle " + degrees_text(qk_b->rel) + ", ⟨q, k⟩ = " + score_b, "B: ⟨q, k⟩ = " + score_b}),
                 st.theme.text);
        return;
    }
    readouts(ctx, cell, widest_fitting(ctx, cell, {"n − m = " + std::to_string(n - m) + ": angle " + a, "angle " + a}), st.theme.text,
             widest_fitting(ctx, cell, {"score ⟨q, k⟩ = " + score, "⟨q, k⟩ = " + score}), st.theme.marker);
}

void fill_vectors_table(DataTable& t, const VectorsData& data) {
    const FrequencyTable& f = data.f;
    // rotated_* carry the attention factor, as `compute rotate` and the model do (cos and sin
    // scaled by it); the picture draws the rotation alone, which keeps the length.
    const Eigen::VectorXd scaled = rotate(f, data.config.pairing, data.x_full(), data.md, f.attention_factor);
    t.columns = {"pair", "angle", "x_first", "x_second", "rotated_first", "rotated_second"};
    t.values.assign(6, {});
    for (int k = 0; k < f.pairs(); ++k) {
        const PairDims dk = pair_dims(data.config.pairing, f.rotated_dims, k);
        t.values[0].push_back(k);
        t.values[1].push_back(wrap_angle(position_angle(data.md, f.theta[k])));
        t.values[2].push_back(data.vec[dk.first]);
        t.values[3].push_back(data.vec[dk.second]);
        t.values[4].push_back(scaled[dk.first]);
        t.values[5].push_back(scaled[dk.second]);
    }
}

void build_vectors(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const VectorsData data = vectors_data(ctx.params, ctx.frequencies());
    // model B on the same circles, dashed: its pair of the same index, its fan, its q and k
    const std::optional<ParamSet> b_params = detail::model_b(ctx.params);
    const std::shared_ptr<const FrequencyTable> b_freqs = b_params ? ctx.cache.frequencies(*b_params) : nullptr;
    std::optional<VectorsData> b;
    if (b_freqs) b.emplace(vectors_data(*b_params, *b_freqs));
    const VectorsData* bp = b ? &*b : nullptr;
    const float W = ctx.request.width, H = ctx.request.height;
    const float title_space = st.draw_titles ? st.px(st.title_font) * 1.4f : 0;
    if (st.draw_titles)
        ctx.result.list.text({W / 2, st.px(6)}, ctx.title(), st.px(st.title_font),
                             st.theme.text, plot::HAlign::center, plot::VAlign::top);
    const bool wide = W >= H * 1.3f;
    const float split = title_space + (H - title_space) * 0.5f;
    // side by side: the two unit-circle views stacked at the right in cells about as wide as tall
    // (wider cells would leave their sides empty), the pair's plot the rest
    const float right = std::clamp((H - title_space) * 0.5f * 1.2f, W * 0.3f, W * 0.48f), left = W - right;
    // too small for three views: the pair's rotation first, then q beside k, then the fan
    const SubplotFit fit = fit_plots(
        ctx, {0, title_space, W, H},
        {wide ? plot::Rect{0, title_space, left, H} : plot::Rect{0, title_space, W, H * 0.55f},
         wide ? plot::Rect{left, title_space, W, split} : plot::Rect{0, H * 0.55f, W / 2, H},
         wide ? plot::Rect{left, split, W, H} : plot::Rect{W / 2, H * 0.55f, W, H}},  // unit-circle views: no axes
        room_with_readouts(ctx));
    plot::Style sub = st;
    sub.title_font = st.title_font * 0.8f;
    sub.draw_titles = true;  // the three views need their own captions

    if (fit.shows(VectorsPlot::pair)) draw_pair_plot(ctx, data, bp, sub, fit.cell(VectorsPlot::pair));
    if (fit.shows(VectorsPlot::fan)) draw_fan(ctx, data, bp, sub, fit.cell(VectorsPlot::fan));
    if (fit.shows(VectorsPlot::qk)) draw_q_and_k(ctx, data, bp, b_params ? &*b_params : nullptr, sub, fit.cell(VectorsPlot::qk));
    if (ctx.request.with_table) ctx.result.table = detail::table_of_models(data, bp, fill_vectors_table);
}

std::string list_text(const std::vector<double>& v) {
    std::string text;
    for (std::size_t i = 0; i < v.size(); ++i) text += (i ? "," : "") + format_number(v[i]);
    return text;
}

void vectors_header(PanelContext& panel, HeaderControls& ui) {
    ui.text("shift:", "Shift both the query position m and the key position n by the same amount.");
    for (int delta : {-10, -1, 1, 10}) {
        ui.same_line();
        char label[16];
        std::snprintf(label, sizeof label, "%+d", delta);
        if (!ui.button(label, "Shift both q's position m and k's position n: the angle between them, and so the score, stays the same."))
            continue;
        const std::int64_t m = panel.params[P::position] + delta, n = panel.params[P::key_position] + delta;
        if (m < 0 || n < 0 || m >= panel.params[P::max_position]) continue;
        panel.edit("shift m, n by " + std::string(label), [&](ParamSet& next) {
            next.set_number(P::position, static_cast<double>(m));
            next.set_number(P::key_position, static_cast<double>(n));
        });
    }
}

std::string vectors_readout(PanelContext& panel, const PlotGeometry& g, double x, double y) {
    if (g.is(VectorsPlot::qk))
        return panel.params.has(P::key_vector) ? "drag to move k (the key)\ndouble-click: k = q again" : "drag to move k (the key; now k = q)";
    if (g.is(VectorsPlot::pair))
        return "(" + plot::readout_number(x, 4) + ", " + plot::readout_number(y, 4) + ")\ndrag to set the pair's vector";
    return "";
}

// Dragging x's tip sets the selected pair of `vector`; dragging k's tip in the q-k view chooses the
// key (its pair, turned back from position n); a double-click there makes k = q again.
void vectors_pointer(PanelContext& panel, const PointerInput& in) {
    const ParamSet& p = panel.params;
    if (!in.held) panel.grab = kNone;
    const PlotGeometry* pair_plot = panel.figure.find(VectorsPlot::pair);
    const PlotGeometry* qk = panel.figure.find(VectorsPlot::qk);
    if (qk && in.double_clicked && qk->area.contains(in.local)) {
        panel.grab = kNone;
        panel.edit("key k = q", [](ParamSet& next) { next.reset(P::key_vector); });
        return;
    }
    if (in.pressed) {
        if (pair_plot && pair_plot->area.contains(in.local)) panel.grab = kVector;
        else if (qk && qk->area.contains(in.local)) panel.grab = kKey;
    }
    if (!in.held || panel.grab == kNone) return;
    const auto f = panel.cache.frequencies(p);
    const int pair = static_cast<int>(std::min<std::int64_t>(p[P::pair], f->pairs() - 1));
    const PairDims d = pair_dims(p.config().pairing, f->rotated_dims, pair);
    if (panel.grab == kVector && pair_plot) {
        std::vector<double> v = p.vector();
        v[d.first] = pair_plot->x_at(in.local.x);
        v[d.second] = pair_plot->y_at(in.local.y);
        panel.edit("drag the vector x", [&](ParamSet& next) { next.set(P::vector, list_text(v)); });
    } else if (panel.grab == kKey && qk) {
        const double back = -wrap_angle(position_angle(static_cast<double>(p[P::key_position]), f->theta[pair]));
        const double x = qk->x_at(in.local.x), y = qk->y_at(in.local.y);
        std::vector<double> k = p.key_vector();
        k[d.first] = x * std::cos(back) - y * std::sin(back);
        k[d.second] = x * std::sin(back) + y * std::cos(back);
        panel.edit("drag the key k", [&](ParamSet& next) { next.set(P::key_vector, list_text(k)); });
    }
}

}  // namespace

const FigureDescriptor& vectors_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "vectors";
        f.title = "Rotated vectors";
        f.page = 0;
        f.csv_columns = "pair,angle,x_first,x_second,rotated_first,rotated_second";
        f.plots = tagged_plots<VectorsPlot>({
            {VectorsPlot::pair, {"pair", "The selected pair turned to position m", "pair i at m", PlotRole::main, AxisRole::other, AxisRole::other, 0, {170, 150}, 0, false, 1.0f, {"arrow", "turn"}}},
            {VectorsPlot::fan, {"fan", "One token's rotation in every pair", "every pair", PlotRole::supporting, AxisRole::other, AxisRole::other, 2, {170, 150}, 0, false, 1.0f, {"fan"}}},
            {VectorsPlot::qk, {"qk", "q at m beside k at n", "q and k", PlotRole::supporting, AxisRole::other, AxisRole::other, 1, {170, 150}, 0, false, 1.0f, {"q and k", "shift buttons"}}},
        });
        f.reads = model_and({P::pair, P::position, P::key_position, P::vector, P::key_vector, P::preset});
        f.model_b = ModelBView::itself;  // B dashed on the same circles
        f.describe = describe_vectors;
        f.build = build_vectors;
        f.header_width_em = 13;
        f.header = vectors_header;
        f.readout = vectors_readout;
        f.pointer = vectors_pointer;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
