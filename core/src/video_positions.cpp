#include "rope/video_positions.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace rope {

namespace {

constexpr int kMaxFrames = 768;  // the Qwen VL video processors' max_frames

std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace

std::string video_spec_problem(const VideoSpec& s) {
    if (s.text_before < 0 || s.text_after < 0) return "the text counts must be >= 0";
    if (s.rows < 1 || s.cols < 1) return "a frame needs at least 1 x 1 patches";
    if (s.frames < 1 || s.frames > kMaxFrames)
        return "video_frames=" + std::to_string(s.frames) + ": a video has 1 to " + std::to_string(kMaxFrames) + " sampled frames";
    if (s.temporal_patch_size < 1) return "temporal_patch_size=" + std::to_string(s.temporal_patch_size) + ": it must be >= 1";
    if (!(s.fps > 0) || !std::isfinite(s.fps)) return "video_fps=" + number_text(s.fps) + ": it must be > 0";
    if (!(s.tokens_per_second >= 0) || !std::isfinite(s.tokens_per_second))
        return "tokens_per_second=" + number_text(s.tokens_per_second) + ": it must be >= 0";
    if (!(s.spacing > 0) || !std::isfinite(s.spacing)) return "video_spacing=" + number_text(s.spacing) + ": it must be > 0";
    return "";
}

int temporal_patches(const VideoSpec& s) { return (s.frames + s.temporal_patch_size - 1) / s.temporal_patch_size; }

std::int64_t seconds_offset(const VideoSpec& s, int k) {
    // torch: arange(T) (int64) * second_per_grid_t * tokens_per_second is float32 (an int tensor
    // times a Python float takes the default dtype), then .long() truncates
    const double per_grid = static_cast<double>(s.temporal_patch_size) / s.fps;  // the processor's, in Python floats
    if (s.integer_seconds_bug) {
        // torch.as_tensor(second_per_grid_t, dtype=int64): truncated first, the product stays int64
        const std::int64_t whole = static_cast<std::int64_t>(per_grid);
        const double tps = s.tokens_per_second;
        if (tps == std::floor(tps)) return static_cast<std::int64_t>(k) * whole * static_cast<std::int64_t>(tps);
        return static_cast<std::int64_t>(static_cast<float>(static_cast<float>(k * whole) * static_cast<float>(tps)));
    }
    const float product = static_cast<float>(static_cast<float>(k) * static_cast<float>(per_grid));
    return static_cast<std::int64_t>(static_cast<float>(product * static_cast<float>(s.tokens_per_second)));
}

double timestamp_seconds(const VideoSpec& s, int k) {
    // frame indices padded to a multiple of the temporal patch size by repeating the last one
    const int first = k * s.temporal_patch_size;
    const int last = std::min(first + s.temporal_patch_size - 1, s.frames - 1);
    return (first / s.fps + last / s.fps) / 2;
}

std::string timestamp_text(double seconds) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "<%.1f seconds>", seconds);  // Python's f"{t:.1f}": both round the exact binary value
    return buf;
}

int timestamp_tokens(double seconds) {
    // "<", one token per digit before the point, ".", the tenth, " seconds", ">". The digits are those
    // of the whole seconds, unless the tenth rounds up past 9...9 (9.96 -> "10.0"): only that case
    // needs the exact binary rounding, so only it is formatted (the budget plot counts an hour's
    // timestamps for every point, and formatting each took most of the video figure's build)
    if (seconds >= 0 && seconds < 1e15) {
        const auto whole = static_cast<std::int64_t>(seconds);
        int digits = 1;
        std::int64_t next = 10;  // 10^digits
        while (next <= whole) ++digits, next *= 10;
        if (whole + 1 < next || seconds - static_cast<double>(whole) < 0.9) return digits + 5;
    }
    char buf[48];
    const int n = std::snprintf(buf, sizeof buf, "%.1f", seconds);
    return (n - 2) + 5;  // digits before the point: all but "." and the tenth
}

namespace {

struct Builder {
    std::vector<SequenceToken> tokens;
    double next = 0;  // the id the next text token takes
    void text(TokenKind kind = TokenKind::text, int frame = -1) {
        SequenceToken t;
        t.kind = kind;
        t.frame = frame;
        t.id = {next, next, next};
        tokens.push_back(t);
        next += 1;
    }
    void patch(int frame, int r, int c, PositionId id) {
        SequenceToken t;
        t.kind = TokenKind::video;
        t.frame = frame;
        t.row = r;
        t.col = c;
        t.id = id;
        tokens.push_back(t);
    }
};

}  // namespace

