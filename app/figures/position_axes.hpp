// Internal: the colours of the position axes t, h, w, shared by the patch grid and the position-id
// table so an axis looks the same in both: theme series chosen from the Okabe-Ito-like palette that
// stays apart under colour-blindness, in greyscale and on a projector.
#pragma once

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

}  // namespace rope::figures::detail
