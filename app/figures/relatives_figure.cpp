// RoPE and its relatives: what each way of putting positions into attention does to a score as the
// distance grows, and past the length the model was trained on (original_max_position, shaded).
//  - ALiBi (BLOOM, MPT): every head adds -slope x distance, one straight line per head;
//  - T5: the distance picks a bucket, and each bucket has a learned bias per head (the weights, not
//    drawn here): the plot shows which distances share a bucket;
//  - RoPE, the sinusoidal encoding and NoPE: the score of a token with itself (q = k = all ones)
//    divided by its value at distance 0; RoPE's is the mean of cos(r theta_i) over pairs, the
//    sinusoid's PE(m).PE(n) is the same sum at base 10000 (but added to the token, not turning it),
//    NoPE's does not change.
// The model's own encoding is named in its plot's title.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "figures/alt_text.hpp"
#include "figures/compared_build.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/why_common.hpp"
#include "plot/colormap.hpp"
#include "plot/ticks.hpp"
#include "rope/decay.hpp"
#include "rope/encodings.hpp"
#include "rope/relative_biases.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
using detail::fit_plots;
using detail::SubplotFit;
namespace why = detail::why;

enum class RelativesPlot { alibi, t5, score };

constexpr double kVaswaniBase = 10000;  // Vaswani et al.'s
constexpr std::size_t kMostHeadsDrawn = 16;
constexpr double kLowestBias = -24;  // e^-24: a key this far down gets no weight to speak of

// Which encoding the model uses: its own plot is named after it.
enum class Own { rope, nope, alibi, t5 };

Own own_encoding(const ParamSet& p) {
    switch (p[P::position_encoding]) {
        case PositionEncoding::alibi: return Own::alibi;
        case PositionEncoding::t5: return Own::t5;
        case PositionEncoding::rope: break;
    }
    return p[P::nope] ? Own::nope : Own::rope;
}

// The last distance shown: twice the training length, so the half past it shows what happens there.
std::int64_t reach_for(std::int64_t trained) { return std::clamp<std::int64_t>(2 * trained, 64, std::int64_t(1) << 22); }

// Distances 0, 1, ... one by one up to 256 (T5's steps, the score's first wiggles), then 1% apart (a
// pixel column of a log axis holds several), up to `reach`: about 600 points for 8192 tokens.
std::vector<double> distances_to(std::int64_t reach) {
    std::vector<double> d;
    const std::int64_t dense = std::min<std::int64_t>(reach, 256);
    for (std::int64_t r = 0; r <= dense; ++r) d.push_back(static_cast<double>(r));
    for (double r = static_cast<double>(dense) * 1.01; r < static_cast<double>(reach); r *= 1.01) d.push_back(std::floor(r));
    if (d.back() < static_cast<double>(reach)) d.push_back(static_cast<double>(reach));
    return d;
}

struct RelativesData {
    Own own = Own::rope;
    std::string model;                // "bloom-7b1", "this model"
    std::int64_t trained = 0, reach = 0;  // L0 and the last distance shown (2 L0)
    bool log_x = true;
    std::vector<double> distance;
    // ALiBi: the heads drawn (all up to 16, else 16 spread from the steepest to the gentlest)
    std::vector<double> slopes;               // every head's
    std::vector<std::size_t> heads_drawn;     // indices into slopes, steepest first
    std::vector<std::vector<double>> bias;    // per head drawn, over distance
    // T5: the bucket of a key `distance` tokens before the query, and after it
    T5BucketSettings t5;
    std::vector<double> bucket_before, bucket_after;
    // score of q = k = all ones ÷ its value at 0
    std::vector<double> rope, sinusoid, nope;
    double rope_base = 10000;
    int rope_dims = 0, dim = 0;
    bool rope_is_model = true;  // false: the model does not rotate, RoPE is drawn at base 10000 for comparison
    // model B's RoPE score over the same distances (empty: no B, or B does not rotate), and B's name
    std::vector<double> rope_b;
    std::string b_name;
};

