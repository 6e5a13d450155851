// io::VideoWriter read back by real readers: ffprobe (codec, pixel format, frame count, frame rate,
// duration, colour tags, the metadata tags) and ffmpeg (the first and last frames decoded to PNG,
// compared with the RGBA that went in). Synthetic frames (a moving bar over text-like one-pixel
// edges and a colour gradient) and frames of a real figure drawn by the PNG export. Failures name
// the path and leave nothing behind. The 120-frame 800x480 encodes print their time and size.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "export/export.hpp"
#include "session/file_metadata.hpp"
#include "figures/registry.hpp"
#include "io/png_writer.hpp"
#include "io/video_writer.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace P = rope::P;

using rope::io::IoError;
using rope::io::TextChunks;
using rope::io::VideoCodec;
using rope::io::VideoWriter;
using rope::test::ProcessResult;
using rope::test::run_process;

namespace {

using VideoWriterTest = rope::test::TempDirTest;

struct Image {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgba;
};

// White, a dark red bar moving right, rows of one-pixel black dots like small text at the top, a
// colour gradient in the lower left: sharp edges and smooth colour, both of which the encoders must keep.
Image synthetic_frame(int width, int height, int index, int count) {
    Image im{width, height, std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 4, 255)};
    const int bar_x = count > 1 ? index * (width - 40) / (count - 1) : 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            std::uint8_t* p = &im.rgba[(static_cast<std::size_t>(y) * width + x) * 4];
            if (y >= height / 2 && x < width / 3) {
                p[0] = static_cast<std::uint8_t>(x * 255 / width);
                p[1] = static_cast<std::uint8_t>(y * 255 / height);
                p[2] = 160;
            } else if (x >= bar_x && x < bar_x + 40) {
                p[0] = 170, p[1] = 30, p[2] = 40;
            } else if (y >= 8 && y < 40 && y % 4 == 0 && x % 3 == 0) {
                p[0] = p[1] = p[2] = 20;
            }
        }
    return im;
}

const char* extension(VideoCodec c) { return c == VideoCodec::h264_mp4 ? ".mp4" : ".webm"; }
const char* codec_name(VideoCodec c) { return c == VideoCodec::h264_mp4 ? "h264" : "vp9"; }

nlohmann::json probe(const std::string& file) {
    const ProcessResult r = run_process({"/usr/bin/ffprobe", "-v", "error", "-count_frames", "-show_streams", "-show_format", "-of",
                                         "json", file});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

// A tag by name whatever its case (Matroska writes tag names in capitals); "" if absent.
std::string tag(const nlohmann::json& format, const std::string& key) {
    if (!format.contains("tags")) return "";
    for (const auto& [k, v] : format["tags"].items()) {
        std::string a = k, b = key;
        std::transform(a.begin(), a.end(), a.begin(), ::tolower);
        std::transform(b.begin(), b.end(), b.begin(), ::tolower);
        if (a == b) return v.get<std::string>();
    }
    return "";
}

// Frame n of a video decoded by ffmpeg into a PNG, read back as RGBA.
Image decoded_frame(const std::string& video, int n, const std::string& png) {
    const ProcessResult r = run_process({"/usr/bin/ffmpeg", "-v", "error", "-y", "-i", video, "-vf",
                                         "select=eq(n\\," + std::to_string(n) + ")", "-frames:v", "1", png});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    rope::io::PngImage p = rope::io::read_png(png);
    return Image{p.width, p.height, std::move(p.rgba)};
}

// Mean absolute difference of the RGB channels over the source's pixels, as a share of 255.
double mean_difference(const Image& source, const Image& decoded) {
    EXPECT_GE(decoded.width, source.width);
    EXPECT_GE(decoded.height, source.height);
    double sum = 0;
    for (int y = 0; y < source.height; ++y)
        for (int x = 0; x < source.width; ++x)
            for (int c = 0; c < 3; ++c)
                sum += std::abs(source.rgba[(static_cast<std::size_t>(y) * source.width + x) * 4 + c] -
                                decoded.rgba[(static_cast<std::size_t>(y) * decoded.width + x) * 4 + c]);
    return sum / (3.0 * source.width * source.height * 255.0);
}

bool exists(const std::string& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0;
}

std::size_t files_in(const std::string& dir) {
    return static_cast<std::size_t>(rope::test::count_lines(run_process({"/usr/bin/find", dir, "-mindepth", "1"}).out));
}

const TextChunks kMetadata = {{"Software", "RoPE Explorer test"}, {"figure", "vectors"}, {"base", "10000"},
                              {"animate", "position=0:64"}};

// Writes `count` synthetic frames; returns them.
std::vector<Image> write_synthetic(const std::string& file, VideoCodec codec, int width, int height, int fps, int count) {
    std::vector<Image> frames;
    VideoWriter writer(file, codec, width, height, fps, kMetadata);
    for (int i = 0; i < count; ++i) {
        frames.push_back(synthetic_frame(width, height, i, count));
        writer.add_frame(frames.back().rgba.data(), width * 4);
    }
    writer.finish();
    return frames;
}

class EveryCodec : public VideoWriterTest, public ::testing::WithParamInterface<VideoCodec> {};

}  // namespace

