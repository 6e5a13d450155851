// Long-range decay: RoFormer's relative upper bound against relative distance, with the distance
// n - m of the vectors panel marked.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "figures/alt_text.hpp"
#include "figures/build_context.hpp"
#include "figures/compared_build.hpp"
#include "figures/subplot_fit.hpp"
#include "plot/ticks.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;

enum class DecayPlot { decay };

using detail::model_b;

std::string model_name(const ParamSet& a, bool b) { return (b ? "B: " : "A: ") + detail::model_label(a, b); }

// Each model's bound divided by its value at 0 when B is drawn: models with other pair counts then
// share an axis that means the same for both (1 at distance 0).
struct DecayCurve {
    std::shared_ptr<const DecaySeries> series;
    std::vector<double> y;
    std::string name;
    int rotated_dims = 0;
};

DecayCurve decay_curve(BuildContext& ctx, const FrequencyTable& f, bool relative, const std::string& name) {
    DecayCurve c;
    c.series = ctx.cache.decay(f.theta, ctx.params[P::max_distance]);
    const double top = (f.pairs() + 1) / 2.0;  // the bound at r = 0
    c.y = c.series->bound;
    if (relative)
        for (double& v : c.y) v /= top;
    c.name = name + (name.empty() ? "" : ", ") + "d = " + std::to_string(f.rotated_dims);
    c.rotated_dims = f.rotated_dims;
    return c;
}

void build_decay(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const FrequencyTable& f = ctx.frequencies();
    const std::int64_t max_distance = ctx.params[P::max_distance];
    const bool log_x = ctx.params[P::decay_scale] == DecayScale::log && max_distance >= 2;
    const std::optional<ParamSet> b = model_b(ctx.params);
    std::vector<DecayCurve> curves{decay_curve(ctx, f, b.has_value(), b ? model_name(ctx.params, false) : "")};
    if (b) curves.push_back(decay_curve(ctx, *ctx.cache.frequencies(*b), true, model_name(ctx.params, true)));
    const auto& series = curves[0].series;
    const std::vector<double>& bound = curves[0].y;
    double top = 0;
    for (const DecayCurve& c : curves) top = std::max(top, c.y.front());

    plot::Plot p(ctx.result.list, ctx.measure, st, {0, 0, ctx.request.width, ctx.request.height},
                 ctx.title());
    plot::AxisSetup x{"relative distance n − m (tokens)", log_x ? 1.0 : 0.0,
                      static_cast<double>(std::max<std::int64_t>(max_distance, 1)), log_x};
    plot::AxisSetup y{b ? "bound ÷ its value at 0" : "relative upper bound", 0.0, top * 1.06};
    p.setup_x(x);
    p.setup_y(y);
    // the legend above the plot: the ragged bound and the marker leave no corner free in a small panel
    std::vector<std::string> names;
    for (const DecayCurve& c : curves) names.push_back(b ? c.name : "RoFormer bound (1/(d/2))·Σⱼ|Sⱼ|, " + c.name);
    p.setup_legend_above(names);
    // A solid, B dashed (and in another colour): told apart in grey and under every colour vision
    for (std::size_t i = 0; i < curves.size(); ++i)
        p.line(curves[i].series->distance.data(), curves[i].y.data(), curves[i].y.size(), 1, st.theme.series[i == 0 ? 0 : 1], names[i],
               -1, i == 0 ? 0.0f : 6.0f);
    const std::int64_t distance = std::llabs(ctx.params[P::key_position] - ctx.params[P::position]);
    if (distance <= max_distance && (!log_x || distance >= 1) && ctx.request.show_cursor) {
        p.marker_x(static_cast<double>(distance), st.theme.marker, "|n − m| = " + std::to_string(distance), 2.0f, 7.0f);
        const auto at = std::lower_bound(series->distance.begin(), series->distance.end(), static_cast<double>(distance));
        const double value = bound[static_cast<std::size_t>(at - series->distance.begin())];
        p.list().circle(p.to_px(static_cast<double>(distance), value), st.px(5), st.theme.marker);
        p.text(static_cast<double>(distance), value, "  " + plot::readout_number(value, 4), st.theme.text,
               plot::HAlign::left, plot::VAlign::bottom);
    }
    record_geometry(ctx, p, DecayPlot::decay);
    p.finish();
    if (f.pairs() == 1) {  // d = 2: a flat line is the whole story, said so
        // in the lower right: the flat line runs along the top, the distance marker near the left
        const plot::Rect a = p.area();
        // (right of the distance marker and its tag)
        const bool marked = distance <= max_distance && (!log_x || distance >= 1);
        const float marker = marked ? p.x_px(static_cast<double>(distance)) +
                                          ctx.measure.measure("|n − m| = " + std::to_string(distance), st.px(st.tick_font)).x + st.px(12)
                                    : a.x0;
        const std::string d = std::to_string(f.rotated_dims);
        detail::centred_note(ctx, {std::max(a.x0, marker + st.px(24)), a.y0 + a.height() * 0.3f, a.x1 - st.px(8), a.y1 - st.px(8)},
                             std::vector<std::string>{"One pair (d = " + d + "): nothing to cancel, so the bound stays at 1 at every "
                                                      "distance. The decay comes from many pairs turning at different speeds: raise d.",
                                                      "One pair (d = " + d + "): nothing to cancel, the bound stays at 1. Raise d.",
                                                      "d = " + d + ": flat at 1"});
    }

    if (ctx.request.with_table) {
        DataTable& t = ctx.result.table;
        if (!b) {
            t.columns = {"distance", "bound"};
            t.values = {series->distance, bound};
        } else {  // long form: model a then b, each bound relative to its value at 0
            t.label_column = "model";
            t.columns = {"distance", "bound"};
            t.values.assign(2, {});
            for (std::size_t m = 0; m < curves.size(); ++m) {
                t.labels.insert(t.labels.end(), curves[m].y.size(), m == 0 ? "a" : "b");
                t.values[0].insert(t.values[0].end(), curves[m].series->distance.begin(), curves[m].series->distance.end());
                t.values[1].insert(t.values[1].end(), curves[m].y.begin(), curves[m].y.end());
            }
        }
    }
}

