#include "export/export.hpp"

#include <cairo-pdf.h>
#include <cairo.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "export/cairo_canvas.hpp"
#include "io/atomic_file.hpp"
#include "rope/number_format.hpp"

namespace rope::exporting {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

plot::Style file_style(plot::ThemeId theme) {
    plot::Style s;
    s.theme = plot::theme_by_id(theme);
    s.scale = 1;
    s.tick_font = 13;
    s.label_font = 15;
    s.title_font = 18;
    s.line_width = 2.2f;
    s.draw_titles = true;
    s.fill_plot_area = true;
    return s;
}

struct PdfSink {
    io::AtomicFile* file;
    std::string error;  // the first write error, naming the path and the system's reason
};

cairo_status_t write_to_file(void* closure, const unsigned char* data, unsigned int length) {
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

std::string metadata_text(const io::TextChunks& meta) {
    std::string s;
    for (const auto& [k, v] : meta) s += (s.empty() ? "" : " ") + k + "=" + v;
    return s;
}

}  // namespace

bool format_from_path(const std::string& path, Format& out) {
    const std::size_t dot = path.find_last_of('.');
    const std::size_t slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return false;
    const std::string ext = lower(path.substr(dot + 1));
    if (ext == "png") out = Format::png;
    else if (ext == "svg") out = Format::svg;
    else if (ext == "pdf") out = Format::pdf;
    else if (ext == "csv") out = Format::csv;
    else return false;
    return true;
}

const char* format_name(Format f) {
    switch (f) {
        case Format::png: return "PNG";
        case Format::svg: return "SVG";
        case Format::pdf: return "PDF";
        case Format::csv: return "CSV";
    }
    return "?";
}

io::TextChunks parameter_metadata(const ParamSet& params, const figures::FigureDescriptor& figure) {
    io::TextChunks meta;
    meta.emplace_back("Software", "RoPE Explorer " ROPE_EXPLORER_VERSION);
    meta.emplace_back("rope-explorer-version", ROPE_EXPLORER_VERSION);
    meta.emplace_back("figure", std::string(figure.name));
    for (const ParamSpec& spec : parameter_table()) meta.emplace_back(std::string(spec.name), params.value_text(spec.name));
    return meta;
}

std::string table_csv(const figures::DataTable& t) {
    std::string out;
    for (std::size_t c = 0; c < t.columns.size(); ++c) out += (c ? "," : "") + t.columns[c];
    out += '\n';
    char buf[kMaxNumberChars];
    for (std::size_t r = 0; r < t.rows(); ++r) {
        for (std::size_t c = 0; c < t.values.size(); ++c) {
            if (c) out += ',';
            const double v = t.values[c][r];
            out.append(buf, format_number(buf, v));
        }
        out += '\n';
    }
    return out;
}

ExportResult export_figure(const figures::FigureDescriptor& figure, const ParamSet& params, const ExportOptions& o,
                           figures::FigureCache* shared_cache) {
    const auto t0 = std::chrono::steady_clock::now();
    ExportResult result;
    result.path = o.path;
    if (!format_from_path(o.path, result.format))
        throw std::invalid_argument("'" + o.path + "': unknown file type; use .png, .svg, .pdf or .csv");
    if (!(o.scale >= kMinScale && o.scale <= kMaxScale)) throw std::invalid_argument("scale must be from 0.25 to 8");
    if (o.width < kMinSize || o.width > kMaxSize || o.height < kMinSize || o.height > kMaxSize)
        throw std::invalid_argument("width and height must be from 200 to 8000 pixels");

    if (o.full_resolution && result.format != Format::csv)
        throw std::invalid_argument("--full-resolution: only for a .csv file (pictures show one colour per cell)");
    if (o.full_resolution && !figure.full_resolution_table)
        throw std::invalid_argument("--full-resolution: only the heatmap has a table per position, not '" + std::string(figure.name) + "'");
    CairoTextMeasure measure;
    std::unique_ptr<figures::FigureCache> own_cache;
    if (!shared_cache) own_cache = std::make_unique<figures::FigureCache>();
    figures::FigureCache& cache = shared_cache ? *shared_cache : *own_cache;
    figures::FigureRequest request;
    request.figure = &figure;
    request.width = static_cast<float>(o.width);
    request.height = static_cast<float>(o.height);
    request.style = file_style(o.theme);
    request.measure = &measure;
    request.with_table = result.format == Format::csv;
    request.full_resolution = o.full_resolution;
    const figures::FigureResult fig = figures::build_figure(request, params, cache);
    const io::TextChunks meta = parameter_metadata(params, figure);
    const std::string title = "RoPE Explorer: " + std::string(figure.title);

    switch (result.format) {
        case Format::csv: {
            io::write_file_atomically(o.path, table_csv(fig.table));
            break;
        }
        case Format::svg: {
            io::write_file_atomically(o.path, render_svg(fig.list, measure, title, meta));
            result.pixel_width = o.width;
            result.pixel_height = o.height;
            break;
        }
        case Format::png: {
            const int w = static_cast<int>(std::lround(o.width * o.scale));
            const int h = static_cast<int>(std::lround(o.height * o.scale));
            cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
            if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
                cairo_surface_destroy(surface);
                throw io::IoError("cannot write '" + o.path + "': out of memory for a " + std::to_string(w) + "x" +
                                  std::to_string(h) + " image");
            }
            cairo_t* cr = cairo_create(surface);
            cairo_scale(cr, static_cast<double>(w) / o.width, static_cast<double>(h) / o.height);
            replay_cairo(fig.list, cr);
            cairo_destroy(cr);
            cairo_surface_flush(surface);
            // cairo: premultiplied native-endian ARGB; libpng: straight RGBA
            const unsigned char* data = cairo_image_surface_get_data(surface);
            const int stride = cairo_image_surface_get_stride(surface);
            std::vector<std::uint8_t> rgba(static_cast<std::size_t>(w) * h * 4);
            for (int y = 0; y < h; ++y) {
                const auto* row = reinterpret_cast<const std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
                for (int x = 0; x < w; ++x) {
                    const std::uint32_t p = row[x];
                    const unsigned a = p >> 24;
                    auto un = [a](unsigned c) { return static_cast<std::uint8_t>(a ? std::min(255u, (c * 255 + a / 2) / a) : 0); };
                    std::uint8_t* out = &rgba[(static_cast<std::size_t>(y) * w + x) * 4];
                    out[0] = un(p >> 16 & 0xff);
                    out[1] = un(p >> 8 & 0xff);
                    out[2] = un(p & 0xff);
                    out[3] = static_cast<std::uint8_t>(a);
                }
            }
            cairo_surface_destroy(surface);
            io::write_png(o.path, rgba.data(), w, h, meta, 96.0 * o.scale);
            result.pixel_width = w;
            result.pixel_height = h;
            break;
        }
        case Format::pdf: {
            io::AtomicFile file(o.path);
            PdfSink sink{&file, {}};
            cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(write_to_file, &sink, o.width, o.height);
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title.c_str());
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "RoPE Explorer " ROPE_EXPLORER_VERSION);
            const std::string params_text = metadata_text(meta);
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, params_text.c_str());
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, params_text.c_str());
            cairo_t* cr = cairo_create(surface);
            replay_cairo(fig.list, cr);
            cairo_destroy(cr);
            cairo_surface_finish(surface);
            const cairo_status_t status = cairo_surface_status(surface);
            cairo_surface_destroy(surface);
            if (!sink.error.empty()) throw io::IoError(sink.error);
            if (status != CAIRO_STATUS_SUCCESS) throw io::IoError("cannot write '" + o.path + "': " + cairo_status_to_string(status));
            file.commit();
            result.pixel_width = o.width;
            result.pixel_height = o.height;
            break;
        }
    }
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

}  // namespace rope::exporting
