#include "io/video_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace rope::io {

namespace {

constexpr int kMaxSide = 16384;
constexpr int kMaxFps = 240;

// libav prints progress and warnings to stderr (x264's summary, the MP4 muxer's "second pass");
// an export says one line of its own and reports failures through IoError. The muxer's messages
// cannot be silenced per context, so the first writer lowers libav's process-wide log level, once,
// and only if nobody has changed it from libav's default.
void quiet_libav_logging() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (av_log_get_level() == AV_LOG_INFO) av_log_set_level(AV_LOG_QUIET);
    });
}

std::string av_reason(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    if (av_strerror(code, text, sizeof text) < 0) return "libav error " + std::to_string(code);
    return text;
}

// "key=value key=value": every tag in one, for players that show only a comment.
std::string joined(const TextChunks& metadata) {
    std::string s;
    for (const auto& [k, v] : metadata) s += (s.empty() ? "" : " ") + k + "=" + v;
    return s;
}

}  // namespace

struct VideoWriter::State {
    std::string path;    // what the caller asked for (messages name it)
    std::string target;  // where the file goes (a symbolic link's target)
    std::string temp;    // written here, renamed onto target by finish()
    VideoCodec codec = VideoCodec::h264_mp4;
    int width = 0, height = 0;            // the frames given
    int even_width = 0, even_height = 0;  // the frames encoded
    int fps = 0;
    std::int64_t next_pts = 0;
    bool finished = false;

    AVFormatContext* format = nullptr;
    AVCodecContext* encoder = nullptr;
    AVStream* stream = nullptr;
    SwsContext* scaler = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    std::vector<std::uint8_t> padded;  // odd sizes: the frame with its last column/row repeated

    ~State() { release(); }

    [[noreturn]] void fail(const std::string& reason) const { throw IoError("cannot write '" + path + "': " + reason); }
    void check(int code, const char* what) const {
        if (code < 0) fail(std::string(what) + ": " + av_reason(code));
    }

    void release() {
        if (format && format->pb) avio_closep(&format->pb);
        avformat_free_context(format);
        format = nullptr;
        avcodec_free_context(&encoder);
        sws_freeContext(scaler);
        scaler = nullptr;
        av_frame_free(&frame);
        av_packet_free(&packet);
        if (!finished && !temp.empty()) unlink(temp.c_str());
        temp.clear();
    }

    void make_temp_file();
    void open_encoder();
    void open_container(const TextChunks& metadata);
    void encode(const AVFrame* input);
};

void VideoWriter::State::make_temp_file() {
    const WriteTarget where = resolve_write_target(path);
    // a device or pipe: the MP4 index is written by reading the file back, so only files will do
    if (where.special) fail("it is not a regular file");
    target = where.path;
    const TemporaryBeside file = make_temporary_beside(target, path);
    temp = file.path;
    close(file.fd);
}

