// The interface between io::VideoWriter and the video module (rope-explorer-video.so, built from
// video_module.cpp), which alone links libavcodec/libavformat/libswscale. Loading libav and the
// hundred libraries it needs costs every start of the program tens of milliseconds, so it is loaded
// with dlopen on the first video instead. Plain C types and one table of functions: no exception,
// allocation or C++ object crosses between the two.
#pragma once

#include <cstdint>

extern "C" {

struct RopeVideoEncoder;  // the module's libav state for one file

// Every call that can fail writes a one-line reason into error[0..error_size) and returns null or
// false; the caller adds which file.
struct RopeVideoModule {
    int version;  // kRopeVideoModuleVersion
    // Encodes into `file` (already created, empty): H.264 in MP4 when h264 is true, else VP9 in WebM;
    // width and height even; tags are `tag_count` key/value pairs.
    RopeVideoEncoder* (*open)(const char* file, bool h264, int width, int height, int fps, const char* const* tag_keys,
                              const char* const* tag_values, int tag_count, char* error, int error_size);
    // One frame of width x height straight RGBA pixels, rows stride_bytes apart.
    bool (*add_frame)(RopeVideoEncoder* encoder, const std::uint8_t* rgba, int stride_bytes, char* error, int error_size);
    // Drains the encoder, writes the index and closes the file.
    bool (*finish)(RopeVideoEncoder* encoder, char* error, int error_size);
    void (*close)(RopeVideoEncoder* encoder);  // frees everything (the file is left as it is)
};

inline constexpr int kRopeVideoModuleVersion = 1;
inline constexpr const char* kRopeVideoModuleSymbol = "rope_video_module";
inline constexpr const char* kRopeVideoModuleFile = "rope-explorer-video.so";

// The one symbol the module exports.
const RopeVideoModule* rope_video_module();
}
