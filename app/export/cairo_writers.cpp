// The desktop's still writers through cairo: PNG (cairo's pixels, libpng's file with the text
// chunks) and PDF.
#include "export/still_writers.hpp"

#include <cairo-pdf.h>
#include <cairo.h>

#include "export/cairo_canvas.hpp"
#include "export/export.hpp"
#include "export/pdf_stream.hpp"
#include "io/atomic_file.hpp"

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
