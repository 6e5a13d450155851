// The app's figures: each panel's picture built from the parameters (every number from core/)
// into a DisplayList, plus the plot geometry the panel needs for mouse input and the data table
// behind the picture (the CSV export and the tests read it). Which figures exist, and everything
// the app knows about each, is in figures/registry.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "figures/figure_cache.hpp"
#include "figures/plot_descriptor.hpp"
#include "plot/display_list.hpp"
#include "plot/plot.hpp"
#include "plot/style.hpp"
#include "rope/params.hpp"

namespace rope::figures {

struct FigureDescriptor;

// Pixel <-> data mapping of one plot in a figure (copied out of plot::Plot after building).
struct PlotGeometry {
    std::string name;  // the plot's descriptor's name: "heatmap", "qk", ...
    int tag = 0;       // its index in the figure's plots, the figure's own enum value for it (see is())
    AxisRole x_role = AxisRole::other, y_role = AxisRole::other;
    plot::Rect area;
    plot::Rect frame;  // the plot with its title, ticks, axis labels and colour bar (export --plot)
    double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
    bool x_log = false, y_log = false;
    int model = 0;  // 1: a plot of model B's picture (two pictures: figures/compared_build.hpp)
    double x_at(float px) const;
    double y_at(float py) const;
    plot::Vec2 px(double x, double y) const;
    template <typename Tag>
    bool is(Tag t) const {
        return tag == static_cast<int>(t);
    }
};

// The numbers behind a figure, column by column.
struct DataTable {
    std::vector<std::string> columns;
    std::vector<std::vector<double>> values;  // values[column][row]
    // With model B: a first column `label_column` ("model") of text, one label per row ("a", "b");
    // a value NaN there is a cell the row's model has no value for (written empty).
    std::string label_column;
    std::vector<std::string> labels;
    // A column of codes a reader knows by name (a video's layouts, a token's kind): words[c] names
    // column c's values 0, 1, ... and a file holds the words; empty (or no entry) for a column of
    // numbers. The values stay the codes, numbers like every other cell, for whoever reads the table.
    std::vector<std::vector<std::string>> words;
    // A table of text instead (the model card): rows of cells under `columns`, written as they are
    // (quoted where a cell holds a comma, a quote or a line break).
    std::vector<std::vector<std::string>> text_rows;
    // The models by name, A's then B's (compared_build.hpp: model_label), where a preset, a config or
    // model folder, or B names them (none for values set by hand alone): the CSV then ends with a
    // column `model_name`, each row its model's; a table of A's rows that a figure
    // compares with B (the context panel's theta_reference, the sweep's marked base) ends with
    // `model_b_name` too (build_figure fills it with the table).
    std::vector<std::string> model_names;
    std::size_t rows() const { return !text_rows.empty() ? text_rows.size() : values.empty() ? 0 : values[0].size(); }
};

struct FigureResult {
    plot::DisplayList list;
    std::vector<PlotGeometry> plots;
    DataTable table;
    plot::Rect shared_key;  // where a key every plot shares is drawn apart from them (export --plot takes it along)
    bool incomplete = false;  // drawn while a background computation was still running
    bool error = false;       // building it failed (the list holds the message)
    // Model B's name when the picture was too small for two legible pictures and shows A's alone
    // (the panel's header says so; a larger panel or export shows both)
    std::string hidden_b;
    // Model B's name when its picture is A's (the figure does not depend on what differs between
    // them): one picture stands for both, and the panel's header says so.
    std::string same_for_b;
    // What the picture leaves out at this size ("2 of 3 plots"), where it is presented: the room sees
    // no note, the presenter view says it.
    std::string left_out;
    std::uint64_t background_stamp = 0;  // background_stamp() when the build started
    // Words about data only the build holds (the trained model's heaviest pair), for its alt text.
    std::string data_words;
    const PlotGeometry* plot(std::string_view name) const;  // tests
    template <typename Tag>
    const PlotGeometry* find(Tag t) const {
        for (const PlotGeometry& g : plots)
            if (g.is(t)) return &g;
        return nullptr;
    }
};

struct FigureRequest {
    const FigureDescriptor* figure = nullptr;
    float width = 800, height = 500;  // figure pixels (already including the style's scale)
    plot::Style style;
    const plot::TextMeasure* measure = nullptr;
    bool with_table = false;  // fill FigureResult::table
    bool full_resolution = false;  // the table: one row per position, not per cell (heatmap only)
    bool wait_for_background = true;  // false on screen: slow parts show "computing…" until ready
    // The cursor and selection marks: the current position m (and distance n - m) as marker lines,
    // the selected pair's line and highlight, the score matrix's selected cell and its diagonal.
    // False for `export --clean`; the picture is otherwise the same.
    bool show_cursor = true;
    // On screen: a figure's words may say what a click, a drag or a key does there. False in files,
    // where nobody can click (the notes say what a larger export shows instead).
    bool interactive = true;
    // On screen: the panel fills the window, so a note on plots left out does not suggest maximising it.
    bool maximized = false;
    // On screen with keys to press: a note may name one ("maximise (1)"); false on a touch screen.
    bool key_hints = true;
    // On a small screen (a phone, an embed in a column, a page at 200 %): a small picture there is
    // compact (plot::Style::compact). A desktop's grid keeps every plot that fits.
    bool small_screen = false;
    // Set for both pictures when model B has another pair count than A: pair axes read i ÷ pairs
    // (figures/pair_axis.hpp), the same for both.
    bool pair_fraction_axis = false;
};

FigureResult build_figure(const FigureRequest& request, const ParamSet& params, FigureCache& cache);

// The figure's title naming what it shows: "Angle heatmap · llama-3-8b", with model B "Angle heatmap ·
// llama-2-7b vs llama-3-8b" (a model by its preset, or its config.json's or model folder's name; the
// title alone for a model set by hand and no B). Files draw it; the panel's header shows it.
std::string figure_title(const FigureDescriptor& figure, const ParamSet& params);

// Two display lists draw the same picture (every command equal); if not, `why` says where they differ.
bool same_picture(const plot::DisplayList& a, const plot::DisplayList& b, std::string* why = nullptr);

// The five bases the sweep panel compares: log-spaced around `base`, a decade either way.
std::array<double, 5> sweep_bases(double base);

}  // namespace rope::figures
