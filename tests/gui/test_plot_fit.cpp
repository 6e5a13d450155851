// The layout engine of figures with several plots (figures/subplot_fit.hpp) leaves a plot out only
// when the plots it shows, at their smallest legible sizes, leave it no room: for every figure with
// several plots and every size from a quarter of a small panel to a large one, no left-out plot fits
// beside the shown ones at the minimums (registry.hpp's focus_fits_one, an arrangement of its own);
// and each model alone and each model's picture beside a model B, at the sizes panels get in
// 1024x768, 1280x720 and 1920x1080 windows (the whole panel area, half its width, half its height),
// says "k of n plots" with no empty band across it as tall as a left-out plot needs.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "figures/build_context.hpp"
#include "figures/compared_build.hpp"
#include "figures/registry.hpp"
#include "figures/subplot_fit.hpp"
#include "plot/style.hpp"

using namespace rope;

namespace {

// The rows of pixels a command draws in (text: its line's height; a vertical label: its size about its anchor).
std::pair<float, float> rows_of(const plot::Command& c) {
    auto span = [](const std::vector<plot::Vec2>& points) {
        std::pair<float, float> s{1e9f, -1e9f};
        for (const plot::Vec2& p : points) s = {std::min(s.first, p.y), std::max(s.second, p.y)};
        return s;
    };
    if (const auto* t = std::get_if<plot::TextCmd>(&c)) {
        if (t->vertical) return {t->pos.y - t->size * 4, t->pos.y + t->size * 4};
        const float top = t->pos.y - (t->valign == plot::VAlign::middle ? t->size / 2 : t->valign == plot::VAlign::bottom ? t->size : 0.0f);
        return {top, top + t->size};
    }
    if (const auto* l = std::get_if<plot::PolylineCmd>(&c)) return span(l->points);
    if (const auto* g = std::get_if<plot::PolygonCmd>(&c)) return span(g->points);
    if (const auto* r = std::get_if<plot::RectCmd>(&c)) return {r->rect.y0, r->rect.y1};
    if (const auto* i = std::get_if<plot::ImageCmd>(&c)) return {i->rect.y0, i->rect.y1};
    if (const auto* o = std::get_if<plot::CircleCmd>(&c)) return {o->center.y - o->radius, o->center.y + o->radius};
    return {1e9f, -1e9f};  // a clip draws nothing
}

// The tallest band across the picture (0 to `height`) in which nothing is drawn but `skip`.
float tallest_empty_band(const plot::DisplayList& list, const plot::TextCmd* skip, float height) {
    std::vector<std::pair<float, float>> drawn;
    for (const plot::Command& c : list.commands)
        if (std::get_if<plot::TextCmd>(&c) != skip) drawn.push_back(rows_of(c));
    std::sort(drawn.begin(), drawn.end());
    float tallest = 0, reached = 0;
    for (const auto& [top, bottom] : drawn) {
        if (top > bottom) continue;
        tallest = std::max(tallest, std::min(top, height) - reached);
        reached = std::max(reached, bottom);
    }
    return std::max(tallest, height - reached);
}

// The least height of the plots a picture leaves out (their minimums with this state's needs) that
// would fit its width: a band that tall across it would hold one of them.
float least_left_out_height(const figures::FigureDescriptor& f, const figures::FigureResult& picture, const ParamSet& p,
                            const plot::Style& st, float width) {
    const auto needs = f.plot_needs ? f.plot_needs(p, st) : std::vector<std::pair<int, plot::Vec2>>{};
    float least = 1e9f;
    for (std::size_t k = 0; k < f.plots.size(); ++k) {
        if (picture.plot(f.plots[k].name)) continue;
        plot::Vec2 min{st.px(f.plots[k].min_size.x) + st.px(f.plots[k].key_width), st.px(f.plots[k].min_size.y)};
        for (const auto& [index, need] : needs)
            if (index == static_cast<int>(k)) min = {std::max(min.x, need.x + st.px(f.plots[k].key_width)), std::max(min.y, need.y)};
        if (min.x <= width) least = std::min(least, min.y);
    }
    return least;
}

// The plots `fit` shows, and `more`, as a lesson step's focus names them.
std::string names(const figures::FigureDescriptor& f, const figures::detail::SubplotFit& fit, int more = -1) {
    std::string out;
    for (int k = 0; k < static_cast<int>(f.plots.size()); ++k)
        if (fit.cells[static_cast<std::size_t>(k)].width() > 0 || k == more) out += (out.empty() ? "" : ",") + std::string(f.plots[static_cast<std::size_t>(k)].name);
    return out;
}

ParamSet preset(const std::string& a, const std::string& b = "") {
    ParamSet p;
    p.set("preset", a);
    if (!b.empty()) p.set("compare_to", b);
    p.validate();
    return p;
}

}  // namespace

