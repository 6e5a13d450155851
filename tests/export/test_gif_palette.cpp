// The GIF palette: colours the caller reserves land in it exactly; a figure's reserved colours are
// its flat colours and even samples along its colormaps; and a heatmap GIF's frames, read back
// by ImageMagick, stay close to the PNG export of the same values: the whole frame's mean and 99th
// percentile colour error, and the largest hue error in the heatmap's cells (its cyclic colormap
// is what a reader reads the angles from).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "export/animation.hpp"
#include "export/cairo_canvas.hpp"
#include "export/gif_palette.hpp"
#include "figures/registry.hpp"
#include "io/gif_writer.hpp"
#include "io/png_writer.hpp"
#include "plot/colormap.hpp"
#include "support/export_cli.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace P = rope::P;

using rope::test::ProcessResult;
using rope::test::run_process;

namespace {

using GifPaletteTest = rope::test::TempDirTest;
using Histogram = std::vector<std::pair<std::uint32_t, std::uint64_t>>;

bool contains(const std::vector<std::uint32_t>& palette, std::uint32_t c) { return std::find(palette.begin(), palette.end(), c) != palette.end(); }

// 4000 distinct colours, counts 1..50: far more than a GIF holds.
Histogram many_colours() {
    std::mt19937 random(17);
    std::uniform_int_distribution<std::uint32_t> colour(0, 0xffffff);
    std::uniform_int_distribution<std::uint64_t> count(1, 50);
    Histogram h;
    std::vector<std::uint32_t> seen;
    while (h.size() < 4000) {
        const std::uint32_t c = colour(random);
        if (contains(seen, c)) continue;
        seen.push_back(c);
        h.emplace_back(c, count(random));
    }
    return h;
}

std::uint32_t rgb(const std::uint8_t* p) { return std::uint32_t{p[0]} << 16 | std::uint32_t{p[1]} << 8 | p[2]; }

// OKLab of an sRGB byte triple (Ottosson's matrices).
std::array<double, 3> oklab(const std::uint8_t* p) {
    double lin[3];
    for (int i = 0; i < 3; ++i) {
        const double c = p[i] / 255.0;
        lin[i] = c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    }
    const double l = std::cbrt(0.4122214708 * lin[0] + 0.5363325363 * lin[1] + 0.0514459929 * lin[2]);
    const double m = std::cbrt(0.2119034982 * lin[0] + 0.6806995451 * lin[1] + 0.1073969566 * lin[2]);
    const double s = std::cbrt(0.0883024619 * lin[0] + 0.2817188376 * lin[1] + 0.6299787005 * lin[2]);
    return {0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s, 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s};
}

struct FrameError {
    double mean = 0, p99 = 0;  // per-pixel RGB distance (0 .. 441) over the whole frame
    double max_hue = 0;        // degrees, over the heatmap's cells that show a colour (OKLab chroma >= 0.04)
    double max_hue_coloured = 0;  // the same where the cell shows clear colour (chroma >= 0.08)
    std::size_t cells = 0;     // how many pixels that was
};

// `shown` (a GIF frame) against `png` (the export): `cells_only` is the same figure drawn with its
// images alone, so a pixel where it equals the PNG shows a heatmap cell (no line, label or edge on it).
FrameError frame_error(const rope::io::PngImage& shown, const std::vector<std::uint8_t>& png, const std::vector<std::uint8_t>& cells_only,
                       const rope::plot::Rect& heatmap) {
    FrameError e;
    const int w = shown.width, h = shown.height;
    std::vector<double> distance;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t i = (static_cast<std::size_t>(y) * w + x) * 4;
            const std::uint8_t* a = &png[i];
            const std::uint8_t* b = &shown.rgba[i];
            double d2 = 0;
            for (int c = 0; c < 3; ++c) d2 += (a[c] - b[c]) * (a[c] - b[c]);
            distance.push_back(std::sqrt(d2));
            if (!heatmap.contains({x + 0.5f, y + 0.5f}) || rgb(a) != rgb(&cells_only[i])) continue;
            const auto la = oklab(a), lb = oklab(b);
            if (std::hypot(la[1], la[2]) < 0.04) continue;
            double dh = std::abs(std::atan2(la[2], la[1]) - std::atan2(lb[2], lb[1])) * 180 / M_PI;
            e.max_hue = std::max(e.max_hue, std::min(dh, 360 - dh));
            if (std::hypot(la[1], la[2]) >= 0.08) e.max_hue_coloured = std::max(e.max_hue_coloured, std::min(dh, 360 - dh));
            ++e.cells;
        }
    for (double d : distance) e.mean += d / static_cast<double>(distance.size());
    std::sort(distance.begin(), distance.end());
    e.p99 = distance[distance.size() * 99 / 100];
    return e;
}

}  // namespace