void decay_header(PanelContext& panel, HeaderControls& ui) {
    bool log = panel.params[P::decay_scale] == DecayScale::log;
    if (ui.checkbox("log distance", log, param_spec(P::decay_scale).help))
        panel.edit("distance axis", [log](ParamSet& p) { p.set(P::decay_scale, log ? DecayScale::log : DecayScale::linear); });
}

std::string decay_readout(PanelContext& panel, const PlotGeometry&, double x, double) {
    const auto r = static_cast<std::int64_t>(std::llround(std::max(0.0, x)));
    const std::int64_t max_distance = panel.params[P::max_distance];
    if (r > max_distance) return "";
    const auto b = panel.cache.decay(panel.cache.frequencies(panel.params)->theta, max_distance);
    const auto at = std::lower_bound(b->distance.begin(), b->distance.end(), static_cast<double>(r));
    if (at == b->distance.end()) return "";
    const std::size_t i = static_cast<std::size_t>(at - b->distance.begin());
    return "distance n − m = " + std::to_string(static_cast<long long>(*at)) + "\nbound = " + plot::readout_number(b->bound[i], 6);
}

}  // namespace

const FigureDescriptor& decay_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "decay";
        f.title = "Long-range decay";
        f.page = 0;
        f.csv_columns = "distance,bound";
        f.plots = tagged_plots<DecayPlot>({
            {DecayPlot::decay, {"decay", "RoFormer's relative upper bound against distance", "decay bound", PlotRole::main, AxisRole::other, AxisRole::other, 0, {240, 200}, 0, false, 1.8f, {"bound"}}},
        });
        f.reads = model_and({P::max_distance, P::decay_scale, P::position, P::key_position, P::compare_to, P::preset});
        f.describe = describe_decay;
        f.build = build_decay;
        f.model_b = ModelBView::itself;  // B's bound dashed over A's
        f.header_width_em = 8;
        f.header = decay_header;
        f.readout = decay_readout;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
