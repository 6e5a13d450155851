// Video files through Debian's libavcodec/libavformat: H.264 in MP4 and VP9 in WebM, from straight
// RGBA frames. libav lives in the video module (video_module.hpp), loaded on the first writer; a
// program without it fails that writer with IoError naming the module. Written like the other exports: into a temporary file next to the target, renamed into
// place by finish(); a writer dropped without finish() (an error, a cancel) removes it. Each writer
// owns all its libav state, so several may encode at once on different threads.
//
// Pixels: converted by libswscale to yuv420p (what every player plays), BT.709 matrix, limited
// (TV) range, and the stream is tagged so (BT.709 primaries, transfer and matrix, MPEG range).
// yuv420p needs even sizes: an odd width or height is padded by one pixel that repeats the last
// column or row, so the video is (width + width % 2) x (height + height % 2) and shows the whole figure.
// Time: frame n starts at n / fps and lasts 1 / fps, so the file lasts frames / fps: exactly in MP4,
// to the millisecond in WebM (Matroska counts milliseconds).
// Metadata: each key/value goes into the container's tags (MP4: QuickTime 'mdta' keys; WebM: Matroska
// SimpleTags, whose names Matroska writes in capitals), and `comment` holds them all as "key=value ...".
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "io/atomic_file.hpp"
#include "io/png_writer.hpp"

namespace rope::io {

enum class VideoCodec { h264_mp4, vp9_webm };

class VideoWriter {
public:
    // fps 1..240, width and height 2..16384. Throws IoError ("cannot write 'PATH': REASON") when the
    // file cannot be made or the encoder refuses; std::invalid_argument for sizes or fps out of range.
    VideoWriter(const std::string& path, VideoCodec codec, int width, int height, int fps, const TextChunks& metadata);
    // One frame: height rows of width * 4 bytes (straight RGBA, alpha ignored), rows stride_bytes apart.
    void add_frame(const std::uint8_t* rgba, int stride_bytes);
    // Flushes the encoder, writes the index (MP4: moved to the front, +faststart) and renames into place.
    void finish();
    ~VideoWriter();  // without finish(): closes and removes the partial file

    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    int frames_written() const;
    // The encoded picture's size (the frame size rounded up to even).
    int video_width() const;
    int video_height() const;

    struct State;  // libav contexts (video_writer.cpp)

private:
    std::unique_ptr<State> state_;
};

}  // namespace rope::io
