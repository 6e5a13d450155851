// `rope-explorer export` as a blogger runs it, headless, checked by real readers: rsvg-convert
// renders the SVG, pdfinfo and pdftoppm read the PDF, the PNG's text chunks hold its parameters,
// the CSV numbers equal the core's. Bad input writes nothing and damages nothing.
#include <gtest/gtest.h>

#include "support/synthetic_model.hpp"
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "export/export.hpp"
#include "export/file_formats.hpp"
#include "figures/registry.hpp"
#include "io/png_writer.hpp"
#include "plot/colormap.hpp"
#include "rope/decay.hpp"
#include "rope/frequencies.hpp"
#include "rope/phasor.hpp"
#include "rope/rotation.hpp"
#include "session/session.hpp"
#include "support/export_cli.hpp"
#include "support/files.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace P = rope::P;

using rope::test::export_cli;
using rope::test::exists;
using rope::test::files_in;
using rope::test::ProcessResult;
using rope::test::run_process;
using rope::test::split;
using rope::test::split_lines;

namespace {

using ExportTest = rope::test::TempDirTest;

void expect_usage_error(const ProcessResult& r, const std::string& mention) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
}

// One test per figure of the registry: its name, title and default size come from there.
class EveryFigureExport : public ExportTest, public ::testing::WithParamInterface<std::string> {};

std::vector<std::string> figure_names() {
    std::vector<std::string> names;
    for (const rope::figures::FigureDescriptor* d : rope::figures::all_figures()) names.emplace_back(d->name);
    return names;
}

}  // namespace

TEST_P(EveryFigureExport, InEveryFormatReadByRealReaders) {
    const rope::figures::FigureDescriptor& figure = rope::figures::figure(GetParam());
    const std::string fig_name(figure.name);
    const char* fig = fig_name.c_str();
    {
        const std::string png1 = path(std::string(fig) + ".png"), png2 = path(std::string(fig) + "@2x.png");
        const std::string svg = path(std::string(fig) + ".svg"), pdf = path(std::string(fig) + ".pdf");
        const std::string csv = path(std::string(fig) + ".csv");
        for (const auto& [out, extra] : std::vector<std::pair<std::string, std::string>>{
                 {png1, ""}, {png2, "2"}, {svg, ""}, {pdf, ""}, {csv, ""}}) {
            std::vector<std::string> args = {fig, "--out", out};
            if (fig_name == "model_anatomy")  // a model with layers (with no model its CSV is the header alone)
                args.insert(args.end(), {"--set", "layer_kinds=chunked_attention: window=8192; full_attention: nope=true", "--set",
                                         "model_layers=3*chunked_attention,full_attention", "--set", "layer=0", "--set",
                                         "attn_temperature_tuning=true"});
            if (fig_name == "trained")  // a model folder (without one there is nothing to export: refused); head dim 16
                args.insert(args.end(), {"--set", "model=" + rope::test::synthetic_model_folder()});
            args.insert(args.end(), {"--set", "base=500000"});
            if (!extra.empty()) {
                args.push_back("--scale");
                args.push_back(extra);
            }
            const ProcessResult r = export_cli(args);
            ASSERT_EQ(r.exit_code, 0) << r.err;
            EXPECT_TRUE(r.err.empty()) << r.err;
        }
        // PNG: twice the pixels at scale 2, same layout; parameters in text chunks
        const auto a = rope::io::read_png(png1), b = rope::io::read_png(png2);
        // the default size: a blog column, and 16:9 for the seven plots of the context view
        const int want_width = figure.export_width, want_height = figure.export_height;
        EXPECT_EQ(a.width, want_width);
        EXPECT_EQ(a.height, want_height);
        EXPECT_EQ(b.width, 2 * a.width);
        EXPECT_EQ(b.height, 2 * a.height);
        std::map<std::string, std::string> text(a.text.begin(), a.text.end());
        EXPECT_EQ(text["base"], "500000");
        EXPECT_EQ(text["dim"], fig_name == "trained" ? "16" : "128");  // the synthetic model's head dim
        EXPECT_EQ(text["scaling"], "none");
        EXPECT_NE(text["Software"].find("RoPE Explorer"), std::string::npos);
        EXPECT_EQ(text["figure"], fig);
        // white background in the light theme
        EXPECT_EQ(a.rgba[0], 255);
        EXPECT_EQ(a.rgba[1], 255);
        EXPECT_EQ(a.rgba[2], 255);
        // SVG: rsvg-convert renders it; it keeps real text and its metadata
        const ProcessResult rs = run_process({"/usr/bin/rsvg-convert", svg, "-o", path("rendered.png")});
        EXPECT_EQ(rs.exit_code, 0) << rs.err;
        const auto rendered = rope::io::read_png(path("rendered.png"));
        EXPECT_EQ(rendered.width, want_width);
        const std::string svg_text = rope::test::read_file(svg);
        EXPECT_NE(svg_text.find("<text"), std::string::npos);
        EXPECT_NE(svg_text.find("base=500000"), std::string::npos);
        for (const char* with_tokens : {"heatmap", "sweep", "decay", "context"})
            if (std::string(fig) == with_tokens) { EXPECT_NE(svg_text.find("(tokens"), std::string::npos); }
        // PDF: pdfinfo reads the metadata, pdftoppm draws it, pdftotext finds the labels
        const ProcessResult info = run_process({"/usr/bin/pdfinfo", pdf});
        EXPECT_EQ(info.exit_code, 0) << info.err;
        EXPECT_NE(info.out.find("base=500000"), std::string::npos);
        const std::size_t pages = info.out.find("Pages:");
        ASSERT_NE(pages, std::string::npos);
        EXPECT_EQ(std::stoi(info.out.substr(pages + 6)), 1);
        const ProcessResult ppm = run_process({"/usr/bin/pdftoppm", "-png", "-r", "72", "-singlefile", pdf, path("page")});
        EXPECT_EQ(ppm.exit_code, 0) << ppm.err;
        EXPECT_EQ(rope::io::read_png(path("page.png")).width, want_width);
        const ProcessResult txt = run_process({"/usr/bin/pdftotext", pdf, "-"});
        EXPECT_NE(txt.out.find(std::string(figure.title)), std::string::npos) << txt.out.substr(0, 300);
        // CSV: a header, then numbers, or words in a column of names (a layout, a token's kind: never codes)
        const auto lines = split_lines(rope::test::read_file(csv));
        ASSERT_GT(lines.size(), 2u);
        // every row as wide as the header, every cell a finite number (never nan or inf) or a word, and
        // each column numbers or words throughout
        const std::vector<std::string> header = split(lines[0], ',');
        const std::size_t width = header.size();
        std::vector<int> numbers(width), words(width);
        std::size_t bad = 0;
        for (std::size_t i = 1; i < lines.size(); ++i) {
            const auto cells = split(lines[i], ',');
            if (cells.size() != width) ++bad;
            for (std::size_t c = 0; c < cells.size() && c < width; ++c) {
                const std::string& cell = cells[c];
                if (header[c] == "model_name" || header[c] == "model_b_name") continue;  // the model's name: text, "" for none
                if (cell.empty() || cell == "nan" || cell == "inf" || cell == "-inf") ++bad;
                char* end = nullptr;
                const double v = std::strtod(cell.c_str(), &end);
                const bool number = !cell.empty() && end == cell.c_str() + cell.size();
                if (number && !std::isfinite(v)) ++bad;
                ++(number ? numbers : words)[c];
            }
        }
        EXPECT_EQ(bad, 0u) << "rows with missing or non-finite cells in " << csv;
        if (figure.name != "model_card") {  // a table of text
            for (std::size_t c = 0; c < width; ++c)
                EXPECT_TRUE(numbers[c] == 0 || words[c] == 0) << csv << " column " << c << ": " << numbers[c] << " numbers, " << words[c] << " words";
        }
    }
    // no temporaries left behind (they are hidden files next to the target)
    const ProcessResult hidden = run_process({"/usr/bin/find", dir_, "-mindepth", "1", "-name", ".*"});
    EXPECT_TRUE(hidden.out.empty()) << hidden.out;
}

