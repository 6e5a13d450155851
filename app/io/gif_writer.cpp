#include "io/gif_writer.hpp"

#include <gif_lib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "io/atomic_file.hpp"

namespace rope::io {

namespace {

using Histogram = std::vector<std::pair<std::uint32_t, std::uint64_t>>;

int channel(std::uint32_t c, int i) { return static_cast<int>(c >> (16 - 8 * i) & 0xff); }

// Median cut: the box with the most error (pixels times its widest channel's range squared) is
// split at its weighted median along that channel until there are `slots` boxes; each gives its
// count-weighted mean colour. Weighting by pixels gives the slots to the colours that cover most.
std::vector<std::uint32_t> median_cut(Histogram colours, std::size_t slots) {
    struct Box {
        std::size_t begin, end;
        int axis = 0, range = 0;
        double weight = 0;
    };
    auto measure = [&](Box b) {
        int lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
        for (std::size_t k = b.begin; k < b.end; ++k) {
            for (int i = 0; i < 3; ++i) lo[i] = std::min(lo[i], channel(colours[k].first, i)), hi[i] = std::max(hi[i], channel(colours[k].first, i));
            b.weight += static_cast<double>(colours[k].second);
        }
        for (int i = 0; i < 3; ++i)
            if (hi[i] - lo[i] > b.range) b.range = hi[i] - lo[i], b.axis = i;
        return b;
    };
    std::vector<Box> boxes{measure({0, colours.size()})};
    while (boxes.size() < slots) {
        double worst = 0;
        std::size_t best = boxes.size();
        for (std::size_t b = 0; b < boxes.size(); ++b) {
            const double error = boxes[b].weight * boxes[b].range * boxes[b].range;
            if (boxes[b].end - boxes[b].begin > 1 && boxes[b].range > 0 && error > worst) worst = error, best = b;
        }
        if (best == boxes.size()) break;  // every box is one colour
        const Box box = boxes[best];
        const int axis = box.axis;
        const auto first = colours.begin() + static_cast<std::ptrdiff_t>(box.begin);
        const auto last = colours.begin() + static_cast<std::ptrdiff_t>(box.end);
        std::sort(first, last, [&](const auto& a, const auto& b) { return channel(a.first, axis) < channel(b.first, axis); });
        double run = 0;
        std::size_t split = box.begin + 1;
        for (std::size_t k = box.begin; k + 1 < box.end; ++k) {
            run += static_cast<double>(colours[k].second);
            split = k + 1;
            if (2 * run >= box.weight) break;
        }
        boxes[best] = measure({box.begin, split});
        boxes.push_back(measure({split, box.end}));
    }
    std::vector<std::uint32_t> out;
    for (const Box& b : boxes) {
        double sum[3] = {0, 0, 0}, weight = 0;
        for (std::size_t k = b.begin; k < b.end; ++k) {
            for (int i = 0; i < 3; ++i) sum[i] += static_cast<double>(channel(colours[k].first, i)) * static_cast<double>(colours[k].second);
            weight += static_cast<double>(colours[k].second);
        }
        std::uint32_t c = 0;
        for (int i = 0; i < 3; ++i) c = c << 8 | static_cast<std::uint32_t>(std::lround(sum[i] / std::max(1.0, weight)));
        out.push_back(c);
    }
    return out;
}

long distance2(std::uint32_t a, std::uint32_t b) {
    long d = 0;
    for (int k = 0; k < 3; ++k) {
        const long e = channel(a, k) - channel(b, k);
        d += e * e;
    }
    return d;
}

// A colour this close (squared RGB distance) to a reserved or flat entry is shown by it.
constexpr long kCovered = 27;

std::uint8_t nearest(const std::vector<std::uint32_t>& palette, std::uint32_t c) {
    int best = 0;
    long best_d = -1;
    for (std::size_t i = 0; i < palette.size(); ++i) {
        const long d = distance2(palette[i], c);
        if (best_d < 0 || d < best_d) best_d = d, best = static_cast<int>(i);
        if (d == 0) break;
    }
    return static_cast<std::uint8_t>(best);
}

struct GifSink {
    AtomicFile* file;
    std::string error;  // the first write error, naming the path and the system's reason
};

int write_to(GifFileType* gif, const GifByteType* data, int length) {
    auto* sink = static_cast<GifSink*>(gif->UserData);
    if (!sink->error.empty()) return 0;
    try {
        sink->file->write(data, static_cast<std::size_t>(length));
    } catch (const IoError& e) {
        sink->error = e.what();
        return 0;
    }
    return length;
}

// Lloyd steps for the entries from `first` on (median cut's): each moves to the count-weighted mean
// of the colours nearest to it, so the boxes' means follow where the colours really are; the
// entries before `first` (reserved and flat) never move.
void refine(std::vector<std::uint32_t>& palette, std::size_t first, const Histogram& histogram) {
    for (int step = 0; step < 3; ++step) {
        std::vector<std::array<double, 4>> sums(palette.size(), {0, 0, 0, 0});
        for (std::size_t k = 0; k < histogram.size(); ++k) {
            const std::uint8_t i = nearest(palette, histogram[k].first);
            auto& s = sums[i];
            const double n = static_cast<double>(histogram[k].second);
            for (int c = 0; c < 3; ++c) s[static_cast<std::size_t>(c)] += n * channel(histogram[k].first, c);
            s[3] += n;
        }
        for (std::size_t i = first; i < palette.size(); ++i) {
            if (sums[i][3] <= 0) continue;
            std::uint32_t c = 0;
            for (std::size_t ch = 0; ch < 3; ++ch) c = c << 8 | static_cast<std::uint32_t>(std::lround(sums[i][ch] / sums[i][3]));
            palette[i] = c;
        }
    }
}

}  // namespace

int gif_delay_centiseconds(int index, int fps) {
    const long end = std::lround(100.0 * (index + 1) / fps), start = std::lround(100.0 * index / fps);
    return static_cast<int>(std::max(2L, end - start));
}

std::vector<std::uint32_t> build_palette(const Histogram& histogram, std::size_t slots, const std::vector<std::uint32_t>& reserved) {
    Histogram sorted = histogram;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    std::vector<std::uint32_t> palette;
    if (sorted.size() <= slots) {
        for (const auto& [c, n] : sorted) palette.push_back(c);
        return palette;
    }
    std::unordered_set<std::uint32_t> taken;
    auto take = [&](std::uint32_t c) {
        if (taken.insert(c).second) palette.push_back(c);
    };
    const std::size_t room = slots > kFreeSlots ? slots - kFreeSlots : 0;
    for (std::size_t i = 0; i < reserved.size() && palette.size() < room; ++i) take(reserved[i] & 0xffffff);
    // Flat colours: the figure's fills, lines and text cover many pixels each; at most 96 of them
    // keep their exact value, the rest of the table goes to what lies between them.
    std::uint64_t total = 0;
    for (const auto& e : sorted) total += e.second;
    for (std::size_t k = 0; k < sorted.size() && k < 96 && palette.size() < room && sorted[k].second * 2000 >= total; ++k) take(sorted[k].first);
    // What an entry already shows within a few levels needs no box of its own: median cut spends the
    // rest of the table where the palette is still far from the frames' colours.
    const std::vector<std::uint32_t> fixed = palette;
    Histogram rest;
    for (const auto& e : sorted)
        if (!taken.count(e.first) && (fixed.empty() || distance2(fixed[nearest(fixed, e.first)], e.first) > kCovered)) rest.push_back(e);
    if (rest.empty()) return palette;
    for (std::uint32_t c : median_cut(rest, slots - palette.size())) take(c);
    refine(palette, fixed.size(), sorted);
    return palette;
}

GifWriter::GifWriter(std::string path, int width, int height, int fps, const TextChunks& metadata)
    : path_(std::move(path)), width_(width), height_(height), fps_(fps), metadata_(metadata) {}

void GifWriter::add_frame(const std::uint8_t* rgba, int stride_bytes) {
    std::vector<std::uint32_t> now(static_cast<std::size_t>(width_) * height_);
    for (int y = 0; y < height_; ++y) {
        const std::uint8_t* row = rgba + static_cast<std::ptrdiff_t>(y) * stride_bytes;
        for (int x = 0; x < width_; ++x)
            now[static_cast<std::size_t>(y) * width_ + x] = std::uint32_t{row[4 * x]} << 16 | std::uint32_t{row[4 * x + 1]} << 8 | row[4 * x + 2];
    }
    Frame f;
    if (previous_.empty()) {
        f.width = width_, f.height = height_;
    } else {
        int x0 = width_, y0 = height_, x1 = -1, y1 = -1;
        for (int y = 0; y < height_; ++y)
            for (int x = 0; x < width_; ++x) {
                const std::size_t i = static_cast<std::size_t>(y) * width_ + x;
                if (now[i] == previous_[i]) continue;
                x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
            }
        if (x1 < 0) x0 = y0 = x1 = y1 = 0;  // nothing changed: one pixel, the same again
        f.left = x0, f.top = y0, f.width = x1 - x0 + 1, f.height = y1 - y0 + 1;
    }
    f.rgb.reserve(static_cast<std::size_t>(f.width) * f.height);
    for (int y = f.top; y < f.top + f.height; ++y)
        for (int x = f.left; x < f.left + f.width; ++x) f.rgb.push_back(now[static_cast<std::size_t>(y) * width_ + x]);
    frames_.push_back(std::move(f));
    previous_ = std::move(now);
}

void GifWriter::finish() {
    std::unordered_map<std::uint32_t, std::uint64_t> counts;
    for (const Frame& f : frames_)
        for (std::uint32_t c : f.rgb) ++counts[c];
    const Histogram histogram(counts.begin(), counts.end());
    // one index is kept for "unchanged" (transparent), so 255 colours at most
    const std::vector<std::uint32_t> palette = build_palette(histogram, 255, reserved_);
    const int transparent = static_cast<int>(palette.size());
    exact_ = histogram.size() <= 255;
    std::unordered_map<std::uint32_t, std::uint8_t> index;
    index.reserve(counts.size());
    for (const auto& [c, n] : histogram) index.emplace(c, nearest(palette, c));

    AtomicFile file(path_);
    GifSink sink{&file, {}};
    int error = 0;
    GifFileType* gif = EGifOpen(&sink, write_to, &error);
    if (!gif) throw IoError("cannot write '" + path_ + "': " + GifErrorString(error));
    auto fail = [&](const char* what) {
        int close_error = 0;
        EGifCloseFile(gif, &close_error);
        throw IoError(!sink.error.empty() ? sink.error : "cannot write '" + path_ + "': " + what);
    };
    int bits = 1;
    while ((1 << bits) < static_cast<int>(palette.size()) + 1) ++bits;
    std::vector<GifColorType> colours(static_cast<std::size_t>(1) << bits, GifColorType{0, 0, 0});
    for (std::size_t i = 0; i < palette.size(); ++i)
        colours[i] = GifColorType{static_cast<GifByteType>(channel(palette[i], 0)), static_cast<GifByteType>(channel(palette[i], 1)),
                                  static_cast<GifByteType>(channel(palette[i], 2))};
    ColorMapObject* map = GifMakeMapObject(1 << bits, colours.data());
    EGifSetGifVersion(gif, true);
    const int screen = EGifPutScreenDesc(gif, width_, height_, bits, 0, map);
    GifFreeMapObject(map);
    if (screen == GIF_ERROR) fail("GIF header");

    // loop forever (the NETSCAPE2.0 application extension, count 0)
    const GifByteType loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR || EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR ||
        EGifPutExtensionTrailer(gif) == GIF_ERROR)
        fail("GIF loop extension");
    std::string comment;
    for (const auto& [k, v] : metadata_) comment += k + "=" + v + "\n";
    if (!comment.empty() && EGifPutComment(gif, comment.c_str()) == GIF_ERROR) fail("GIF comment");

