// Internal: the four ways the video figures give a video positions, in the order they draw them: 1D
// RoPE over the token stream, M-RoPE chunked and interleaved, and VideoRoPE (its allocation and
// diagonal layout, frames video_spacing apart).
#pragma once

#include <optional>
#include <string>
#include <vector>

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
    return {{"1D", p.axis_layout(RopeAxes::one_d, false), false, true, axes == RopeAxes::one_d},
            {"chunked", p.axis_layout(RopeAxes::mrope, false), false, false, axes == RopeAxes::mrope && !interleaved},
            {"interleaved", p.axis_layout(RopeAxes::mrope, true), false, false, axes == RopeAxes::mrope && interleaved},
            {"VideoRoPE", p.axis_layout(RopeAxes::videorope, false), true, false, axes == RopeAxes::videorope}};
}

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
