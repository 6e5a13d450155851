// Figure files: PNG (cairo pixels, libpng with the parameters as text chunks), SVG (our writer),
// PDF (cairo), CSV (the numbers behind the figure). The same figure code as the screen draws them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "figures/registry.hpp"
#include "io/png_writer.hpp"
#include "plot/style.hpp"
#include "rope/params.hpp"

namespace rope::exporting {

enum class Format { png, svg, pdf, csv };

// The format named by the file's extension (case-insensitive); false if none of ours.
bool format_from_path(const std::string& path, Format& out);
const char* format_name(Format f);

struct ExportOptions {
    std::string path;
    double scale = 1;  // PNG pixels per figure pixel (0.25..8); vector files ignore it
    int width = 800;   // figure size in pixels at scale 1: a blog column
    int height = 480;
    plot::ThemeId theme = plot::ThemeId::light;
    bool clean = false;     // leave out the cursor and selection marks (figures::FigureRequest::show_cursor)
    bool no_title = false;  // leave out the figure's title; with `plot`, the plot's title too
    std::string plot;       // one plot of the figure alone (a name in FigureDescriptor::plots); "" = all of it
    bool full_resolution = false;  // CSV of the heatmap: one row per position and pair, not per cell
};

inline constexpr double kMinScale = 0.25, kMaxScale = 8;
inline constexpr int kMinSize = 200, kMaxSize = 8000;

struct ExportResult {
    std::string path;
    Format format = Format::png;
    int pixel_width = 0, pixel_height = 0;
    double milliseconds = 0;
};

// "" if `o` asks for nothing the figure and format cannot give; else the one-line reason (an
// unknown plot name, listing the figure's; picture options with a CSV).
std::string picture_options_problem(const figures::FigureDescriptor& figure, const ExportOptions& o, Format format);

// "pair, fan, qk": the plots `--plot` can name.
std::string plot_names(const figures::FigureDescriptor& figure);

// The figure as the file will show it: the whole figure, or one plot of it cut out at the size asked for.
// `pins` (an animation's held ranges) reach the build that makes the result, not the probes before it.
figures::FigureResult build_for_file(const figures::FigureDescriptor& figure, const ParamSet& params, const ExportOptions& o,
                                     const plot::TextMeasure& measure, bool with_table, figures::FigureCache& cache,
                                     plot::AxisPins* pins = nullptr);

// The display list as PNG pixels (straight RGBA, top row first) at o.width x o.height times o.scale:
// what a .png export holds; the size comes back in w and h. Throws io::IoError (out of memory).
std::vector<std::uint8_t> rasterize(const plot::DisplayList& list, const ExportOptions& o, int& w, int& h);

// Builds the figure and writes it atomically. Throws io::IoError (write failures, naming the
// path and the system's reason) or std::invalid_argument (bad options). The app passes its own cache
// (what is on screen is not computed again); without one the export makes its own.
ExportResult export_figure(const figures::FigureDescriptor& figure, const ParamSet& params, const ExportOptions& options,
                           figures::FigureCache* cache = nullptr);

// The CSV text of a figure's data table (header, then shortest round-trip numbers).
std::string table_csv(const figures::DataTable& table);

}  // namespace rope::exporting
