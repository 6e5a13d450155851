// The interactive HTML export (export/html_page.*) and the alt text every file carries
// (figures/alt_text.*), through the command line as a blogger runs it; the pages opened in Debian's
// headless Chromium with its network off and compared with the PNG frames of the same animation.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <regex>
#include <string>
#include <sys/stat.h>

#include "export/cairo_canvas.hpp"
#include "figures/alt_text.hpp"
#include "figures/figure_cache.hpp"
#include "figures/registry.hpp"
#include "io/png_text.hpp"
#include "rope/frequencies.hpp"
#include "support/export_cli.hpp"
#include "support/files.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace {

using rope::test::export_cli;
using rope::test::read_file;
using rope::test::run_process;

class HtmlPage : public rope::test::TempDirTest {};

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

bool exists(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0;
}

// Every way a page could reach out: a scheme, a protocol-relative address, a link, an import, a
// stylesheet or script by address, a frame.
void expect_no_network_reference(const std::string& page) {
    const std::regex outside(R"((https?|ftp|wss?):|\bsrc\s*=\s*["'](?!data:)|\bhref\s*=|url\(\s*["']?(?!data:)|@import|<link\b|<iframe\b|<object\b|<embed\b|<img\b)",
                             std::regex::icase);
    std::smatch m;
    EXPECT_FALSE(std::regex_search(page, m, outside)) << "network reference: " << m.str();
}

// The page's slider: <input id="frame" type="range" min="0" max="N-1" step="1" ...>.
int slider_steps(const std::string& page) {
    const std::regex range(R"re(<input id="frame" type="range" min="0" max="(\d+)" step="1")re");
    std::smatch m;
    return std::regex_search(page, m, range) ? std::stoi(m[1]) + 1 : 0;
}

// Headless Chromium with no network: in a network namespace of its own with nothing in it where
// the machine allows one (`unshare -n`, as root), and in any case every host unresolvable and a
// proxy that does not exist.
std::string screenshot(const std::string& dir, const std::string& url, int width, int height) {
    const std::string out = dir + "/shot.png";
    std::remove(out.c_str());
    static const bool own_network = run_process({"/usr/bin/unshare", "-n", "/bin/true"}).exit_code == 0;
    std::vector<std::string> argv = {"/usr/bin/timeout", "120"};
    if (own_network) argv.insert(argv.end(), {"/usr/bin/unshare", "-n"});
    const rope::test::ProcessResult r =
        run_process(argv + std::vector<std::string>{"/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     "--user-data-dir=" + dir + "/chromium-profile", "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
                     "--force-device-scale-factor=1", "--window-size=" + std::to_string(width) + "," + std::to_string(height),
                     "--virtual-time-budget=5000", "--screenshot=" + out, url});
    EXPECT_TRUE(exists(out)) << (own_network ? "(no network) " : "") << r.err;
    return out;
}

// Mean absolute difference of two pictures' top-left w x h, 0..1 (ImageMagick's MAE, normalised).
double difference(const std::string& a, const std::string& b, int w, int h) {
    const std::string geometry = std::to_string(w) + "x" + std::to_string(h) + "+0+0";
    const rope::test::ProcessResult r = run_process(
        {"/usr/bin/compare", "-metric", "MAE", "(", a, "-crop", geometry, "+repage", ")", "(", b, "-crop", geometry, "+repage", ")", "null:"});
    const std::size_t open = r.err.find('(');
    return open == std::string::npos ? 1.0 : std::stod(r.err.substr(open + 1));
}

TEST_F(HtmlPage, AnAnimationIsOnePageWithASliderOfNStepsAndNothingFromOutside) {
    const std::string page_path = path("vectors.html");
    const auto t0 = std::chrono::steady_clock::now();
    const rope::test::ProcessResult r = export_cli({"vectors", "--out", page_path, "--animate", "position=0:119", "--frames", "60",
                                                    "--width", "800", "--height", "480", "--set", "preset=llama-3-8b"});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string page = read_file(page_path);
    std::printf("60 frames of vectors at 800x480: %.2f MB in %.2f s\n", page.size() / 1e6, seconds);
    EXPECT_LE(page.size(), 5000000u);  // the issue's budget: 5 MB
    EXPECT_LE(seconds, 3.0);          // and 3 s (it takes about 0.1 s: bench/export_benchmarks.cpp)
    EXPECT_EQ(slider_steps(page), 60);
    expect_no_network_reference(page);
    EXPECT_NE(page.find("aria-label=\"Play\""), std::string::npos);
    EXPECT_NE(page.find("Play</button>"), std::string::npos);
    EXPECT_NE(page.find("position = 0</output>"), std::string::npos);  // the slider's value, labelled
    EXPECT_NE(page.find("role=\"img\" aria-label=\"Rotated vectors of Llama 3 8B"), std::string::npos);
    EXPECT_NE(page.find("\"position = 119\""), std::string::npos);  // the last frame's label
}