void VideoWriter::State::open_encoder() {
    const bool h264 = codec == VideoCodec::h264_mp4;
    const char* name = h264 ? "libx264" : "libvpx-vp9";
    const AVCodec* found = avcodec_find_encoder_by_name(name);
    if (!found) fail(std::string("this libavcodec has no ") + name + " encoder");
    encoder = avcodec_alloc_context3(found);
    if (!encoder) fail("out of memory");
    encoder->width = even_width;
    encoder->height = even_height;
    encoder->pix_fmt = AV_PIX_FMT_YUV420P;
    encoder->time_base = AVRational{1, fps};
    encoder->framerate = AVRational{fps, 1};
    encoder->sample_aspect_ratio = AVRational{1, 1};
    encoder->gop_size = 2 * fps;  // a key frame every 2 s: scrubbing in a browser stays quick
    encoder->color_range = AVCOL_RANGE_MPEG;
    encoder->colorspace = AVCOL_SPC_BT709;
    encoder->color_primaries = AVCOL_PRI_BT709;
    encoder->color_trc = AVCOL_TRC_BT709;
    encoder->thread_count = 0;  // the encoder picks from the cores
    if (format->oformat->flags & AVFMT_GLOBALHEADER) encoder->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;

    AVDictionary* options = nullptr;
    if (h264) {
        // Figures are flat colours and text: stillimage keeps edges (weaker deblocking, more psy),
        // crf 18 keeps labels clean (vectors: 35.6 dB, yuv420p alone allows 40), veryfast encodes
        // 120 frames of 800x480 in about 0.4 s here (the target is 2 s).
        av_dict_set(&options, "preset", "veryfast", 0);
        av_dict_set(&options, "tune", "stillimage", 0);
        av_dict_set(&options, "crf", "18", 0);
    } else {
        // Constant quality (bit rate 0 + crf), realtime speed, rows encoded in parallel: about 0.7 s
        // for 120 frames of 800x480, near the H.264 file in size and quality.
        encoder->bit_rate = 0;
        av_dict_set(&options, "deadline", "realtime", 0);
        av_dict_set(&options, "cpu-used", "6", 0);
        av_dict_set(&options, "row-mt", "1", 0);
        av_dict_set(&options, "crf", "34", 0);
    }
    const int opened = avcodec_open2(encoder, found, &options);
    av_dict_free(&options);
    check(opened, name);
}

void VideoWriter::State::open_container(const TextChunks& metadata) {
    stream = avformat_new_stream(format, nullptr);
    if (!stream) fail("out of memory");
    stream->time_base = encoder->time_base;
    stream->avg_frame_rate = encoder->framerate;
    stream->r_frame_rate = encoder->framerate;
    check(avcodec_parameters_from_context(stream->codecpar, encoder), "stream parameters");

    for (const auto& [key, value] : metadata) av_dict_set(&format->metadata, key.c_str(), value.c_str(), 0);
    if (!metadata.empty()) av_dict_set(&format->metadata, "comment", joined(metadata).c_str(), 0);

    // "file:" so that a ':' in the folder's name is not read as a protocol
    check(avio_open(&format->pb, ("file:" + temp).c_str(), AVIO_FLAG_WRITE), "opening the file");
    AVDictionary* options = nullptr;
    // faststart: the index first, so a browser plays while loading; use_metadata_tags: every key kept
    // movie_timescale: the file's duration counted in 1 / (1000 fps), so frames / fps exactly (the
    // default, 1/1000 s, rounds 10 frames at 7 fps to 1.429 s)
    if (codec == VideoCodec::h264_mp4) {
        av_dict_set(&options, "movflags", "+faststart+use_metadata_tags", 0);
        av_dict_set_int(&options, "movie_timescale", 1000LL * fps, 0);
    }
    const int written = avformat_write_header(format, &options);
    av_dict_free(&options);
    check(written, "writing the header");
}

void VideoWriter::State::encode(const AVFrame* input) {
    check(avcodec_send_frame(encoder, input), "encoding");
    for (;;) {
        const int got = avcodec_receive_packet(encoder, packet);
        if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) return;
        check(got, "encoding");
        if (packet->duration == 0) packet->duration = 1;  // every frame lasts 1 / fps (the last one too)
        av_packet_rescale_ts(packet, encoder->time_base, stream->time_base);
        packet->stream_index = stream->index;
        check(av_interleaved_write_frame(format, packet), "writing a frame");
    }
}

