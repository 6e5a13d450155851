// The browser build's side of the file back ends (the desktop's is cairo_canvas.cpp and
// cairo_writers.cpp): text measured with stb_truetype on the same DejaVu Sans, heatmap cells as PNG
// through libpng, and a PNG picture that the browser draws from the SVG (its canvas is the
// rasteriser here; web/page.js turns the SVG written at the path, and the text chunks beside it, into
// the PNG it downloads).
#include <stb/stb_truetype.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "export/export.hpp"
#include "export/handout.hpp"
#include "export/still_writers.hpp"
#include "export/svg_writer.hpp"
#include "io/atomic_file.hpp"
#include "io/png_writer.hpp"

namespace rope::exporting {

namespace {

// The next code point of UTF-8 text at `i` (advanced past it); U+FFFD for a broken sequence.
int next_code_point(const std::string& s, std::size_t& i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b = byte(i++);
    if (b < 0x80) return b;
    const int extra = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : -1;
    if (extra < 0 || i + static_cast<std::size_t>(extra) > s.size()) return 0xfffd;
    int cp = b & (0x3f >> extra);
    for (int k = 0; k < extra; ++k) cp = cp << 6 | (byte(i++) & 0x3f);
    return cp;
}

// DejaVu Sans through stb_truetype: each glyph's advance at the text's em, rounded to whole pixels
// as cairo's hinted metrics round them (no kerning: cairo's text extents apply none either).
class StbTextMeasure : public plot::TextMeasure {
public:
    StbTextMeasure() {
        const std::vector<unsigned char>& ttf = dejavu_font_bytes();
        ok_ = !ttf.empty() && stbtt_InitFont(&font_, ttf.data(), stbtt_GetFontOffsetForIndex(ttf.data(), 0)) != 0;
    }
    plot::Vec2 measure(const std::string& text, float size) const override {
        if (!ok_) return plot::ApproximateTextMeasure().measure(text, size);
        const float scale = stbtt_ScaleForMappingEmToPixels(&font_, static_cast<float>(size / kEmToPixelHeight));
        float width = 0;
        for (std::size_t i = 0; i < text.size();) {
            int advance = 0, bearing = 0;
            stbtt_GetCodepointHMetrics(&font_, next_code_point(text, i), &advance, &bearing);
            width += std::round(advance * scale);
        }
        return {width, size};
    }

private:
    stbtt_fontinfo font_{};
    bool ok_ = false;
};

}  // namespace

std::unique_ptr<plot::TextMeasure> file_text_measure() { return std::make_unique<StbTextMeasure>(); }

std::vector<unsigned char> cells_png(const plot::ImageCmd& img, int kx, int ky) {
    const int w = img.cols * kx, h = img.rows * ky;
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(w) * h * 4);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::uint32_t c = cell_rgb(img, y / ky, x / kx);
            std::uint8_t* p = &rgba[(static_cast<std::size_t>(y) * w + x) * 4];
            p[0] = static_cast<std::uint8_t>(c >> 16), p[1] = static_cast<std::uint8_t>(c >> 8), p[2] = static_cast<std::uint8_t>(c), p[3] = 255;
        }
    // libpng writes files: one in the page's memory file system, read back and removed
    static std::mutex mutex;
    const std::lock_guard<std::mutex> lock(mutex);
    const std::string path = "/tmp/rope-explorer-cells.png";
    io::write_png(path, rgba.data(), w, h, {});
    std::vector<unsigned char> bytes;
    if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
        unsigned char buf[65536];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.insert(bytes.end(), buf, buf + n);
        std::fclose(f);
    }
    std::remove(path.c_str());
    return bytes;
}

// The SVG at the path, the PNG's text chunks (the parameters and a Description) at path + ".text"
// as JSON, and the pixel size the PNG will have: the page draws it when it offers the download.
void write_png_file(const StillFile& f, ExportResult& result) {
    const ExportOptions& o = f.options;
    io::TextChunks meta = f.metadata;
    if (!f.alt.empty()) meta.emplace_back("Description", f.alt);
    nlohmann::json chunks = nlohmann::json::array();
    for (const auto& [key, value] : meta) chunks.push_back({key, value});
    result.pixel_width = static_cast<int>(std::lround(o.width * o.scale));
    result.pixel_height = static_cast<int>(std::lround(o.height * o.scale));
    const nlohmann::json side = {{"text", chunks}, {"width", result.pixel_width}, {"height", result.pixel_height}, {"dpi", 96.0 * o.scale}};
    io::write_file_atomically(o.path + ".text", side.dump());
    io::write_file_atomically(o.path, render_svg(f.figure.list, f.measure, f.title, f.metadata, f.alt));
}

HandoutResult write_handout(const lessons::Lesson&, const std::string& path, HandoutKind, plot::ThemeId) {
    throw std::runtime_error("handout '" + path + "': handouts are PDFs, which the desktop app writes (rope-explorer export lesson)");
}

}  // namespace rope::exporting
