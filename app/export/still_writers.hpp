// The writers of one picture or one table (file_formats.hpp's StillWriter): PNG through cairo and
// libpng and PDF through cairo (cairo_writers.cpp, the desktop's), SVG through our writer, CSV from
// the figure's data table, HTML (html_page.cpp). Each writes atomically and fills in what the result
// reports (the pixel size).
#pragma once

#include <string>

#include "export/export_options.hpp"
#include "figures/figures.hpp"
#include "io/png_writer.hpp"

namespace rope::exporting {

struct StillFile {
    const figures::FigureResult& figure;  // as the file shows it (whole, or one plot cut out)
    const ExportOptions& options;
    const io::TextChunks& metadata;        // the version and the parameters (session/file_metadata.hpp)
    std::string title;                     // "RoPE Explorer: Rotated vectors"
    const plot::TextMeasure& measure;
    const figures::FigureDescriptor* descriptor = nullptr;
    std::string alt;  // what the picture shows, for screen readers (figures/alt_text.hpp)
};

using StillWriter = void (*)(const StillFile& file, ExportResult& result);

void write_png_file(const StillFile& file, ExportResult& result);
void write_svg_file(const StillFile& file, ExportResult& result);
void write_pdf_file(const StillFile& file, ExportResult& result);
void write_csv_file(const StillFile& file, ExportResult& result);
void write_html_file(const StillFile& file, ExportResult& result);  // export/html_page.cpp

// The CSV text of a figure's data table (header, then shortest round-trip numbers).
std::string table_csv(const figures::DataTable& table);
// The same with the header and only `count` (at least 1) of its rows, spread evenly from the first to
// the last (all of them when it has fewer): a short table's worth, without writing a heatmap's
// tens of thousands of rows to read six.
std::string table_csv_sample(const figures::DataTable& table, std::size_t count);

}  // namespace rope::exporting