TEST(GifPalette, ReservedColoursLandInThePaletteExactlyAndInTheirOrder) {
    const Histogram histogram = many_colours();
    std::vector<std::uint32_t> reserved;
    for (std::uint32_t i = 0; i < 300; ++i) reserved.push_back(0x010203 * (i % 80) + (i / 80));  // none of them in the frames
    const std::vector<std::uint32_t> palette = rope::io::build_palette(histogram, 255, reserved);
    EXPECT_LE(palette.size(), 255u);
    // the first 255 - kFreeSlots are kept exactly; the rest of the table stays for the frames' own colours
    const std::size_t room = 255 - rope::io::kFreeSlots;
    for (std::size_t i = 0; i < room; ++i) EXPECT_EQ(palette[i], reserved[i]) << "reserved colour " << i;
    EXPECT_FALSE(contains(palette, reserved[room + 10]));
    EXPECT_EQ(palette.size(), 255u);
}

TEST(GifPalette, FewColoursStayExactWhateverIsReserved) {
    const Histogram histogram = {{0xffffff, 900}, {0x102030, 50}, {0xc85a14, 7}};
    const std::vector<std::uint32_t> palette = rope::io::build_palette(histogram, 255, {0x00ff00, 0x0000ff});
    EXPECT_EQ(palette, (std::vector<std::uint32_t>{0xffffff, 0x102030, 0xc85a14}));
}

TEST(GifPalette, AHeatmapReservesItsFlatColoursThenEvenSamplesAlongTheCyclicMapAndItsFade) {
    const rope::figures::FigureDescriptor* heatmap = rope::figures::find_figure("heatmap");
    ASSERT_NE(heatmap, nullptr);
    rope::exporting::ExportOptions o;
    rope::exporting::CairoTextMeasure measure;
    rope::figures::FigureCache cache;
    const rope::plot::DisplayList list = rope::exporting::build_for_file(*heatmap, rope::ParamSet{}, o, measure, false, cache).list;
    const std::vector<std::uint32_t> reserved = rope::exporting::gif_reserved_colours(list);
    auto byte = [](float v) { return static_cast<std::uint32_t>(std::lround(v * 255)); };
    auto packed = [&](rope::plot::Color c) { return byte(c.r) << 16 | byte(c.g) << 8 | byte(c.b); };
    int w = 0, h = 0;
    const std::vector<std::uint8_t> png = rope::exporting::rasterize(list, o, w, h);
    EXPECT_EQ(reserved.front(), rgb(png.data())) << "the background first, as cairo paints it (the top-left pixel)";
    EXPECT_TRUE(contains(reserved, packed(rope::plot::fade_color()))) << "the grey of a cell with no colour";
    // The full-strength ring: a third of the samples, evenly round it, the seam included.
    const int ring = rope::exporting::kColormapSamples / 3;
    for (int i = 0; i < ring; ++i)
        EXPECT_TRUE(contains(reserved, packed(rope::plot::faded(rope::plot::colormap_color(rope::plot::ColormapId::cyclic, (i + 0.5) / ring), 1.0)))) << i;
    EXPECT_LE(reserved.size(), 255 - rope::io::kFreeSlots);
    EXPECT_GT(reserved.size(), 150u);
}

