// What an export is asked for and what it gave: the options every file format reads (a format uses
// those that apply to it, see file_formats.hpp) and the result the status line reports.
#pragma once

#include <string>

#include "figures/trained_reader.hpp"
#include "plot/style.hpp"

namespace rope::exporting {

// png_folder stays last: file_formats.cpp has one row per format up to it, in this order (checked
// when it compiles).
enum class FileFormat { png, svg, pdf, csv, html, gif, mp4, webm, png_folder };

struct ExportOptions {
    std::string path;
    double scale = 1;  // pixels per figure pixel (0.25..8) for raster formats; vector files ignore it
    int width = 800;   // figure size in pixels at scale 1: a blog column
    int height = 480;
    plot::ThemeId theme = plot::ThemeId::light;
    bool clean = false;     // leave out the cursor and selection marks (figures::FigureRequest::show_cursor)
    bool no_title = false;  // leave out the figure's title; with `plot`, the plot's title too
    std::string plot;       // one plot of the figure alone (a name in FigureDescriptor::plots); "" = all of it
    bool full_resolution = false;  // CSV of the heatmap: one row per position and pair, not per cell
    // How the Trained model figure reads its model folder (the program's services); none: it says
    // this program reads no model folders.
    figures::TrainedReader read_trained;
};

inline constexpr double kMinScale = 0.25, kMaxScale = 8;
inline constexpr int kMinSize = 200, kMaxSize = 8000;

struct ExportResult {
    std::string path;
    FileFormat format = FileFormat::png;
    int pixel_width = 0, pixel_height = 0;
    double milliseconds = 0;
    std::string alt;  // what the picture shows, as the file carries it (an animation's: its first frame's)
};

}  // namespace rope::exporting