TEST_P(EveryCodec, ProbedCodecFramesRateDurationColourAndTags) {
    const VideoCodec codec = GetParam();
    const std::string file = path(std::string("bar") + extension(codec));
    write_synthetic(file, codec, 320, 240, 12, 30);
    const nlohmann::json j = probe(file);
    ASSERT_EQ(j["streams"].size(), 1u);
    const nlohmann::json& s = j["streams"][0];
    EXPECT_EQ(s["codec_name"], codec_name(codec));
    EXPECT_EQ(s["pix_fmt"], "yuv420p");
    EXPECT_EQ(s["width"], 320);
    EXPECT_EQ(s["height"], 240);
    EXPECT_EQ(s["nb_read_frames"], "30");
    if (codec == VideoCodec::h264_mp4) {
        EXPECT_EQ(s["nb_frames"], "30");
    }
    EXPECT_EQ(s["avg_frame_rate"], "12/1");
    EXPECT_EQ(s["r_frame_rate"], "12/1");
    EXPECT_EQ(s["color_space"], "bt709");
    EXPECT_EQ(s["color_primaries"], "bt709");
    EXPECT_EQ(s["color_transfer"], "bt709");
    EXPECT_EQ(s["color_range"], "tv");
    EXPECT_NEAR(std::stod(j["format"]["duration"].get<std::string>()), 30.0 / 12, 1e-6);
    if (codec == VideoCodec::h264_mp4) {  // Matroska keeps no duration per stream
        EXPECT_NEAR(std::stod(s["duration"].get<std::string>()), 30.0 / 12, 1e-6);
    }
    EXPECT_EQ(j["format"]["format_name"].get<std::string>().find(codec == VideoCodec::h264_mp4 ? "mp4" : "webm") !=
                  std::string::npos,
              true);
    for (const auto& [key, value] : kMetadata) EXPECT_EQ(tag(j["format"], key), value) << key;
    EXPECT_EQ(tag(j["format"], "comment"), "Software=RoPE Explorer test figure=vectors base=10000 animate=position=0:64");
    EXPECT_EQ(files_in(dir_), 1u);  // the temporary file renamed, nothing else left
}

TEST_P(EveryCodec, DurationIsFramesOverFpsAtRatesThatDoNotDivideASecond) {
    // MP4 exactly (ffprobe prints 6 decimals); WebM to Matroska's millisecond
    const VideoCodec codec = GetParam();
    const double tolerance = codec == VideoCodec::h264_mp4 ? 1e-6 : 0.5e-3;
    for (const auto& [fps, frames] : std::vector<std::pair<int, int>>{{7, 10}, {24, 100}, {60, 7}, {240, 17}}) {
        const std::string file = path("rate" + std::to_string(fps) + extension(codec));
        write_synthetic(file, codec, 64, 48, fps, frames);
        const nlohmann::json j = probe(file);
        EXPECT_NEAR(std::stod(j["format"]["duration"].get<std::string>()), static_cast<double>(frames) / fps, tolerance) << fps;
        EXPECT_EQ(j["streams"][0]["avg_frame_rate"], std::to_string(fps) + "/1");
        EXPECT_EQ(j["streams"][0]["nb_read_frames"], std::to_string(frames));
    }
}

