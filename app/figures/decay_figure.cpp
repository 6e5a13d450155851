// Long-range decay: RoFormer's relative upper bound against relative distance, with the distance
// n - m of the vectors panel marked.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "figures/figure_builders.hpp"
#include "plot/ticks.hpp"

namespace rope::figures::detail {

void build_decay(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const FrequencyTable& f = ctx.cache.frequencies(ctx.params);
    const std::int64_t max_distance = ctx.params.integer("max_distance");
    const bool log_x = ctx.params.text("decay_scale") == "log" && max_distance >= 2;
    const auto series = ctx.cache.decay(f.theta, max_distance);
    const std::vector<double>& bound = series->bound;
    const double top = (f.pairs() + 1) / 2.0;  // the bound at r = 0

    plot::Plot p(ctx.result.list, ctx.measure, st, {0, 0, ctx.request.width, ctx.request.height},
                 std::string(figure_title(FigureId::decay)));
    plot::AxisSetup x{"relative distance n − m (tokens)", log_x ? 1.0 : 0.0,
                      static_cast<double>(std::max<std::int64_t>(max_distance, 1)), log_x};
    plot::AxisSetup y{"relative upper bound", 0.0, top * 1.06};
    p.setup_x(x);
    p.setup_y(y);
    p.setup_legend_bottom_left();  // the curve starts high on the left and falls: that corner is free
    p.line(series->distance.data(), bound.data(), bound.size(), 1, st.theme.series[0],
           "RoFormer bound (1/(d/2))·Σⱼ|Sⱼ|, d = " + std::to_string(f.rotated_dims));
    const std::int64_t distance = std::llabs(ctx.params.integer("key_position") - ctx.params.integer("position"));
    if (distance <= max_distance && (!log_x || distance >= 1)) {
        p.marker_x(static_cast<double>(distance), st.theme.marker, "|n − m| = " + std::to_string(distance), 2.0f, 7.0f);
        const auto at = std::lower_bound(series->distance.begin(), series->distance.end(), static_cast<double>(distance));
        const double b = bound[static_cast<std::size_t>(at - series->distance.begin())];
        p.list().circle(p.to_px(static_cast<double>(distance), b), st.px(5), st.theme.marker);
        p.text(static_cast<double>(distance), b, "  " + plot::readout_number(b, 4), st.theme.text,
               plot::HAlign::left, plot::VAlign::bottom);
    }
    record_geometry(ctx, p, "decay", x, y);
    p.finish();

    if (ctx.request.with_table) {
        DataTable& t = ctx.result.table;
        t.columns = {"distance", "bound"};
        t.values.assign(2, {});
        t.values[0] = series->distance;
        t.values[1] = bound;
    }
}

}  // namespace rope::figures::detail