// --width or --height alone: the other side follows the figure's own aspect (a 700-wide picture
// keeps the type's size against it), in every file format, for both flags; both given: as given.
TEST_P(EveryFigureExport, OneSideAloneKeepsTheFiguresAspect) {
    const rope::figures::FigureDescriptor& figure = rope::figures::figure(GetParam());
    const std::string fig(figure.name);
    const int w = figure.export_width, h = figure.export_height;
    const int height_at_700 = static_cast<int>(std::lround(700.0 * h / w)), width_at_500 = static_cast<int>(std::lround(500.0 * w / h));
    const auto size_of = [&](const std::string& file) -> std::pair<int, int> {
        const std::string ext = file.substr(file.rfind('.') + 1);
        if (ext == "png") {
            const auto png = rope::io::read_png(file);
            return {png.width, png.height};
        }
        if (ext == "pdf") {
            const std::string info = run_process({"/usr/bin/pdfinfo", file}).out;
            const std::size_t at = info.find("Page size:");
            if (at == std::string::npos) return {0, 0};
            int pw = 0, ph = 0;
            std::sscanf(info.c_str() + at, "Page size: %d x %d", &pw, &ph);
            return {pw, ph};
        }
        const std::string text = rope::test::read_file(file);  // the SVG's size, or the HTML page's canvas
        const std::size_t at = text.find(ext == "svg" ? "<svg " : "<canvas id=\"canvas\"");
        int sw = 0, sh = 0;
        if (at != std::string::npos) std::sscanf(text.c_str() + text.find("width=\"", at), "width=\"%d\" height=\"%d\"", &sw, &sh);
        return {sw, sh};
    };
    struct Case {
        std::string ext, flag, value;
        std::pair<int, int> want;
    };
    const std::vector<Case> cases = {{"png", "--width", "700", {700, height_at_700}}, {"png", "--height", "500", {width_at_500, 500}},
                                      {"svg", "--width", "700", {700, height_at_700}}, {"svg", "--height", "500", {width_at_500, 500}},
                                      {"pdf", "--width", "700", {700, height_at_700}}, {"html", "--height", "500", {width_at_500, 500}}};
    for (const Case& c : cases) {
        const std::string out = path(fig + c.flag + "." + c.ext);
        std::vector<std::string> args = {fig, "--out", out, c.flag, c.value};
        if (fig == "trained") args.insert(args.end(), {"--set", "model=" + rope::test::synthetic_model_folder()});
        const ProcessResult r = export_cli(args);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(size_of(out), c.want) << fig << " " << c.flag << " " << c.value << " ." << c.ext;
    }
    const std::string both = path(fig + "-both.png");
    std::vector<std::string> args = {fig, "--out", both, "--width", "700", "--height", "300"};
    if (fig == "trained") args.insert(args.end(), {"--set", "model=" + rope::test::synthetic_model_folder()});
    ASSERT_EQ(export_cli(args).exit_code, 0);
    EXPECT_EQ(size_of(both), std::make_pair(700, 300));
}