// The engine alone, on every figure's plots: what it shows fits at the minimums, and no plot it leaves
// out would fit beside them (a pixel's rounding aside). A smaller plot of lower rank is shown where a
// larger one has no room.
TEST(PlotFit, NoLeftOutPlotFitsBesideTheShownOnes) {
    figures::FigureCache cache;
    int fits_checked = 0, left_out = 0;
    for (const std::string model : {"llama-2-7b", "qwen2.5-vl-7b", "gemma-3-12b", "gpt-j-6b"}) {
        const ParamSet p = preset(model);
        for (const figures::FigureDescriptor* f : figures::all_figures()) {
            if (f->plots.size() < 2) continue;
            for (float w = 160; w <= 1600; w *= 1.25f)
                for (float h = 120; h <= 1000; h *= 1.2f) {
                    figures::FigureRequest r;
                    r.figure = f;
                    r.width = w;
                    r.height = h;
                    r.style = plot::screen_style(plot::ThemeId::dark, 1, false);
                    figures::FigureResult result;
                    plot::ApproximateTextMeasure measure;
                    figures::detail::BuildContext ctx{r, p, cache, result, measure};
                    const figures::detail::SubplotFit fit = figures::detail::fit_plots(ctx, {0, 0, w, h}, std::vector<plot::Rect>(f->plots.size()));
                    if (fit.all()) continue;
                    const std::string what = std::string(f->name) + ", " + model + " at " + std::to_string(w) + "x" + std::to_string(h);
                    plot::Style focus = r.style;
                    focus.focus = names(*f, fit);
                    if (fit.shown > 1) {
                        EXPECT_TRUE(figures::focus_fits_one(*f, p, focus, w + 1, h + 1)) << what << ": shows " << focus.focus << ", which do not fit";
                        ++fits_checked;
                    }
                    for (int k = 0; k < static_cast<int>(f->plots.size()); ++k) {
                        if (fit.cells[static_cast<std::size_t>(k)].width() > 0) continue;
                        focus.focus = names(*f, fit, k);
                        EXPECT_FALSE(figures::focus_fits_one(*f, p, focus, w - 1, h - 1)) << what << ": leaves out " << f->plots[static_cast<std::size_t>(k)].name
                                                                                           << ", which fits beside " << names(*f, fit);
                        ++left_out;
                    }
                }
        }
    }
    EXPECT_GT(fits_checked, 500);
    EXPECT_GT(left_out, 1000);
}

TEST(PlotFit, PlotsAreLeftOutOnlyWhereTheShownOnesLeaveThemNoRoom) {
    figures::FigureCache cache;
    const std::vector<std::pair<std::string, std::string>> models = {
        {"llama-2-7b", ""}, {"qwen2.5-vl-7b", ""}, {"gemma-3-12b", ""},
        {"qwen2.5-vl-7b", "qwen3-vl-8b"}, {"gemma-3-4b-global", "qwen3-8b"}, {"gemma-3-12b", "gemma-4-31b"}, {"llama-3.2-1b", "gpt-j-6b"}};
    // the panel area of each window (its controls and tabs aside), whole, half as wide and half as tall
    std::vector<std::pair<float, float>> sizes;
    for (const auto& [w, h] : std::vector<std::pair<float, float>>{{1024, 768}, {1280, 720}, {1920, 1080}})
        for (const auto& [fw, fh] : std::vector<std::pair<float, float>>{{1, 1}, {0.5f, 1}, {1, 0.5f}}) sizes.push_back({(w - 340 - (fw < 1 ? 20 : 0)) * fw, (h - 150) * fh});
    const std::regex left_out(R"((\d+) of (\d+) plots)");
    int pictures = 0, leaving_out = 0;
    for (const auto& [a_name, b_name] : models) {
        const ParamSet ab = preset(a_name, b_name);
        for (const figures::FigureDescriptor* f : figures::all_figures()) {
            if (f->plots.size() < 2) continue;
            for (const auto& [w, h] : sizes) {
                figures::FigureRequest r;
                r.figure = f;
                r.style = plot::screen_style(plot::ThemeId::dark, 1, false);
                // each model's picture as the panel builds it: beside B, in its half (untitled)
                std::vector<std::pair<ParamSet, plot::Rect>> parts{{ab, plot::Rect{0, 0, w, h}}};
                if (const std::optional<ParamSet> b = figures::detail::second_picture_model(*f, ab)) {
                    const figures::detail::ComparedSplit split = figures::detail::compared_split(*f, ab, *b, r.style, w, h);
                    ParamSet a = ab;
                    a.set("compare_to", "unscaled");  // A alone
                    parts = {{a, split.a}};
                    if (split.both) parts.push_back({*b, split.b});
                }
                for (const auto& [p, area] : parts) {
                    r.width = area.width();
                    r.height = area.height();
                    figures::FigureResult picture;
                    try {
                        picture = figures::build_figure(r, p, cache);
                    } catch (const std::invalid_argument&) {
                        continue;  // a table the model has none of (the anatomy without layers)
                    }
                    ++pictures;
                    for (const plot::Command& c : picture.list.commands) {
                        const auto* note = std::get_if<plot::TextCmd>(&c);
                        std::smatch m;
                        if (!note || !std::regex_search(note->text, m, left_out)) continue;
                        ++leaving_out;
                        const float band = tallest_empty_band(picture.list, note, r.height);
                        const float least = least_left_out_height(*f, picture, p, r.style, r.width);
                        EXPECT_LT(band, least) << f->name << ", " << std::string(p[P::preset]) << (b_name.empty() ? "" : " (beside B)") << " at "
                                               << r.width << "x" << r.height << ": \"" << note->text << "\" with an empty band " << band
                                               << " px tall, where a left-out plot needs " << least;
                    }
                }
            }
        }
    }
    EXPECT_GT(pictures, 300);
    EXPECT_GT(leaving_out, 50);  // the sizes are small enough that some pictures must leave plots out
}

