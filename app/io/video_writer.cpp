#include "io/video_writer.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "io/program_files.hpp"
#include "io/video_module.hpp"

namespace rope::io {

namespace {

constexpr int kMaxSide = 16384;
constexpr int kMaxFps = 240;

// Where the video module may be: beside the program, in the installed layout's libexec/rope-explorer, or
// for a test program in build/tests, in build/ (io/program_files.hpp).
std::vector<std::string> module_candidates() {
    return program_file_candidates(kRopeVideoModuleFile);
}

struct LoadedModule {
    const RopeVideoModule* table = nullptr;
    std::string problem;  // why it could not be loaded
};

LoadedModule load_module() {
    LoadedModule loaded;
    for (const std::string& path : module_candidates()) {
        if (access(path.c_str(), F_OK) != 0) continue;
        // never unloaded: encoders on other threads may still be using it when the program ends
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            loaded.problem = dlerror();
            return loaded;
        }
        using Entry = const RopeVideoModule* (*)();
        const auto entry = reinterpret_cast<Entry>(dlsym(handle, kRopeVideoModuleSymbol));
        const RopeVideoModule* table = entry ? entry() : nullptr;
        if (!table || table->version != kRopeVideoModuleVersion) {
            loaded.problem = path + " is not this version's video module";
            return loaded;
        }
        loaded.table = table;
        return loaded;
    }
    loaded.problem = std::string("the video module ") + kRopeVideoModuleFile + " is not installed beside the program";
    return loaded;
}

// Loaded on the first video, once per process.
const LoadedModule& video_module() {
    static const LoadedModule loaded = load_module();
    return loaded;
}

}  // namespace

struct VideoWriter::State {
    std::string path;    // what the caller asked for (messages name it)
    std::string target;  // where the file goes (a symbolic link's target)
    std::string temp;    // written here, renamed onto target by finish()
    int width = 0, height = 0;            // the frames given
    int even_width = 0, even_height = 0;  // the frames encoded
    int frames = 0;
    bool finished = false;
    const RopeVideoModule* module = nullptr;
    RopeVideoEncoder* encoder = nullptr;
    std::vector<std::uint8_t> padded;  // odd sizes: the frame with its last column/row repeated
    char error[512] = {};

    ~State() { release(); }

    [[noreturn]] void fail(const std::string& reason) const { throw IoError("cannot write '" + path + "': " + reason); }
    void check(bool ok) const {
        if (!ok) fail(error);
    }
    void release() {
        if (encoder) module->close(encoder);
        encoder = nullptr;
        if (!finished && !temp.empty()) unlink(temp.c_str());
        temp.clear();
    }
    void make_temp_file();
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

VideoWriter::VideoWriter(const std::string& path, VideoCodec codec, int width, int height, int fps, const TextChunks& metadata)
    : state_(std::make_unique<State>()) {
    State& s = *state_;
    s.path = path;
    if (path.empty()) throw IoError("cannot write '': empty file name");
    if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide)
        throw std::invalid_argument("video size " + std::to_string(width) + "x" + std::to_string(height) + ": allowed 1..16384 on each side");
    if (fps < 1 || fps > kMaxFps) throw std::invalid_argument("video fps " + std::to_string(fps) + ": allowed 1..240");
    s.width = width;
    s.height = height;
    s.even_width = width + width % 2;
    s.even_height = height + height % 2;
    const LoadedModule& loaded = video_module();
    if (!loaded.table) s.fail(loaded.problem);
    s.module = loaded.table;

    s.make_temp_file();
    std::vector<const char*> keys, values;
    for (const auto& [k, v] : metadata) keys.push_back(k.c_str()), values.push_back(v.c_str());
    s.encoder = s.module->open(s.temp.c_str(), codec == VideoCodec::h264_mp4, s.even_width, s.even_height, fps, keys.data(),
                               values.data(), static_cast<int>(keys.size()), s.error, sizeof s.error);
    s.check(s.encoder != nullptr);
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
    s.check(s.module->add_frame(s.encoder, source, source_stride, s.error, sizeof s.error));
    ++s.frames;
}

void VideoWriter::finish() {
    State& s = *state_;
    if (s.finished) return;
    if (s.frames == 0) s.fail("no frames");
    s.check(s.module->finish(s.encoder, s.error, sizeof s.error));
    if (std::rename(s.temp.c_str(), s.target.c_str()) != 0) s.fail(std::strerror(errno));
    s.finished = true;
    s.release();
}

VideoWriter::~VideoWriter() = default;

int VideoWriter::frames_written() const { return state_->frames; }
int VideoWriter::video_width() const { return state_->even_width; }
int VideoWriter::video_height() const { return state_->even_height; }

}  // namespace rope::io
