// Internal: the two partial-rotary layouts of a head as per-dim angle tables and rotate_half
// partner maps, and the porting bug that takes the angles of one and the partners of the other.
// A local stand-in for the core's mixed-layout rotation (core/include/rope/partial_layouts.hpp,
// being written on branch i15-math); the partial-vs-proportional figure and its tests use it, and
// a test checks the two correct layouts against rope::rotate.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "rope/frequencies.hpp"

namespace rope::figures::detail::layouts {

// One way of rotating a head: dim j turns at angle position * phi[j] with partner[j]
// (out_j = x_j cos + sign_j x_partner sin); sign 0 marks a dim that passes through.
struct DimRotation {
    std::vector<double> phi;
    std::vector<int> partner;
    std::vector<int> sign;
};

struct TwoLayouts {
    int dim = 0, rotated = 0, turning = 0;  // d, r = int(d f) made even, int(d f) // 2
    Eigen::VectorXd partial_theta;          // r/2 entries: b^(-2i/r)
    Eigen::VectorXd proportional_theta;     // d/2 entries: b^(-2i/d), zeros from `turning` on
    DimRotation partial, proportional;      // each layout as it should be
    DimRotation proportional_on_partial;    // the bug: proportional's cos/sin, partial's rotate_half
    DimRotation partial_on_proportional;    // the bug the other way round
};

// rotate_half over the first `span` dims, each dim at the angle of the pair it belongs to.
inline DimRotation half_split(int dim, int span, const Eigen::VectorXd& theta) {
    DimRotation r{std::vector<double>(static_cast<std::size_t>(dim), 0.0), std::vector<int>(static_cast<std::size_t>(dim)),
                  std::vector<int>(static_cast<std::size_t>(dim), 0)};
    const int half = span / 2;
    for (int j = 0; j < dim; ++j) {
        const auto u = static_cast<std::size_t>(j);
        r.partner[u] = j;
        if (j >= span) continue;
        const int pair = j % half;
        r.phi[u] = pair < theta.size() ? theta[pair] : 0.0;
        r.partner[u] = j < half ? j + half : j - half;
        r.sign[u] = j < half ? -1 : 1;
    }
    return r;
}

// The bug: the angles of `angles` (its cos/sin table), the partners of `pairs` (its rotate_half).
inline DimRotation mixed(const DimRotation& angles, const DimRotation& pairs) {
    DimRotation r = pairs;
    for (std::size_t j = 0; j < r.phi.size(); ++j) r.phi[j] = pairs.sign[j] != 0 ? angles.phi[j] : 0.0;
    return r;
}

inline TwoLayouts two_layouts(int dim, double fraction, double base) {
    TwoLayouts t;
    t.dim = dim;
    t.rotated = static_cast<int>(dim * fraction) / 2 * 2;
    t.turning = static_cast<int>(dim * fraction) / 2;
    t.partial_theta = t.rotated > 0 ? base_frequencies(base, t.rotated) : Eigen::VectorXd();
    t.proportional_theta = proportional_frequencies(base, dim, t.turning);
    t.partial = half_split(dim, t.rotated, t.partial_theta);
    t.proportional = half_split(dim, dim, t.proportional_theta);
    t.proportional_on_partial = mixed(t.proportional, t.partial);
    t.partial_on_proportional = mixed(t.partial, t.proportional);
    return t;
}

inline Eigen::VectorXd rotated(const DimRotation& r, const Eigen::VectorXd& x, double position) {
    Eigen::VectorXd y(x.size());
    for (Eigen::Index j = 0; j < x.size(); ++j) {
        const auto u = static_cast<std::size_t>(j);
        if (r.sign[u] == 0) {
            y[j] = x[j];
            continue;
        }
        const double a = position * r.phi[u];
        y[j] = x[j] * std::cos(a) + r.sign[u] * x[r.partner[u]] * std::sin(a);
    }
    return y;
}

}  // namespace rope::figures::detail::layouts