// Model B in the score plot: its own RoPE's score of q = k, dashed over A's (a B without RoPE has
// no line: the figure's title names it, and its bias is one of the curves already).
void add_model_b(BuildContext& ctx, RelativesData& d) {
    const std::optional<ParamSet> b = detail::model_b(ctx.params);
    if (!b) return;
    const Own own = own_encoding(*b);
    if (own != Own::rope) return;
    d.b_name = "B: " + detail::model_label(ctx.params, true);
    const std::shared_ptr<const FrequencyTable> f = ctx.cache.frequencies(*b);  // held: the cache may let it go
    d.b_name += ", RoPE base " + plot::tick_label((*b)[P::base], 3);
    for (double r : d.distance) d.rope_b.push_back(f->theta.size() ? mean_cos(f->theta, r) : 1.0);
}

void fill_alibi(const ParamSet& p, RelativesData& d) {
    d.slopes = alibi_slopes(static_cast<int>(p[P::heads]), p[P::alibi_layout], p[P::alibi_bias_max]);
    std::vector<std::size_t> order(d.slopes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return d.slopes[a] > d.slopes[b]; });
    const std::size_t n = order.size(), drawn = std::min(n, kMostHeadsDrawn);
    for (std::size_t j = 0; j < drawn; ++j) d.heads_drawn.push_back(order[drawn < 2 ? 0 : j * (n - 1) / (drawn - 1)]);
    for (std::size_t h : d.heads_drawn) {
        std::vector<double> y(d.distance.size());
        for (std::size_t i = 0; i < y.size(); ++i) y[i] = alibi_bias(d.slopes[h], d.distance[i]);
        d.bias.push_back(std::move(y));
    }
}

void fill_t5(const ParamSet& p, RelativesData& d) {
    d.t5 = {static_cast<int>(p[P::t5_num_buckets]), p[P::t5_max_distance], p[P::t5_bidirectional]};
    for (double r : d.distance) {
        const auto k = static_cast<std::int64_t>(r);
        d.bucket_before.push_back(t5_bucket(-k, d.t5));
        d.bucket_after.push_back(t5_bucket(k, d.t5));
    }
}

void fill_scores(const ParamSet& p, const FrequencyTable& f, RelativesData& d) {
    d.dim = static_cast<int>(p[P::dim]);
    d.rope_is_model = d.own == Own::rope;
    Eigen::VectorXd theta = f.theta;
    d.rope_dims = f.rotated_dims;
    d.rope_base = p[P::base];
    if (!d.rope_is_model) {  // NoPE, ALiBi, T5: RoPE as a model of this head would have it at base 10000
        RopeConfig plain;
        plain.dim = d.dim;
        plain.base = kVaswaniBase;
        const FrequencyTable t = compute_frequencies(plain);
        theta = t.theta, d.rope_dims = t.rotated_dims, d.rope_base = kVaswaniBase;
    }
    const double half = d.dim / 2.0;
    for (double r : d.distance) {
        d.rope.push_back(theta.size() ? mean_cos(theta, r) : 1.0);
        d.sinusoid.push_back(sinusoidal_dot_at_distance(r, d.dim, kVaswaniBase) / half);
        d.nope.push_back(1.0);
    }
}

RelativesData relatives_data(const ParamSet& p, const FrequencyTable& f) {
    RelativesData d;
    d.own = own_encoding(p);
    d.model = detail::model_label(p);
    d.trained = p[P::original_max_position];
    d.reach = reach_for(d.trained);
    d.log_x = p[P::decay_scale] == DecayScale::log;
    d.distance = distances_to(d.reach);
    fill_alibi(p, d);
    fill_t5(p, d);
    fill_scores(p, f, d);
    return d;
}

// "1/2", "1/256" for ALiBi's powers of two, else three digits ("0.707")
std::string slope_text(double s) {
    const double k = -std::log2(s);
    if (std::abs(k - std::round(k)) < 1e-12 && k >= 0 && k < 60)
        return k == 0 ? "1" : "1/" + std::to_string(std::int64_t(1) << static_cast<int>(std::round(k)));
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", s);
    return text;
}

plot::AxisSetup distance_axis(const RelativesData& d, bool log_x) {
    return {"distance m − n, key before the query (tokens)", log_x ? 1.0 : 0.0, static_cast<double>(d.reach), log_x};
}

// The training length: the shade past it, and its line.
void mark_training(const BuildContext& ctx, plot::Plot& p, const RelativesData& d) {
    const plot::Theme& th = ctx.request.style.theme;
    p.band_x(static_cast<double>(d.trained), static_cast<double>(d.reach), plot::fade_color().with_alpha(0.25f));
    p.marker_x(static_cast<double>(d.trained), th.accent, "trained to " + plot::tick_label(static_cast<double>(d.trained), 1), 1.5f, 5.0f);
}

