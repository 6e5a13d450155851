// Internal: the colours of the position axes t, h, w, shared by the patch grid and the position-id
// table so an axis looks the same in both: theme series chosen from the Okabe-Ito-like palette that
// stays apart under colour-blindness, in greyscale and on a projector.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include "plot/style.hpp"
#include "rope/multi_axis.hpp"

namespace rope::figures::detail {

inline plot::Color position_axis_color(const plot::Theme& th, PositionAxis axis) {
    switch (axis) {
        case PositionAxis::t: return th.series[1];  // orange
        case PositionAxis::h: return th.series[0];  // blue
        case PositionAxis::w: return th.series[4];  // reddish purple
    }
    return th.text;
}

// A position id as a table shows it: whole numbers as integers, VideoRoPE's fractional ones as they are.
inline std::string id_text(double v) {
    char buf[32];
    if (v == std::floor(v) && std::abs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace rope::figures::detail
