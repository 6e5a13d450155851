// Video in M-RoPE: the position ids of text, one video and text, under each model's rule, and
// VideoRoPE's layout (Wei et al. 2025). A video of F sampled frames becomes T = ceil(F / temporal
// patch size) temporal patches (the last frame repeated to fill the last one), each rows x cols
// patches after merging; s is the first id after the text before it.
//  - frame_index (Qwen2-VL, get_rope_index): patch (k, r, c) at (s + k, s + r, s + c).
//  - seconds (Qwen2.5-VL, Qwen's get_rope_index_25 and transformers 4.49-4.51): second_per_grid_t =
//    temporal_patch_size / fps (the processor), t = s + long(k * second_per_grid_t *
//    tokens_per_second), the product in float32 as torch computes an int tensor times a float, and
//    truncated after it. transformers 4.52 to 5.x cast second_per_grid_t to an integer first, so every
//    temporal patch gets t = s once fps > temporal_patch_size (the porting bug: integer_seconds_bug).
//  - timestamps (Qwen3-VL, processing_qwen3_vl.py and get_rope_index): before each temporal patch the
//    text "<{time:.1f} seconds>" (5 + digits-before-the-point tokens: Qwen's tokenizer splits digits),
//    a vision-start token, the patches laid out as one image (s_k, s_k + r, s_k + c), then vision end
//    at s_k + max(rows, cols).
// The text after a video resumes at 1 + the largest id so far. VideoRoPE's diagonal layout
// (get_t_scale_rope_index in its modeling_videorope.py): t = s + delta k, h = t + r - (rows-1)//2,
// w = t + c - (cols-1)//2, and the text after resumes at the last frame's t + 1 (its code reads the t
// row only, so the last frame's h and w may overlap that text).
#pragma once

#include <Eigen/Core>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "rope/enum_names.hpp"
#include "rope/multi_axis.hpp"

namespace rope {

// What the M-RoPE sequence holds between its two texts (the parameter table's media).
enum class Media { image, video };
template <>
struct EnumNames<Media> {
    static constexpr std::array<std::string_view, 2> names = {"image", "video"};
};
constexpr std::string_view to_string(Media m) { return enum_name(m); }

enum class VideoTimeIds { frame_index, seconds, timestamps };
template <>
struct EnumNames<VideoTimeIds> {
    static constexpr std::array<std::string_view, 3> names = {"frame_index", "seconds", "timestamps"};
};
constexpr std::string_view to_string(VideoTimeIds rule) { return enum_name(rule); }

struct VideoSpec {
    int text_before = 3, text_after = 2;
    int rows = 12, cols = 16;     // patches of a frame after merging
    int frames = 8;               // frames sampled, before temporal patching
    int temporal_patch_size = 2;  // frames per temporal patch
    double fps = 2;               // frames sampled per second
    double tokens_per_second = 2; // Qwen2.5-VL: time ids per second of video
    VideoTimeIds rule = VideoTimeIds::frame_index;
    bool integer_seconds_bug = false;  // seconds: second_per_grid_t truncated before the product
    bool diagonal = false;             // VideoRoPE's diagonal layout instead of `rule`
    double spacing = 2;                // its temporal spacing delta
};

// "" if the spec can be laid out; else why not, for people.
std::string video_spec_problem(const VideoSpec& spec);
int temporal_patches(const VideoSpec& spec);
// seconds: the time id offset of temporal patch k from s (the float32 product, truncated).
std::int64_t seconds_offset(const VideoSpec& spec, int k);
// timestamps: temporal patch k's time in seconds, the mean of its first and last frame's (frame i
// at i / fps, the last frame repeated), and its text "<1.5 seconds>" and token count.
double timestamp_seconds(const VideoSpec& spec, int k);
std::string timestamp_text(double seconds);
int timestamp_tokens(double seconds);

// Every token of the sequence in order. std::invalid_argument if video_spec_problem is not empty.
std::vector<SequenceToken> video_sequence(const VideoSpec& spec);

// What the video alone costs (no text around it): the tokens it takes, and the position ids it
// uses, the id the text after it resumes at with s = 0. Closed forms, for videos of hours (the
// position budget), the same as video_sequence gives.
struct VideoCost {
    std::int64_t tokens = 0;
    double ids = 0;
};
VideoCost video_cost(const VideoSpec& spec);
// The same for videos of several lengths, `seconds` each (frames = max(1, round(seconds x fps))),
// in one pass over the temporal patches of the longest: the position budget's curves.
std::vector<VideoCost> video_costs(const VideoSpec& spec, const std::vector<double>& seconds);

// Where temporal patch k's patch (r, c) is, without building the sequence: its (t, h, w) and its
// index in the token stream (1D RoPE's position), as video_sequence has them.
PositionId video_patch_id(const VideoSpec& spec, int k, int r, int c);
std::int64_t video_patch_index(const VideoSpec& spec, int k, int r, int c);

// The cosine similarity of the rotated query at tokens[query] and the rotated key at every token:
// score / (|q| |k|), in [-1, 1], one per token (text tokens too).
std::vector<double> sequence_similarity(const AxisLayout& layout, Pairing pairing, const Eigen::VectorXd& q, const Eigen::VectorXd& k,
                                        const std::vector<SequenceToken>& tokens, std::size_t query);

// VideoRoPE's low-frequency temporal allocation (apply_m_modify_multimodal_rotary_pos_emb): the
// first s_h + s_w pairs (the fastest) alternate h, w, h, w, ... (h on even pairs), the last s_t (the
// slowest) turn with t. std::invalid_argument if the section does not add up to the pairs.
AxisLayout videorope_layout(const Eigen::VectorXd& theta, const MropeSection& section);

}  // namespace rope