TEST_F(GifPaletteTest, HeatmapGifFramesStayCloseToThePngExportHuesAboveAll) {
    const rope::figures::FigureDescriptor* heatmap = rope::figures::find_figure("heatmap");
    ASSERT_NE(heatmap, nullptr);
    rope::exporting::Animation a = rope::exporting::parse_animate("position=0:119");
    a.frames = 12;
    rope::exporting::ExportOptions o;
    o.path = path("heatmap.gif");
    rope::exporting::export_animation(*heatmap, rope::ParamSet{}, a, o);
    const ProcessResult r = run_process({"/usr/bin/convert", o.path, "-coalesce", path("frame-%02d.png")});
    ASSERT_EQ(r.exit_code, 0) << r.err;

    rope::exporting::CairoTextMeasure measure;
    rope::figures::FigureCache cache;
    for (const auto& [frame, position] : {std::make_pair(0, "0"), std::make_pair(11, "119")}) {
        rope::ParamSet p;
        p.set(P::position, position);
        const rope::plot::DisplayList list = rope::exporting::build_for_file(*heatmap, p, o, measure, false, cache).list;
        rope::plot::DisplayList images = list;
        images.commands.clear();
        rope::plot::Rect biggest;
        for (const rope::plot::Command& c : list.commands)
            if (const auto* img = std::get_if<rope::plot::ImageCmd>(&c)) {
                images.add(c);
                if (img->rect.width() * img->rect.height() > biggest.width() * biggest.height()) biggest = img->rect;
            } else if (std::holds_alternative<rope::plot::ClipCmd>(c)) {
                images.add(c);
            }
        int w = 0, h = 0;
        const std::vector<std::uint8_t> png = rope::exporting::rasterize(list, o, w, h);
        const std::vector<std::uint8_t> cells_only = rope::exporting::rasterize(images, o, w, h);
        char name[32];
        std::snprintf(name, sizeof name, "frame-%02d.png", frame);
        const rope::io::PngImage shown = rope::io::read_png(path(name));
        ASSERT_EQ(shown.width, w);
        ASSERT_EQ(shown.height, h);
        const FrameError e = frame_error(shown, png, cells_only, biggest);
        std::printf("position=%s: mean %.2f, p99 %.2f, largest hue error %.2f degrees over %zu cell pixels, %.2f where clearly coloured\n", position, e.mean, e.p99,
                    e.max_hue, e.cells, e.max_hue_coloured);
        // Measured 2.23 / 12.8 / 11.2 degrees / 9.5 degrees with 13 px type; with the type a blog
        // column reads (plot::kBlogTickPx, more antialiased text colours in the palette) 2.29 / 15.0 /
        // 14.4 / 9.5. Median cut alone (before the reserved samples) gave 2.48 / 15.6 / 25.4 / 12.8
        // with the smaller type.
        EXPECT_LT(e.mean, 2.4) << position;
        EXPECT_LT(e.p99, 15.5) << position;
        EXPECT_GT(e.cells, 100000u) << "most of the heatmap is cells";
        EXPECT_LT(e.max_hue, 16.0) << position;
        EXPECT_LT(e.max_hue_coloured, 10.5) << position;
    }
}