    // What the viewer shows so far, as palette indices: a pixel whose index is already there is
    // written as the transparent index, so the rectangle compresses to long runs of one code.
    std::vector<GifPixelType> shown(static_cast<std::size_t>(width_) * height_, 0);
    std::vector<GifPixelType> line;
    for (std::size_t n = 0; n < frames_.size(); ++n) {
        const Frame& f = frames_[n];
        GraphicsControlBlock gcb{};
        gcb.DisposalMode = DISPOSE_DO_NOT;  // the next frame's rectangle goes over this one
        gcb.UserInputFlag = false;
        gcb.DelayTime = gif_delay_centiseconds(static_cast<int>(n), fps_);
        gcb.TransparentColor = n == 0 ? NO_TRANSPARENT_COLOR : transparent;
        GifByteType ext[4];
        const std::size_t ext_len = EGifGCBToExtension(&gcb, ext);
        if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(ext_len), ext) == GIF_ERROR) fail("GIF frame");
        if (EGifPutImageDesc(gif, f.left, f.top, f.width, f.height, false, nullptr) == GIF_ERROR) fail("GIF frame");
        line.resize(static_cast<std::size_t>(f.width));
        for (int y = 0; y < f.height; ++y) {
            GifPixelType* row = &shown[static_cast<std::size_t>(f.top + y) * width_ + f.left];
            for (int x = 0; x < f.width; ++x) {
                const GifPixelType i = index.at(f.rgb[static_cast<std::size_t>(y) * f.width + x]);
                line[static_cast<std::size_t>(x)] = n > 0 && row[x] == i ? static_cast<GifPixelType>(transparent) : i;
                row[x] = i;
            }
            if (EGifPutLine(gif, line.data(), f.width) == GIF_ERROR) fail("GIF frame");
        }
    }
    if (EGifCloseFile(gif, &error) == GIF_ERROR)
        throw IoError(!sink.error.empty() ? sink.error : "cannot write '" + path_ + "': " + GifErrorString(error));
    file.commit();
}

}  // namespace rope::io
