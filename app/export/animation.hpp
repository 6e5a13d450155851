// Animated figure files: one numeric parameter moves from FROM to TO over N frames, each frame
// drawn as the PNG export draws it, written by its format's frame sink (file_formats.hpp: a GIF, an
// MP4, a WebM or a folder of PNGs).
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "export/export.hpp"

namespace rope::exporting {

inline constexpr int kMinFrames = 2, kMaxFrames = 1000, kDefaultFrames = 60;
inline constexpr int kMinFps = 1, kMaxFps = 120, kDefaultFps = 30;

struct Animation {
    ParamId key = ParamId::position;  // a numeric parameter (integer or real)
    std::string from_text;  // as given, for the metadata
    std::string to_text;
    int frames = kDefaultFrames;
    int fps = kDefaultFps;
};

// "--animate KEY=FROM:TO" checked against the parameter table: KEY an integer or real parameter,
// FROM and TO numbers it allows. Throws std::invalid_argument with one line naming the flag, the
// value and what is allowed.
Animation parse_animate(const std::string& text);

// The N parameter sets: `base` with KEY at each frame's value (integers step evenly, rounded, even
// keys kept even; reals step in log space when the key's slider is logarithmic, else linearly;
// the first frame is FROM and the last TO exactly). Each set validated; a frame that is not valid
// throws std::invalid_argument naming the key and the value.
std::vector<ParamSet> animation_frames(const ParamSet& base, const Animation& animation);

// What an animation file carries (a GIF's comment, a video's tags): session::parameter_metadata of
// the first frame with KEY as "FROM:TO", then animate = "KEY=FROM:TO", frames and fps.
io::TextChunks animation_metadata(const ParamSet& first, const figures::FigureDescriptor& figure, const Animation& animation);
// What one frame written as its own file carries (a PNG folder's frame): the same, but KEY at the
// frame's value, so the frame opens as a session.
io::TextChunks frame_metadata(const ParamSet& frame, const figures::FigureDescriptor& figure, const Animation& animation);

// What a recording is doing: learning every frame's axis ranges (a first pass that only builds
// the figures, plot/axis_pins.hpp), then drawing and writing the frames.
enum class AnimationStage { ranges, frames };

// Told after each frame of each stage how many of how many are done; returns false to stop the
// recording (the app's Cancel), in either stage. Called on the thread that exports.
using AnimationProgress = std::function<bool(AnimationStage stage, int done, int total)>;

// Thrown by export_animation when AnimationProgress asked it to stop; nothing is left behind.
struct AnimationCancelled : std::runtime_error {
    AnimationCancelled() : std::runtime_error("cancelled") {}
};

// Renders every frame and writes PATH (options.path) atomically: a folder is written under a
// temporary name beside it and renamed; a file through io::AtomicFile. Throws std::invalid_argument
// (bad input) or io::IoError (writing failed); on either nothing is left behind.
ExportResult export_animation(const figures::FigureDescriptor& figure, const ParamSet& base, const Animation& animation,
                              const ExportOptions& options, const AnimationProgress& progress = {});

}  // namespace rope::exporting
