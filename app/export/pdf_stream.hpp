// cairo's PDF output streamed into an AtomicFile: the first write error is kept (the path and the
// system's reason) and cairo is told to stop; nothing reaches the real path until the caller commits.
#pragma once

#include <cairo.h>

#include <string>

#include "io/atomic_file.hpp"

namespace rope::exporting {

struct PdfSink {
    io::AtomicFile* file;
    std::string error;
};

// cairo_write_func_t for cairo_pdf_surface_create_for_stream with a PdfSink as its closure.
cairo_status_t write_pdf_stream(void* closure, const unsigned char* data, unsigned int length);

// Finishes and destroys `surface`; throws io::IoError naming `path` if writing failed.
void finish_pdf(cairo_surface_t* surface, const PdfSink& sink, const std::string& path);

}  // namespace rope::exporting