TEST_F(VideoWriterTest, Mp4HasItsIndexBeforeTheFramesForStreaming) {
    const std::string file = path("fast.mp4");
    write_synthetic(file, VideoCodec::h264_mp4, 160, 120, 10, 10);
    const std::string bytes = rope::test::read_file(file);
    std::vector<std::string> boxes;  // the top-level boxes in file order
    for (std::size_t at = 0; at + 8 <= bytes.size() && boxes.size() < 20;) {
        std::uint64_t size = 0;
        for (int i = 0; i < 4; ++i) size = size << 8 | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
        boxes.push_back(bytes.substr(at + 4, 4));
        if (size < 8) break;
        at += size;
    }
    const auto moov = std::find(boxes.begin(), boxes.end(), "moov"), mdat = std::find(boxes.begin(), boxes.end(), "mdat");
    ASSERT_NE(moov, boxes.end());
    ASSERT_NE(mdat, boxes.end());
    EXPECT_LT(moov - boxes.begin(), mdat - boxes.begin());
}

TEST_P(EveryCodec, FirstAndLastFramesDecodeCloseToTheSource) {
    const VideoCodec codec = GetParam();
    const std::string file = path(std::string("bar") + extension(codec));
    const std::vector<Image> frames = write_synthetic(file, codec, 400, 240, 30, 20);
    const Image first = decoded_frame(file, 0, path("first.png"));
    const Image last = decoded_frame(file, 19, path("last.png"));
    EXPECT_EQ(first.width, 400);
    EXPECT_EQ(first.height, 240);
    EXPECT_LT(mean_difference(frames.front(), first), 0.02);
    EXPECT_LT(mean_difference(frames.back(), last), 0.02);
    // the bar is where it was: the first frame is not the last one
    EXPECT_GT(mean_difference(frames.front(), last), mean_difference(frames.back(), last) + 0.01);
}

TEST_P(EveryCodec, OddSizesArePaddedToEvenWithTheWholeFrameKept) {
    const VideoCodec codec = GetParam();
    const std::string file = path(std::string("odd") + extension(codec));
    const std::vector<Image> frames = write_synthetic(file, codec, 301, 201, 10, 5);
    const nlohmann::json j = probe(file);
    EXPECT_EQ(j["streams"][0]["width"], 302);
    EXPECT_EQ(j["streams"][0]["height"], 202);
    const Image last = decoded_frame(file, 4, path("last.png"));
    EXPECT_LT(mean_difference(frames.back(), last), 0.02);
}

TEST_P(EveryCodec, FiguresDrawnByThePngExportSurviveTheEncoder) {
    // the vectors figure at three positions, as the PNG export draws it; each shown for 4 frames
    const VideoCodec codec = GetParam();
    const rope::figures::FigureDescriptor& figure = rope::figures::figure("vectors");
    std::vector<Image> drawn;
    for (const char* position : {"0", "5", "11"}) {
        rope::ParamSet params;
        params.set(P::position, position);
        rope::exporting::ExportOptions o;
        o.path = path(std::string("vectors-") + position + ".png");
        rope::exporting::export_figure(figure, params, o);
        rope::io::PngImage png = rope::io::read_png(o.path);
        drawn.push_back(Image{png.width, png.height, std::move(png.rgba)});
    }
    const std::string file = path(std::string("vectors") + extension(codec));
    const TextChunks metadata = rope::session::parameter_metadata(rope::ParamSet(), figure.name);
    VideoWriter writer(file, codec, drawn[0].width, drawn[0].height, 30, metadata);
    for (const Image& im : drawn)
        for (int i = 0; i < 4; ++i) writer.add_frame(im.rgba.data(), im.width * 4);
    writer.finish();
    // every parameter the PNG export carries, read back from the container
    const nlohmann::json j = probe(file);
    for (const auto& [key, value] : metadata) EXPECT_EQ(tag(j["format"], key), value) << key;
    EXPECT_GT(j["format"]["tags"].size(), metadata.size());  // all of them, the comment and the muxer's own
    EXPECT_LT(mean_difference(drawn.front(), decoded_frame(file, 0, path("first.png"))), 0.02);
    EXPECT_LT(mean_difference(drawn.back(), decoded_frame(file, 11, path("last.png"))), 0.02);
    EXPECT_LT(mean_difference(drawn[1], decoded_frame(file, 4, path("middle.png"))), 0.02);
}

