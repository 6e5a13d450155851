#include "export/frame_sink.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "export/export.hpp"
#include "io/atomic_file.hpp"
#include "io/gif_writer.hpp"
#include "io/video_writer.hpp"

namespace rope::exporting {

void PixelFrameSink::add_figure(const figures::FigureResult& figure, const ExportOptions& options, int index) {
    int w = 0, h = 0;
    const std::vector<std::uint8_t> rgba = rasterize(figure.list, options, w, h);
    add(rgba, w, h, index);
}

namespace {

// A folder written under a temporary name beside the target, renamed into place when whole;
// removed with everything in it otherwise.
class PngFolderSink : public PixelFrameSink {
public:
    PngFolderSink(std::string target, std::function<io::TextChunks(int)> meta, double dpi)
        : target_(std::move(target)), meta_(std::move(meta)), dpi_(dpi) {
        const std::filesystem::path t(target_);
        std::string pattern = (t.parent_path().empty() ? std::string(".") : t.parent_path().string()) + "/." +
                              t.filename().string() + ".XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        if (!mkdtemp(buf.data())) throw io::IoError("cannot write '" + target_ + "/': " + std::strerror(errno));
        temp_ = buf.data();
    }
    ~PngFolderSink() override {
        if (!temp_.empty()) {
            std::error_code ignored;
            std::filesystem::remove_all(temp_, ignored);
        }
    }
    void add(const std::vector<std::uint8_t>& rgba, int width, int height, int index) override {
        io::write_png(temp_ + "/" + frame_file_name(index), rgba.data(), width, height, meta_(index), dpi_);
    }
    void finish() override {
        chmod(temp_.c_str(), 0755 & ~current_umask());
        if (std::rename(temp_.c_str(), target_.c_str()) != 0)
            throw io::IoError("cannot write '" + target_ + "/': " + std::strerror(errno));
        temp_.clear();
    }

private:
    static mode_t current_umask() {
        const mode_t m = umask(0);
        umask(m);
        return m;
    }
    std::string target_, temp_;
    std::function<io::TextChunks(int)> meta_;
    double dpi_;
};

class GifSink : public PixelFrameSink {
public:
    GifSink(const std::string& path, int width, int height, int fps, const io::TextChunks& meta, std::vector<std::uint32_t> reserved)
        : gif_(path, width, height, fps, meta) {
        gif_.reserve_colours(std::move(reserved));
    }
    void add(const std::vector<std::uint8_t>& rgba, int width, int, int) override { gif_.add_frame(rgba.data(), width * 4); }
    void finish() override { gif_.finish(); }

private:
    io::GifWriter gif_;
};

// MP4 (H.264) and WebM (VP9): io::VideoWriter writes under a temporary name and renames on finish(),
// removing the partial file when dropped unfinished.
class VideoSink : public PixelFrameSink {
public:
    VideoSink(const std::string& path, io::VideoCodec codec, int width, int height, int fps, const io::TextChunks& meta)
        : writer_(path, codec, width, height, fps, meta) {}
    void add(const std::vector<std::uint8_t>& rgba, int width, int, int) override { writer_.add_frame(rgba.data(), width * 4); }
    void finish() override { writer_.finish(); }

private:
    io::VideoWriter writer_;
};

// The folder the path names, without its trailing slashes.
std::string folder_of(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    return path;
}

}  // namespace

std::unique_ptr<FrameSink> open_png_folder(const FrameSinkRequest& r) {
    return std::make_unique<PngFolderSink>(folder_of(r.path), r.frame_metadata, r.dpi);
}

std::unique_ptr<FrameSink> open_gif(const FrameSinkRequest& r) {
    return std::make_unique<GifSink>(r.path, r.width, r.height, r.fps, r.metadata, r.exact_colours ? r.exact_colours() : std::vector<std::uint32_t>());
}

std::unique_ptr<FrameSink> open_mp4(const FrameSinkRequest& r) {
    return std::make_unique<VideoSink>(r.path, io::VideoCodec::h264_mp4, r.width, r.height, r.fps, r.metadata);
}

std::unique_ptr<FrameSink> open_webm(const FrameSinkRequest& r) {
    return std::make_unique<VideoSink>(r.path, io::VideoCodec::vp9_webm, r.width, r.height, r.fps, r.metadata);
}

std::string frame_file_name(int index) {
    char name[32];
    std::snprintf(name, sizeof name, "frame-%04d.png", index + 1);
    return name;
}

}  // namespace rope::exporting