// The aspect kept is the file's own: with model B's picture under A's (twice the height + 60), and
// an animation's frames.
TEST_F(ExportTest, OneSideAloneKeepsTheAspectWithModelBAndInAnimations) {
    const std::string png = path("ab.png"), gif = path("decay.gif");
    ASSERT_EQ(export_cli({"heatmap", "--out", png, "--width", "700", "--set", "preset=llama-2-7b", "--set", "compare_to=llama-3-8b"}).exit_code, 0);
    const auto ab = rope::io::read_png(png);
    EXPECT_EQ(ab.width, 700);
    EXPECT_EQ(ab.height, std::lround(700.0 * (2 * 480 + 60) / 800));
    const ProcessResult r = export_cli({"decay", "--out", gif, "--animate", "base=10000:20000", "--frames", "2", "--height", "300"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string bytes = rope::test::read_file(gif);
    ASSERT_GE(bytes.size(), 10u);
    const auto le16 = [&](std::size_t at) { return static_cast<unsigned char>(bytes[at]) | static_cast<unsigned char>(bytes[at + 1]) << 8; };
    EXPECT_EQ(le16(6), 500);  // 800x480's aspect
    EXPECT_EQ(le16(8), 300);
}

// A column of codes is written as the names a reader knows (the layouts as the pictures name them,
// a token's kind as compute position-ids writes it), with model B's rows too; never 0, 1, 2, 3.
TEST_F(ExportTest, ColumnsOfCodesHoldWords) {
    struct Case {
        std::string figure, column;
        std::set<std::string> words;
        std::vector<std::string> sets;
    };
    const std::vector<std::string> video = {"--set", "preset=qwen3-vl-8b", "--set", "media=video"};
    std::vector<std::string> beside_b = {"--set", "preset=qwen2.5-vl-7b", "--set", "media=video", "--set", "compare_to=qwen3-vl-8b"};
    const std::set<std::string> layouts = {"1D", "chunked", "interleaved", "VideoRoPE"};
    const std::vector<Case> cases = {{"video", "layout", layouts, video},
                                     {"video", "layout", layouts, beside_b},
                                     {"video_frames", "layout", layouts, video},
                                     {"video_ids", "kind", {"text", "video", "timestamp"}, video},
                                     {"position_ids", "kind", {"text", "image"}, {"--set", "preset=qwen2.5-vl-7b"}},
                                     {"patch_grid", "layout", {"2D axial", "M-RoPE chunked", "M-RoPE interleaved"}, {}}};
    for (const Case& c : cases) {
        const std::string csv = path(c.figure + ".csv");
        std::vector<std::string> args = {c.figure, "--out", csv};
        args.insert(args.end(), c.sets.begin(), c.sets.end());
        const ProcessResult r = export_cli(args);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto lines = split_lines(rope::test::read_file(csv));
        ASSERT_GT(lines.size(), 2u) << csv;
        const auto header = split(lines[0], ',');
        const std::size_t at = static_cast<std::size_t>(std::find(header.begin(), header.end(), c.column) - header.begin());
        ASSERT_LT(at, header.size()) << lines[0];
        std::set<std::string> seen;
        for (std::size_t i = 1; i < lines.size(); ++i) seen.insert(split(lines[i], ',').at(at));
        for (const std::string& w : seen) EXPECT_EQ(c.words.count(w), 1u) << c.figure << " " << c.column << ": " << w;
        EXPECT_GE(seen.size(), 2u) << c.figure;
    }
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryFigureExport, ::testing::ValuesIn(figure_names()),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

TEST_F(ExportTest, CsvNumbersEqualTheCore) {
    const std::string csv = path("decay.csv");
    ASSERT_EQ(export_cli({"decay", "--out", csv, "--set", "dim=64", "--set", "max_distance=2000"}).exit_code, 0);
    const auto lines = split_lines(rope::test::read_file(csv));
    ASSERT_EQ(lines[0].rfind("distance,bound", 0), 0u);
    const Eigen::VectorXd expect = rope::decay_bound(rope::base_frequencies(10000.0, 64), 2000);
    ASSERT_EQ(lines.size(), 2002u);
    for (int r = 0; r <= 2000; ++r) {
        const auto cols = split(lines[r + 1], ',');
        EXPECT_EQ(std::stoi(cols[0]), r);
        EXPECT_EQ(std::stod(cols[1]), expect[r]);  // shortest round trip: the same double
    }
}

namespace {

// The mean of e^{i m theta} over positions [from, to) and pairs [k0, k1), summed one position at a time.
std::pair<double, double> brute_mean(const Eigen::VectorXd& theta, std::int64_t from, std::int64_t to, int k0, int k1) {
    long double c = 0, s = 0;
    for (int k = k0; k < k1; ++k)
        for (std::int64_t m = from; m < to; ++m) {
            c += std::cos(static_cast<long double>(m) * theta[k]);
            s += std::sin(static_cast<long double>(m) * theta[k]);
        }
    const long double n = static_cast<long double>(to - from) * (k1 - k0);
    return {static_cast<double>(c / n), static_cast<double>(s / n)};
}

}  // namespace

// One row per cell of the picture: the cells tile the positions from heatmap_from (0) without a gap,
// and each holds the exact mean over its positions.
TEST_F(ExportTest, HeatmapCsvHoldsEveryCellFromTheFirstPosition) {
    for (const char* from : {"0", "1000"}) {
        const std::string csv = path("heatmap.csv");
        ASSERT_EQ(export_cli({"heatmap", "--out", csv, "--set", "dim=8", "--set", "max_position=4096", "--set",
                              std::string("heatmap_from=") + from}).exit_code, 0);
        const auto rows = split_lines(rope::test::read_file(csv));
        ASSERT_EQ(rows[0], "position_from,position_to,pair_from,pair_to,angle,mean_cos,mean_sin,magnitude");
        const Eigen::VectorXd theta = rope::base_frequencies(10000.0, 8);
        std::int64_t next = std::stoll(from);
        int pair = 0;
        for (std::size_t i = 1; i < rows.size(); ++i) {
            const auto c = split(rows[i], ',');
            ASSERT_EQ(c.size(), 8u) << rows[i];
            const std::int64_t p0 = std::stoll(c[0]), p1 = std::stoll(c[1]);
            const int k0 = std::stoi(c[2]), k1 = std::stoi(c[3]);
            // column by column, pairs 0..3 within a column
            EXPECT_EQ(k0, pair) << rows[i];
            EXPECT_EQ(k1, k0 + 1) << rows[i];
            EXPECT_EQ(p0, next) << rows[i];
            EXPECT_GT(p1, p0) << rows[i];
            pair = k1 == 4 ? 0 : k1;
            if (pair == 0) next = p1;
            if (i % 7 == 1) {  // the exact mean over every position of some cells
                const auto [mc, ms] = brute_mean(theta, p0, p1, k0, k1);
                EXPECT_NEAR(std::stod(c[5]), mc, 1e-12) << rows[i];
                EXPECT_NEAR(std::stod(c[6]), ms, 1e-12) << rows[i];
            }
            EXPECT_NEAR(std::stod(c[4]), std::atan2(std::stod(c[6]), std::stod(c[5])), 1e-12) << rows[i];
            EXPECT_NEAR(std::stod(c[7]), std::hypot(std::stod(c[5]), std::stod(c[6])), 1e-12) << rows[i];
        }
        EXPECT_EQ(next, 4096);
    }
}

// --full-resolution: one row per position and pair, each the phasor itself; refused above its size,
// for pictures and for other figures, with nothing written.
TEST_F(ExportTest, HeatmapFullResolutionCsv) {
    const std::string csv = path("full.csv");
    ASSERT_EQ(export_cli({"heatmap", "--out", csv, "--full-resolution", "--set", "dim=8", "--set", "max_position=100"}).exit_code, 0);
    const auto rows = split_lines(rope::test::read_file(csv));
    ASSERT_EQ(rows[0], "position_from,position_to,pair_from,pair_to,angle,mean_cos,mean_sin,magnitude");
    ASSERT_EQ(rows.size(), 1u + 100u * 4u);
    const Eigen::VectorXd theta = rope::base_frequencies(10000.0, 8);
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const auto c = split(rows[i], ',');
        const std::int64_t m = static_cast<std::int64_t>(i - 1) / 4;
        const int k = static_cast<int>((i - 1) % 4);
        EXPECT_EQ(std::stoll(c[0]), m);
        EXPECT_EQ(std::stoll(c[1]), m + 1);
        EXPECT_EQ(std::stoi(c[2]), k);
        EXPECT_EQ(std::stoi(c[3]), k + 1);
        const double a = static_cast<double>(m) * theta[k];
        EXPECT_NEAR(std::remainder(std::stod(c[4]) - a, 2 * rope::kPi), 0.0, 1e-14) << rows[i];
        EXPECT_NEAR(std::stod(c[5]), std::cos(a), 1e-15) << rows[i];
        EXPECT_NEAR(std::stod(c[6]), std::sin(a), 1e-15) << rows[i];
        EXPECT_NEAR(std::stod(c[7]), 1.0, 1e-15) << rows[i];
    }
    // a zoomed range starts at heatmap_from
    ASSERT_EQ(export_cli({"heatmap", "--out", csv, "--full-resolution", "--set", "dim=8", "--set", "max_position=8192", "--set", "heatmap_from=5000", "--set",
                          "heatmap_to=5010"}).exit_code, 0);
    const auto zoomed = split_lines(rope::test::read_file(csv));
    ASSERT_EQ(zoomed.size(), 1u + 10u * 4u);
    EXPECT_EQ(zoomed[1].rfind("5000,5001,0,1,", 0), 0u) << zoomed[1];
    const std::string out = path("refused.csv");
    expect_usage_error(export_cli({"heatmap", "--out", out, "--full-resolution", "--set", "max_position=1048576"}), "1048576");
    expect_usage_error(export_cli({"heatmap", "--out", path("x.png"), "--full-resolution"}), "--full-resolution");
    expect_usage_error(export_cli({"decay", "--out", out, "--full-resolution"}), "--full-resolution");
    EXPECT_FALSE(exists(out));
    EXPECT_FALSE(exists(path("x.png")));
}

// Every file back end fades the cells of a pair that turns within a cell to the same neutral grey:
// at d = 16 over 4096 positions pair 0 (one turn per cell) is a grey band in the PNG, in the SVG as
// rsvg-convert draws it and in the PDF as pdftoppm draws it, in both themes; no other band is.
TEST_F(ExportTest, FastPairsFadeToGreyInEveryFormat) {
    const rope::plot::Color fade = rope::plot::fade_color();
    const float grey[3] = {fade.r * 255, fade.g * 255, fade.b * 255};
    auto near_grey_rows = [&](const rope::io::PngImage& img, int x) {
        int count = 0;
        for (int y = 0; y < img.height; ++y) {
            const std::uint8_t* p = &img.rgba[(static_cast<std::size_t>(y) * img.width + x) * 4];
            bool close = true;
            for (int k = 0; k < 3; ++k) close = close && std::abs(p[k] - grey[k]) <= 10.0f;
            count += close;
        }
        return count;
    };
    for (const char* theme : {"light", "dark"}) {
        const std::string png = path("fade.png"), svg = path("fade.svg"), pdf = path("fade.pdf");
        for (const std::string& out : {png, svg, pdf})
            ASSERT_EQ(export_cli({"heatmap", "--out", out, "--theme", theme, "--set", "dim=16"}).exit_code, 0) << out;
        ASSERT_EQ(run_process({"/usr/bin/rsvg-convert", svg, "-o", path("fade_svg.png")}).exit_code, 0);
        ASSERT_EQ(run_process({"/usr/bin/pdftoppm", "-png", "-r", "72", "-singlefile", pdf, path("fade_pdf")}).exit_code, 0);
        for (const std::string& file : {png, path("fade_svg.png"), path("fade_pdf.png")}) {
            const auto img = rope::io::read_png(file);
            ASSERT_EQ(img.width, 800) << file;
            // pair 0 is one eighth of a plot about 390 pixels high (less the "pair i = 0" marker line)
            for (int x : {200, 400}) {
                EXPECT_GE(near_grey_rows(img, x), 35) << file << " " << theme << " x = " << x;
                EXPECT_LE(near_grey_rows(img, x), 60) << file << " " << theme << " x = " << x;
            }
        }
    }
}

// What the table of file formats says of a format is what its files do: those that carry a session
// open as one with the parameters they were made from (a folder of frames: each frame), the others
// are refused by the session loader with the file's name.
TEST_F(ExportTest, FormatsThatCarryASessionOpenAsOneTheOthersAreRefused) {
    for (const rope::exporting::FileFormatInfo& f : rope::exporting::file_formats()) {
        const bool folder = f.id == rope::exporting::FileFormat::png_folder;
        const std::string out = path(folder ? "frames/" : "figure" + std::string(f.extension));
        std::vector<std::string> args = {"vectors", "--out", out, "--set", "base=777"};
        if (f.kind == rope::exporting::FormatKind::animation) args.insert(args.end(), {"--animate", "position=0:3", "--frames", "2"});
        const ProcessResult r = export_cli(args);
        ASSERT_EQ(r.exit_code, 0) << f.name << ": " << r.err;
        const std::string file = folder ? out + "frame-0001.png" : out;
        if (f.carries_session) {
            EXPECT_EQ(rope::session::load_session(file).params[P::base], 777) << f.name;
        } else {
            EXPECT_THROW(rope::session::load_session(file), rope::session::SessionError) << f.name;
        }
    }
}

TEST_F(ExportTest, BadInputWritesNothing) {
    const std::string out = path("x.png");
    expect_usage_error(export_cli({"bogus", "--out", out}), "bogus");
    expect_usage_error(export_cli({"decay", "--out", path("x.jpg")}), "x.jpg");
    expect_usage_error(export_cli({"decay", "--out", path("noext")}), "noext");
    expect_usage_error(export_cli({"decay", "--out", out, "--scale", "0.1"}), "--scale");
    expect_usage_error(export_cli({"decay", "--out", out, "--scale", "9"}), "--scale");
    expect_usage_error(export_cli({"decay", "--out", out, "--scale", "two"}), "--scale");
    expect_usage_error(export_cli({"decay", "--out", out, "--scale", "nan"}), "--scale");
    expect_usage_error(export_cli({"decay", "--out", out, "--set", "dim=7"}), "dim=7");
    expect_usage_error(export_cli({"decay", "--out", out, "--theme", "blue"}), "--theme");
    expect_usage_error(export_cli({"decay", "--out", out, "--width", "50"}), "--width");
    expect_usage_error(export_cli({"decay"}), "--out");
    expect_usage_error(export_cli({"--out", out}), "figure");
    EXPECT_EQ(files_in(dir_), 0u);
}

TEST_F(ExportTest, FailuresNameThePathAndTheReasonAndDamageNothing) {
    // a folder that does not exist is not created
    const ProcessResult missing = export_cli({"decay", "--out", path("no/such/folder/x.png")});
    EXPECT_NE(missing.exit_code, 0);
    EXPECT_EQ(rope::test::count_lines(missing.err), 1) << missing.err;
    EXPECT_NE(missing.err.find("does not exist"), std::string::npos) << missing.err;
    EXPECT_FALSE(exists(path("no")));
    // a full disk: /dev/full is written in place (never renamed over) and its error reported
    for (const char* ext : {"png", "svg", "pdf", "csv"}) {
        const std::string full = "/dev/full";
        const ProcessResult r = run_process({"/bin/sh", "-c", std::string("cd ") + dir_ + " && ln -sf /dev/full out." + ext +
                                                                  " && env -u DISPLAY " ROPE_EXPLORER_BINARY " export decay --out out." + ext});
        EXPECT_NE(r.exit_code, 0) << ext;
        EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
        struct stat st {};
        ASSERT_EQ(stat("/dev/full", &st), 0);
        EXPECT_TRUE(S_ISCHR(st.st_mode));
    }
    const ProcessResult direct = export_cli({"decay", "--out", "/dev/full"});
    // /dev/full has no extension: refused before writing
    EXPECT_EQ(direct.exit_code, 2);
    // an existing file is untouched when the new export is refused
    const std::string keep = path("keep.png");
    ASSERT_EQ(export_cli({"decay", "--out", keep}).exit_code, 0);
    const std::string before = rope::test::read_file(keep);
    EXPECT_EQ(export_cli({"decay", "--out", keep, "--set", "base=1"}).exit_code, 2);
    EXPECT_EQ(rope::test::read_file(keep), before);
    // a folder in the way is reported, not removed
    ASSERT_EQ(mkdir(path("taken.png").c_str(), 0755), 0);
    const ProcessResult taken = export_cli({"decay", "--out", path("taken.png")});
    EXPECT_NE(taken.exit_code, 0);
    EXPECT_NE(taken.err.find("folder"), std::string::npos) << taken.err;
    // no temporary files remain from any of this
    const ProcessResult left = run_process({"/usr/bin/find", dir_, "-mindepth", "1", "-name", ".*"});
    EXPECT_TRUE(left.out.empty()) << left.out;
}

TEST_F(ExportTest, ScaleTwoIsTheSameLayoutAtTwiceThePixels) {
    const std::string a = path("a.png"), b = path("b.png");
    ASSERT_EQ(export_cli({"sweep", "--out", a, "--width", "640", "--height", "400"}).exit_code, 0);
    ASSERT_EQ(export_cli({"sweep", "--out", b, "--width", "640", "--height", "400", "--scale", "2"}).exit_code, 0);
    const auto one = rope::io::read_png(a), two = rope::io::read_png(b);
    ASSERT_EQ(two.width, 1280);
    ASSERT_EQ(two.height, 800);
    // downsampled 2x, the big one matches the small one closely (same layout, sharper)
    double diff = 0;
    for (int y = 0; y < one.height; ++y)
        for (int x = 0; x < one.width; ++x)
            for (int c = 0; c < 3; ++c) {
                double avg = 0;
                for (int dy = 0; dy < 2; ++dy)
                    for (int dx = 0; dx < 2; ++dx) avg += two.rgba[((2 * y + dy) * two.width + 2 * x + dx) * 4 + c];
                diff += std::abs(avg / 4 - one.rgba[(y * one.width + x) * 4 + c]);
            }
    EXPECT_LT(diff / (one.width * one.height * 3), 12.0);
}

namespace {

// The CSV as columns by name.
std::map<std::string, std::vector<double>> read_columns(const std::string& file) {
    const auto lines = split_lines(rope::test::read_file(file));
    std::map<std::string, std::vector<double>> cols;
    if (lines.empty()) return cols;
    const auto names = split(lines[0], ',');
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const auto cells = split(lines[i], ',');
        for (std::size_t c = 0; c < names.size() && c < cells.size(); ++c) cols[names[c]].push_back(std::stod(cells[c]));
    }
    return cols;
}

// Every text the picture shows, for one figure built as the file would be.
std::vector<std::string> texts_of(const std::string& figure, const rope::exporting::ExportOptions& o,
                                  const std::vector<std::pair<std::string, std::string>>& sets = {}) {
    // (the trained model draws a picture only for a model folder: a synthetic one)
    rope::ParamSet params = figure == "trained" ? rope::test::with_synthetic_model() : rope::ParamSet{};
    for (const auto& [k, v] : sets) params.set(k, v);
    params.validate();
    rope::figures::FigureCache cache(rope::weights::folder_reader());
    rope::plot::ApproximateTextMeasure measure;
    const auto fig = rope::exporting::build_for_file(rope::figures::figure(figure), params, o, measure, false, cache);
    std::vector<std::string> texts;
    for (const auto& c : fig.list.commands)
        if (const auto* t = std::get_if<rope::plot::TextCmd>(&c)) texts.push_back(t->text);
    return texts;
}

bool shows(const std::vector<std::string>& texts, const std::string& part) {
    for (const std::string& t : texts)
        if (t.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

// The precision CSV's error is signed, angle - angle_exact, as the blogging guide's CSV table says; rounding goes both ways.
TEST_F(ExportTest, PrecisionErrorIsAngleMinusExact) {
    const std::string csv = path("precision.csv");
    ASSERT_EQ(export_cli({"precision", "--out", csv, "--set", "position=3000", "--set", "pair=5"}).exit_code, 0);
    auto cols = read_columns(csv);
    ASSERT_FALSE(cols["error"].empty());
    int below = 0, above = 0;
    for (std::size_t i = 0; i < cols["error"].size(); ++i) {
        const double e = cols["error"][i];
        EXPECT_EQ(e, cols["angle"][i] - cols["angle_exact"][i]) << "row " << i;
        below += e < 0;
        above += e > 0;
    }
    EXPECT_GT(below, 100);
    EXPECT_GT(above, 100);
}

// The score matrix's 64 positions follow position and key_position; its CSV gives the real m and n.
TEST_F(ExportTest, ScoreMatrixWindowFollowsThePositions) {
    struct Case {
        std::string position, key_position, max_position;
        double first, count;
    };
    for (const Case& c : {Case{"0", "3", "4096", 0, 64}, Case{"1000", "1003", "4096", 970, 64}, Case{"4090", "4095", "4096", 4032, 64},
                          Case{"5", "2", "20", 0, 20}, Case{"200", "150", "4096", 143, 64}}) {
        const std::string csv = path("scores.csv");
        ASSERT_EQ(export_cli({"scores", "--out", csv, "--set", "dim=16", "--set", "position=" + c.position, "--set",
                              "key_position=" + c.key_position, "--set", "max_position=" + c.max_position})
                      .exit_code,
                  0);
        auto cols = read_columns(csv);
        ASSERT_EQ(cols["m"].size(), static_cast<std::size_t>(c.count * c.count)) << c.position;
        EXPECT_EQ(cols["m"].front(), c.first) << c.position;
        EXPECT_EQ(cols["n"].back(), c.first + c.count - 1) << c.position;
        // the score is <R(m)q, R(n)k> at the real positions (q = k = all ones)
        const rope::FrequencyTable f = rope::compute_frequencies([] {
            rope::ParamSet p;
            p.set(P::dim, "16");
            return p.config();
        }());
        const Eigen::VectorXd x = Eigen::VectorXd::Ones(16);
        for (std::size_t i = 0; i < cols["m"].size(); i += 97)
            EXPECT_NEAR(cols["score"][i], rope::attention_score(f, rope::Pairing::interleaved, x, cols["m"][i], x, cols["n"][i]), 1e-9);
    }
    // the axes show the real positions too
    const auto texts = texts_of("scores", {}, {{"position", "1000"}, {"key_position", "1003"}});
    EXPECT_TRUE(shows(texts, "1000")) << "no tick at 1000";
}

// --clean leaves out the cursor and selection marks and nothing else of note; --no-title the title.
TEST_F(ExportTest, CleanAndNoTitle) {
    rope::exporting::ExportOptions plain, clean, untitled;
    clean.clean = true;
    untitled.no_title = true;
    const std::vector<std::pair<std::string, std::string>> at = {{"position", "700"}, {"key_position", "720"}, {"pair", "3"}};
    struct Mark {
        const char* figure;
        std::string text;  // a marker's whole tag
    };
    auto has = [](const std::vector<std::string>& texts, const std::string& t) { return std::find(texts.begin(), texts.end(), t) != texts.end(); };
    for (const Mark& m : {Mark{"heatmap", "m = 700"}, Mark{"heatmap", "pair i = 3"}, Mark{"precision", "pair 3"},
                          Mark{"precision", "m = 700"}, Mark{"decay", "|n − m| = 20"}, Mark{"pairing", "m = 700"}}) {
        EXPECT_TRUE(has(texts_of(m.figure, plain, at), m.text)) << m.figure << ": " << m.text;
        EXPECT_FALSE(has(texts_of(m.figure, clean, at), m.text)) << m.figure << " --clean still shows " << m.text;
    }
    EXPECT_TRUE(shows(texts_of("scores", plain, at), "Box: m = 700"));
    EXPECT_FALSE(shows(texts_of("scores", clean, at), "Box:"));
    EXPECT_TRUE(shows(texts_of("sinusoidal", plain, at), "Dashed: n − m = 20"));
    EXPECT_FALSE(shows(texts_of("sinusoidal", clean, at), "Dashed:")) << "the caption names no mark that is left out";
    EXPECT_TRUE(shows(texts_of("scores", clean, at), "m, n = 678–741")) << "the clean caption names the window";
    for (const rope::figures::FigureDescriptor* d : rope::figures::all_figures()) {
        const std::string title(d->title);
        // the title line starts with the figure's title (context adds the config's name)
        auto titled = [&](const std::vector<std::string>& texts) {
            return std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return t.rfind(title, 0) == 0; });
        };
        EXPECT_TRUE(titled(texts_of(std::string(d->name), plain))) << d->name;
        EXPECT_FALSE(titled(texts_of(std::string(d->name), untitled))) << d->name;
    }
}

// --plot NAME: every plot of every figure alone, filling the size asked for, without the others.
TEST_F(ExportTest, EveryPlotAlone) {
    rope::figures::FigureCache cache(rope::weights::folder_reader());
    rope::plot::ApproximateTextMeasure measure;
    for (const rope::figures::FigureDescriptor* d : rope::figures::all_figures()) {
        // the model anatomy draws its plots for a model with layers (its NoPE layers' curve with the temperature tuning)
        rope::ParamSet params;
        if (d->name == "model_anatomy")
            for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{
                     {"layer_kinds", "chunked_attention: window=8192 base=500000; full_attention: nope=true"},
                     {"model_layers", "3*chunked_attention,full_attention"},
                     {"layer", "0"},
                     {"attn_temperature_tuning", "true"}})
                params.set(k, v);
        if (d->name == "trained") params = rope::test::with_synthetic_model();  // its plots need a model folder
        rope::exporting::ExportOptions o;
        // the whole figure at its own export size draws every plot (a smaller one may show fewer)
        o.width = d->export_width;
        o.height = d->export_height;
        const auto whole = rope::exporting::build_for_file(*d, params, o, measure, false, cache);
        std::vector<std::string> drawn;
        for (const auto& g : whole.plots) drawn.push_back(g.name);
        std::vector<std::string> declared;
        for (const rope::figures::PlotDescriptor& p : d->plots) declared.emplace_back(p.name);
        EXPECT_EQ(drawn, declared) << d->name << ": plots is the list drawn";
        o.width = 640;
        o.height = 420;
        for (const rope::figures::PlotDescriptor& plot : d->plots) {
            const std::string_view name = plot.name;
            o.plot = std::string(name);
            const auto one = rope::exporting::build_for_file(*d, params, o, measure, false, cache);
            EXPECT_EQ(one.list.width, 640);
            EXPECT_EQ(one.list.height, 420);
            ASSERT_EQ(one.plots.size(), 1u);
            EXPECT_EQ(one.plots[0].name, name);
            const auto& fr = one.plots[0].frame;
            EXPECT_GE(fr.x0, -0.5f);
            EXPECT_GE(fr.y0, -0.5f);
            EXPECT_LE(fr.x1, 640.5f);
            EXPECT_LE(fr.y1, 420.5f);
            // it fills the picture one way or the other, at about the usual size of its type
            // 4 px margins, and the room of a key the plots share, which goes along below the plot
            // the room of the key taken along below the plot (cut_out: one.shared_key), if any
            const float key = one.shared_key.height() * 1.5f;
            EXPECT_TRUE(fr.width() > 630 || fr.height() > 410 - key) << d->name << "/" << name << " " << fr.width() << "x" << fr.height() << " key " << key;
            EXPECT_LT(fr.y1, 420 - key / 2) << d->name << "/" << name;
            EXPECT_EQ(rope::plot::first_non_finite(one.list), "") << d->name << "/" << name;
        }
    }
    // the file: a PNG of the size asked for, and the title of the plot, not of the figure
    const std::string png = path("angle.png"), svg = path("angle.svg");
    ASSERT_EQ(export_cli({"precision", "--plot", "precision_angle", "--out", png}).exit_code, 0);
    const auto image = rope::io::read_png(png);
    EXPECT_EQ(image.width, 800);
    EXPECT_EQ(image.height, 480);
    ASSERT_EQ(export_cli({"precision", "--plot", "precision_angle", "--out", svg}).exit_code, 0);
    const std::string text = rope::test::read_file(svg);
    EXPECT_NE(text.find("worst angle error"), std::string::npos);
    EXPECT_NE(text.find("fp16 (overflows past 65 504)"), std::string::npos) << "the shared legend goes along";
    EXPECT_EQ(text.find("gap between storable numbers"), std::string::npos);
    ASSERT_EQ(export_cli({"precision", "--plot", "precision_angle", "--no-title", "--out", svg}).exit_code, 0);
    EXPECT_EQ(rope::test::read_file(svg).find("worst angle error"), std::string::npos);
}

TEST_F(ExportTest, BadPictureOptionsWriteNothing) {
    const std::string out = path("x.png");
    expect_usage_error(export_cli({"precision", "--plot", "nope", "--out", out}), "precision_angle, precision_positions");
    expect_usage_error(export_cli({"vectors", "--plot", "heatmap", "--out", out}), "pair, fan, qk");
    expect_usage_error(export_cli({"vectors", "--plot", "", "--out", out}), "--plot");
    expect_usage_error(export_cli({"vectors", "--plot"}), "--plot");
    expect_usage_error(export_cli({"vectors", "--plot", "fan", "--out", path("x.csv")}), "--plot");
    expect_usage_error(export_cli({"vectors", "--clean", "--out", path("x.csv")}), "--clean");
    expect_usage_error(export_cli({"vectors", "--no-title", "--out", path("x.csv")}), "--no-title");
    expect_usage_error(export_cli({"vectors", "--width", "0", "--out", out}), "--width");
    expect_usage_error(export_cli({"vectors", "--height", "0", "--plot", "fan", "--out", out}), "--height");
    expect_usage_error(export_cli({"vectors", "--clean=yes", "--out", out}), "--clean=yes");
    EXPECT_EQ(files_in(dir_), 0u);
}