std::string own_suffix(const RelativesData& d, Own which) { return d.own == which ? " — " + d.model + "'s" : std::string(); }

void draw_alibi(BuildContext& ctx, const RelativesData& d, plot::Rect cell) {
    const plot::Theme& th = ctx.request.style.theme;
    const plot::Style sub = why::sub_style(ctx.request.style);
    const std::size_t first = d.heads_drawn.front(), last = d.heads_drawn.back();
    const std::string heads = std::to_string(d.slopes.size()) + " heads";
    const std::string slopes = "slopes " + slope_text(d.slopes[first]) + " … " + slope_text(d.slopes[last]);
    const std::string own = own_suffix(d, Own::alibi);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"ALiBi: −slope × distance, " + heads + ", " + slopes + own, "ALiBi, " + heads + ", " + slopes + own,
                                  "ALiBi, " + heads + own, "ALiBi, " + heads}));
    p.setup_x(distance_axis(d, false));  // linear: a bias linear in the distance is a straight line
    p.setup_y({"bias", kLowestBias, 1.0});
    // short names in a row above: the lines fan out from the top left over the whole plot
    // heads by their 0-based index, as compute alibi counts them
    const std::string steep = "steepest head (" + std::to_string(first) + ")", gentle = "gentlest (" + std::to_string(last) + ")";
    const std::string between = d.heads_drawn.size() < d.slopes.size() ? "some heads between" : "heads between";
    std::vector<std::string> names{steep};
    if (d.heads_drawn.size() > 1) names.push_back(gentle);
    if (d.heads_drawn.size() > 2) names.push_back(between);
    p.setup_legend_above(names);
    mark_training(ctx, p, d);
    for (std::size_t j = 1; j + 1 < d.heads_drawn.size(); ++j)
        p.line(d.distance.data(), d.bias[j].data(), d.distance.size(), 1, th.series[3], j == 1 ? between : "", sub.line_width * 0.6f);
    if (d.heads_drawn.size() > 1)
        p.line(d.distance.data(), d.bias.back().data(), d.distance.size(), 1, th.series[1], gentle, sub.line_width * 1.2f, th.series_dash[1]);
    p.line(d.distance.data(), d.bias.front().data(), d.distance.size(), 1, th.series[0], steep, sub.line_width * 1.4f);
    record_geometry(ctx, p, RelativesPlot::alibi);
    p.finish();
}

void draw_t5(BuildContext& ctx, const RelativesData& d, plot::Rect cell) {
    const plot::Theme& th = ctx.request.style.theme;
    const plot::Style sub = why::sub_style(ctx.request.style);
    const std::string kind = d.t5.bidirectional ? "both directions" : "causal";
    const std::string own = own_suffix(d, Own::t5);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"T5: " + std::to_string(d.t5.num_buckets) + " buckets of distances, " + kind + own,
                                  "T5 buckets, " + kind + own, "T5 buckets" + own, "T5 buckets"}));
    p.setup_x(distance_axis(d, true));  // logarithmic, as the buckets are
    plot::AxisSetup y{"bucket (own bias)", -0.5, d.t5.num_buckets - 0.5};
    y.integer_ticks = true;
    p.setup_y(y);
    const std::string before = "key before the query", after = "key after it";
    p.setup_legend_above(d.t5.bidirectional ? std::vector<std::string>{before, after} : std::vector<std::string>{before});
    mark_training(ctx, p, d);
    if (d.t5.max_distance <= d.reach)
        p.marker_x(static_cast<double>(d.t5.max_distance), th.marker, "max_distance " + std::to_string(d.t5.max_distance), 1.2f, 3.0f);
    if (d.t5.bidirectional)
        p.line(d.distance.data(), d.bucket_after.data(), d.distance.size(), 1, th.series[1], after, sub.line_width * 1.1f, th.series_dash[1]);
    p.line(d.distance.data(), d.bucket_before.data(), d.distance.size(), 1, th.series[2], before, sub.line_width * 1.4f);
    record_geometry(ctx, p, RelativesPlot::t5);
    p.finish();
}

