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

void CellColumns::means(const Eigen::VectorXd& theta, const std::vector<int>& pair_edges, double* out_cos, double* out_sin) const {
    const std::size_t n = size_.size();
    const int pairs = pair_edges.empty() ? 0 : pair_edges.back();
    std::vector<double> x(pairs), r0(pairs), r1(pairs), step_cos(3 * static_cast<std::size_t>(pairs)), step_sin(step_cos.size());
    for (int k = 0; k < pairs; ++k) {
        x[k] = wrap_angle(theta[k]);
        r0[k] = dirichlet_ratio(smallest_, x[k]);
        r1[k] = dirichlet_ratio(smallest_ + 1, x[k]);
        // the three steps between neighbouring centres: smallest, smallest + 1/2, smallest + 1 positions
        for (int s = 0; s < 3; ++s) {
            const double a = wrap_angle(position_angle(static_cast<double>(smallest_) + 0.5 * s, x[k]));
            step_cos[s * pairs + k] = std::cos(a);
            step_sin[s * pairs + k] = std::sin(a);
        }
    }
    // zc + i zs: e^{i centre_c x_k} for every pair, stepped along the columns and re-anchored to an
    // exact sin/cos every kAnchor columns (the error of 16 complex products stays near 1e-15)
    std::vector<double> zc(pairs), zs(pairs), angle(pairs), wrapped(pairs), wc(pairs), ws(pairs);
    const int rows = static_cast<int>(pair_edges.size()) - 1;
    for (std::size_t c = 0; c < n; ++c) {
        if (c % kAnchor == 0 || !two_sizes_) {
            for (int k = 0; k < pairs; ++k) angle[k] = position_angle(centre_[c], x[k]);
            wrap_angles(angle.data(), wrapped.data(), angle.size());
            for (int k = 0; k < pairs; ++k) {
                zc[k] = std::cos(wrapped[k]);
                zs[k] = std::sin(wrapped[k]);
            }
        }
        const double* ratio = two_sizes_ ? (larger_[c] ? r1.data() : r0.data()) : nullptr;
        if (!two_sizes_) {
            for (int k = 0; k < pairs; ++k) wc[k] = dirichlet_ratio(size_[c], x[k]);
            ratio = wc.data();
        }
        for (int k = 0; k < pairs; ++k) {
            ws[k] = ratio[k] * zs[k];
            wc[k] = ratio[k] * zc[k];
        }
        for (int r = 0; r < rows; ++r) {
            double sc = 0, ss = 0;
            for (int k = pair_edges[r]; k < pair_edges[r + 1]; ++k) {
                sc += wc[k];
                ss += ws[k];
            }
            const double count = pair_edges[r + 1] - pair_edges[r];
            out_cos[static_cast<std::size_t>(r) * n + c] = sc / count;
            out_sin[static_cast<std::size_t>(r) * n + c] = ss / count;
        }
        const double* sc = step_cos.data() + step_[c] * pairs;
        const double* sn = step_sin.data() + step_[c] * pairs;
        for (int k = 0; k < pairs; ++k) {
            const double next = zc[k] * sc[k] - zs[k] * sn[k];
            zs[k] = zs[k] * sc[k] + zc[k] * sn[k];
            zc[k] = next;
        }
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
    if (g.rows > 0) CellColumns(g.position_edges).means(theta, g.pair_edges, g.mean_cos.data(), g.mean_sin.data());
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