TEST_P(EveryCodec, WritersOnSeveralThreadsAtOnceEachMakeAWholeFile) {
    const VideoCodec codec = GetParam();
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t)
        threads.emplace_back([this, codec, t] {
            write_synthetic(path("t" + std::to_string(t) + extension(codec)), codec, 160 + 2 * t, 120, 10, 15);
        });
    for (std::thread& t : threads) t.join();
    for (int t = 0; t < 3; ++t) {
        const nlohmann::json j = probe(path("t" + std::to_string(t) + extension(codec)));
        EXPECT_EQ(j["streams"][0]["nb_read_frames"], "15");
        EXPECT_EQ(j["streams"][0]["width"], 160 + 2 * t);
    }
}

TEST_P(EveryCodec, DroppedWithoutFinishLeavesNothingAndKeepsTheOldFile) {
    const VideoCodec codec = GetParam();
    const std::string fresh = path(std::string("fresh") + extension(codec));
    const std::string old = path(std::string("old") + extension(codec));
    {
        FILE* f = std::fopen(old.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fputs("the file that was there", f);
        std::fclose(f);
    }
    for (const std::string& target : {fresh, old}) {
        VideoWriter writer(target, codec, 64, 48, 10, kMetadata);
        const Image im = synthetic_frame(64, 48, 0, 1);
        for (int i = 0; i < 5; ++i) writer.add_frame(im.rgba.data(), 64 * 4);
    }  // a cancel: no finish()
    EXPECT_FALSE(exists(fresh));
    EXPECT_EQ(rope::test::read_file(old), "the file that was there");
    EXPECT_EQ(files_in(dir_), 1u);
}

TEST_P(EveryCodec, ASymbolicLinkIsKeptAndItsTargetWritten) {
    const VideoCodec codec = GetParam();
    const std::string real = path(std::string("real") + extension(codec)), link = path(std::string("link") + extension(codec));
    {
        FILE* f = std::fopen(real.c_str(), "w");
        ASSERT_NE(f, nullptr);
        std::fclose(f);
    }
    ASSERT_EQ(symlink(real.c_str(), link.c_str()), 0);
    write_synthetic(link, codec, 64, 48, 10, 3);
    struct stat st {};
    ASSERT_EQ(lstat(link.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode));
    EXPECT_EQ(probe(real)["streams"][0]["codec_name"], codec_name(codec));
    EXPECT_EQ(files_in(dir_), 2u);
}

TEST_P(EveryCodec, AnUnwritablePathThrowsNamingItAndLeavesNothing) {
    const VideoCodec codec = GetParam();
    const std::string ext = extension(codec);
    const auto expect_refused = [&](const std::string& target, const std::string& reason) {
        try {
            VideoWriter writer(target, codec, 64, 48, 10, kMetadata);
            ADD_FAILURE() << target << " was accepted";
        } catch (const IoError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("'" + target + "'"), std::string::npos) << what;
            EXPECT_NE(what.find(reason), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    };
    expect_refused(path("no/such/folder/x" + ext), "does not exist");
    ASSERT_EQ(mkdir(path("a folder" + ext).c_str(), 0755), 0);
    expect_refused(path("a folder" + ext), "it is a folder");
    expect_refused("/dev/full", "not a regular file");
    if (geteuid() != 0) {  // root writes into read-only folders
        ASSERT_EQ(mkdir(path("locked").c_str(), 0555), 0);
        expect_refused(path("locked/x" + ext), "Permission denied");
    }
    EXPECT_EQ(files_in(dir_), geteuid() != 0 ? 2u : 1u);  // the folders made above, nothing else
}

TEST_P(EveryCodec, AWriteFailingHalfwayThrowsNamingThePathAndLeavesNothing) {
    // a file size limit stands in for a full disk: writes past it fail with EFBIG
    const VideoCodec codec = GetParam();
    const std::string file = path(std::string("big") + extension(codec));
    rlimit old {};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = old;
    small.rlim_cur = 40000;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string message;
    try {
        VideoWriter writer(file, codec, 320, 240, 30, kMetadata);
        Image noise = synthetic_frame(320, 240, 0, 1);
        unsigned seed = 1;
        for (int i = 0; i < 60; ++i) {
            for (std::uint8_t& b : noise.rgba) b = static_cast<std::uint8_t>((seed = seed * 1103515245u + 12345u) >> 24);
            writer.add_frame(noise.rgba.data(), 320 * 4);
        }
        writer.finish();
    } catch (const IoError& e) {
        message = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, SIG_DFL);
    EXPECT_NE(message.find("'" + file + "'"), std::string::npos) << message;
    EXPECT_NE(message.find("File too large"), std::string::npos) << message;
    EXPECT_EQ(files_in(dir_), 0u);
}

INSTANTIATE_TEST_SUITE_P(Codecs, EveryCodec, ::testing::Values(VideoCodec::h264_mp4, VideoCodec::vp9_webm),
                         [](const ::testing::TestParamInfo<VideoCodec>& i) {
                             return std::string(i.param == VideoCodec::h264_mp4 ? "H264Mp4" : "Vp9Webm");
                         });

TEST_F(VideoWriterTest, SizesAndRatesOutOfRangeAreRefusedBeforeAnyFile) {
    EXPECT_THROW(VideoWriter(path("x.mp4"), VideoCodec::h264_mp4, 0, 48, 10, {}), std::invalid_argument);
    EXPECT_THROW(VideoWriter(path("x.mp4"), VideoCodec::h264_mp4, 64, 20000, 10, {}), std::invalid_argument);
    EXPECT_THROW(VideoWriter(path("x.webm"), VideoCodec::vp9_webm, 64, 48, 0, {}), std::invalid_argument);
    EXPECT_THROW(VideoWriter(path("x.webm"), VideoCodec::vp9_webm, 64, 48, 241, {}), std::invalid_argument);
    EXPECT_EQ(files_in(dir_), 0u);
}

// Not a timed assertion: prints what 120 frames of 800x480 (a figure's frames, as an animation of
// `vectors` gives them) cost in each codec, for the notes.
TEST_F(VideoWriterTest, BenchmarkPrint120FramesAt800x480) {
    const rope::figures::FigureDescriptor& figure = rope::figures::figure("vectors");
    std::vector<Image> drawn;
    for (int k = 0; k < 12; ++k) {
        rope::ParamSet params;
        params.set(P::position, std::to_string(k));
        rope::exporting::ExportOptions o;
        o.path = path("v" + std::to_string(k) + ".png");
        rope::exporting::export_figure(figure, params, o);
        rope::io::PngImage png = rope::io::read_png(o.path);
        ASSERT_EQ(png.width, 800);
        ASSERT_EQ(png.height, 480);
        drawn.push_back(Image{png.width, png.height, std::move(png.rgba)});
    }
    for (VideoCodec codec : {VideoCodec::h264_mp4, VideoCodec::vp9_webm}) {
        const std::string file = path(std::string("bench") + extension(codec));
        const auto start = std::chrono::steady_clock::now();
        VideoWriter writer(file, codec, 800, 480, 30, kMetadata);
        for (int i = 0; i < 120; ++i) writer.add_frame(drawn[static_cast<std::size_t>(i / 10)].rgba.data(), 800 * 4);
        writer.finish();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        struct stat st {};
        ASSERT_EQ(stat(file.c_str(), &st), 0);
        std::printf("[ bench ] %s: 120 frames of 800x480 in %.2f s, %lld bytes\n", codec_name(codec), seconds,
                    static_cast<long long>(st.st_size));
        EXPECT_EQ(probe(file)["streams"][0]["nb_read_frames"], "120");
    }
}
