// Internal: the ways the video figures give a video positions, in the order they draw them: 1D RoPE over
// the token stream, M-RoPE chunked and interleaved, VideoRoPE (its allocation and diagonal layout,
// frames video_spacing apart) and, for ERNIE-4.5-VL only, its own (VideoRoPE's allocation, M-RoPE's ids).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plot/ticks.hpp"
#include "rope/params.hpp"
#include "rope/video_positions.hpp"

namespace rope::figures::detail {

struct VideoLayout {
    std::string name;
    std::optional<AxisLayout> layout;  // none: the section does not fit this model's pairs
    bool diagonal = false;             // VideoRoPE's ids
    bool one_d = false;                // the token's index on every axis
    bool model = false;                // this model's
};

inline std::vector<VideoLayout> video_layouts(const ParamSet& p) {
    const RopeAxes axes = p[P::rope_axes];
    const bool interleaved = p[P::mrope_interleaved];
    std::vector<VideoLayout> out = {{"1D", p.axis_layout(RopeAxes::one_d, false), false, true, axes == RopeAxes::one_d},
                                    {"chunked", p.axis_layout(RopeAxes::mrope, false), false, false, axes == RopeAxes::mrope && !interleaved},
                                    {"interleaved", p.axis_layout(RopeAxes::mrope, true), false, false, axes == RopeAxes::mrope && interleaved},
                                    {"VideoRoPE", p.axis_layout(RopeAxes::videorope, false), true, false, axes == RopeAxes::videorope}};
    // ERNIE-4.5-VL: VideoRoPE's allocation of the pairs with M-RoPE's ids, shown only for its own model
    if (axes == RopeAxes::ernie_3d) out.push_back({"ERNIE 3D", p.axis_layout(RopeAxes::ernie_3d, false), false, false, true});
    return out;
}

// How a rule of video_time_ids gives the frames their time id, in words a reader knows (the rule's
// code, frame_index or seconds, is the parameter's value, not words): a title's ("time id = seconds
// × 2 per second"), a short title's ("time id = seconds × 2") or a legend's name of its curve
// ("seconds × 2", beside "patch index" and "timestamps": short, for a legend beside a small plot). The transformers 4.52-5.x cast is named where it applies.
enum class RuleWords { title, short_title, legend };
inline std::string rule_words(VideoTimeIds rule, const VideoSpec& spec, RuleWords form) {
    const bool legend = form == RuleWords::legend, brief = form == RuleWords::short_title;
    const std::string id = legend ? "" : "time id = ";
    std::string s;
    if (rule == VideoTimeIds::frame_index) s = id + (brief || legend ? "patch index" : "temporal patch index");
    else if (rule == VideoTimeIds::seconds) s = id + "seconds × " + plot::readout_number(spec.tokens_per_second, 4) + (brief || legend ? "" : " per second");
    else s = legend ? "timestamps" : brief ? "text timestamps" : "time ids after text timestamps";
    if (rule == VideoTimeIds::seconds && spec.integer_seconds_bug) s += brief || legend ? ", 4.52-5.x cast" : ", transformers 4.52-5.x cast";
    return s;
}
inline std::string rule_words(const VideoSpec& spec, RuleWords form) { return rule_words(spec.rule, spec, form); }

// The layouts by name, as the pictures name them: the words of a table's `layout` column (DataTable::words).
inline std::vector<std::string> layout_names(const std::vector<VideoLayout>& layouts) {
    std::vector<std::string> names;
    for (const VideoLayout& l : layouts) names.push_back(l.name);
    return names;
}

// The video as `layout` numbers it: VideoRoPE's diagonal layout, else the rule of video_time_ids.
inline VideoSpec spec_of(VideoSpec spec, const VideoLayout& layout) {
    spec.diagonal = layout.diagonal;
    return spec;
}

// Patch (r, c) of temporal patch k: its (t, h, w), or its index in the token stream on every axis (1D).
inline PositionId video_id(const VideoSpec& spec, const VideoLayout& layout, int k, int r, int c) {
    if (!layout.one_d) return video_patch_id(spec, k, r, c);
    const double i = static_cast<double>(video_patch_index(spec, k, r, c));
    return PositionId{i, i, i};
}

}  // namespace rope::figures::detail
