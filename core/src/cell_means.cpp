#include "rope/cell_means.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "rope/frequencies.hpp"
#include "rope/phasor.hpp"

namespace rope {

double PhasorMean::magnitude() const { return std::hypot(cos, sin); }
double PhasorMean::angle() const { return cos == 0 && sin == 0 ? 0.0 : std::atan2(sin, cos); }

double dirichlet_ratio(std::int64_t n, double wrapped_theta) {
    // x = theta/2 lies in (-pi/2, pi/2], so sin(x) is 0 only at x = 0 (theta a multiple of 2 pi),
    // where every phasor is 1. Small x needs no series: sin keeps its relative precision there.
    if (n <= 1 || wrapped_theta == 0) return 1.0;
    const double half = 0.5 * wrapped_theta;
    return std::sin(static_cast<double>(n) * half) / (static_cast<double>(n) * std::sin(half));
}

namespace {

// e^{i m theta} = e^{i m x} for integer m and x = theta wrapped; the closed form is evaluated with x,
// the centre angle too (a half-integer centre times theta would pick up a stray pi per turn of 2 pi).
PhasorMean mean_wrapped(std::int64_t from, std::int64_t n, double x) {
    const double ratio = dirichlet_ratio(n, x);
    const double centre = static_cast<double>(from) + 0.5 * static_cast<double>(n - 1);
    const double a = wrap_angle(position_angle(centre, x));
    return {ratio * std::cos(a), ratio * std::sin(a)};
}

}  // namespace

PhasorMean mean_phasor(std::int64_t from, std::int64_t to, double theta) {
    if (to <= from) throw std::invalid_argument("mean_phasor: empty position range");
    return mean_wrapped(from, to - from, wrap_angle(theta));
}

PhasorMean mean_phasor(std::int64_t from, std::int64_t to, const Eigen::VectorXd& theta, int pair_from, int pair_to) {
    if (pair_to <= pair_from) throw std::invalid_argument("mean_phasor: empty pair range");
    PhasorMean sum{0, 0};
    for (int k = pair_from; k < pair_to; ++k) {
        const PhasorMean m = mean_phasor(from, to, theta[k]);
        sum.cos += m.cos;
        sum.sin += m.sin;
    }
    const double count = pair_to - pair_from;
    return {sum.cos / count, sum.sin / count};
}

std::vector<std::int64_t> cell_edges(std::int64_t from, std::int64_t to, int count) {
    std::vector<std::int64_t> edges(static_cast<std::size_t>(count) + 1);
    const std::int64_t span = to - from;
    // c * span fits in 64 bits for any span a heatmap shows (count is a pixel count)
    for (int c = 0; c <= count; ++c) edges[c] = from + (static_cast<std::int64_t>(c) * span) / count;
    return edges;
}

CellColumns::CellColumns(std::vector<std::int64_t> edges) : edges_(std::move(edges)) {
    const std::size_t cols = edges_.size() > 0 ? edges_.size() - 1 : 0;
    size_.resize(cols);
    centre_.resize(cols);
    larger_.resize(cols);
    step_.assign(cols, 0);
    smallest_ = cols ? edges_[1] - edges_[0] : 0;
    for (std::size_t c = 0; c < cols; ++c) {
        size_[c] = edges_[c + 1] - edges_[c];
        centre_[c] = static_cast<double>(edges_[c]) + 0.5 * static_cast<double>(size_[c] - 1);
        smallest_ = std::min(smallest_, size_[c]);
    }
    for (std::size_t c = 0; c < cols; ++c) {
        two_sizes_ = two_sizes_ && size_[c] - smallest_ <= 1;
        larger_[c] = size_[c] != smallest_;
        if (c + 1 < cols) step_[c] = static_cast<unsigned char>(std::min<std::int64_t>(2, size_[c] + size_[c + 1] - 2 * smallest_));
    }
    ratio_.resize(cols);
    angle_.resize(cols);
}

// The Dirichlet ratio of every column for wrapped theta x: the sizes take two values (floor cuts),
// so two sines, not one per cell.
void CellColumns::ratios(double x) const {
    const double r0 = dirichlet_ratio(smallest_, x), r1 = dirichlet_ratio(smallest_ + 1, x);
    const std::size_t n = size_.size();
    if (two_sizes_)
        for (std::size_t c = 0; c < n; ++c) ratio_[c] = larger_[c] ? r1 : r0;
    else
        for (std::size_t c = 0; c < n; ++c) ratio_[c] = dirichlet_ratio(size_[c], x);
}

void CellColumns::angles(double theta, double* angle, double* magnitude) const {
    const double x = wrap_angle(theta);
    ratios(x);
    const std::size_t n = size_.size();
    for (std::size_t c = 0; c < n; ++c) angle_[c] = position_angle(centre_[c], x);
    wrap_angles(angle_.data(), angle, n);
    for (std::size_t c = 0; c < n; ++c) {
        magnitude[c] = std::abs(ratio_[c]);
        // a negative ratio points the mean the other way
        if (ratio_[c] < 0) angle[c] = angle[c] > 0 ? angle[c] - kPi : angle[c] + kPi;
    }
}

void CellColumns::add_phasors(double theta, double* out_cos, double* out_sin) const {
    const double x = wrap_angle(theta);
    ratios(x);
    const std::size_t n = size_.size();
    // the three steps between neighbouring centres: smallest, smallest + 1/2, smallest + 1 positions
    double step_cos[3], step_sin[3];
    for (int s = 0; s < 3; ++s) {
        const double a = wrap_angle(position_angle(static_cast<double>(smallest_) + 0.5 * s, x));
        step_cos[s] = std::cos(a);
        step_sin[s] = std::sin(a);
    }
    double zc = 1, zs = 0;
    for (std::size_t c = 0; c < n; ++c) {
        if (c % kAnchor == 0 || !two_sizes_) {
            const double a = wrap_angle(position_angle(centre_[c], x));
            zc = std::cos(a);
            zs = std::sin(a);
        }
        out_cos[c] += ratio_[c] * zc;
        out_sin[c] += ratio_[c] * zs;
        const int s = step_[c];
        const double nc = zc * step_cos[s] - zs * step_sin[s];
        zs = zs * step_cos[s] + zc * step_sin[s];
        zc = nc;
    }
}

CellGrid cell_means(const Eigen::VectorXd& theta, std::int64_t from, std::int64_t to, int cols, int rows) {
    if (to <= from) throw std::invalid_argument("cell_means: empty position range");
    const int pairs = static_cast<int>(theta.size());
    CellGrid g;
    g.cols = static_cast<int>(std::clamp<std::int64_t>(cols, 1, to - from));
    g.rows = std::clamp(rows, pairs > 0 ? 1 : 0, pairs);
    g.position_edges = cell_edges(from, to, g.cols);
    const std::vector<std::int64_t> pair_edges = cell_edges(0, pairs, std::max(1, g.rows));
    g.pair_edges.assign(pair_edges.begin(), pair_edges.end());
    if (g.rows == 0) g.pair_edges = {0};
    const std::size_t n = static_cast<std::size_t>(g.cols);
    g.mean_cos.assign(n * g.rows, 0.0);
    g.mean_sin.assign(n * g.rows, 0.0);
    const CellColumns columns(g.position_edges);
    for (int r = 0; r < g.rows; ++r) {
        double* out_cos = g.mean_cos.data() + r * n;
        double* out_sin = g.mean_sin.data() + r * n;
        for (int k = g.pair_edges[r]; k < g.pair_edges[r + 1]; ++k) columns.add_phasors(theta[k], out_cos, out_sin);
        const double count = g.pair_edges[r + 1] - g.pair_edges[r];
        for (std::size_t c = 0; c < n; ++c) {
            out_cos[c] /= count;
            out_sin[c] /= count;
        }
    }
    return g;
}

void cell_angles(const Eigen::VectorXd& theta, const std::vector<std::int64_t>& position_edges, std::vector<double>& angle,
                 std::vector<double>& magnitude) {
    const CellColumns columns(position_edges);
    const std::size_t n = static_cast<std::size_t>(columns.count());
    angle.resize(n * theta.size());
    magnitude.resize(n * theta.size());
    for (int k = 0; k < theta.size(); ++k) columns.angles(theta[k], angle.data() + k * n, magnitude.data() + k * n);
}

}  // namespace rope