// The issue's example: Qwen2.5-VL beside Qwen3-VL in a 1920x1080 window's Images panel (A above B) showed
// three maps with empty bands above and below, and no strip; each map asked for four row labels'
// room where its three labels need less. Both pictures now hold the three maps and the strip.
TEST(PlotFit, ThePatchGridBesideBShowsEveryPlotInA1920x1080Panel) {
    figures::FigureCache cache;
    figures::FigureRequest r;
    r.figure = &figures::figure("patch_grid");
    r.width = 770;
    r.height = 930;
    r.style = plot::screen_style(plot::ThemeId::dark, 1, false);
    const figures::FigureResult both = figures::build_figure(r, preset("qwen2.5-vl-7b", "qwen3-vl-8b"), cache);
    for (int model : {0, 1}) {
        int plots = 0;
        for (const figures::PlotGeometry& g : both.plots) plots += g.model == model;
        EXPECT_EQ(plots, 4) << (model ? "B" : "A");
    }
}

// And partial vs proportional beside B on a 1280x720 page to itself: each half showed the dims plot
// alone, stretched over it ("1 of 4 plots"), where the dims plot at the height it draws in leaves the
// mixed-tables scores room. Each half now holds both.
TEST(PlotFit, PartialVsProportionalBesideBShowsTheScoresInA1280x720Page) {
    figures::FigureCache cache;
    figures::FigureRequest r;
    r.figure = &figures::figure("partial_vs_proportional");
    r.width = 940;
    r.height = 570;
    r.style = plot::screen_style(plot::ThemeId::dark, 1, false);
    const figures::FigureResult both = figures::build_figure(r, preset("gemma-3-4b-global", "qwen3-8b"), cache);
    for (int model : {0, 1}) {
        int plots = 0;
        for (const figures::PlotGeometry& g : both.plots) plots += g.model == model && (g.name == "layout_dims" || g.name == "layout_scores_mixed");
        EXPECT_EQ(plots, 2) << (model ? "B" : "A");
    }
}

// A figure's plots are listed with the tags its layout code names them by: a list out of the enum's
// order is refused, so `fit.cell(Tag::x)` always means the plot the list calls x.
TEST(PlotFit, PlotListsFollowTheirTagsOrder) {
    enum class Two { first, second };
    using rope::figures::PlotDescriptor;
    PlotDescriptor a, b;
    a.name = "first";
    b.name = "second";
    const auto in_order = rope::figures::tagged_plots<Two>({{Two::first, a}, {Two::second, b}});
    ASSERT_EQ(in_order.size(), 2u);
    EXPECT_EQ(in_order[1].name, "second");
    EXPECT_THROW(rope::figures::tagged_plots<Two>({{Two::second, b}, {Two::first, a}}), std::logic_error);
    for (const auto* figure : rope::figures::all_figures()) EXPECT_FALSE(figure->plots.empty()) << figure->name;
}
