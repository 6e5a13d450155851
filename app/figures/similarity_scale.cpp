#include "figures/similarity_scale.hpp"

#include <algorithm>
#include <cmath>

namespace rope::figures {

SimilarityScale similarity_scale(double lowest, plot::AxisPins* pins, const char* pin_name) {
    double highest = 1;
    lowest = std::min(lowest, 1.0);
    plot::hold_range(pins, pin_name, lowest, highest);
    if (!(lowest >= 0)) return {};
    const double span = std::max(1 - lowest, 0.01);
    const double unit = std::pow(10.0, std::floor(std::log10(span / 4)));
    double step = unit;
    for (double f : {1.0, 2.0, 5.0, 10.0})
        if ((step = f * unit) * 4 >= span) break;
    return {plot::ColormapId::sequential, std::max(0.0, std::floor((1 - span) / step + 1e-9) * step), 1};
}

}  // namespace rope::figures