std::vector<SequenceToken> video_sequence(const VideoSpec& s) {
    if (const std::string problem = video_spec_problem(s); !problem.empty()) throw std::invalid_argument("video_sequence: " + problem);
    Builder b;
    for (int i = 0; i < s.text_before; ++i) b.text();
    const int frames = temporal_patches(s);
    const double start = b.next;
    double largest = start - 1;
    if (s.diagonal) {
        const double centre_r = (s.rows - 1) / 2, centre_c = (s.cols - 1) / 2;  // integer halves, as (rows-1)//2
        for (int k = 0; k < frames; ++k) {
            const double t = start + s.spacing * k;
            for (int r = 0; r < s.rows; ++r)
                for (int c = 0; c < s.cols; ++c) b.patch(k, r, c, {t, t + r - centre_r, t + c - centre_c});
            largest = t;  // the text after resumes at the last frame's t + 1 (its code reads row t)
        }
        b.next = largest + 1;
    } else if (s.rule == VideoTimeIds::timestamps) {
        for (int k = 0; k < frames; ++k) {
            const int n = timestamp_tokens(timestamp_seconds(s, k));
            for (int i = 0; i < n; ++i) b.text(TokenKind::timestamp, k);
            b.text();  // vision start
            const double sk = b.next;
            for (int r = 0; r < s.rows; ++r)
                for (int c = 0; c < s.cols; ++c) b.patch(k, r, c, {sk, sk + r, sk + c});
            b.next = sk + std::max(s.rows, s.cols);
            b.text();  // vision end
        }
    } else {
        for (int k = 0; k < frames; ++k) {
            const double t = start + (s.rule == VideoTimeIds::seconds ? static_cast<double>(seconds_offset(s, k)) : k);
            for (int r = 0; r < s.rows; ++r)
                for (int c = 0; c < s.cols; ++c) b.patch(k, r, c, {t, start + r, start + c});
            largest = std::max({largest, t, start + s.rows - 1, start + s.cols - 1});
        }
        b.next = largest + 1;
    }
    for (int i = 0; i < s.text_after; ++i) b.text();
    return b.tokens;
}

namespace {

// What `patches` temporal patches cost, their timestamps (timestamps rule) `stamp_tokens` in all: the
// one closed form both video_cost and video_costs use.
VideoCost cost_of(const VideoSpec& s, std::int64_t patches, std::int64_t stamp_tokens) {
    const int side = std::max(s.rows, s.cols);
    VideoCost c;
    c.tokens = patches * s.rows * s.cols;
    if (s.diagonal) {
        c.ids = s.spacing * static_cast<double>(patches - 1) + 1;
    } else if (s.rule == VideoTimeIds::timestamps) {
        c.tokens += stamp_tokens + 2 * patches;  // each patch's timestamp, vision start and end
        c.ids = static_cast<double>(stamp_tokens + patches * (2 + side));
    } else {
        const int last_patch = static_cast<int>(std::min<std::int64_t>(patches - 1, 1 << 30));
        const double last = s.rule == VideoTimeIds::seconds ? static_cast<double>(seconds_offset(s, last_patch)) : last_patch;
        c.ids = std::max(last + 1, static_cast<double>(side));
    }
    return c;
}

bool has_stamps(const VideoSpec& s) { return !s.diagonal && s.rule == VideoTimeIds::timestamps; }

}  // namespace

VideoCost video_cost(const VideoSpec& s) {
    if (const std::string problem = video_spec_problem(s); !problem.empty()) throw std::invalid_argument("video_cost: " + problem);
    const int patches = temporal_patches(s);
    std::int64_t stamps = 0;
    for (int k = 0; k < patches && has_stamps(s); ++k) stamps += timestamp_tokens(timestamp_seconds(s, k));
    return cost_of(s, patches, stamps);
}

