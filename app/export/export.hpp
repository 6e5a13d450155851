// Figure files, one picture or table: the figure built for the file (whole, or one plot of it cut
// out) and written by its format's writer (file_formats.hpp). The same figure code as the screen.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "export/export_options.hpp"
#include "export/file_formats.hpp"
#include "figures/registry.hpp"
#include "io/png_writer.hpp"
#include "plot/style.hpp"
#include "rope/params.hpp"

namespace rope::exporting {

// "" if `o` asks for nothing the figure and format cannot give; else the one-line reason (an
// unknown plot name, listing the figure's; picture options with a CSV).
std::string picture_options_problem(const figures::FigureDescriptor& figure, const ExportOptions& o, const FileFormatInfo& format);

// The figures' style in a file as `o` asks for it (theme, titles).
plot::Style file_style_for(const ExportOptions& o);

// The figure as the file will show it: the whole figure, or one plot of it cut out at the size asked for.
// `pins` (an animation's held ranges) reach the build that makes the result, not the probes before it.
figures::FigureResult build_for_file(const figures::FigureDescriptor& figure, const ParamSet& params, const ExportOptions& o,
                                     const plot::TextMeasure& measure, bool with_table, figures::FigureCache& cache,
                                     plot::AxisPins* pins = nullptr);

// The display list as PNG pixels (straight RGBA, top row first) at o.width x o.height times o.scale:
// what a .png export holds; the size comes back in w and h. Throws io::IoError (out of memory).
// Desktop only (cairo): the browser's PNG is its canvas's picture of the SVG.
std::vector<std::uint8_t> rasterize(const plot::DisplayList& list, const ExportOptions& o, int& w, int& h);

// What files measure their text with: cairo on the desktop, stb_truetype in the browser (both on
// DejaVu Sans). One for each export, which may run on a thread of its own.
std::unique_ptr<plot::TextMeasure> file_text_measure();

// The alt text of the figure as a file of these options would carry it (export --alt without --out).
std::string figure_alt_text(const figures::FigureDescriptor& figure, const ParamSet& params, const ExportOptions& options);

// The size of a file of `own` size (the figure's default_export_size) for the --width and --height
// asked for (0: not given): both as given; one alone, the other from `own`'s aspect (rounded, kept
// within kMinSize..kMaxSize), so that the type keeps its size against the picture; neither: `own`.
std::pair<int, int> size_keeping_aspect(std::pair<int, int> own, int width, int height);

// Builds the figure and writes it atomically. Throws io::IoError (write failures, naming the
// path and the system's reason) or std::invalid_argument (bad options). The app passes its own cache
// (what is on screen is not computed again); without one the export makes its own.
ExportResult export_figure(const figures::FigureDescriptor& figure, const ParamSet& params, const ExportOptions& options,
                           figures::FigureCache* cache = nullptr);

}  // namespace rope::exporting
