// `rope-explorer export --animate` read back by real readers: ImageMagick counts the GIF's frames,
// reads its loop count, delays and comment, and coalesces it into whole frames that are compared
// with the PNG export at the same parameter values; a PNG sequence's frames equal the PNG export
// pixel for pixel. Every bad input: one line, exit 2, nothing written, an existing file untouched.
#include <gtest/gtest.h>

#include "support/synthetic_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numeric>

#include "export/animation.hpp"
#include "export/cairo_canvas.hpp"
#include "figures/figure_cache.hpp"
#include "figures/registry.hpp"
#include "plot/axis_pins.hpp"
#include "plot/plot.hpp"
#include "io/atomic_file.hpp"
#include "io/gif_writer.hpp"
#include "io/png_writer.hpp"
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

namespace {

using AnimationTest = rope::test::TempDirTest;

std::string chunk(const rope::io::TextChunks& text, const std::string& key) {
    for (const auto& [k, v] : text)
        if (k == key) return v;
    return "(missing)";
}

// The GIF's frames made whole by ImageMagick (each frame as a viewer shows it), as PNGs.
std::vector<rope::io::PngImage> coalesced_frames(const std::string& gif, const std::string& dir) {
    const ProcessResult r = run_process({"/usr/bin/convert", gif, "-coalesce", dir + "/coalesced-%04d.png"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<rope::io::PngImage> frames;
    for (int i = 0;; ++i) {
        char name[64];
        std::snprintf(name, sizeof name, "/coalesced-%04d.png", i);
        if (!exists(dir + name)) break;
        frames.push_back(rope::io::read_png(dir + name));
    }
    return frames;
}

// Share of pixels whose RGB differs, and the mean absolute channel difference in [0, 1].
std::pair<double, double> difference(const rope::io::PngImage& a, const rope::io::PngImage& b) {
    EXPECT_EQ(a.width, b.width);
    EXPECT_EQ(a.height, b.height);
    std::size_t differing = 0;
    double sum = 0;
    const std::size_t n = std::min(a.rgba.size(), b.rgba.size()) / 4;
    for (std::size_t i = 0; i < n; ++i) {
        bool same = true;
        for (int c = 0; c < 3; ++c) {
            const int d = std::abs(a.rgba[4 * i + c] - b.rgba[4 * i + c]);
            sum += d / 255.0;
            same = same && d == 0;
        }
        differing += same ? 0 : 1;
    }
    return {static_cast<double>(differing) / static_cast<double>(n), sum / (3.0 * static_cast<double>(n))};
}

std::vector<std::uint8_t> rgb_of(const rope::io::PngImage& image) {
    std::vector<std::uint8_t> rgb;
    for (std::size_t i = 0; i < image.rgba.size(); i += 4) rgb.insert(rgb.end(), {image.rgba[i], image.rgba[i + 1], image.rgba[i + 2]});
    return rgb;
}

rope::io::PngImage png_export(const std::string& path, const std::string& figure, const std::vector<std::string>& sets) {
    std::vector<std::string> args = {figure, "--out", path};
    for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
    const ProcessResult r = export_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return rope::io::read_png(path);
}

}  // namespace

TEST(AnimationFrames, IntegersStepEvenlyEvenKeysStayEvenLogSlidersStepInLogSpace) {
    const rope::ParamSet base;
    rope::exporting::Animation a = rope::exporting::parse_animate("position=0:119");
    a.frames = 120;
    std::vector<rope::ParamSet> frames = rope::exporting::animation_frames(base, a);
    ASSERT_EQ(frames.size(), 120u);
    for (int i = 0; i < 120; ++i) EXPECT_EQ(frames[static_cast<std::size_t>(i)][P::position], i);

    a = rope::exporting::parse_animate("dim=8:16");
    a.frames = 4;  // 8, 10.67, 13.33, 16 -> even: 8, 10, 14, 16
    frames = rope::exporting::animation_frames(base, a);
    std::vector<std::int64_t> dims;
    for (const rope::ParamSet& p : frames) dims.push_back(p[P::dim]);
    EXPECT_EQ(dims, (std::vector<std::int64_t>{8, 10, 14, 16}));

    a = rope::exporting::parse_animate("base=100:1000000");  // base's slider is logarithmic
    a.frames = 3;
    frames = rope::exporting::animation_frames(base, a);
    EXPECT_EQ(frames[0][P::base], 100.0);
    EXPECT_NEAR(frames[1][P::base], 10000.0, 1e-6);
    EXPECT_EQ(frames[2][P::base], 1000000.0);

    a = rope::exporting::parse_animate("rotary_fraction=0.25:0.75");  // a linear slider
    a.frames = 3;
    frames = rope::exporting::animation_frames(base, a);
    EXPECT_DOUBLE_EQ(frames[1][P::rotary_fraction], 0.5);
}

TEST(AnimationFrames, GifDelaysAddUpToTheRunningTime) {
    int total = 0;
    for (int i = 0; i < 30; ++i) total += rope::io::gif_delay_centiseconds(i, 30);
    EXPECT_EQ(total, 100);  // 30 frames at 30 fps: one second
    EXPECT_EQ(rope::io::gif_delay_centiseconds(0, 30), 3);
    EXPECT_EQ(rope::io::gif_delay_centiseconds(1, 30), 4);
    EXPECT_EQ(rope::io::gif_delay_centiseconds(2, 30), 3);
    EXPECT_EQ(rope::io::gif_delay_centiseconds(0, 10), 10);
    EXPECT_EQ(rope::io::gif_delay_centiseconds(5, 120), 2);  // browsers slow 0 and 1 to 10: 2 is the least
}

TEST_F(AnimationTest, GifWriterIsExactWithFewColoursAndWritesOnlyWhatChanged) {
    // A square moving over a two-colour background: 3 colours, so every frame must come back exact.
    const int w = 64, h = 40, n = 6;
    const std::string gif = path("square.gif");
    rope::io::GifWriter writer(gif, w, h, 10, {{"animate", "test"}});
    std::vector<std::vector<std::uint8_t>> frames;
    for (int f = 0; f < n; ++f) {
        std::vector<std::uint8_t> rgba(static_cast<std::size_t>(w) * h * 4);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                std::uint8_t* p = &rgba[(static_cast<std::size_t>(y) * w + x) * 4];
                const bool square = x >= 5 * f && x < 5 * f + 10 && y >= 10 && y < 20;
                const bool stripe = y >= 30;
                p[0] = square ? 200 : stripe ? 20 : 255, p[1] = square ? 80 : stripe ? 20 : 255, p[2] = square ? 10 : stripe ? 120 : 255, p[3] = 255;
            }
        writer.add_frame(rgba.data(), w * 4);
        frames.push_back(rgba);
    }
    writer.finish();
    EXPECT_TRUE(writer.exact_palette());
    const std::vector<rope::io::PngImage> back = coalesced_frames(gif, dir_);
    ASSERT_EQ(back.size(), static_cast<std::size_t>(n));
    for (int f = 0; f < n; ++f) {
        rope::io::PngImage original{w, h, frames[static_cast<std::size_t>(f)], {}};
        EXPECT_EQ(rgb_of(back[static_cast<std::size_t>(f)]), rgb_of(original)) << "frame " << f;
    }
    // frames after the first are the changed rectangle only: 15 x 10 pixels (the square moved by 5)
    const ProcessResult geometry = run_process({"/usr/bin/identify", "-format", "%wx%h%X%Y\n", gif});
    EXPECT_EQ(rope::test::split_lines(geometry.out)[1], "15x10+0+10") << geometry.out;
}

TEST_F(AnimationTest, GifOfVectorsLoopsHasItsFramesAndDelaysAndMatchesThePngExport) {
    const std::string gif = path("vectors.gif");
    const ProcessResult r = export_cli({"vectors", "--out", gif, "--animate", "position=0:20", "--frames", "11", "--fps", "30"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(files_in(dir_), 1u);  // no temporary left beside it
    const ProcessResult info = run_process({"/usr/bin/identify", "-format", "%T %[width]x%[height] %W x%H\n", gif});
    const std::vector<std::string> lines = rope::test::split_lines(info.out);
    ASSERT_EQ(lines.size(), 11u) << info.out;
    EXPECT_EQ(lines[0], "3 800x480 800 x480");  // 30 fps: 3, 4, 3 centiseconds
    EXPECT_EQ(lines[1].substr(0, 2), "4 ");
    EXPECT_EQ(lines[2].substr(0, 2), "3 ");
    const ProcessResult verbose = run_process({"/usr/bin/convert", gif + "[0]", "-verbose", "info:"});
    EXPECT_NE(verbose.out.find("Iterations: 0"), std::string::npos);  // loops forever
    EXPECT_NE(verbose.out.find("animate=position=0:20"), std::string::npos) << "the comment holds the parameters";
    EXPECT_NE(verbose.out.find("position=0:20\n"), std::string::npos);

    const std::vector<rope::io::PngImage> frames = coalesced_frames(gif, dir_);
    ASSERT_EQ(frames.size(), 11u);
    const rope::io::PngImage first = png_export(path("first.png"), "vectors", {"position=0"});
    const rope::io::PngImage last = png_export(path("last.png"), "vectors", {"position=20"});
    // vectors' anti-aliased edges give thousands of colours: the palette keeps the flat ones exact
    // and quantises the edges, so almost every pixel is exact and the rest are close.
    for (const auto& [gif_frame, png] : {std::make_pair(&frames.front(), &first), std::make_pair(&frames.back(), &last)}) {
        const auto [differing, mean] = difference(*gif_frame, *png);
        EXPECT_LT(differing, 0.05);
        EXPECT_LT(mean, 0.005);
    }
}

TEST_F(AnimationTest, PngSequenceFramesEqualThePngExportAndCarryTheAnimation) {
    const std::string folder = path("seq") + "/";
    const ProcessResult r = export_cli({"vectors", "--out", folder, "--animate", "position=0:10", "--frames", "3", "--fps", "12"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(files_in(dir_), 4u);  // the folder and its 3 frames, no temporary folder
    for (const auto& [name, position] : std::vector<std::pair<std::string, std::string>>{
             {"frame-0001.png", "0"}, {"frame-0002.png", "5"}, {"frame-0003.png", "10"}}) {
        const rope::io::PngImage frame = rope::io::read_png(folder + name);
        const rope::io::PngImage png = png_export(path("p" + position + ".png"), "vectors", {"position=" + position});
        EXPECT_EQ(frame.width, png.width);
        EXPECT_EQ(frame.height, png.height);
        EXPECT_TRUE(frame.rgba == png.rgba) << name << " differs from the PNG export at position=" << position;
        EXPECT_EQ(chunk(frame.text, "animate"), "position=0:10");
        EXPECT_EQ(chunk(frame.text, "frames"), "3");
        EXPECT_EQ(chunk(frame.text, "fps"), "12");
        EXPECT_EQ(chunk(frame.text, "position"), position) << "a frame's own value: it opens as a session";
        EXPECT_EQ(chunk(frame.text, "figure"), "vectors");
        EXPECT_EQ(chunk(frame.text, "dim"), chunk(png.text, "dim"));
    }
}

TEST_F(AnimationTest, HeatmapGifAtALongContextKeepsItsSizeAndFrames) {
    const std::string gif = path("heatmap.gif");
    const ProcessResult r = export_cli({"heatmap", "--set", "max_position=131072", "--out", gif, "--animate", "position=0:131072",
                                        "--frames", "5"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const ProcessResult info = run_process({"/usr/bin/identify", "-format", "%W x%H\n", gif});
    EXPECT_EQ(rope::test::split_lines(info.out), std::vector<std::string>(5, "800 x480"));
    const std::vector<rope::io::PngImage> frames = coalesced_frames(gif, dir_);
    ASSERT_EQ(frames.size(), 5u);
    const rope::io::PngImage last = png_export(path("last.png"), "heatmap", {"max_position=131072", "position=131072"});
    const auto [differing, mean] = difference(frames.back(), last);
    EXPECT_LT(mean, 0.01) << "the heatmap's colormap is quantised, not lost";
    (void)differing;
}

TEST_F(AnimationTest, EveryBadInputIsOneLineExit2AndWritesNothing) {
    const std::string keep = path("keep.gif");
    { std::ofstream(keep) << "an older file"; }
    const std::string gif = path("new.gif");
    const std::string full = path("full") + "/";
    run_process({"/bin/mkdir", path("full")});
    { std::ofstream(path("full/other.txt")) << "x"; }
    struct Case {
        std::vector<std::string> args;
        std::string mention;
    };
    const std::vector<Case> cases = {
        {{"--out", gif, "--animate", "nosuch=0:1"}, "'nosuch' is not a parameter"},
        {{"--out", gif, "--animate", "pairing=0:1"}, "pairing is not a number"},
        {{"--out", gif, "--animate", "position"}, "KEY=FROM:TO"},
        {{"--out", gif, "--animate", "position=0:abc"}, "'abc' is not a number; position must be an integer"},
        {{"--out", gif, "--animate", "position=-1:5"}, "-1 is out of range; position must be an integer from 0 to"},
        {{"--out", gif, "--animate", "dim=3:8"}, "3 is out of range; dim must be an even integer from 2 to 4096"},
        {{"--out", gif, "--animate", "base=1:100"}, "1 is out of range; base must be"},
        {{"--out", gif, "--animate", "pair=0:100"}, "frame 39 (pair=64): "},
        {{"--out", gif, "--animate", "heatmap_from=0:5"}, "vectors does not depend on heatmap_from"},
        {{"--out", gif, "--animate", "position=0:5", "--frames", "1"}, "--frames 1: must be an integer from 2 to 1000"},
        {{"--out", gif, "--animate", "position=0:5", "--frames", "1001"}, "--frames 1001"},
        {{"--out", gif, "--animate", "position=0:5", "--frames", "2.5"}, "--frames 2.5"},
        {{"--out", gif, "--animate", "position=0:5", "--fps", "0"}, "--fps 0: must be an integer from 1 to 120"},
        {{"--out", gif, "--animate", "position=0:5", "--fps", "121"}, "--fps 121"},
        {{"--out", gif, "--frames", "10"}, "--frames: only with --animate"},
        {{"--out", path("x.avi"), "--animate", "position=0:5"}, "unknown file type for an animation"},
        {{"--out", path("x.svg"), "--animate", "position=0:5"}, "a SVG file holds one picture"},
        {{"--out", path("x.pdf"), "--animate", "position=0:5"}, "a PDF file holds one picture"},
        {{"--out", path("x.csv"), "--animate", "position=0:5"}, "a CSV file holds one picture"},
        {{"--out", path("x.png"), "--animate", "position=0:5"}, "a PNG file holds one picture"},
        {{"--out", path("no/such/x.gif"), "--animate", "position=0:5"}, "does not exist"},
        {{"--out", path("keep.gif/x.gif"), "--animate", "position=0:5"}, "does not exist"},
        {{"--out", full, "--animate", "position=0:5"}, "the folder is not empty"},
        {{"--out", keep, "--animate", "nosuch=0:1"}, "nosuch"},
        {{"--out", keep, "--animate", "position=0:5", "--set", "dim=7"}, "dim"},
        {{"--out", path("no/such/x.mp4"), "--animate", "position=0:5"}, "does not exist"},
        {{"--out", path("x.webm"), "--animate", "position=0:5", "--fps", "500"}, "--fps 500"},
    };
    for (const Case& c : cases) {
        std::vector<std::string> args = {"vectors"};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const ProcessResult r = export_cli(args);
        std::string joined;
        for (const std::string& a : c.args) joined += a + " ";
        EXPECT_EQ(r.exit_code, 2) << joined << r.err;
        EXPECT_EQ(rope::test::count_lines(r.err), 1) << joined << r.err;
        EXPECT_NE(r.err.find(c.mention), std::string::npos) << joined << r.err;
        EXPECT_EQ(files_in(dir_), 3u) << joined << ": something was written";  // keep.gif, full/, full/other.txt
    }
    EXPECT_EQ(rope::io::read_file(keep), "an older file");
}

TEST_F(AnimationTest, AGifOverAnExistingFileReplacesItWhole) {
    const std::string gif = path("v.gif");
    { std::ofstream(gif) << "an older file"; }
    const ProcessResult r = export_cli({"vectors", "--out", gif, "--animate", "position=0:3", "--frames", "4"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(files_in(dir_), 1u);
    EXPECT_EQ(rope::io::read_file(gif).substr(0, 6), "GIF89a");
}

// export --animate to MP4 and WebM, read back by ffprobe (codec, frames, rate, duration, the parameters)
// and ffmpeg (the first and last frames against the PNG export: mean difference under 2%).
TEST_F(AnimationTest, VideosHaveTheirCodecFramesRateAndMatchThePngExport) {
    const rope::io::PngImage first = png_export(path("first.png"), "vectors", {"position=0"});
    const rope::io::PngImage last = png_export(path("last.png"), "vectors", {"position=20"});
    for (const std::string ext : {"mp4", "webm"}) {
        const std::string file = path("vectors." + ext);
        const ProcessResult r = export_cli({"vectors", "--out", file, "--animate", "position=0:20", "--frames", "11", "--fps", "10"});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const ProcessResult probe = run_process({"/usr/bin/ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                 "stream=codec_name,nb_read_frames,avg_frame_rate:format=duration:format_tags", "-of",
                                                 "default=noprint_wrappers=1", file});
        ASSERT_EQ(probe.exit_code, 0) << probe.err;
        EXPECT_NE(probe.out.find(ext == "mp4" ? "codec_name=h264" : "codec_name=vp9"), std::string::npos) << probe.out;
        EXPECT_NE(probe.out.find("nb_read_frames=11"), std::string::npos) << probe.out;
        EXPECT_NE(probe.out.find("avg_frame_rate=10/1"), std::string::npos) << probe.out;
        EXPECT_NE(probe.out.find("duration=1.1"), std::string::npos) << probe.out;  // 11 frames at 10 fps
        EXPECT_NE(probe.out.find("position=0:20"), std::string::npos) << "the parameters in the container's tags: " << probe.out;
        for (const auto& [n, png] : {std::make_pair(0, &first), std::make_pair(10, &last)}) {
            const std::string out = path(ext + "-" + std::to_string(n) + ".png");
            const ProcessResult dec = run_process({"/usr/bin/ffmpeg", "-v", "error", "-i", file, "-vf", "select=eq(n\\," + std::to_string(n) + ")",
                                                   "-frames:v", "1", "-pix_fmt", "rgba", out});
            ASSERT_EQ(dec.exit_code, 0) << dec.err;
            const auto [differing, mean] = difference(rope::io::read_png(out), *png);
            EXPECT_LT(mean, 0.02) << ext << " frame " << n;
        }
    }
}

// The app's Cancel: the progress callback hears every frame of each stage in order (the axis ranges'
// pass, then the frames written) and, told to stop in either stage, the export
// throws AnimationCancelled and leaves nothing beside the target, in every format; an older file
// of that name stays as it was.
TEST_F(AnimationTest, ACancelledRecordingLeavesNothingBehind) {
    const rope::figures::FigureDescriptor* vectors = rope::figures::find_figure("vectors");
    ASSERT_NE(vectors, nullptr);
    rope::exporting::Animation a = rope::exporting::parse_animate("position=0:9");
    a.frames = 10;
    { std::ofstream(path("older.gif")) << "an older file"; }
    for (const std::string name : {"older.gif", "v.mp4", "v.webm", "frames/"}) {
        rope::exporting::ExportOptions o;
        o.path = path(name);
        o.scale = 0.5;
        std::vector<int> heard, gathered;
        using rope::exporting::AnimationStage;
        auto stop_at_4 = [&heard, &gathered](AnimationStage stage, int done, int total) {
            EXPECT_EQ(total, 10);
            if (stage == AnimationStage::ranges) {
                EXPECT_TRUE(heard.empty()) << "the ranges come first";
                gathered.push_back(done);
                return true;
            }
            heard.push_back(done);
            return done < 4;
        };
        EXPECT_THROW(rope::exporting::export_animation(*vectors, rope::ParamSet(), a, o, stop_at_4), rope::exporting::AnimationCancelled)
            << name;
        EXPECT_EQ(heard, (std::vector<int>{1, 2, 3, 4})) << name;
        EXPECT_EQ(gathered, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})) << name;
        EXPECT_EQ(files_in(dir_), 1u) << name << ": only the older file is there";
        EXPECT_EQ(rope::io::read_file(path("older.gif")), "an older file");
    }
    // stopped in the first pass, nothing is written either
    {
        rope::exporting::ExportOptions o;
        o.path = path("early.gif");
        o.scale = 0.5;
        int calls = 0;
        EXPECT_THROW(rope::exporting::export_animation(*vectors, rope::ParamSet(), a, o,
                                                       [&calls](rope::exporting::AnimationStage stage, int, int) {
                                                           return ++calls < 3 && stage == rope::exporting::AnimationStage::ranges;
                                                       }),
                     rope::exporting::AnimationCancelled);
        EXPECT_EQ(calls, 3);
        EXPECT_EQ(files_in(dir_), 1u);
    }
    // and heard to the end, the file is written
    rope::exporting::ExportOptions o;
    o.path = path("whole.gif");
    o.scale = 0.5;
    int last = 0;
    rope::exporting::export_animation(*vectors, rope::ParamSet(), a, o,
                                      [&last](rope::exporting::AnimationStage, int done, int) { return (last = done), true; });
    EXPECT_EQ(last, 10);
    EXPECT_TRUE(exists(path("whole.gif")));
}

// ---- ranges held still over the frames (plot/axis_pins.hpp) ----

namespace {

// The tick labels of a display list, with where they are drawn: what must not move between frames.
std::vector<std::string> tick_texts(const rope::plot::DisplayList& list, bool x = true, bool y = true) {
    std::vector<std::string> out;
    for (const rope::plot::Command& c : list.commands)
        if (const auto* t = std::get_if<rope::plot::TextCmd>(&c); t && ((x && t->role == rope::plot::Role::tick_x) || (y && t->role == rope::plot::Role::tick_y)))
            out.push_back(t->text + " @" + std::to_string(t->pos.x) + "," + std::to_string(t->pos.y));
    return out;
}

// The colour ranges of a display list's images (colour bars and heatmaps), in order.
std::vector<std::pair<float, float>> image_ranges(const rope::plot::DisplayList& list) {
    std::vector<std::pair<float, float>> out;
    for (const rope::plot::Command& c : list.commands)
        if (const auto* image = std::get_if<rope::plot::ImageCmd>(&c)) out.emplace_back(image->vmin, image->vmax);
    return out;
}

// The figure at each value of `key`, built as export_animation builds it: pinned over all of them
// when `pinned`, else each on its own.
// `sets` ("key=value") apply to every frame.
std::vector<rope::plot::DisplayList> frame_lists(const std::string& figure, const std::string& key, const std::vector<std::string>& values,
                                                 bool pinned, const std::vector<std::string>& sets = {},
                                                 const rope::exporting::ExportOptions& o = {}) {
    const rope::figures::FigureDescriptor* f = rope::figures::find_figure(figure);
    EXPECT_NE(f, nullptr) << figure;
    rope::exporting::CairoTextMeasure measure;
    rope::figures::FigureCache cache(rope::weights::folder_reader());
    rope::plot::AxisPins pins;
    std::vector<rope::ParamSet> params(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        for (const std::string& set : sets) params[i].set(set.substr(0, set.find('=')), set.substr(set.find('=') + 1));
        params[i].set(key, values[i]);
    }
    std::vector<rope::plot::DisplayList> lists;
    if (pinned)
        for (const rope::ParamSet& p : params) {
            pins.start_build(rope::plot::AxisPins::Mode::collect);
            rope::exporting::build_for_file(*f, p, o, measure, false, cache, &pins);
        }
    for (const rope::ParamSet& p : params) {
        pins.start_build(rope::plot::AxisPins::Mode::apply);
        lists.push_back(rope::exporting::build_for_file(*f, p, o, measure, false, cache, pinned ? &pins : nullptr).list);
    }
    return lists;
}

}  // namespace

// Plot level: apply mode gives each plot the union of its collected ranges, axis by axis; an axis
// with custom ticks (made for one range) or whose kind differs between builds keeps its own.
TEST(AxisPins, EachPlotTakesTheUnionOfItsRangesWhereEveryFrameAgreesOnTheAxis) {
    using rope::plot::AxisSetup;
    rope::plot::ApproximateTextMeasure measure;
    rope::plot::Style style = rope::plot::file_style(rope::plot::ThemeId::light);
    rope::plot::AxisPins pins;
    style.pins = &pins;
    struct Frame {
        double x_max, y_max, y2_max;
        bool y2_log;
    };
    // plot 0: x and y move; plot 1: x has custom ticks, y is log in one frame and linear in the other
    auto build = [&](const Frame& f, std::vector<double>* ranges) {
        rope::plot::DisplayList list;
        rope::plot::Plot a(list, measure, style, {0, 0, 400, 300});
        a.setup_x({"x", 0, f.x_max});
        a.setup_y({"y", -1, f.y_max});
        rope::plot::Plot b(list, measure, style, {400, 0, 800, 300});
        AxisSetup bx{"pair", 0, f.x_max};
        bx.ticks = {{0, "0"}, {f.x_max, rope::plot::tick_label(f.x_max, 1)}};
        b.setup_x(bx);
        b.setup_y({"y2", 1, f.y2_max, f.y2_log});
        for (rope::plot::Plot* p : {&a, &b}) {
            const rope::plot::Rect r = p->area();
            if (ranges) ranges->insert(ranges->end(), {p->x_from_px(r.x0), p->x_from_px(r.x1), p->y_from_px(r.y1), p->y_from_px(r.y0)});
            p->finish();
        }
    };
    const std::vector<Frame> frames = {{10, 5, 100, false}, {40, 2, 1000, true}};
    for (const Frame& f : frames) {
        pins.start_build(rope::plot::AxisPins::Mode::collect);
        build(f, nullptr);
    }
    std::vector<double> first, last;
    pins.start_build(rope::plot::AxisPins::Mode::apply);
    build(frames[0], &first);
    pins.start_build(rope::plot::AxisPins::Mode::apply);
    build(frames[1], &last);
    const std::vector<double> first_expected = {0, 40, -1, 5, 0, 10, 1, 100}, last_expected = {0, 40, -1, 5, 0, 40, 1, 1000};
    ASSERT_EQ(first.size(), first_expected.size());
    for (std::size_t i = 0; i < first.size(); ++i) {
        EXPECT_NEAR(first[i], first_expected[i], 1e-6 * (1 + std::abs(first_expected[i]))) << "frame 1, value " << i;
        EXPECT_NEAR(last[i], last_expected[i], 1e-6 * (1 + std::abs(last_expected[i]))) << "frame 2, value " << i;
    }
    EXPECT_FALSE(pins.frame_unchanged(0));
    EXPECT_FALSE(pins.frame_unchanged(1));  // plot 0's y goes from [-1, 2] to [-1, 5]
}

// A figure's own ranges (fitted before any Plot sees them): apply gives every frame the union, a flag
// true in one frame is true in all, and a frame whose own range was narrower is built again.
TEST(AxisPins, AFiguresHeldRangesAreTheUnionOfItsFrames) {
    rope::plot::AxisPins pins;
    const std::vector<std::pair<double, double>> own = {{0.4, 1}, {0.8, 1}, {-0.2, 1}};
    const std::vector<bool> exact = {false, true, false};
    for (std::size_t i = 0; i < own.size(); ++i) {
        pins.start_build(rope::plot::AxisPins::Mode::collect);
        double lo = own[i].first, hi = own[i].second;
        bool flag = exact[i];
        pins.hold("similarity", lo, hi);
        pins.hold_flag("exact", flag);
        EXPECT_EQ(lo, own[i].first) << "collect leaves the frame's own";
        EXPECT_EQ(flag, exact[i]);
    }
    for (std::size_t i = 0; i < own.size(); ++i) {
        pins.start_build(rope::plot::AxisPins::Mode::apply);
        double lo = own[i].first, hi = own[i].second;
        bool flag = exact[i];
        pins.hold("similarity", lo, hi);
        pins.hold_flag("exact", flag);
        EXPECT_EQ(lo, -0.2) << "frame " << i;
        EXPECT_EQ(hi, 1) << "frame " << i;
        EXPECT_TRUE(flag) << "frame " << i;
        EXPECT_FALSE(pins.frame_unchanged(static_cast<int>(i))) << "every frame misses the flag or the low end";
    }
    rope::plot::AxisPins one_frame;
    one_frame.start_build(rope::plot::AxisPins::Mode::collect);
    double lo = 0.4, hi = 1;
    one_frame.hold("similarity", lo, hi);
    EXPECT_TRUE(one_frame.frame_unchanged(0));
    rope::plot::hold_range(nullptr, "similarity", lo, hi);  // on screen: no pins, the frame's own
    EXPECT_EQ(lo, 0.4);
}

// The sweep's cosine sum fits its y axis to the data, which moves with the base: alone, the frames'
// tick labels differ; pinned, the first and last frames have the very same tick labels at the same places.
TEST(AxisPins, TheSweepsTickLabelsStayPutWhileTheBaseMoves) {
    const std::vector<std::string> bases = {"1000", "31622.8", "1000000"};
    const std::vector<rope::plot::DisplayList> alone = frame_lists("sweep", "base", bases, false);
    ASSERT_NE(tick_texts(alone.front()), tick_texts(alone.back())) << "the test needs a figure whose range moves";
    const std::vector<rope::plot::DisplayList> pinned = frame_lists("sweep", "base", bases, true);
    EXPECT_EQ(tick_texts(pinned.front()), tick_texts(pinned.back()));
    EXPECT_EQ(tick_texts(pinned.front()), tick_texts(pinned[1]));
}

// The score matrix's colour bar is fitted to the largest score, which moves with the base: pinned,
// every frame's bar and heatmap cells use one colour range (the cells keep to the bar they sit beside).
TEST(AxisPins, TheScoresColourBarAndItsCellsKeepOneRangeWhileTheBaseMoves) {
    const std::vector<std::string> bases = {"100", "1000000"};
    const std::vector<rope::plot::DisplayList> alone = frame_lists("scores", "base", bases, false);
    ASSERT_NE(image_ranges(alone.front()), image_ranges(alone.back())) << "the test needs a colour range that moves";
    const std::vector<rope::plot::DisplayList> pinned = frame_lists("scores", "base", bases, true);
    const std::vector<std::pair<float, float>> ranges = image_ranges(pinned.front());
    ASSERT_GE(ranges.size(), 2u);
    for (const auto& r : ranges) EXPECT_EQ(r, ranges.front()) << "the bar and the cells share one range";
    EXPECT_EQ(ranges, image_ranges(pinned.back()));
    float widest = 0;
    for (const auto& list : alone)
        for (const auto& r : image_ranges(list)) widest = std::max(widest, r.second);
    EXPECT_EQ(ranges.front().second, widest) << "the union of the frames' ranges";
}

// The heatmap as the context grows fills in from the left under a fixed position axis; as dim grows,
// its pair axis follows (pair i of 8 is not pair i of 64: moves_in_animation), the rows filling the plot.
TEST(AxisPins, TheHeatmapFillsInAsTheContextGrowsAndItsPairAxisFollowsTheDim) {
    const std::vector<rope::plot::DisplayList> context = frame_lists("heatmap", "max_position", {"256", "4096"}, true);
    EXPECT_EQ(tick_texts(context.front()), tick_texts(context.back()));
    std::vector<rope::plot::Rect> cells;
    for (const rope::plot::DisplayList& list : context)
        for (const rope::plot::Command& c : list.commands)
            if (const auto* image = std::get_if<rope::plot::ImageCmd>(&c); image && image->rows == 64) cells.push_back(image->rect);
    ASSERT_EQ(cells.size(), 2u) << "one heatmap of 64 pairs a frame (the colour bar has 256 rows)";
    EXPECT_NEAR(cells[0].x0, cells[1].x0, 0.5f) << "both start at position 0";
    EXPECT_NEAR(cells[0].width(), cells[1].width() * 256.0f / 4096.0f, 2.0f) << "256 of 4096 positions";

    const std::vector<rope::plot::DisplayList> dims = frame_lists("heatmap", "dim", {"16", "128"}, true);
    EXPECT_NE(tick_texts(dims.front(), false, true), tick_texts(dims.back(), false, true)) << "the pair axis is not pinned";
}

// The command line does the same: a PNG sequence of the sweep has the pinned frames (pixel for pixel
// what the pinned build rasterizes), and so its last frame differs from the plain export at that base
// (the first frame's cosine sum spans the widest range: the union is its own).
TEST_F(AnimationTest, PngSequenceOfAMovingRangeHasThePinnedFramesNotThePlainExport) {
    const std::string folder = path("sweep") + "/";
    const ProcessResult r = export_cli({"sweep", "--out", folder, "--animate", "base=1000:1000000", "--frames", "3"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const rope::io::PngImage last = rope::io::read_png(folder + "frame-0003.png");
    const rope::io::PngImage plain = png_export(path("plain.png"), "sweep", {"base=1000000"});
    EXPECT_FALSE(last.rgba == plain.rgba) << "the cosine sum's y axis is held at the union of the frames'";
    const std::vector<rope::plot::DisplayList> pinned = frame_lists("sweep", "base", {"1000", "31622.776601683792", "1000000"}, true);
    rope::exporting::ExportOptions o;
    int w = 0, h = 0;
    for (const auto& [index, name] : {std::make_pair(0, "frame-0001.png"), std::make_pair(2, "frame-0003.png")}) {
        const std::vector<std::uint8_t> expected = rope::exporting::rasterize(pinned[static_cast<std::size_t>(index)], o, w, h);
        EXPECT_TRUE(rope::io::read_png(folder + name).rgba == expected) << name;
    }
}

namespace {

// A colour bar: a strip of 256 values (up a vertical bar, up to 8 columns wide for a fading one;
// or along a horizontal key of one row).
bool is_colour_bar(const rope::plot::ImageCmd& image) {
    return (image.rows == 256 && image.cols <= 8) || (image.rows == 1 && image.cols == 256);
}

// What an animation holds still, as lines: every image's colour range (bars and heatmap cells),
// the labels beside or below a colour bar, and the axes' tick labels with where they are drawn.
std::vector<std::string> held_ranges(const rope::plot::DisplayList& list) {
    std::vector<std::string> out;
    std::vector<rope::plot::Rect> bars;
    for (const rope::plot::Command& c : list.commands)
        if (const auto* image = std::get_if<rope::plot::ImageCmd>(&c)) {
            out.push_back(std::string(is_colour_bar(*image) ? "bar" : "cells") + " map " + std::to_string(static_cast<int>(image->colormap)) +
                          " from " + std::to_string(image->vmin) + " to " + std::to_string(image->vmax));
            if (is_colour_bar(*image)) bars.push_back(image->rect);
        }
    auto beside_a_bar = [&](rope::plot::Vec2 at) {
        for (const rope::plot::Rect& b : bars) {
            const bool vertical = b.height() > b.width();
            if (vertical ? at.x >= b.x1 && at.x <= b.x1 + 16 && at.y >= b.y0 - 2 && at.y <= b.y1 + 2
                         : at.y >= b.y1 && at.y <= b.y1 + 16 && at.x >= b.x0 - 2 && at.x <= b.x1 + 2)
                return true;
        }
        return false;
    };
    for (const rope::plot::Command& c : list.commands) {
        const auto* t = std::get_if<rope::plot::TextCmd>(&c);
        if (!t) continue;
        const std::string where = " @" + std::to_string(t->pos.x) + "," + std::to_string(t->pos.y);
        if (t->role == rope::plot::Role::tick_x || t->role == rope::plot::Role::tick_y) out.push_back("tick " + t->text + where);
        else if (beside_a_bar(t->pos)) out.push_back("bar label " + t->text + where);
    }
    return out;
}

// The lines of `a` not in `b` and those of `b` not in `a`, for a readable failure.
std::string differences(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::string out;
    for (const std::string& line : a)
        if (std::find(b.begin(), b.end(), line) == b.end()) out += "\n  first only: " + line;
    for (const std::string& line : b)
        if (std::find(a.begin(), a.end(), line) == a.end()) out += "\n  last only:  " + line;
    return out;
}

struct MovingFigure {
    std::string figure, key;
    std::vector<std::string> values;  // the first, some between, the last frame's
    std::vector<std::string> sets;    // held in every frame
    int width = 800, height = 480;    // the export's default size, or the figure's own
};

}  // namespace

// Every figure, animated by a key that changes its data: the first and last frames of the run have
// the very same colour bars (ranges and labels), heatmap colour ranges and tick labels.
TEST(AxisPins, EveryFiguresColourBarsAndTickLabelsStayPutOverAnAnimation) {
    const std::vector<MovingFigure> cases = {
        {"vectors", "position", {"0", "700", "4000"}, {}},
        {"heatmap", "base", {"100", "10000", "1000000"}, {"heatmap_mode=unwrapped"}},
        {"sweep", "base", {"1000", "31622.8", "1000000"}, {}},
        {"decay", "base", {"100", "10000", "1000000"}, {}},
        {"context", "factor", {"2", "8", "32"}, {"scaling=yarn"}},
        {"scores", "base", {"100", "10000", "1000000"}, {}},
        {"pairing", "base", {"100", "10000", "1000000"}, {}},
        {"precision", "position", {"1", "1000", "100000"}, {}},
        {"sinusoidal", "base", {"100", "10000", "1000000"}, {}},
        {"partial_vs_proportional", "rotary_fraction", {"0.25", "0.5", "1"}, {}, 1100, 1300},
        {"model_anatomy", "attn_scale", {"0.05", "0.3", "1"}, {"preset=llama-4-scout", "attn_temperature_tuning=true", "layer=3"}, 1100, 900},
        // the patch grid small (a colour bar on each map) and at its own size (one bar under the three)
        {"patch_grid", "query_row", {"0", "5", "11"}, {}},
        {"patch_grid", "base", {"100", "10000", "1000000"}, {}},
        {"patch_grid", "query_row", {"0", "5", "11"}, {}, 1200, 900},
        {"patch_grid", "base", {"100", "10000", "1000000"}, {}, 1200, 900},
        // (from 8 rows up: fewer rows leave the maps too small for the shared key, and each map takes its own)
        {"patch_grid", "grid_rows", {"8", "12", "16"}, {"rope_axes=mrope"}, 1200, 900},
        // position ids are a table of numbers: no axis, no colour bar, nothing that could move
        {"position_ids", "text_before", {"0", "5", "16"}, {}},
        {"video", "base", {"100", "10000", "1000000"}, {"preset=qwen2.5-vl-7b", "video_frames=24"}},
        {"video_frames", "base", {"100", "10000", "1000000"}, {"preset=qwen2.5-vl-7b", "video_frames=24"}},
        {"video_ids", "video_fps", {"1", "2", "4"}, {"preset=qwen2.5-vl-7b", "video_frames=24"}},
        // the model card is a table of text: nothing that could move either
        {"model_card", "base", {"100", "10000", "1000000"}, {}},
        // a trained model's layers: each has its own heaviest share, the colour bars hold the run's
        {"relatives", "heads", {"8", "12", "112"}, {}},
        {"mla", "factor", {"4", "40", "160"}, {"preset=deepseek-v3"}},
        {"relatives", "original_max_position", {"512", "2048", "8192"}, {"preset=t5-base"}},
        {"trained", "layer", {"0", "1"}, {"dim=16", "layer_kinds=full_attention: attention=full dim=16", "model_layers=2*full_attention",
                                           "model=" + rope::test::synthetic_model_folder()}, 1000, 640},
    };
    std::vector<std::string> covered;
    for (const MovingFigure& c : cases) {
        SCOPED_TRACE(c.figure + ", " + c.key + " from " + c.values.front() + " to " + c.values.back());
        rope::exporting::ExportOptions o;
        o.width = c.width;
        o.height = c.height;
        const std::vector<rope::plot::DisplayList> pinned = frame_lists(c.figure, c.key, c.values, true, c.sets, o);
        std::vector<std::string> first = held_ranges(pinned.front()), last = held_ranges(pinned.back());
        EXPECT_EQ(first.empty(), c.figure == "position_ids" || c.figure == "model_card");
        if (c.key == "grid_rows") {
            // the rows are the picture's subject: the maps grow, their row axis and the key under them
            // move with them; the key's colours and labels must stay
            for (std::vector<std::string>* lines : {&first, &last}) {
                lines->erase(std::remove_if(lines->begin(), lines->end(), [](const std::string& line) { return line.rfind("tick ", 0) == 0; }),
                             lines->end());
                for (std::string& line : *lines) line = line.substr(0, line.find(" @"));
            }
        }
        EXPECT_TRUE(first == last) << differences(first, last);
        covered.push_back(c.figure);
    }
    for (const rope::figures::FigureDescriptor* f : rope::figures::all_figures())
        EXPECT_NE(std::find(covered.begin(), covered.end(), f->name), covered.end()) << f->name << " has no case";
}