namespace {

// The GIF's global colour table as ImageMagick reads it (identify -verbose: "Colormap:" then one
// "N: (r,g,b) ..." line per entry).
std::vector<std::uint32_t> gif_colour_table(const std::string& gif) {
    const ProcessResult r = run_process({"/usr/bin/identify", "-verbose", gif + "[0]"});
    std::vector<std::uint32_t> table;
    bool in_table = false;
    for (const std::string& line : rope::test::split_lines(r.out)) {
        if (line.find("Colormap:") != std::string::npos) {
            in_table = true;
            continue;
        }
        unsigned index = 0, red = 0, green = 0, blue = 0;
        if (!in_table) continue;
        if (std::sscanf(line.c_str(), " %u: (%u,%u,%u)", &index, &red, &green, &blue) != 4 || index != table.size()) break;
        table.push_back(red << 16 | green << 8 | blue);
    }
    return table;
}

std::uint32_t nearest_colour(const std::vector<std::uint32_t>& table, std::uint32_t c) {
    std::uint32_t best = table.front();
    long best_d = -1;
    for (std::uint32_t t : table) {
        long d = 0;
        for (int shift : {16, 8, 0}) {
            const long e = static_cast<long>((t >> shift) & 0xff) - static_cast<long>((c >> shift) & 0xff);
            d += e * e;
        }
        if (best_d < 0 || d < best_d) best_d = d, best = t;
    }
    return best;
}

}  // namespace

// A GIF holds at most 256 colours and an anti-aliased figure has thousands, so its frames cannot all
// be the PNG export: what they must be is the PNG export on the file's own palette. Every pixel of
// the first and last frames, read back by ImageMagick, is the table's entry nearest to the PNG
// export's pixel at those values; writing only the changed rectangles, with transparency, loses
// nothing more. (With at most 255 colours the palette is every colour, and the frames are exact:
// GifWriterIsExactWithFewColoursAndWritesOnlyWhatChanged.)
TEST_F(GifPaletteTest, GifFramesAreThePngExportOnTheFilesOwnPalette) {
    struct Case {
        std::string figure, from, to;
        double exact;  // the share of pixels that must be exact: the flat colours (measured 98%, 97%; 51%)
    };
    // the heatmap's cells, half the picture, are a continuum of colours
    for (const Case& c : {Case{"vectors", "0", "20", 0.95}, Case{"heatmap", "0", "119", 0.5}}) {
        const std::string gif = path(c.figure + ".gif");
        const ProcessResult r = rope::test::export_cli({c.figure, "--out", gif, "--animate", "position=" + c.from + ":" + c.to, "--frames", "5"});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const std::vector<std::uint32_t> table = gif_colour_table(gif);
        ASSERT_GE(table.size(), 128u) << c.figure << ": the table is read";
        ASSERT_EQ(run_process({"/usr/bin/convert", gif, "-coalesce", path(c.figure + "-%d.png")}).exit_code, 0);
        for (const auto& [frame, position] : {std::make_pair(0, c.from), std::make_pair(4, c.to)}) {
            const std::string png = path(c.figure + "-at-" + position + ".png");
            ASSERT_EQ(rope::test::export_cli({c.figure, "--out", png, "--set", "position=" + position}).exit_code, 0);
            const rope::io::PngImage expected = rope::io::read_png(png), shown = rope::io::read_png(path(c.figure + "-" + std::to_string(frame) + ".png"));
            ASSERT_EQ(expected.width, shown.width);
            ASSERT_EQ(expected.height, shown.height);
            std::size_t wrong = 0, exact = 0;
            for (std::size_t i = 0; i + 3 < expected.rgba.size(); i += 4) {
                const std::uint32_t want = nearest_colour(table, rgb(&expected.rgba[i]));
                wrong += rgb(&shown.rgba[i]) != want;
                exact += rgb(&shown.rgba[i]) == rgb(&expected.rgba[i]);
            }
            const double pixels = static_cast<double>(expected.rgba.size() / 4);
            std::printf("%s position=%s: %zu of %.0f pixels exact (%.1f%%), %zu not the nearest table entry\n", c.figure.c_str(),
                        position.c_str(), exact, pixels, 100 * exact / pixels, wrong);
            EXPECT_EQ(wrong, 0u) << c.figure << " position=" << position;
            EXPECT_GT(exact / pixels, c.exact) << c.figure << ": the flat colours are exact";
        }
    }
}
