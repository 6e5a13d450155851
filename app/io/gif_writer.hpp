// Animated GIFs through giflib: one global palette built from all the frames (and the colours the
// caller reserves: a figure's flat colours and colormap samples, export/gif_palette), only the rectangle
// that changed written for each frame (left in place under the next; inside it, pixels that show
// the same palette colour as before are transparent), looping forever, the
// parameters in a comment. Frames are kept as their changed rectangles until finish(), because
// the palette needs every frame's colours.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/png_writer.hpp"

namespace rope::io {

// The GIF delay of frame `index` in 1/100 s at `fps`: the delays add up to the true running time
// (30 fps gives 3, 4, 3, 3, 4, 3, ...: 30 frames in 1 s), none below 2 (browsers slow a GIF whose
// delays are 0 or 1 to 10): above 50 fps a GIF plays at 50.
int gif_delay_centiseconds(int index, int fps);

// A palette of at most `slots` colours (0xRRGGBB) for a colour histogram: every colour when there
// are at most `slots`; else first the `reserved` colours (the caller's: a figure's flat colours and
// samples along its colormaps; at most slots - kFreeSlots of them, in the order given), then the
// most frequent colours (flat fills, lines and text the caller did not name) kept exact, and the
// rest (anti-aliased edges, what lies between the samples) by median cut over the colours that no
// entry so far shows closely.
inline constexpr std::size_t kFreeSlots = 32;
std::vector<std::uint32_t> build_palette(const std::vector<std::pair<std::uint32_t, std::uint64_t>>& histogram,
                                         std::size_t slots, const std::vector<std::uint32_t>& reserved = {});

class GifWriter {
public:
    // metadata becomes one comment extension, "key=value" lines.
    GifWriter(std::string path, int width, int height, int fps, const TextChunks& metadata);
    // rgba: height rows of stride_bytes, 8-bit straight RGBA (alpha ignored: figures are opaque).
    void add_frame(const std::uint8_t* rgba, int stride_bytes);
    // Colours the palette keeps exactly when the frames have more than it holds (see build_palette).
    void reserve_colours(std::vector<std::uint32_t> colours) { reserved_ = std::move(colours); }
    // Builds the palette, writes the file atomically. Throws IoError.
    void finish();
    int frames() const { return static_cast<int>(frames_.size()); }
    bool exact_palette() const { return exact_; }  // after finish(): every colour kept (at most 255)

private:
    struct Frame {
        int left = 0, top = 0, width = 0, height = 0;
        std::vector<std::uint32_t> rgb;  // the changed rectangle, 0xRRGGBB
    };
    std::string path_;
    int width_, height_, fps_;
    TextChunks metadata_;
    std::vector<std::uint32_t> previous_;  // the last frame whole
    std::vector<Frame> frames_;
    std::vector<std::uint32_t> reserved_;
    bool exact_ = true;
};

}  // namespace rope::io
