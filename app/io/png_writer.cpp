#include "io/png_writer.hpp"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>

#include "io/atomic_file.hpp"

namespace rope::io {

namespace {

struct ErrorSink {
    char message[256] = "libpng error";
};

// libpng's errors end its call: a longjmp to the setjmp of encode or decode on the desktop. In the
// browser build a function may not hold both a setjmp and WebAssembly's exceptions, so there the
// error is thrown (PngFailure) and caught there instead.
struct PngFailure {};
#ifdef __EMSCRIPTEN__
#define ROPE_PNG_GUARD(png, on_failure) \
    try {
#define ROPE_PNG_GUARD_END(on_failure) \
    }                                  \
    catch (const PngFailure&) {        \
        on_failure;                    \
    }
#else
#define ROPE_PNG_GUARD(png, on_failure) \
    if (setjmp(png_jmpbuf(png))) {      \
        on_failure;                     \
    }
#define ROPE_PNG_GUARD_END(on_failure)
#endif

void on_error(png_structp png, png_const_charp msg) {
    auto* sink = static_cast<ErrorSink*>(png_get_error_ptr(png));
    // libpng's own write function says only "Write Error": the system's reason is in errno
    const int e = errno;
    if (e != 0 && std::strcmp(msg, "Write Error") == 0)
        std::snprintf(sink->message, sizeof sink->message, "%s", std::strerror(e));
    else
        std::snprintf(sink->message, sizeof sink->message, "%s", msg);
#ifdef __EMSCRIPTEN__
    (void)png;
    throw PngFailure{};
#else
    png_longjmp(png, 1);
#endif
}

void on_warning(png_structp, png_const_charp) {}

// Plain C-style so that longjmp crosses no C++ object with a destructor.
bool encode(std::FILE* file, const std::uint8_t* rgba, int width, int height, const TextChunks& text, double dpi,
            ErrorSink& sink, png_text* chunks, png_bytep* rows) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    if (!png) return false;
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, nullptr);
        return false;
    }
    ROPE_PNG_GUARD(png, png_destroy_write_struct(&png, &info); return false)
    png_init_io(png, file);
    png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8, PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 6);
    for (std::size_t i = 0; i < text.size(); ++i) {
        std::memset(&chunks[i], 0, sizeof(png_text));
        // iTXt keeps UTF-8; long values are compressed
        chunks[i].compression = text[i].second.size() > 512 ? PNG_ITXT_COMPRESSION_zTXt : PNG_ITXT_COMPRESSION_NONE;
        chunks[i].key = const_cast<char*>(text[i].first.c_str());
        chunks[i].text = const_cast<char*>(text[i].second.c_str());
        chunks[i].lang = nullptr;
        chunks[i].lang_key = nullptr;
    }
    if (!text.empty()) png_set_text(png, info, chunks, static_cast<int>(text.size()));
    if (dpi > 0) {
        const auto ppm = static_cast<png_uint_32>(dpi / 0.0254 + 0.5);
        png_set_pHYs(png, info, ppm, ppm, PNG_RESOLUTION_METER);
    }
    png_write_info(png, info);
    for (int y = 0; y < height; ++y)
        rows[static_cast<std::size_t>(y)] = const_cast<png_bytep>(rgba + static_cast<std::size_t>(y) * width * 4);
    png_write_image(png, rows);
    png_write_end(png, nullptr);
    ROPE_PNG_GUARD_END(png_destroy_write_struct(&png, &info); return false)
    png_destroy_write_struct(&png, &info);
    return true;
}

bool decode(std::FILE* file, PngImage& out, bool pixels, ErrorSink& sink, std::vector<png_bytep>& rows) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    if (!png) return false;
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, nullptr, nullptr);
        return false;
    }
    ROPE_PNG_GUARD(png, png_destroy_read_struct(&png, &info, nullptr); return false)
    png_init_io(png, file);
    // Files come from outside: a chunk that claims gigabytes, thousands of text chunks or a huge
    // image are refused instead of allocated (our own text chunks are a few kilobytes).
    png_set_chunk_malloc_max(png, 16u << 20);
    png_set_chunk_cache_max(png, 4096);
    png_set_user_limits(png, 65536, 65536);
    png_read_info(png, info);
    out.width = static_cast<int>(png_get_image_width(png, info));
    out.height = static_cast<int>(png_get_image_height(png, info));
    png_textp text = nullptr;
    int count = 0;
    if (png_get_text(png, info, &text, &count) > 0)
        for (int i = 0; i < count; ++i) out.text.emplace_back(text[i].key, std::string(text[i].text ? text[i].text : ""));
    if (pixels) {
        if (static_cast<long long>(out.width) * out.height > (1LL << 28)) png_error(png, "image too large");
        png_set_expand(png);
        png_set_strip_16(png);
        png_set_gray_to_rgb(png);
        png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
        png_read_update_info(png, info);
        out.rgba.resize(static_cast<std::size_t>(out.width) * out.height * 4);
        rows.resize(static_cast<std::size_t>(out.height));
        for (int y = 0; y < out.height; ++y) rows[static_cast<std::size_t>(y)] = out.rgba.data() + static_cast<std::size_t>(y) * out.width * 4;
        png_read_image(png, rows.data());
        png_read_end(png, info);
        // text chunks after the image data
        if (png_get_text(png, info, &text, &count) > static_cast<int>(out.text.size())) {
            out.text.clear();
            for (int i = 0; i < count; ++i) out.text.emplace_back(text[i].key, std::string(text[i].text ? text[i].text : ""));
        }
    }
    ROPE_PNG_GUARD_END(png_destroy_read_struct(&png, &info, nullptr); return false)
    png_destroy_read_struct(&png, &info, nullptr);
    return true;
}

}  // namespace

void write_png(const std::string& path, const std::uint8_t* rgba, int width, int height, const TextChunks& text,
               double dpi) {
    AtomicFile file(path);
    ErrorSink sink;
    errno = 0;
    std::vector<png_text> chunks(text.size());
    std::vector<png_bytep> rows(static_cast<std::size_t>(height));
    if (!encode(file.stream(), rgba, width, height, text, dpi, sink, chunks.data(), rows.data()))
        throw IoError("cannot write '" + path + "': " + sink.message);
    file.commit();
}

PngImage read_png(const std::string& path, bool pixels) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw IoError("cannot read '" + path + "': " + std::strerror(errno));
    unsigned char sig[8] = {};
    if (std::fread(sig, 1, 8, f) != 8 || png_sig_cmp(sig, 0, 8) != 0) {
        std::fclose(f);
        throw IoError("cannot read '" + path + "': not a PNG file");
    }
    std::rewind(f);
    PngImage img;
    ErrorSink sink;
    std::vector<png_bytep> rows;
    const bool ok = decode(f, img, pixels, sink, rows);
    std::fclose(f);
    if (!ok) throw IoError("cannot read '" + path + "': " + sink.message);
    return img;
}

}  // namespace rope::io
