#include "export/still_writers.hpp"

#include <cmath>
#include <cairo-pdf.h>
#include <cairo.h>

#include "export/cairo_canvas.hpp"
#include "export/export.hpp"
#include "export/pdf_stream.hpp"
#include "io/atomic_file.hpp"
#include "rope/number_format.hpp"

namespace rope::exporting {

namespace {

// "key=value key=value ...": the parameters as one line, for a PDF's Subject and Keywords.
std::string metadata_text(const io::TextChunks& meta) {
    std::string s;
    for (const auto& [k, v] : meta) s += (s.empty() ? "" : " ") + k + "=" + v;
    return s;
}

}  // namespace

void write_png_file(const StillFile& f, ExportResult& result) {
    int w = 0, h = 0;
    const std::vector<std::uint8_t> rgba = rasterize(f.figure.list, f.options, w, h);
    io::TextChunks meta = f.metadata;
    if (!f.alt.empty()) meta.emplace_back("Description", f.alt);  // the PNG's own keyword for what it shows
    io::write_png(f.options.path, rgba.data(), w, h, meta, 96.0 * f.options.scale);
    result.pixel_width = w;
    result.pixel_height = h;
}

void write_svg_file(const StillFile& f, ExportResult& result) {
    io::write_file_atomically(f.options.path, render_svg(f.figure.list, f.measure, f.title, f.metadata, f.alt));
    result.pixel_width = f.options.width;
    result.pixel_height = f.options.height;
}

void write_pdf_file(const StillFile& f, ExportResult& result) {
    const ExportOptions& o = f.options;
    io::AtomicFile file(o.path);
    PdfSink sink{&file, {}};
    cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(write_pdf_stream, &sink, o.width, o.height);
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, f.title.c_str());
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "RoPE Explorer " ROPE_EXPLORER_VERSION);
    const std::string params_text = metadata_text(f.metadata);
    // Subject: what the picture shows (its alt text); Keywords: the parameters that reopen it
    const std::string subject = f.alt.empty() ? params_text : f.alt;
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, subject.c_str());
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, params_text.c_str());
    cairo_t* cr = cairo_create(surface);
    replay_cairo(f.figure.list, cr);
    cairo_destroy(cr);
    finish_pdf(surface, sink, o.path);
    file.commit();
    result.pixel_width = o.width;
    result.pixel_height = o.height;
}

void write_csv_file(const StillFile& f, ExportResult&) { io::write_file_atomically(f.options.path, table_csv(f.figure.table)); }

namespace {

std::string csv_cell(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

}  // namespace

std::string table_csv(const figures::DataTable& t) {
    std::string out;
    if (!t.text_rows.empty()) {
        for (std::size_t c = 0; c < t.columns.size(); ++c) out += (c ? "," : "") + csv_cell(t.columns[c]);
        out += '\n';
        for (const auto& row : t.text_rows) {
            for (std::size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + csv_cell(row[c]);
            out += '\n';
        }
        return out;
    }
    const bool labelled = !t.label_column.empty();
    if (labelled) out += t.label_column + (t.columns.empty() ? "" : ",");
    for (std::size_t c = 0; c < t.columns.size(); ++c) out += (c ? "," : "") + t.columns[c];
    out += '\n';
    char buf[kMaxNumberChars];
    for (std::size_t r = 0; r < t.rows(); ++r) {
        if (labelled) out += (r < t.labels.size() ? t.labels[r] : "") + (t.values.empty() ? "" : ",");
        for (std::size_t c = 0; c < t.values.size(); ++c) {
            if (c) out += ',';
            if (labelled && std::isnan(t.values[c][r])) continue;
            out.append(buf, format_number(buf, t.values[c][r]));
        }
        out += '\n';
    }
    return out;
}

}  // namespace rope::exporting

namespace rope::exporting {

cairo_status_t write_pdf_stream(void* closure, const unsigned char* data, unsigned int length) {
    auto* sink = static_cast<PdfSink*>(closure);
    if (!sink->error.empty()) return CAIRO_STATUS_WRITE_ERROR;
    try {
        sink->file->write(data, length);
    } catch (const io::IoError& e) {
        sink->error = e.what();
        return CAIRO_STATUS_WRITE_ERROR;
    }
    return CAIRO_STATUS_SUCCESS;
}

void finish_pdf(cairo_surface_t* surface, const PdfSink& sink, const std::string& path) {
    cairo_surface_finish(surface);
    const cairo_status_t status = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    if (!sink.error.empty()) throw io::IoError(sink.error);
    if (status != CAIRO_STATUS_SUCCESS) throw io::IoError("cannot write '" + path + "': " + cairo_status_to_string(status));
}

}  // namespace rope::exporting