std::vector<VideoCost> video_costs(const VideoSpec& s, const std::vector<double>& seconds) {
    // frames = round(seconds x fps), uncapped (an hour at 2 fps is past max_frames)
    auto patches_of = [&](double sec) {
        const std::int64_t frames = std::max<std::int64_t>(1, std::llround(sec * s.fps));
        return (frames + s.temporal_patch_size - 1) / s.temporal_patch_size;
    };
    // timestamps: every patch but a video's last has both its frames, so one prefix sum over the
    // longest video serves them all; the last is taken with the video's own frame count
    std::vector<std::int64_t> prefix{0};
    if (has_stamps(s)) {
        std::int64_t most = 1;
        for (double sec : seconds) most = std::max(most, patches_of(sec));
        VideoSpec whole = s;
        whole.frames = static_cast<int>(std::min<std::int64_t>((most + 1) * s.temporal_patch_size, 1 << 30));
        for (std::int64_t k = 0; k < most; ++k) prefix.push_back(prefix.back() + timestamp_tokens(timestamp_seconds(whole, static_cast<int>(k))));
    }
    std::vector<VideoCost> out;
    out.reserve(seconds.size());
    for (double sec : seconds) {
        const std::int64_t patches = patches_of(sec);
        std::int64_t stamps = 0;
        if (has_stamps(s)) {
            VideoSpec last = s;
            last.frames = static_cast<int>(std::min<std::int64_t>(std::max<std::int64_t>(1, std::llround(sec * s.fps)), 1 << 30));
            stamps = prefix[static_cast<std::size_t>(patches - 1)] + timestamp_tokens(timestamp_seconds(last, static_cast<int>(patches - 1)));
        }
        out.push_back(cost_of(s, patches, stamps));
    }
    return out;
}

PositionId video_patch_id(const VideoSpec& s, int k, int r, int c) {
    const double start = s.text_before;
    if (s.diagonal) {
        const double t = start + s.spacing * k;
        return {t, t + r - (s.rows - 1) / 2, t + c - (s.cols - 1) / 2};
    }
    if (s.rule == VideoTimeIds::timestamps) {
        const int side = std::max(s.rows, s.cols);
        double sk = start;
        for (int j = 0; j <= k; ++j) sk += timestamp_tokens(timestamp_seconds(s, j)) + 1 + (j < k ? side + 1 : 0);
        return {sk, sk + r, sk + c};
    }
    const double t = start + (s.rule == VideoTimeIds::seconds ? static_cast<double>(seconds_offset(s, k)) : k);
    return {t, start + r, start + c};
}

std::int64_t video_patch_index(const VideoSpec& s, int k, int r, int c) {
    const std::int64_t per_frame = static_cast<std::int64_t>(s.rows) * s.cols;
    std::int64_t index = s.text_before + k * per_frame + static_cast<std::int64_t>(r) * s.cols + c;
    if (!s.diagonal && s.rule == VideoTimeIds::timestamps)
        for (int j = 0; j <= k; ++j) index += timestamp_tokens(timestamp_seconds(s, j)) + 1 + (j < k ? 1 : 0);
    return index;
}

std::vector<double> sequence_similarity(const AxisLayout& layout, Pairing pairing, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                        const std::vector<SequenceToken>& tokens, std::size_t query) {
    if (query >= tokens.size()) throw std::invalid_argument("sequence_similarity: the query is not a token of the sequence");
    const double norms = q.norm() * k.norm();
    std::vector<double> out(tokens.size(), 0.0);
    if (!(norms > 0)) return out;
    for (std::size_t i = 0; i < tokens.size(); ++i)
        out[i] = multi_axis_score(layout, pairing, q, tokens[query].id, k, tokens[i].id) / norms;
    return out;
}

AxisLayout videorope_layout(const Eigen::VectorXd& theta, const MropeSection& section) {
    const int pairs = static_cast<int>(theta.size());
    if (section[0] < 0 || section[1] < 0 || section[2] < 0 || section[0] + section[1] + section[2] != pairs)
        throw std::invalid_argument("videorope_layout: the section must add up to the " + std::to_string(pairs) + " rotated pairs");
    AxisLayout l;
    l.theta = theta;
    l.axis.resize(static_cast<std::size_t>(pairs));
    const int spatial = section[1] + section[2];
    for (int j = 0; j < pairs; ++j)
        l.axis[static_cast<std::size_t>(j)] = j >= spatial ? PositionAxis::t : j % 2 == 0 ? PositionAxis::h : PositionAxis::w;
    return l;
}

}  // namespace rope