void draw_score(BuildContext& ctx, const RelativesData& d, plot::Rect cell) {
    const plot::Theme& th = ctx.request.style.theme;
    const plot::Style sub = why::sub_style(ctx.request.style);
    const std::string own = d.own == Own::rope || d.own == Own::nope ? " — " + d.model + "'s: " + (d.own == Own::rope ? "RoPE" : "NoPE") : "";
    const std::string rope_of = "RoPE at base " + plot::tick_label(d.rope_base, 3) + ", d = " + std::to_string(d.rope_dims);
    plot::Plot p(ctx.result.list, ctx.measure, sub, cell,
                 why::pick_title(ctx, sub, cell.width(),
                                 {"Score of q = k: " + rope_of + ", sinusoid, NoPE" + own, "Score of q = k, " + rope_of + own,
                                  "Score of q = k" + own, "Score of q = k"}));
    p.setup_x(distance_axis(d, d.log_x));
    p.setup_y({"score ÷ its value at 0", -0.45, 1.15});
    const std::string rope = d.rope_is_model ? (d.b_name.empty() ? "RoPE" : "A: RoPE") : "RoPE (for comparison)";
    const std::string sinusoid = "sinusoid PE(m)·PE(n)", nope = "NoPE";
    std::vector<std::string> names{rope, sinusoid, nope};
    if (!d.rope_b.empty()) names.push_back(d.b_name);
    p.setup_legend_above(names);
    mark_training(ctx, p, d);
    p.line(d.distance.data(), d.nope.data(), d.distance.size(), 1, th.series[3], nope, sub.line_width * 1.2f, th.series_dash[3]);
    p.line(d.distance.data(), d.rope.data(), d.distance.size(), 1, th.series[0], rope, sub.line_width * 1.4f);
    p.line(d.distance.data(), d.sinusoid.data(), d.distance.size(), 1, th.series[1], sinusoid, sub.line_width * 0.9f, 5);
    if (!d.rope_b.empty())
        p.line(d.distance.data(), d.rope_b.data(), d.distance.size(), 1, th.series[2], d.b_name, sub.line_width * 1.1f, 8);
    record_geometry(ctx, p, RelativesPlot::score);
    p.finish();
}

// The caption: what happens past the training length, for each.
float draw_caption(BuildContext& ctx, const RelativesData& d) {
    const plot::Style& st = ctx.request.style;
    const float W = ctx.request.width, H = ctx.request.height;
    if (H < st.px(420)) return H;
    const std::string caption =
        "Past the training length (shaded): ALiBi's lines keep falling, so far keys fade out; T5 puts every distance past "
        "max_distance in one bucket; RoPE's slow pairs reach angles never trained on; NoPE has no distance to outgrow." +
        std::string(d.rope_base == kVaswaniBase && d.rope_dims == d.dim
                        ? " At base 10000 RoPE's curve and PE(m)·PE(n) are one sum of cosines: the sinusoid is added to the token, RoPE turns it."
                        : "");
    // the plots first: a caption that would take more than a sixth of the picture (large type on a
    // projector) is left out, the step's text says as much
    if (why::wrapped_caption(ctx, caption, 0, W, H - st.px(3), st.theme.text, false) > H / 6) return H;
    return H - why::wrapped_caption(ctx, caption, 0, W, H - st.px(3), st.theme.text) - st.px(6);
}

// One row per distance shown.
void fill_relatives_table(DataTable& t, const RelativesData& d) {
    t.columns = {"distance", "alibi_steepest_bias", "alibi_gentlest_bias", "t5_bucket_key_before", "t5_bucket_key_after",
                 "rope_score", "sinusoidal_score", "nope_score"};
    t.values.assign(t.columns.size(), {});
    for (std::size_t i = 0; i < d.distance.size(); ++i) {
        const double row[] = {d.distance[i], d.bias.front()[i], d.bias.back()[i], d.bucket_before[i], d.bucket_after[i],
                              d.rope[i],     d.sinusoid[i],     d.nope[i]};
        for (std::size_t c = 0; c < t.columns.size(); ++c) t.values[c].push_back(row[c]);
    }
}