TEST_F(HtmlPage, ChromiumShowsFrameKAsThePngFramesShowIt) {
    struct Case {
        std::vector<std::string> args;
        int frames;
        std::vector<int> ks;
    };
    const std::vector<Case> cases = {
        {{"vectors", "--animate", "position=0:119", "--set", "preset=llama-3-8b"}, 60, {0, 17, 59}},
        {{"heatmap", "--animate", "max_position=512:8192", "--set", "preset=qwen2.5-7b"}, 6, {4}},
        {{"sweep", "--animate", "max_position=1024:131072", "--theme", "dark"}, 5, {2}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.args[0]);
        std::vector<std::string> html = c.args, pngs = c.args;
        for (auto* v : {&html, &pngs}) v->insert(v->end(), {"--frames", std::to_string(c.frames), "--width", "800", "--height", "480"});
        const std::string page = path(c.args[0] + ".html"), folder = path(c.args[0] + "-frames/");
        html.insert(html.end(), {"--out", page});
        pngs.insert(pngs.end(), {"--out", folder});
        ASSERT_EQ(export_cli(html).exit_code, 0);
        ASSERT_EQ(export_cli(pngs).exit_code, 0);
        for (int k : c.ks) {
            const std::string shot = screenshot(dir_, "file://" + page + "#frame=" + std::to_string(k), 800, 600);
            char name[32];
            std::snprintf(name, sizeof name, "frame-%04d.png", k + 1);
            const double same = difference(shot, folder + name, 800, 480);
            std::snprintf(name, sizeof name, "frame-%04d.png", k == 0 ? c.frames : 1);
            const double other = difference(shot, folder + name, 800, 480);
            std::printf("%s frame %d: MAE %.4f against its PNG, %.4f against another frame\n", c.args[0].c_str(), k, same, other);
            EXPECT_LT(same, 0.02);      // the same picture, text rasterised by another library
            EXPECT_GT(other, same * 1.5);  // and that frame, not another
        }
    }
}

TEST_F(HtmlPage, AStaticPageShowsThePictureThePngShows) {
    const std::string page = path("decay.html"), png = path("decay.png");
    ASSERT_EQ(export_cli({"decay", "--out", page, "--width", "800", "--height", "480", "--set", "preset=mistral-7b-v0.1"}).exit_code, 0);
    ASSERT_EQ(export_cli({"decay", "--out", png, "--width", "800", "--height", "480", "--set", "preset=mistral-7b-v0.1"}).exit_code, 0);
    const std::string text = read_file(page);
    expect_no_network_reference(text);
    EXPECT_EQ(slider_steps(text), 0);  // one picture: no slider, no play button
    EXPECT_EQ(text.find("id=\"play\""), std::string::npos);
    EXPECT_LT(difference(screenshot(dir_, "file://" + page, 800, 520), png, 800, 480), 0.02);
}

TEST_F(HtmlPage, ABadExtensionOrAnimateKeyIsRefusedWithOneLineAndNothingWritten) {
    const std::vector<std::vector<std::string>> bad = {
        {"vectors", "--out", path("page.htm")},
        {"vectors", "--out", path("page.htm"), "--animate", "position=0:10"},
        {"vectors", "--out", path("page.html"), "--animate", "no_such_key=0:10"},
        {"vectors", "--out", path("page.html"), "--animate", "preset=0:10"},
        {"vectors", "--out", path("page.html"), "--animate", "max_distance=1:10"},  // vectors does not read it
        {"vectors", "--out", path("page.html"), "--animate", "position=0:10", "--frames", "1"},
    };
    for (const auto& args : bad) {
        const rope::test::ProcessResult r = export_cli(args);
        EXPECT_EQ(r.exit_code, 2) << args[4];
        EXPECT_EQ(rope::test::count_lines(r.err), 1) << r.err;
        EXPECT_FALSE(exists(path("page.html")));
        EXPECT_FALSE(exists(path("page.htm")));
    }
}

