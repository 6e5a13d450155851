#include "export/animation.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "export/cairo_canvas.hpp"
#include "export/gif_palette.hpp"
#include "io/atomic_file.hpp"
#include "session/file_metadata.hpp"
#include "io/gif_writer.hpp"
#include "io/video_writer.hpp"
#include "plot/axis_pins.hpp"
#include "rope/number_format.hpp"
#include "rope/number_parse.hpp"

namespace rope::exporting {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string key_name(const Animation& a) { return std::string(param_spec(a.key).name); }

std::string animate_text(const Animation& a) { return key_name(a) + "=" + a.from_text + ":" + a.to_text; }

// FROM or TO as written: a finite number (the one parser's rules).
double value_of(const std::string& text) {
    const std::optional<double> v = parse_number(text);
    return v && std::isfinite(*v) ? *v : 0.0;
}

// Frame i's value of the key (before rounding for integers).
double frame_value(const ParamSpec& spec, double from, double to, int i, int n) {
    if (i == 0) return from;
    if (i == n - 1) return to;
    const double t = static_cast<double>(i) / (n - 1);
    if (spec.type == ParamType::integer) {
        const double v = from + (to - from) * t;
        return spec.even ? 2 * std::round(v / 2) : std::round(v);
    }
    if (spec.logarithmic && from > 0 && to > 0) return std::exp(std::log(from) + (std::log(to) - std::log(from)) * t);
    return from + (to - from) * t;
}

// What pass 1 of an animation may keep of its frames' display lists to draw them unchanged in pass 2.
constexpr std::size_t kKeptListBytes = std::size_t(256) << 20;

// A display list's memory, roughly: its commands, their points and text, its images' values.
std::size_t approximate_bytes(const plot::DisplayList& list) {
    std::size_t bytes = list.commands.size() * sizeof(plot::Command);
    for (const plot::Command& c : list.commands) {
        if (const auto* line = std::get_if<plot::PolylineCmd>(&c)) bytes += line->points.size() * sizeof(plot::Vec2);
        else if (const auto* polygon = std::get_if<plot::PolygonCmd>(&c)) bytes += polygon->points.size() * sizeof(plot::Vec2);
        else if (const auto* text = std::get_if<plot::TextCmd>(&c)) bytes += text->text.size();
        else if (const auto* image = std::get_if<plot::ImageCmd>(&c)) bytes += (image->values.size() + image->weights.size()) * sizeof(float);
    }
    return bytes;
}

// Where frames go: a folder of PNGs or one GIF.
class FrameSink {
public:
    virtual ~FrameSink() = default;
    virtual void add(const std::vector<std::uint8_t>& rgba, int width, int height, int index) = 0;
    virtual void finish() = 0;
};

// A folder written under a temporary name beside the target, renamed into place when whole;
// removed with everything in it otherwise.
class PngFolderSink : public FrameSink {
public:
    PngFolderSink(std::string target, io::TextChunks meta, double dpi) : target_(std::move(target)), meta_(std::move(meta)), dpi_(dpi) {
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
        io::write_png(temp_ + "/" + frame_file_name(index), rgba.data(), width, height, meta_, dpi_);
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
    io::TextChunks meta_;
    double dpi_;
};

class GifSink : public FrameSink {
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
class VideoSink : public FrameSink {
public:
    VideoSink(const std::string& path, io::VideoCodec codec, int width, int height, int fps, const io::TextChunks& meta)
        : writer_(path, codec, width, height, fps, meta) {}
    void add(const std::vector<std::uint8_t>& rgba, int width, int, int) override { writer_.add_frame(rgba.data(), width * 4); }
    void finish() override { writer_.finish(); }

private:
    io::VideoWriter writer_;
};

std::unique_ptr<FrameSink> make_video_sink(const std::string& path, AnimationFormat format, int width, int height, int fps,
                                           const io::TextChunks& meta) {
    const io::VideoCodec codec = format == AnimationFormat::mp4 ? io::VideoCodec::h264_mp4 : io::VideoCodec::vp9_webm;
    return std::make_unique<VideoSink>(path, codec, width, height, fps, meta);
}

// Refuses, before anything is drawn, a PATH whose folder is missing or not writable, and a PNG
// folder that exists with files in it or is a file.
void check_target(const std::string& path, AnimationFormat format) {
    std::filesystem::path target(path);
    if (format == AnimationFormat::png_folder) {
        std::string trimmed = path;
        while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
        target = trimmed;
        std::error_code ec;
        if (std::filesystem::exists(target, ec)) {
            if (!std::filesystem::is_directory(target, ec))
                throw std::invalid_argument("--out " + shorten_for_message(path) + ": a file of that name exists; a PNG sequence needs a new or empty folder");
            if (!std::filesystem::is_empty(target, ec))
                throw std::invalid_argument("--out " + shorten_for_message(path) + ": the folder is not empty; a PNG sequence needs a new or empty folder");
        }
    }
    const std::string folder = target.parent_path().empty() ? "." : target.parent_path().string();
    struct stat st {};
    if (stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw std::invalid_argument("--out " + shorten_for_message(path) + ": folder '" + folder + "' does not exist");
    if (access(folder.c_str(), W_OK) != 0)
        throw std::invalid_argument("--out " + shorten_for_message(path) + ": folder '" + folder + "' is not writable");
}

}  // namespace

Animation parse_animate(const std::string& text) {
    const std::string flag = "--animate " + shorten_for_message(text);
    const std::size_t eq = text.find('='), colon = text.find(':', eq == std::string::npos ? 0 : eq);
    if (eq == std::string::npos || colon == std::string::npos)
        throw std::invalid_argument(flag + ": must be KEY=FROM:TO, e.g. position=0:119");
    Animation a;
    const std::string key = text.substr(0, eq);
    a.from_text = text.substr(eq + 1, colon - eq - 1);
    a.to_text = text.substr(colon + 1);
    const ParamSpec* spec = find_param(key);
    if (!spec) throw std::invalid_argument(flag + ": '" + shorten_for_message(key) + "' is not a parameter (see --help)");
    if (!spec->numeric())
        throw std::invalid_argument(flag + ": " + key + " is not a number; only integer and real parameters can be animated");
    a.key = spec->id;
    for (const std::string* v : {&a.from_text, &a.to_text}) {
        const std::optional<double> number = parse_number(*v);
        if (!number || !std::isfinite(*number))
            throw std::invalid_argument(flag + ": '" + shorten_for_message(*v) + "' is not a number; " + key + " must be " + spec->allowed());
        ParamSet probe;
        try {
            probe.set(a.key, *v);
        } catch (const ParamError&) {
            throw std::invalid_argument(flag + ": " + *v + " is out of range; " + key + " must be " + spec->allowed());
        }
    }
    return a;
}

bool animation_format_from_path(const std::string& path, AnimationFormat& out) {
    if (!path.empty() && path.back() == '/') {
        out = AnimationFormat::png_folder;
        return true;
    }
    const std::size_t dot = path.find_last_of('.'), slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return false;
    const std::string ext = lower(path.substr(dot + 1));
    if (ext == "gif") out = AnimationFormat::gif;
    else if (ext == "mp4") out = AnimationFormat::mp4;
    else if (ext == "webm") out = AnimationFormat::webm;
    else return false;
    return true;
}

std::vector<ParamSet> animation_frames(const ParamSet& base, const Animation& a) {
    const ParamSpec& spec = param_spec(a.key);
    const double from = value_of(a.from_text), to = value_of(a.to_text);
    std::vector<ParamSet> frames;
    frames.reserve(static_cast<std::size_t>(a.frames));
    for (int i = 0; i < a.frames; ++i) {
        const double v = frame_value(spec, from, to, i, a.frames);
        ParamSet p = base;
        try {
            p.set_number(a.key, v);
            p.validate();
        } catch (const ParamError& e) {
            throw std::invalid_argument("--animate " + animate_text(a) + ": frame " + std::to_string(i + 1) + " (" + key_name(a) + "=" +
                                        format_number(v) + "): " + e.what());
        }
        frames.push_back(std::move(p));
    }
    return frames;
}

io::TextChunks animation_metadata(const ParamSet& first, const figures::FigureDescriptor& figure, const Animation& a) {
    io::TextChunks meta = session::parameter_metadata(first, figure.name);
    for (auto& [k, v] : meta)
        if (k == key_name(a)) v = a.from_text + ":" + a.to_text;
    meta.emplace_back("animate", animate_text(a));
    meta.emplace_back("frames", std::to_string(a.frames));
    meta.emplace_back("fps", std::to_string(a.fps));
    return meta;
}

std::string frame_file_name(int index) {
    char name[32];
    std::snprintf(name, sizeof name, "frame-%04d.png", index + 1);
    return name;
}

ExportResult export_animation(const figures::FigureDescriptor& figure, const ParamSet& base, const Animation& a, const ExportOptions& o,
                              const AnimationProgress& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    AnimationFormat format;
    if (!animation_format_from_path(o.path, format))
        throw std::invalid_argument("--out " + shorten_for_message(o.path) + ": an animation is a .gif, .mp4, .webm or a folder ending in /");
    if (a.frames < kMinFrames || a.frames > kMaxFrames) throw std::invalid_argument("--frames must be from 2 to 1000");
    if (a.fps < kMinFps || a.fps > kMaxFps) throw std::invalid_argument("--fps must be from 1 to 120");
    if (!(o.scale >= kMinScale && o.scale <= kMaxScale)) throw std::invalid_argument("scale must be from 0.25 to 8");
    if (o.full_resolution) throw std::invalid_argument("--full-resolution: only for a .csv file, not an animation");
    if (const std::string problem = picture_options_problem(figure, o, Format::png); !problem.empty()) throw std::invalid_argument(problem);
    if (std::find(figure.reads.begin(), figure.reads.end(), a.key) == figure.reads.end())
        throw std::invalid_argument("--animate " + animate_text(a) + ": " + std::string(figure.name) + " does not depend on " + key_name(a) +
                                    ", so every frame would be the same");
    const std::vector<ParamSet> frames = animation_frames(base, a);
    check_target(o.path, format);

    const io::TextChunks meta = animation_metadata(frames.front(), figure, a);
    const int w = static_cast<int>(std::lround(o.width * o.scale)), h = static_cast<int>(std::lround(o.height * o.scale));
    std::unique_ptr<FrameSink> sink;
    std::string target = o.path;
    switch (format) {
        case AnimationFormat::png_folder:
            while (target.size() > 1 && target.back() == '/') target.pop_back();
            sink = std::make_unique<PngFolderSink>(target, meta, 96.0 * o.scale);
            break;
        case AnimationFormat::gif: sink = std::make_unique<GifSink>(o.path, w, h, a.fps, meta, gif_reserved_colours(figure, frames.front(), o)); break;
        case AnimationFormat::mp4:
        case AnimationFormat::webm: sink = make_video_sink(o.path, format, w, h, a.fps, meta); break;
    }
    CairoTextMeasure measure;
    figures::FigureCache cache;
    // Pass 1 learns every frame's axis ranges; pass 2 draws each frame with their union, so the
    // titles and tick labels stay put. A frame the pins do not change is drawn from its pass-1 build.
    // (Kept lists are bounded: past kKeptListBytes a frame is built again in pass 2.)
    plot::AxisPins pins;
    std::vector<plot::DisplayList> built(frames.size());
    std::vector<bool> kept(frames.size(), false);
    std::size_t kept_bytes = 0;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        pins.start_build(plot::AxisPins::Mode::collect);
        plot::DisplayList list = build_for_file(figure, frames[i], o, measure, false, cache, &pins).list;
        const std::size_t bytes = approximate_bytes(list);
        if (kept_bytes + bytes <= kKeptListBytes) {
            kept_bytes += bytes;
            built[i] = std::move(list);
            kept[i] = true;
        }
        if (progress && !progress(AnimationStage::ranges, static_cast<int>(i) + 1, static_cast<int>(frames.size()))) throw AnimationCancelled();
    }
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (!kept[i] || !pins.frame_unchanged(static_cast<int>(i))) {
            pins.start_build(plot::AxisPins::Mode::apply);
            built[i] = build_for_file(figure, frames[i], o, measure, false, cache, &pins).list;
        }
        int fw = 0, fh = 0;
        const std::vector<std::uint8_t> rgba = rasterize(built[i], o, fw, fh);
        built[i] = plot::DisplayList();
        sink->add(rgba, fw, fh, static_cast<int>(i));
        // the sink's destructor removes what it wrote so far
        if (progress && !progress(AnimationStage::frames, static_cast<int>(i) + 1, static_cast<int>(frames.size())))
            throw AnimationCancelled();
    }
    sink->finish();
    ExportResult result;
    result.path = o.path;
    result.format = Format::png;
    result.pixel_width = w;
    result.pixel_height = h;
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

}  // namespace rope::exporting