void build_relatives(BuildContext& ctx) {
    RelativesData data = relatives_data(ctx.params, ctx.frequencies());
    add_model_b(ctx, data);
    const float W = ctx.request.width;
    const float top = why::title_space(ctx);
    const float bottom = draw_caption(ctx, data);
    const float H = bottom - top;
    // wide: three abreast; else the score plot across the top, ALiBi and T5 below it
    const bool wide = W >= H * 2.4f;
    const float third = W / 3, mid_y = top + H * 0.42f;  // the row of two carries two legends
    const std::vector<plot::Rect> own =
        wide ? std::vector<plot::Rect>{{0, top, third, bottom}, {third, top, 2 * third, bottom}, {2 * third, top, W, bottom}}
             : std::vector<plot::Rect>{{0, mid_y, W / 2, bottom}, {W / 2, mid_y, W, bottom}, {0, top, W, mid_y}};
    const SubplotFit fit = fit_plots(ctx, {0, top, W, bottom}, own);
    if (fit.shows(RelativesPlot::alibi)) draw_alibi(ctx, data, fit.cell(RelativesPlot::alibi));
    if (fit.shows(RelativesPlot::t5)) draw_t5(ctx, data, fit.cell(RelativesPlot::t5));
    if (fit.shows(RelativesPlot::score)) draw_score(ctx, data, fit.cell(RelativesPlot::score));
    if (ctx.request.with_table) {
        DataTable t;
        fill_relatives_table(t, data);
        ctx.result.table = std::move(t);
    }
}

}  // namespace

std::string describe_relatives(const ParamSet& p, const FigureResult&) {
    const std::vector<double> slopes = alibi_slopes(static_cast<int>(p[P::heads]), p[P::alibi_layout], p[P::alibi_bias_max]);
    const std::int64_t trained = p[P::original_max_position];
    std::string s = "ALiBi's bias of " + std::to_string(slopes.size()) + " heads (slopes " + slope_text(*std::max_element(slopes.begin(), slopes.end())) + " to " +
                    slope_text(*std::min_element(slopes.begin(), slopes.end())) + "), T5's " + std::to_string(p[P::t5_num_buckets]) +
                    " buckets (max distance " + std::to_string(p[P::t5_max_distance]) + (p[P::t5_bidirectional] ? ", both directions" : ", causal") +
                    ") and the score of q = k under RoPE, the sinusoidal encoding and NoPE, against distances up to " +
                    std::to_string(reach_for(trained)) + ", the model trained to " +
                    std::to_string(trained);
    switch (own_encoding(p)) {
        case Own::alibi: return s + "; the model uses ALiBi";
        case Own::t5: return s + "; the model uses T5's buckets";
        case Own::nope: return s + "; the model (this layer) uses no position encoding";
        case Own::rope: break;
    }
    return s + "; the model uses RoPE";
}

const FigureDescriptor& relatives_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "relatives";
        f.title = "RoPE and its relatives";
        f.page = 2;
        f.export_width = 900, f.export_height = 640;
        f.csv_columns = "distance,alibi_steepest_bias,alibi_gentlest_bias,t5_bucket_key_before,t5_bucket_key_after,rope_score,sinusoidal_score,nope_score";
        f.plots = tagged_plots<RelativesPlot>({
            {RelativesPlot::alibi, {"relatives_alibi", "ALiBi: each head's linear bias against distance", "ALiBi", PlotRole::supporting, AxisRole::other, AxisRole::other, 1, {240, 200}, 0, false, 1.4f, {"ALiBi"}}},
            {RelativesPlot::t5, {"relatives_t5", "T5: the bucket of each distance", "T5 buckets", PlotRole::supporting, AxisRole::other, AxisRole::index, 2, {240, 200}, 0, false, 1.4f, {"T5"}}},
            {RelativesPlot::score, {"relatives_score", "RoPE, the sinusoidal encoding and NoPE: the score of q = k against distance", "q = k score", PlotRole::main, AxisRole::other, AxisRole::other, 0, {260, 200}, 0, false, 1.6f, {"RoPE's score"}}},
        });
        f.reads = model_and({P::position_encoding, P::heads, P::alibi_layout, P::alibi_bias_max, P::t5_num_buckets, P::t5_max_distance,
                             P::t5_bidirectional, P::decay_scale, P::preset});
        f.describe = describe_relatives;
        f.build = build_relatives;
        f.draws_nope = true;  // NoPE is one of its curves
        f.model_b = ModelBView::itself;  // B's RoPE score over A's in the score plot
        return f;
    }();
    return d;
}

}  // namespace rope::figures
