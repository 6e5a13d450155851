#include "figures/heatmap_cells.hpp"

#include <algorithm>
#include <cmath>

namespace rope::figures {

int heatmap_columns(std::int64_t positions, float width_px) {
    const auto px = static_cast<std::int64_t>(std::max(1.0f, std::floor(width_px)));
    return static_cast<int>(std::max<std::int64_t>(1, std::min(positions, px)));
}

int heatmap_rows(int pairs, float height_px) {
    return std::max(1, std::min(pairs, static_cast<int>(std::max(1.0f, std::floor(height_px)))));
}

namespace {

// Image row of grid row r: row 0 of the image is the top, the slowest pairs.
std::size_t image_row(const CellGrid& g, int r) { return static_cast<std::size_t>(g.rows - 1 - r) * g.cols; }

// One pair per row and only the angle: straight from the closed form, no sin/cos per cell.
void fast_angles(const Eigen::VectorXd& theta, HeatmapCells& out) {
    CellGrid& g = out.grid;
    std::vector<double> angle, magnitude;
    cell_angles(theta, g.position_edges, angle, magnitude);
    const std::size_t n = static_cast<std::size_t>(g.cols);
    for (int k = 0; k < g.rows; ++k) {
        const std::size_t at = image_row(g, k), from = static_cast<std::size_t>(k) * n;
        for (std::size_t c = 0; c < n; ++c) {
            out.values[at + c] = static_cast<float>(angle[from + c]);
            out.weights[at + c] = static_cast<float>(std::min(1.0, magnitude[from + c]));
        }
    }
}

}  // namespace

HeatmapCells heatmap_cells(const Eigen::VectorXd& theta, std::int64_t from, std::int64_t to, int cols, int rows, CellShown shown,
                           bool with_means) {
    HeatmapCells out;
    const int pairs = static_cast<int>(theta.size());
    const bool fast = !with_means && (shown == CellShown::unwrapped || (shown == CellShown::angle && rows >= pairs));
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
    if (shown == CellShown::angle) out.weights.assign(cells, 1.0f);
    if (fast && shown == CellShown::angle) {
        fast_angles(theta, out);
        return out;
    }
    for (int r = 0; r < g.rows; ++r) {
        const std::size_t at = image_row(g, r);
        double mean_theta = 0;  // the unwrapped angle's mean over the cell: centre position x mean theta
        if (shown == CellShown::unwrapped) {
            for (int k = g.pair_edges[r]; k < g.pair_edges[r + 1]; ++k) mean_theta += theta[k];
            mean_theta /= std::max(1, g.pair_edges[r + 1] - g.pair_edges[r]);
        }
        for (int c = 0; c < g.cols; ++c) {
            float& v = out.values[at + c];
            if (shown == CellShown::unwrapped) {
                const double centre = 0.5 * static_cast<double>(g.position_edges[c] + g.position_edges[c + 1] - 1);
                v = static_cast<float>(centre * mean_theta);
                continue;
            }
            const PhasorMean m = g.at(c, r);
            if (shown == CellShown::cos) v = static_cast<float>(m.cos);
            else if (shown == CellShown::sin) v = static_cast<float>(m.sin);
            else {
                v = static_cast<float>(m.angle());
                out.weights[at + c] = static_cast<float>(std::min(1.0, m.magnitude()));
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
