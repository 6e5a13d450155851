#include "export/animation.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "export/export.hpp"
#include "export/gif_palette.hpp"
#include "figures/alt_text.hpp"
#include "io/atomic_file.hpp"
#include "session/file_metadata.hpp"
#include "plot/axis_pins.hpp"
#include "rope/number_format.hpp"
#include "rope/number_parse.hpp"

namespace rope::exporting {

namespace {


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

// Refuses, before anything is drawn, a PATH whose folder is missing or not writable, and a PNG
// folder that exists with files in it or is a file.
void check_target(const std::string& path, const FileFormatInfo& format) {
    std::filesystem::path target(path);
    if (format.id == FileFormat::png_folder) {
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
    io::TextChunks meta = frame_metadata(first, figure, a);
    for (auto& [k, v] : meta)
        if (k == key_name(a)) v = a.from_text + ":" + a.to_text;
    return meta;
}

io::TextChunks frame_metadata(const ParamSet& frame, const figures::FigureDescriptor& figure, const Animation& a) {
    io::TextChunks meta = session::parameter_metadata(frame, figure.name);
    meta.emplace_back("animate", animate_text(a));
    meta.emplace_back("frames", std::to_string(a.frames));
    meta.emplace_back("fps", std::to_string(a.fps));
    return meta;
}

ExportResult export_animation(const figures::FigureDescriptor& figure, const ParamSet& base, const Animation& a, const ExportOptions& o,
                              const AnimationProgress& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    const FileFormatInfo* format = format_for_path(o.path);
    if (!format || (format->kind != FormatKind::animation && !format->animates))
        throw std::invalid_argument("--out " + shorten_for_message(o.path) + ": an animation is a " + extensions_text({FormatKind::animation}));
    if (a.frames < kMinFrames || a.frames > kMaxFrames) throw std::invalid_argument("--frames must be from 2 to 1000");
    if (a.fps < kMinFps || a.fps > kMaxFps) throw std::invalid_argument("--fps must be from 1 to 120");
    if (!(o.scale >= kMinScale && o.scale <= kMaxScale)) throw std::invalid_argument("scale must be from 0.25 to 8");
    if (o.full_resolution) throw std::invalid_argument("--full-resolution: only for a .csv file, not an animation");
    if (const std::string problem = picture_options_problem(figure, o, *format); !problem.empty()) throw std::invalid_argument(problem);
    if (std::find(figure.reads.begin(), figure.reads.end(), a.key) == figure.reads.end())
        throw std::invalid_argument("--animate " + animate_text(a) + ": " + std::string(figure.name) + " does not depend on " + key_name(a) +
                                    ", so every frame would be the same");
    const std::vector<ParamSet> frames = animation_frames(base, a);
    check_target(o.path, *format);

    const io::TextChunks meta = animation_metadata(frames.front(), figure, a);
    const int w = static_cast<int>(std::lround(o.width * o.scale)), h = static_cast<int>(std::lround(o.height * o.scale));
    FrameSinkRequest request;
    request.path = o.path;
    request.width = w;
    request.height = h;
    request.fps = a.fps;
    request.metadata = meta;
    std::vector<std::string> alts(frames.size());  // each frame's alt text, worked out as it is drawn
    request.frame_metadata = [&](int i) {
        io::TextChunks meta_i = frame_metadata(frames[static_cast<std::size_t>(i)], figure, a);
        if (!alts[static_cast<std::size_t>(i)].empty()) meta_i.emplace_back("Description", alts[static_cast<std::size_t>(i)]);
        return meta_i;
    };
    request.dpi = 96.0 * o.scale;
    request.exact_colours = [&] { return gif_reserved_colours(figure, frames.front(), o); };
    request.figure = &figure;
    request.title = "RoPE Explorer: " + figures::figure_title(figure, frames.front());
    request.slider_label = key_name(a);
    request.frame_label = [&](int i) { return key_name(a) + " = " + frames[static_cast<std::size_t>(i)].value_text(a.key); };
    request.frame_alt = [&](int i) { return alts[static_cast<std::size_t>(i)]; };
    const std::unique_ptr<FrameSink> sink = format->open_frames(request);
    const std::unique_ptr<plot::TextMeasure> measure_owner = file_text_measure();
    const plot::TextMeasure& measure = *measure_owner;
    figures::FigureCache cache(o.read_trained);
    // Pass 1 learns every frame's axis ranges; pass 2 draws each frame with their union, so the
    // titles and tick labels stay put. A frame the pins do not change is drawn from its pass-1 build.
    // (Kept lists are bounded: past kKeptListBytes a frame is built again in pass 2.)
    plot::AxisPins pins;
    std::vector<figures::FigureResult> built(frames.size());
    std::vector<bool> kept(frames.size(), false);
    std::size_t kept_bytes = 0;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        pins.start_build(plot::AxisPins::Mode::collect);
        figures::FigureResult result = build_for_file(figure, frames[i], o, measure, false, cache, &pins);
        const std::size_t bytes = approximate_bytes(result.list);
        if (kept_bytes + bytes <= kKeptListBytes) {
            kept_bytes += bytes;
            built[i] = std::move(result);
            kept[i] = true;
        }
        if (progress && !progress(AnimationStage::ranges, static_cast<int>(i) + 1, static_cast<int>(frames.size()))) throw AnimationCancelled();
    }
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (!kept[i] || !pins.frame_unchanged(static_cast<int>(i))) {
            pins.start_build(plot::AxisPins::Mode::apply);
            built[i] = build_for_file(figure, frames[i], o, measure, false, cache, &pins);
        }
        alts[i] = figures::alt_text(figure, frames[i], built[i]);
        sink->add_figure(built[i], o, static_cast<int>(i));
        built[i] = figures::FigureResult();
        // the sink's destructor removes what it wrote so far
        if (progress && !progress(AnimationStage::frames, static_cast<int>(i) + 1, static_cast<int>(frames.size())))
            throw AnimationCancelled();
    }
    sink->finish();
    ExportResult result;
    result.alt = alts.front();
    result.path = o.path;
    result.format = format->id;
    result.pixel_width = format->raster ? w : o.width;  // a page of vectors has the figure's size
    result.pixel_height = format->raster ? h : o.height;
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

}  // namespace rope::exporting