// ---------------------------------------------------------------------------------------------
// Alt text

TEST(AltText, EveryFigureDescribesItselfNamingTheModelAndTheFigure) {
    rope::figures::FigureCache cache;
    rope::exporting::CairoTextMeasure measure;
    rope::ParamSet params;
    params.set(rope::ParamId::preset, "llama-3-8b");
    for (const rope::figures::FigureDescriptor* f : rope::figures::all_figures()) {
        SCOPED_TRACE(std::string(f->name));
        ASSERT_NE(f->describe, nullptr);
        rope::figures::FigureRequest request;
        request.figure = f;
        request.measure = &measure;
        const rope::figures::FigureResult result = rope::figures::build_figure(request, params, cache);
        const std::string alt = rope::figures::alt_text(*f, params, result);
        EXPECT_EQ(alt.rfind(std::string(f->title) + " of Llama 3 8B: ", 0), 0u) << alt;
        EXPECT_GT(alt.size(), 60u) << alt;
        EXPECT_LT(alt.size(), 400u) << alt;  // one or two sentences
        EXPECT_TRUE(std::regex_search(alt, std::regex("[0-9]"))) << alt;
    }
}

TEST_F(HtmlPage, TheHeatmapsAltTextGivesItsNumbersAndEveryFileCarriesIt) {
    const std::vector<std::string> sets = {"--set", "preset=llama-3-8b", "--width", "800", "--height", "480"};
    std::vector<std::string> args = {"heatmap", "--alt"};
    args.insert(args.end(), sets.begin(), sets.end());
    const rope::test::ProcessResult printed = export_cli(args);
    ASSERT_EQ(printed.exit_code, 0) << printed.err;
    const std::string alt = printed.out.substr(0, printed.out.find('\n'));
    // the numbers the picture shows, computed here: the cell width in positions and which pairs
    // turn a whole turn or more within one cell
    std::smatch m;
    ASSERT_TRUE(std::regex_search(alt, m, std::regex(R"(^Angle heatmap of Llama 3 8B: 64 pairs over positions 0-8191 in (\d+) columns; pairs 0-(\d+) turn a whole turn or more within a cell and fade to grey, the other (\d+) show their angle as colour\.$)")))
        << alt;
    const int columns = std::stoi(m[1]), last_fast = std::stoi(m[2]);
    rope::ParamSet p;
    p.set(rope::ParamId::preset, "llama-3-8b");
    const rope::FrequencyTable f = rope::compute_frequencies(p.config());
    const double cell = 8192.0 / columns;
    EXPECT_GE(f.theta[last_fast] * cell, 2 * M_PI);
    EXPECT_LT(f.theta[last_fast + 1] * cell, 2 * M_PI);
    EXPECT_EQ(std::stoi(m[3]), 64 - (last_fast + 1));

    for (const char* ext : {".png", ".svg", ".pdf", ".html"}) {
        SCOPED_TRACE(ext);
        const std::string file = path(std::string("heatmap") + ext);
        std::vector<std::string> a = {"heatmap", "--out", file, "--alt"};
        a.insert(a.end(), sets.begin(), sets.end());
        const rope::test::ProcessResult r = export_cli(a);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(r.out, alt + "\n");  // --alt with --out: the file written and its alt text printed
        const std::string bytes = read_file(file);
        if (std::string(ext) == ".png") {
            bool found = false;
            for (const auto& [k, v] : rope::io::read_png_text_file(file)) found |= k == "Description" && v == alt;
            EXPECT_TRUE(found);
        } else if (std::string(ext) == ".svg") {
            EXPECT_NE(bytes.find("<desc id=\"desc\">" + alt + "</desc>"), std::string::npos);
            EXPECT_NE(bytes.find("role=\"img\" aria-labelledby=\"title desc\""), std::string::npos);
        } else if (std::string(ext) == ".pdf") {
            const rope::test::ProcessResult info = run_process({"/usr/bin/pdfinfo", file});
            EXPECT_TRUE(std::regex_search(info.out, std::regex("\nSubject: +" + std::regex_replace(alt, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") + "\n"))) << info.out;
        } else {
            EXPECT_NE(bytes.find("role=\"img\" aria-label=\"" + alt + "\""), std::string::npos);
        }
    }
}

}  // namespace
