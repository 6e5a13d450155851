// rope-explorer-video.so: libav's encoders behind the plain table of video_module.hpp. The file
// itself (a temporary beside the target, renamed on finish) and the frame checks stay with
// io::VideoWriter; this module turns RGBA frames into an H.264/MP4 or VP9/WebM stream.
//
// Pixels: converted by libswscale to yuv420p, BT.709 matrix, limited (TV) range, and the stream is
// tagged so. Time: frame n starts at n / fps and lasts 1 / fps.
#include "io/video_module.hpp"

#include <cstdio>
#include <exception>
#include <mutex>
#include <new>
#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace {

// libav prints progress and warnings to stderr (x264's summary, the MP4 muxer's "second pass");
// an export says one line of its own and reports failures through its error text. The muxer's
// messages cannot be silenced per context, so the first encoder lowers libav's process-wide log
// level, once, and only if nobody has changed it from libav's default.
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

struct Failure {
    std::string reason;
};

void check(int code, const char* what) {
    if (code < 0) throw Failure{std::string(what) + ": " + av_reason(code)};
}

}  // namespace

struct RopeVideoEncoder {
    bool h264 = true;
    int width = 0, height = 0, fps = 0;
    std::int64_t next_pts = 0;
    AVFormatContext* format = nullptr;
    AVCodecContext* encoder = nullptr;
    AVStream* stream = nullptr;
    SwsContext* scaler = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;

    ~RopeVideoEncoder() {
        if (format && format->pb) avio_closep(&format->pb);
        avformat_free_context(format);
        avcodec_free_context(&encoder);
        sws_freeContext(scaler);
        av_frame_free(&frame);
        av_packet_free(&packet);
    }

    void open_encoder();
    void open_container(const char* file, const char* const* keys, const char* const* values, int count);
    void open_frames();
    void encode(const AVFrame* input);
};

void RopeVideoEncoder::open_encoder() {
    const char* name = h264 ? "libx264" : "libvpx-vp9";
    const AVCodec* found = avcodec_find_encoder_by_name(name);
    if (!found) throw Failure{std::string("this libavcodec has no ") + name + " encoder"};
    encoder = avcodec_alloc_context3(found);
    if (!encoder) throw Failure{"out of memory"};
    encoder->width = width;
    encoder->height = height;
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

void RopeVideoEncoder::open_container(const char* file, const char* const* keys, const char* const* values, int count) {
    stream = avformat_new_stream(format, nullptr);
    if (!stream) throw Failure{"out of memory"};
    stream->time_base = encoder->time_base;
    stream->avg_frame_rate = encoder->framerate;
    stream->r_frame_rate = encoder->framerate;
    check(avcodec_parameters_from_context(stream->codecpar, encoder), "stream parameters");

    // every key as a tag (MP4: QuickTime 'mdta' keys; WebM: Matroska SimpleTags), and `comment`
    // holds them all as "key=value ...", for players that show only a comment
    std::string comment;
    for (int i = 0; i < count; ++i) {
        av_dict_set(&format->metadata, keys[i], values[i], 0);
        comment += (comment.empty() ? "" : " ") + std::string(keys[i]) + "=" + values[i];
    }
    if (count > 0) av_dict_set(&format->metadata, "comment", comment.c_str(), 0);

    // "file:" so that a ':' in the folder's name is not read as a protocol
    check(avio_open(&format->pb, (std::string("file:") + file).c_str(), AVIO_FLAG_WRITE), "opening the file");
    AVDictionary* options = nullptr;
    // faststart: the index first, so a browser plays while loading; use_metadata_tags: every key kept
    // movie_timescale: the file's duration counted in 1 / (1000 fps), so frames / fps exactly (the
    // default, 1/1000 s, rounds 10 frames at 7 fps to 1.429 s)
    if (h264) {
        av_dict_set(&options, "movflags", "+faststart+use_metadata_tags", 0);
        av_dict_set_int(&options, "movie_timescale", 1000LL * fps, 0);
    }
    const int written = avformat_write_header(format, &options);
    av_dict_free(&options);
    check(written, "writing the header");
}

void RopeVideoEncoder::open_frames() {
    frame = av_frame_alloc();
    packet = av_packet_alloc();
    if (!frame || !packet) throw Failure{"out of memory"};
    frame->format = AV_PIX_FMT_YUV420P;
    frame->width = width;
    frame->height = height;
    frame->color_range = encoder->color_range;
    frame->colorspace = encoder->colorspace;
    frame->color_primaries = encoder->color_primaries;
    frame->color_trc = encoder->color_trc;
    check(av_frame_get_buffer(frame, 0), "frame buffer");

    scaler = sws_getContext(width, height, AV_PIX_FMT_RGBA, width, height, AV_PIX_FMT_YUV420P,
                            SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nullptr, nullptr, nullptr);
    if (!scaler) throw Failure{"no RGBA to yuv420p conversion"};
    // RGB in full range to BT.709 YUV in limited range, as the stream is tagged
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    if (sws_setColorspaceDetails(scaler, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16) < 0) throw Failure{"no BT.709 conversion"};
}

void RopeVideoEncoder::encode(const AVFrame* input) {
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

namespace {

// Runs `body`; a failure becomes the error text and `false`.
template <typename Body>
bool reported(char* error, int error_size, Body&& body) {
    std::string reason;
    try {
        body();
        return true;
    } catch (const Failure& f) {
        reason = f.reason;
    } catch (const std::bad_alloc&) {
        reason = "out of memory";
    } catch (const std::exception& e) {
        reason = e.what();
    }
    if (error && error_size > 0) std::snprintf(error, static_cast<std::size_t>(error_size), "%s", reason.c_str());
    return false;
}

RopeVideoEncoder* open_encoder(const char* file, bool h264, int width, int height, int fps, const char* const* keys,
                               const char* const* values, int count, char* error, int error_size) {
    RopeVideoEncoder* e = nullptr;
    const bool ok = reported(error, error_size, [&] {
        quiet_libav_logging();
        e = new RopeVideoEncoder;
        e->h264 = h264;
        e->width = width;
        e->height = height;
        e->fps = fps;
        const std::string url = std::string("file:") + file;
        check(avformat_alloc_output_context2(&e->format, nullptr, h264 ? "mp4" : "webm", url.c_str()), "no muxer");
        e->open_encoder();
        e->open_container(file, keys, values, count);
        e->open_frames();
    });
    if (ok) return e;
    delete e;
    return nullptr;
}

bool add_frame(RopeVideoEncoder* e, const std::uint8_t* rgba, int stride_bytes, char* error, int error_size) {
    return reported(error, error_size, [&] {
        check(av_frame_make_writable(e->frame), "frame buffer");
        const std::uint8_t* planes[1] = {rgba};
        const int strides[1] = {stride_bytes};
        sws_scale(e->scaler, planes, strides, 0, e->height, e->frame->data, e->frame->linesize);
        e->frame->pts = e->next_pts++;
        e->encode(e->frame);
    });
}

bool finish(RopeVideoEncoder* e, char* error, int error_size) {
    return reported(error, error_size, [&] {
        e->encode(nullptr);  // drain the encoder's delayed frames
        check(av_write_trailer(e->format), "writing the index");
        check(avio_closep(&e->format->pb), "closing the file");
    });
}

void close_encoder(RopeVideoEncoder* e) { delete e; }

const RopeVideoModule kModule{kRopeVideoModuleVersion, open_encoder, add_frame, finish, close_encoder};

}  // namespace

extern "C" __attribute__((visibility("default"))) const RopeVideoModule* rope_video_module() { return &kModule; }
