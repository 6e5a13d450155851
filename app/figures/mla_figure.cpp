// MLA's softmax scale against context: where YaRN's magnitude correction belongs in multi-head latent
// attention (DeepSeek-V2, DeepSeek-V3, Kimi K2), and where ports have put it. The score is the sum of
// a part without rotation (qk_nope_head_dim dims) and a rotated part (dim); DeepSeek's code multiplies
// the whole of it by mscale(s, mscale_all_dim)^2 through the softmax scale. Put on cos and sin
// instead, the correction reaches only the rotated part; taken from the latent's width (kv_lora_rank
// + dim, the width an absorbed-weights kernel dots over) the scale is too small by sqrt(576 / 192).
// The lines are rope/mla.hpp's mla_placements over context factors s, the model's own s marked.
#include <algorithm>
#include <cmath>

#include "figures/alt_text.hpp"
#include "figures/compared_build.hpp"
#include "figures/subplot_fit.hpp"
#include "figures/why_common.hpp"
#include "plot/ticks.hpp"
#include "rope/mla.hpp"

namespace rope::figures {

namespace {

using detail::BuildContext;
namespace why = detail::why;

enum class MlaPlot { scale };

constexpr int kSamples = 240;

struct MlaData {
    bool has_mla = false;
    bool stand_in = false;  // the model has no MLA: DeepSeek-V3's head is shown
    MlaHead head;
    int latent = 512;     // kv_lora_rank
    double factor = 1;    // the model's s
    double top_factor = 64;
    std::vector<double> s, right_nope, right_rope, cos_sin_nope, latent_line;
    bool rope_part_differs = false;  // the rotary factor is not 1 somewhere (mscale != mscale_all_dim)
    MlaPlacements at_model;
    double softmax_at_model = 0;
};

// The curves over s = 1 .. max(64, 2 x the model's factor), log-spaced, with YaRN at each s (the
// model's mscale and mscale_all_dim; a model that does not use YaRN is shown as if it did).
MlaData mla_data(const ParamSet& p) {
    MlaData d;
    const std::optional<std::int64_t> nope = p[P::qk_nope_head_dim];
    if (!nope) return d;
    d.has_mla = true;
    RopeConfig c = p.config();
    d.head = {static_cast<int>(*nope), c.dim};
    d.latent = static_cast<int>(p[P::kv_lora_rank].value_or(512));
    d.factor = c.scaling == Scaling::none ? 1.0 : c.factor;
    d.top_factor = std::max(64.0, 2 * d.factor);
    d.softmax_at_model = mla_scales(d.head, c).softmax;
    d.at_model = mla_placements(d.head, d.latent, c);
    c.scaling = Scaling::yarn;
    for (int i = 0; i < kSamples; ++i) {
        const double s = std::pow(d.top_factor, static_cast<double>(i) / (kSamples - 1));
        c.factor = s;
        const MlaPlacements m = mla_placements(d.head, d.latent, c);
        d.s.push_back(s);
        d.right_nope.push_back(m.right_nope);
        d.right_rope.push_back(m.right_rope);
        d.cos_sin_nope.push_back(m.on_cos_sin_nope);
        d.latent_line.push_back(m.from_latent);
        d.rope_part_differs = d.rope_part_differs || std::abs(m.right_rope - m.right_nope) > 1e-9 * m.right_nope;
    }
    return d;
}

// The model's MLA, or DeepSeek-V3's where it has none (the figure then says so in its title).
MlaData shown_data(const ParamSet& p) {
    MlaData d = mla_data(p);
    if (d.has_mla) return d;
    ParamSet v3;
    v3.set(ParamId::preset, std::string_view("deepseek-v3"));  // the preset with its values
    d = mla_data(v3);
    d.stand_in = true;
    return d;
}

std::string digits(double v, int n) { return plot::readout_number(v, n); }

void draw_scale(BuildContext& ctx, const MlaData& d, plot::Rect cell) {
    const plot::Style& st = ctx.request.style;
    const plot::Theme& th = st.theme;
    const std::string head = std::to_string(d.head.nope_dims + d.head.rope_dims);
    const std::string latent = std::to_string(d.latent + d.head.rope_dims);
    const std::string title = d.stand_in ? std::string(ctx.figure().title) + " · deepseek-v3's (" + detail::model_label(ctx.params) + " has no MLA)"
                                         : ctx.title();
    plot::Plot p(ctx.result.list, ctx.measure, st, cell, title);
    p.setup_x({"context factor s = context ÷ original context", 1.0, d.top_factor, true});
    double top = 1;
    for (double v : d.right_rope) top = std::max(top, v);
    for (double v : d.right_nope) top = std::max(top, v);
    p.setup_y({"factor on q·k ÷ 1/√" + head, 0.0, top * 1.12});
    // a stand-in head says whose it is where the panel shows no figure title (the window)
    const std::string whose = d.stand_in ? ", DeepSeek-V3's head" : "";
    const std::string right = (d.rope_part_differs ? "right: unrotated part" : "right: both parts") + whose;
    const std::string right_rope = "right: rotated part";
    const std::string cos_sin = "on cos, sin: unrotated × 1";
    const std::string from_latent = "scale of the " + latent + "-dim latent";
    std::vector<std::string> names{right};
    if (d.rope_part_differs) names.push_back(right_rope);
    names.insert(names.end(), {cos_sin, from_latent});
    p.setup_legend_above(names);
    p.line(d.s.data(), d.cos_sin_nope.data(), d.s.size(), 1, th.series[1], cos_sin, st.line_width * 1.1f, th.series_dash[1]);
    p.line(d.s.data(), d.latent_line.data(), d.s.size(), 1, th.series[3], from_latent, st.line_width * 1.1f, th.series_dash[3]);
    if (d.rope_part_differs) p.line(d.s.data(), d.right_rope.data(), d.s.size(), 1, th.series[2], right_rope, st.line_width * 1.2f, 6);
    p.line(d.s.data(), d.right_nope.data(), d.s.size(), 1, th.series[0], right, st.line_width * 1.6f);
    if (d.factor > 1 && ctx.request.show_cursor)
        p.marker_x(d.factor, th.accent,
                   (d.stand_in ? "DeepSeek-V3's s = " : "s = ") + plot::tick_label(d.factor, 3) + ": " + digits(d.at_model.right_nope, 4) + "/√" + head + " = " +
                       digits(d.softmax_at_model, 4),
                   1.5f, 5.0f);
    record_geometry(ctx, p, MlaPlot::scale);
    p.finish();
}

void fill_mla_table(DataTable& t, const MlaData& d) {
    t.columns = {"factor", "right_nope", "right_rope", "on_cos_sin_nope", "from_latent"};
    t.values.assign(t.columns.size(), {});
    for (std::size_t i = 0; i < d.s.size(); ++i) {
        const double row[] = {d.s[i], d.right_nope[i], d.right_rope[i], d.cos_sin_nope[i], d.latent_line[i]};
        for (std::size_t c = 0; c < t.columns.size(); ++c) t.values[c].push_back(row[c]);
    }
}

void build_mla(BuildContext& ctx) {
    const plot::Style& st = ctx.request.style;
    const MlaData d = shown_data(ctx.params);
    const float W = ctx.request.width, H = ctx.request.height;
    float bottom = H;
    if (H >= st.px(360)) {
        const std::string caption =
            "Right (DeepSeek's code, transformers): the whole score × mscale(s, mscale_all_dim)² = (0.1 mscale_all_dim ln s + 1)². "
            "Put on cos and sin instead, it reaches only the rotated " + std::to_string(d.head.rope_dims) + " dims; the " +
            std::to_string(d.latent + d.head.rope_dims) + "-dim latent's 1/√" + std::to_string(d.latent + d.head.rope_dims) +
            " is too small; no correction at all is the line at 1.";
        if (why::wrapped_caption(ctx, caption, 0, W, H - st.px(3), st.theme.text, false) <= H / 6)
            bottom = H - why::wrapped_caption(ctx, caption, 0, W, H - st.px(3), st.theme.text) - st.px(6);
    }
    draw_scale(ctx, d, {0, 0, W, bottom});
    if (ctx.request.with_table) {
        DataTable t;
        fill_mla_table(t, d);
        ctx.result.table = std::move(t);
    }
}

}  // namespace

std::string describe_mla(const ParamSet& p, const FigureResult&) {
    const MlaData d = shown_data(p);
    const std::string head = std::to_string(d.head.nope_dims + d.head.rope_dims);
    return (d.stand_in ? "no MLA here, so DeepSeek-V3's head: " : "") + std::string("the factor on q·k ÷ 1/√") + head +
           " against context factors 1-" + plot::tick_label(d.top_factor, 3) + ": right, mscale(s, mscale_all_dim)², " +
           digits(d.at_model.right_nope, 4) + " at s = " + plot::tick_label(d.factor, 3) + " (softmax scale " +
           digits(d.softmax_at_model, 6) + "); on cos and sin, the unrotated part stays 1; from the " +
           std::to_string(d.latent + d.head.rope_dims) + "-dim latent, " + digits(d.at_model.from_latent, 4);
}

const FigureDescriptor& mla_figure() {
    static const FigureDescriptor d = [] {
        FigureDescriptor f;
        f.name = "mla";
        f.title = "MLA: YaRN's softmax scale";
        f.page = 3;
        f.csv_columns = "factor,right_nope,right_rope,on_cos_sin_nope,from_latent";
        f.plots = tagged_plots<MlaPlot>({
            {MlaPlot::scale, {"mla_scale", "The factor on q·k against context, placed right and wrong", "softmax scale", PlotRole::main, AxisRole::other, AxisRole::other, 0, {260, 200}, 0, false, 1.6f, {"softmax scale"}}},
        });
        f.reads = model_and({P::qk_nope_head_dim, P::kv_lora_rank, P::preset});
        f.describe = describe_mla;
        f.build = build_mla;
        return f;
    }();
    return d;
}

}  // namespace rope::figures
