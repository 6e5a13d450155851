#include "figures/heatmap_cells.hpp"

#include <algorithm>
#include <cmath>

#include "rope/frequencies.hpp"

namespace rope::figures {

HeatmapSpan heatmap_span(std::int64_t max_position, std::int64_t heatmap_from, std::int64_t heatmap_to) {
    HeatmapSpan s;
    s.from = std::min(heatmap_from, max_position - 1);
    s.to = heatmap_to == 0 || heatmap_to > max_position ? max_position : heatmap_to;
    if (s.to <= s.from) s.to = std::min(max_position, s.from + 1);
    return s;
}

int heatmap_columns(std::int64_t positions, float width_px) {
    const auto px = static_cast<std::int64_t>(std::max(1.0f, std::floor(width_px)));
    return static_cast<int>(std::max<std::int64_t>(1, std::min(positions, px)));
}

std::vector<plot::Tick> angle_colorbar_ticks() {
    return {{-kPi, "−180°"}, {-kPi / 2, "−90°"}, {0, "0°"}, {kPi / 2, "90°"}, {kPi, "180°"}};
}

int heatmap_rows(int pairs, float height_px) {
    return std::max(1, std::min(pairs, static_cast<int>(std::max(1.0f, std::floor(height_px)))));
}

namespace {

// Image row of grid row r: row 0 of the image is the top, the slowest pairs.
std::size_t image_row(const CellGrid& g, int r) { return static_cast<std::size_t>(g.rows - 1 - r) * g.cols; }

// One pair per row and only the angle: straight from the closed form, no sin/cos per cell.
void fast_angles(const Eigen::VectorXd& theta, HeatmapCells& out) {
    const CellGrid& g = out.grid;
    const CellColumns columns(g.position_edges);
    const std::size_t n = static_cast<std::size_t>(g.cols);
    std::vector<double> angle(n), magnitude(n);
    for (int k = 0; k < g.rows; ++k) {
        columns.angles(theta[k], angle.data(), magnitude.data());
        const std::size_t at = image_row(g, k);
        for (std::size_t c = 0; c < n; ++c) {
            out.values[at + c] = static_cast<float>(angle[c]);
            out.weights[at + c] = static_cast<float>(std::min(1.0, magnitude[c]));
        }
    }
}

// atan2 in float (the picture keeps a float per cell; |x|, |y| <= 1 here), to ~2e-7 rad: a Taylor
// series on |t| <= tan(pi/8) after folding the octants, branch-free so the compiler vectorises it.
// libm's atan2 per cell was half of a 512-pair build.
inline float display_angle(float y, float x) {
    constexpr float kPiF = static_cast<float>(kPi);
    const float ax = std::abs(x), ay = std::abs(y);
    const float hi = std::max(ax, ay), lo = std::min(ax, ay);
    // selects as arithmetic (0 or 1 factors), so the loop has no control flow to stop vectorising
    const float folded = static_cast<float>(lo > 0.41421356f * hi);  // t > tan(pi/8): pi/4 + atan((lo - hi) / (lo + hi))
    const float t = (lo - folded * hi) / (hi + folded * lo + 1e-30f);  // 0 / tiny = 0 for a zero mean
    const float t2 = t * t;
    // atan t = t (1 - t^2/3 + t^4/5 - ... + t^14/15)
    constexpr float c[8] = {1.0f, -1.0f / 3, 1.0f / 5, -1.0f / 7, 1.0f / 9, -1.0f / 11, 1.0f / 13, -1.0f / 15};
    float p = c[7];
    for (int k = 6; k >= 0; --k) p = c[k] + t2 * p;
    float a = t * p + folded * (kPiF / 4);
    a += static_cast<float>(ay > ax) * (kPiF / 2 - 2 * a);
    a += static_cast<float>(x < 0) * (kPiF - 2 * a);
    return std::copysign(a, y);
}

}  // namespace

HeatmapCells heatmap_cells(const Eigen::VectorXd& theta, std::int64_t from, std::int64_t to, int cols, int rows, HeatmapMode shown,
                           bool with_means) {
    HeatmapCells out;
    const int pairs = static_cast<int>(theta.size());
    const bool fast = !with_means && (shown == HeatmapMode::unwrapped || (shown == HeatmapMode::angle && rows >= pairs));
    if (fast) {
        // the cuts alone (cell_means with no pairs to average)
        out.grid = cell_means(Eigen::VectorXd(), from, to, cols, 0);
        out.grid.rows = std::clamp(rows, 1, std::max(1, pairs));
        const std::vector<std::int64_t> edges = cell_edges(0, pairs, out.grid.rows);
        out.grid.pair_edges.assign(edges.begin(), edges.end());
    } else {
        out.grid = cell_means(theta, from, to, cols, rows);
    }
    const CellGrid& g = out.grid;
    const std::size_t cells = static_cast<std::size_t>(g.cols) * g.rows;
    out.values.assign(cells, 0.0f);
    if (shown == HeatmapMode::angle) out.weights.assign(cells, 1.0f);
    if (fast && shown == HeatmapMode::angle) {
        fast_angles(theta, out);
        return out;
    }
    const std::size_t n = static_cast<std::size_t>(g.cols);
    for (int r = 0; r < g.rows; ++r) {
        float* v = out.values.data() + image_row(g, r);
        const double* mc = g.mean_cos.empty() ? nullptr : g.mean_cos.data() + r * n;
        const double* ms = g.mean_sin.empty() ? nullptr : g.mean_sin.data() + r * n;
        switch (shown) {
            case HeatmapMode::unwrapped: {
                // the unwrapped angle's mean over the cell: centre position x mean theta
                double mean_theta = 0;
                for (int k = g.pair_edges[r]; k < g.pair_edges[r + 1]; ++k) mean_theta += theta[k];
                mean_theta /= std::max(1, g.pair_edges[r + 1] - g.pair_edges[r]);
                for (std::size_t c = 0; c < n; ++c)
                    v[c] = static_cast<float>(0.5 * static_cast<double>(g.position_edges[c] + g.position_edges[c + 1] - 1) * mean_theta);
                break;
            }
            case HeatmapMode::cos:
                for (std::size_t c = 0; c < n; ++c) v[c] = static_cast<float>(mc[c]);
                break;
            case HeatmapMode::sin:
                for (std::size_t c = 0; c < n; ++c) v[c] = static_cast<float>(ms[c]);
                break;
            case HeatmapMode::angle:
            case HeatmapMode::a_minus_b: {  // (the heatmap passes θ_A − θ_B as theta and asks for angles)
                float* w = out.weights.data() + image_row(g, r);
                for (std::size_t c = 0; c < n; ++c) v[c] = display_angle(static_cast<float>(ms[c]), static_cast<float>(mc[c]));
                for (std::size_t c = 0; c < n; ++c) w[c] = static_cast<float>(std::min(1.0, std::sqrt(mc[c] * mc[c] + ms[c] * ms[c])));
                break;
            }
        }
    }
    return out;
}

bool heatmap_cell_at(std::int64_t from, std::int64_t to, int pairs, int cols, int rows, double x, double y, CellAt& out) {
    if (to <= from || pairs <= 0 || cols <= 0 || rows <= 0) return false;
    if (!(x >= static_cast<double>(from) && x < static_cast<double>(to)) || !(y >= -0.5 && y < pairs - 0.5)) return false;
    const std::vector<std::int64_t> columns = cell_edges(from, to, cols);
    const std::vector<std::int64_t> row_edges = cell_edges(0, pairs, rows);
    // the image spreads its columns and rows evenly over the axes
    const int c = std::clamp(static_cast<int>((x - static_cast<double>(from)) / static_cast<double>(to - from) * cols), 0, cols - 1);
    const int r = std::clamp(static_cast<int>((y + 0.5) / pairs * rows), 0, rows - 1);
    out.position_from = columns[c];
    out.position_to = columns[c + 1];
    out.pair_from = static_cast<int>(row_edges[r]);
    out.pair_to = static_cast<int>(row_edges[r + 1]);
    return true;
}

}  // namespace rope::figures
