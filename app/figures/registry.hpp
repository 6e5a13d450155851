// The one list of figures. Each figure is one source file (figures/*_figure.cpp) that describes
// itself with a FigureDescriptor; figures/figure_list.hpp names them in panel order. Pages, number
// keys, sessions, lessons, `export` names, --help and the tests that loop over figures all read
// this registry, so adding a figure is one new file plus one line in figure_list.hpp.
#pragma once

#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "figures/figures.hpp"
#include "figures/panel_hooks.hpp"

namespace rope::figures {

namespace detail {
struct BuildContext;
}

// How a figure shows model B (compare_to): it draws B itself (curves overlaid, a marker), or it is
// built once per model as two pictures, side by side or one above the other as suits the panel's
// shape (two_pictures), or always one above the other (stacked: strips and tables read downwards).
enum class ModelBView { itself, two_pictures, stacked };

struct FigureDescriptor {
    std::string_view name;   // "vectors": the export name, the lessons' and sessions' word for it
    std::string_view title;  // "Rotated vectors": the panel header and the file's title
    int page = 0;            // which page of panels shows it (pages())
    int export_width = 800, export_height = 480;  // its size in a file when none is asked for
    std::string_view csv_columns;  // the header of its CSV, as docs/reference.md gives it
    // its plots in drawing order (PlotGeometry::tag indexes this list): export --plot, a lesson
    // step's "focus" (the ones its text speaks of, shown first when not all of them fit), fitting
    std::vector<PlotDescriptor> plots;
    bool full_resolution_table = false;  // its CSV can hold every position (export --full-resolution)
    // Every parameter the picture depends on: a panel is rebuilt when one of their values changes
    // (a test checks that a build reads no other).
    std::vector<ParamId> reads;
    void (*build)(detail::BuildContext&) = nullptr;
    // Why no file of it can be written for these parameters (the Trained model without a model folder:
    // a file of the note would say nothing), or "" when one can; export refuses with these words.
    std::string (*file_problem)(const ParamSet&) = nullptr;
    // What the picture shows in words, with its numbers (figures/alt_text.hpp: the alt text files carry).
    std::string (*describe)(const ParamSet&, const FigureResult&) = nullptr;
    // Independent pieces of heavy cached data the build will ask for (decay curves), so that several
    // stale panels can compute them on all cores before building; and how costly a build is
    // relative to the others (the costliest of a frame goes to a worker thread).
    std::vector<std::function<void()>> (*prepare)(const ParamSet&, FigureCache&) = nullptr;
    int build_cost = 1;
    // The plots whose smallest legible cell depends on the state (a legend's rows, a strip's rows),
    // in pixels for a style (its scale and type): the build's layout and focus_fits read the same needs.
    std::vector<std::pair<int, plot::Vec2>> (*plot_needs)(const ParamSet&, const plot::Style&) = nullptr;
    // It draws a NoPE layer (nope = true) itself; else such a layer replaces the picture with a note
    // saying why nothing rotates.
    bool draws_nope = false;
    // The wheel over its data zooms it (its pointer hook reads the wheel): on a touch screen a pinch
    // there zooms the picture, and elsewhere the page.
    bool wheel_zooms = false;
    ModelBView model_b = ModelBView::two_pictures;
    // It shows model B (beside A, over it, or against it); false for a figure of A's alone whatever B
    // is (the trained weights: B has none here). Its title names B only where it shows it.
    bool shows_b = true;
    // Its two pictures share their ranges and colour scales (built twice each: once to learn them);
    // false for figures of curves whose second build would cost more than the shared axes give
    // (each picture then keeps its own axes, labelled).
    bool b_shares_ranges = true;
    // It plots pair index i along an axis (figures/pair_axis.hpp): beside a model B of another pair
    // count, that axis reads i ÷ pairs in both pictures.
    bool pair_axis = false;
    // It draws B itself for these parameters though it is otherwise two pictures (the heatmap's A − B map).
    bool (*draws_b_itself)(const ParamSet&) = nullptr;
    // Beside model B, the plot that shows a model's own case (the patch map of its layout): each
    // model's picture holds it first, so the two pictures compare what each model does (null: its
    // main plots).
    const char* (*own_plot)(const ParamSet&) = nullptr;