VideoWriter::VideoWriter(const std::string& path, VideoCodec codec, int width, int height, int fps, const TextChunks& metadata)
    : state_(std::make_unique<State>()) {
    State& s = *state_;
    s.path = path;
    if (path.empty()) throw IoError("cannot write '': empty file name");
    if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide)
        throw std::invalid_argument("video size " + std::to_string(width) + "x" + std::to_string(height) + ": allowed 1..16384 on each side");
    if (fps < 1 || fps > kMaxFps) throw std::invalid_argument("video fps " + std::to_string(fps) + ": allowed 1..240");
    s.codec = codec;
    s.width = width;
    s.height = height;
    s.even_width = width + width % 2;
    s.even_height = height + height % 2;
    s.fps = fps;

    quiet_libav_logging();
    s.make_temp_file();
    const std::string url = "file:" + s.temp;
    s.check(avformat_alloc_output_context2(&s.format, nullptr, codec == VideoCodec::h264_mp4 ? "mp4" : "webm", url.c_str()),
            "no muxer");
    s.open_encoder();
    s.open_container(metadata);

    s.frame = av_frame_alloc();
    s.packet = av_packet_alloc();
    if (!s.frame || !s.packet) s.fail("out of memory");
    s.frame->format = AV_PIX_FMT_YUV420P;
    s.frame->width = s.even_width;
    s.frame->height = s.even_height;
    s.frame->color_range = s.encoder->color_range;
    s.frame->colorspace = s.encoder->colorspace;
    s.frame->color_primaries = s.encoder->color_primaries;
    s.frame->color_trc = s.encoder->color_trc;
    s.check(av_frame_get_buffer(s.frame, 0), "frame buffer");

    s.scaler = sws_getContext(s.even_width, s.even_height, AV_PIX_FMT_RGBA, s.even_width, s.even_height, AV_PIX_FMT_YUV420P,
                              SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nullptr, nullptr, nullptr);
    if (!s.scaler) s.fail("no RGBA to yuv420p conversion");
    // RGB in full range to BT.709 YUV in limited range, as the stream is tagged
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    if (sws_setColorspaceDetails(s.scaler, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16) < 0) s.fail("no BT.709 conversion");
    if (s.width != s.even_width || s.height != s.even_height)
        s.padded.resize(static_cast<std::size_t>(s.even_width) * s.even_height * 4);
}

void VideoWriter::add_frame(const std::uint8_t* rgba, int stride_bytes) {
    State& s = *state_;
    if (s.finished || !s.encoder) s.fail("frame added after finish");
    if (stride_bytes < s.width * 4) s.fail("frame rows of " + std::to_string(stride_bytes) + " bytes, need " + std::to_string(s.width * 4));
    const std::uint8_t* source = rgba;
    int source_stride = stride_bytes;
    if (!s.padded.empty()) {
        // the last column and row repeated: no dark edge bleeds into the picture's colours
        const std::size_t row_bytes = static_cast<std::size_t>(s.width) * 4;
        const std::size_t padded_stride = static_cast<std::size_t>(s.even_width) * 4;
        for (int y = 0; y < s.even_height; ++y) {
            const std::uint8_t* in = rgba + static_cast<std::ptrdiff_t>(std::min(y, s.height - 1)) * stride_bytes;
            std::uint8_t* out = s.padded.data() + y * padded_stride;
            std::memcpy(out, in, row_bytes);
            if (s.even_width != s.width) std::memcpy(out + row_bytes, in + row_bytes - 4, 4);
        }
        source = s.padded.data();
        source_stride = static_cast<int>(padded_stride);
    }
    s.check(av_frame_make_writable(s.frame), "frame buffer");
    const std::uint8_t* planes[1] = {source};
    const int strides[1] = {source_stride};
    sws_scale(s.scaler, planes, strides, 0, s.even_height, s.frame->data, s.frame->linesize);
    s.frame->pts = s.next_pts++;
    s.encode(s.frame);
}

void VideoWriter::finish() {
    State& s = *state_;
    if (s.finished) return;
    if (s.next_pts == 0) s.fail("no frames");
    s.encode(nullptr);  // drain the encoder's delayed frames
    s.check(av_write_trailer(s.format), "writing the index");
    s.check(avio_closep(&s.format->pb), "closing the file");
    if (std::rename(s.temp.c_str(), s.target.c_str()) != 0) s.fail(std::strerror(errno));
    s.finished = true;
    s.release();
}

VideoWriter::~VideoWriter() = default;

int VideoWriter::frames_written() const { return static_cast<int>(state_->next_pts); }
int VideoWriter::video_width() const { return state_->even_width; }
int VideoWriter::video_height() const { return state_->even_height; }

}  // namespace rope::io
