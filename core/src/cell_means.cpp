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

namespace {

// Per column: the cell's size and centre position.
struct Columns {
    std::vector<std::int64_t> size;
    std::vector<double> centre;
    std::int64_t smallest = 0;
    explicit Columns(const std::vector<std::int64_t>& edges) {
        const std::size_t cols = edges.size() - 1;
        size.resize(cols);
        centre.resize(cols);
        smallest = cols ? edges[1] - edges[0] : 0;
        for (std::size_t c = 0; c < cols; ++c) {
            size[c] = edges[c + 1] - edges[c];
            centre[c] = static_cast<double>(edges[c]) + 0.5 * static_cast<double>(size[c] - 1);
            smallest = std::min(smallest, size[c]);
        }
    }
};

// The Dirichlet ratio of every column for one pair: the sizes take two values (floor cuts), so two
// sines per pair, not one per cell.
void column_ratios(const Columns& cols, double x, std::vector<double>& ratio) {
    const double r0 = dirichlet_ratio(cols.smallest, x), r1 = dirichlet_ratio(cols.smallest + 1, x);
    ratio.resize(cols.size.size());
    for (std::size_t c = 0; c < ratio.size(); ++c) {
        const std::int64_t n = cols.size[c];
        ratio[c] = n == cols.smallest ? r0 : n == cols.smallest + 1 ? r1 : dirichlet_ratio(n, x);
    }
}

}  // namespace

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
    const Columns columns(g.position_edges);
    std::vector<double> ratio, angle(n), wrapped(n);
    for (int r = 0; r < g.rows; ++r) {
        double* out_cos = g.mean_cos.data() + r * n;
        double* out_sin = g.mean_sin.data() + r * n;
        for (int k = g.pair_edges[r]; k < g.pair_edges[r + 1]; ++k) {
            const double x = wrap_angle(theta[k]);
            column_ratios(columns, x, ratio);
            for (std::size_t c = 0; c < n; ++c) angle[c] = position_angle(columns.centre[c], x);
            wrap_angles(angle.data(), wrapped.data(), n);
            for (std::size_t c = 0; c < n; ++c) {
                out_cos[c] += ratio[c] * std::cos(wrapped[c]);
                out_sin[c] += ratio[c] * std::sin(wrapped[c]);
            }
        }
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
    const Columns columns(position_edges);
    const std::size_t n = columns.size.size();
    const int pairs = static_cast<int>(theta.size());
    angle.resize(n * pairs);
    magnitude.resize(n * pairs);
    std::vector<double> ratio, centre_angle(n);
    for (int k = 0; k < pairs; ++k) {
        const double x = wrap_angle(theta[k]);
        column_ratios(columns, x, ratio);
        for (std::size_t c = 0; c < n; ++c) centre_angle[c] = position_angle(columns.centre[c], x);
        double* a = angle.data() + static_cast<std::size_t>(k) * n;
        wrap_angles(centre_angle.data(), a, n);
        double* mag = magnitude.data() + static_cast<std::size_t>(k) * n;
        for (std::size_t c = 0; c < n; ++c) {
            mag[c] = std::abs(ratio[c]);
            // a negative ratio points the mean the other way
            if (ratio[c] < 0) a[c] = a[c] > 0 ? a[c] - kPi : a[c] + kPi;
        }
    }
}

}  // namespace rope