    // The panel's own UI, each optional.
    float header_width_em = 0;  // room the header options need (font sizes), to decide on a second line
    void (*header)(PanelContext&, HeaderControls&) = nullptr;
    std::string (*readout)(PanelContext&, const PlotGeometry&, double x, double y) = nullptr;  // hover text
    void (*pointer)(PanelContext&, const PointerInput&) = nullptr;

    int index = -1;  // its panel number - 1 (set by the registry)
};

// The config scope's parameters (the model: what the frequencies depend on) followed by `more`, for `reads`.
std::vector<ParamId> model_and(std::initializer_list<ParamId> more);

// A figure's plots with their tags (the figure's enum of plots, which its layout code names them
// by): a row out of the enum's order throws when the figure is first described, so the enum and the
// list cannot disagree.
template <class Plot>
struct TaggedPlot {
    Plot tag;
    PlotDescriptor plot;
};
template <class Plot>
std::vector<PlotDescriptor> tagged_plots(std::initializer_list<TaggedPlot<Plot>> rows) {
    static_assert(std::is_enum_v<Plot>, "a figure's plots are tagged by its enum of plots");
    std::vector<PlotDescriptor> plots;
    for (const TaggedPlot<Plot>& row : rows) {
        if (static_cast<std::size_t>(row.tag) != plots.size())
            throw std::logic_error("plot \"" + std::string(row.plot.name) + "\" is not in its enum's order");
        plots.push_back(row.plot);
    }
    return plots;
}

// A figure's plot by name (null if it has none of that name), and "pair, fan, qk": its plots' names.
const PlotDescriptor* find_plot(const FigureDescriptor& figure, std::string_view name);
std::string plot_names(const FigureDescriptor& figure, std::string_view separator = ", ");

// Whether the plots `style.focus` names (comma-separated) fit at their minimum sizes (at the style's
// scale, with the state's needs: FigureDescriptor::plot_needs) in some rows of a picture of width x
// height, with the line that names the plots left out: else a page gives that panel more room, or
// presentation mode puts the lesson's text below it.
bool focus_fits(const FigureDescriptor& figure, const ParamSet& params, const plot::Style& style, float width, float height);
// The same for one model's picture of that size (model B aside).
bool focus_fits_one(const FigureDescriptor& figure, const ParamSet& params, const plot::Style& style, float width, float height);

// A figure's size in a file when none is asked for: its own (export_width x export_height), twice as
// tall (and a caption line each) when model B is drawn as a second picture: A above B, each at the
// figure's own size.
std::pair<int, int> default_export_size(const FigureDescriptor& figure, const ParamSet& params);

// Every figure in panel order (panel n is all_figures()[n - 1]).
const std::vector<const FigureDescriptor*>& all_figures();
int figure_count();
const FigureDescriptor* find_figure(std::string_view name);  // null if none has that name
const FigureDescriptor& figure(std::string_view name);       // throws std::invalid_argument if none
const FigureDescriptor& figure_at(int index);                // 0-based panel index
std::string figure_names(std::string_view separator = ", ");  // "vectors, heatmap, ..."

// Pages of panels, in tab order; a figure's `page` indexes this list. Each page's name, and the short
// one its tab takes where the names would need a second row of tabs (a 1024-wide window).
struct PageInfo {
    std::string_view name, short_name;
};
const std::vector<PageInfo>& page_table();
const std::vector<std::string_view>& pages();  // the names
std::vector<const FigureDescriptor*> figures_on_page(int page);

// The key that maximises panel `index`, as the help names it: "1" .. "9", "0" for the tenth, then the
// keys beside the number row ("-", "="), then F2, F3, ...; "" beyond those.
std::string panel_key(int index);

}  // namespace rope::figures
