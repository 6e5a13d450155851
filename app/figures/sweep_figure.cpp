// Base sweep: how the wavelengths of all pairs move with the base, against the context length, and
// the long-range decay for five bases around the current one.
#include <algorithm>
#include <cmath>

#include "figures/figure_builders.hpp"
#include "plot/ticks.hpp"

namespace rope::figures::detail {

namespace {

constexpr double kSweepMin = kSweepMinBase, kSweepMax = kSweepMaxBase;
constexpr double kDecades = 3.0;  // colour range: wavelength / context from 1/1000 to 1000

std::vector<plot::Tick> ratio_ticks() {
    return {{-3, "1/1000"}, {-2, "1/100"}, {-1, "1/10"}, {0, "1"}, {1, "10"}, {2, "100"}, {3, "1000"}};
}

std::string base_label(double b) {
    const double e = std::log10(b);
    if (std::abs(e - std::round(e)) < 1e-9) return "base " + plot::power_label(b);
    if (b >= 100) return "base " + plot::tick_label(std::round(b), 1);
    return "base " + plot::readout_number(b, 5);
}

}  // namespace

void build_sweep(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const FrequencyTable& f = ctx.cache.frequencies(ctx.params);
    const int d = f.rotated_dims;
    const int pairs = f.pairs();
    const double context = static_cast<double>(ctx.params.integer("max_position"));
    const double base = ctx.params.real("base");
    const float W = ctx.request.width, H = ctx.request.height;
    const bool side_by_side = W >= H * 1.2f;
    const plot::Rect left = side_by_side ? plot::Rect{0, 0, W * 0.56f, H} : plot::Rect{0, 0, W, H * 0.56f};
    const plot::Rect right = side_by_side ? plot::Rect{W * 0.56f, 0, W, H} : plot::Rect{0, H * 0.56f, W, H};

    if (st.draw_titles)
        ctx.result.list.text({W / 2, st.px(6)}, std::string(figure_title(FigureId::sweep)), st.px(st.title_font),
                             st.theme.text, plot::HAlign::center, plot::VAlign::top);
    plot::Style sub = st;
    sub.title_font = st.title_font * 0.8f;
    const float title_space = st.draw_titles ? st.px(st.title_font) * 1.4f : 0;

    // Left: log10(wavelength / context) for every pair over bases 1e2..1e8.
    {
        plot::Plot p(ctx.result.list, ctx.measure, sub, {left.x0, left.y0 + title_space, left.x1, left.y1},
                     "wavelength λ ÷ context L = " + std::to_string(static_cast<long long>(context)));
        plot::AxisSetup x{"base b (log)", kSweepMin, kSweepMax, true};
        plot::AxisSetup y{"pair i", -0.5, pairs - 0.5};
        y.integer_ticks = true;
        p.setup_x(x);
        p.setup_y(y);
        p.setup_colorbar({"wavelength ÷ context", plot::ColormapId::diverging, -kDecades, kDecades, ratio_ticks()});
        const plot::Rect area = p.area();
        const int cols = std::max(2, static_cast<int>(std::floor(area.width())));
        std::vector<float> values = *ctx.cache.sweep_grid(d, context, cols);
        p.heatmap(std::move(values), cols, pairs, kSweepMin, kSweepMax, -0.5, pairs - 0.5, plot::ColormapId::diverging,
                  static_cast<float>(-kDecades), static_cast<float>(kDecades));
        // where wavelength_i = context: i = (d/2) ln(L / 2 pi) / ln b
        std::vector<double> bx, iy;
        for (int s = 0; s <= 200; ++s) {
            const double b = std::exp(std::log(kSweepMin) + s / 200.0 * (std::log(kSweepMax) - std::log(kSweepMin)));
            bx.push_back(b);
            iy.push_back((d / 2.0) * std::log(context / kTwoPi) / std::log(b));
        }
        p.line(bx.data(), iy.data(), bx.size(), 1, plot::Color{0.05f, 0.05f, 0.05f, 1}, "", 3.0f);
        // label the boundary where it crosses the middle of the plot
        const double mid_pair = (pairs - 1) * 0.5;
        const double b_mid = std::exp((d / 2.0) * std::log(context / kTwoPi) / mid_pair);
        if (b_mid > kSweepMin && b_mid < kSweepMax)
            p.text(b_mid, mid_pair, "  λ = L", plot::Color{0.05f, 0.05f, 0.05f, 1}, plot::HAlign::left,
                   plot::VAlign::middle, st.label_font);
        if (base >= kSweepMin && base <= kSweepMax) p.marker_x(base, st.theme.accent, base_label(base), 2.5f);
        record_geometry(ctx, p, "sweep", x, y);
        p.finish();
    }

    // Right: the decay bound for five bases around the current one.
    {
        const std::int64_t max_distance = ctx.params.integer("max_distance");
        const bool log_x = ctx.params.text("decay_scale") == "log" && max_distance >= 2;
        plot::Plot p(ctx.result.list, ctx.measure, sub, {right.x0, right.y0 + title_space, right.x1, right.y1},
                     "decay bound for five bases");
        plot::AxisSetup x{"distance n − m (tokens)", log_x ? 1.0 : 0.0,
                          static_cast<double>(std::max<std::int64_t>(max_distance, 1)), log_x};
        plot::AxisSetup y{"relative upper bound", 0, (pairs + 1) / 2.0 * 1.06};
        p.setup_x(x);
        p.setup_y(y);
        p.setup_legend_bottom_left();
        const auto bases = sweep_bases(base);
        for (int i = 0; i < 5; ++i) {
            const Eigen::VectorXd theta = base_frequencies(bases[i], d);
            const auto b = ctx.cache.decay(theta, max_distance);
            p.line(b->distance.data(), b->bound.data(), b->bound.size(), 1, st.theme.series[i], base_label(bases[i]) + (i == 2 ? " (current)" : ""),
                   i == 2 ? 3.0f : 2.0f);
        }
        record_geometry(ctx, p, "sweep_decay", x, y);
        p.finish();
    }

    if (ctx.request.with_table) {
        DataTable& t = ctx.result.table;
        t.columns = {"base", "pair", "wavelength", "wavelength_over_context"};
        t.values.assign(4, {});
        for (int s = 0; s <= 60; ++s) {
            const double b = std::pow(10.0, 2.0 + s / 10.0);
            const Eigen::VectorXd theta = base_frequencies(b, d);
            for (int k = 0; k < pairs; ++k) {
                t.values[0].push_back(b);
                t.values[1].push_back(k);
                t.values[2].push_back(kTwoPi / theta[k]);
                t.values[3].push_back(kTwoPi / theta[k] / context);
            }
        }
    }
}

}  // namespace rope::figures::detail
