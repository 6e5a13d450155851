// Exact means of the phasor e^{i m theta} over a heatmap cell: a run of whole positions (and a run
// of pairs). A pixel column that showed one sampled position drew moire wherever a pair turns faster
// than the columns; the mean over every position the cell covers has a closed form (the Dirichlet
// kernel), so an honest cell costs no more than a sampled one:
//   mean over m in [a, a+n) of e^{i m theta} = e^{i (a + (n-1)/2) theta} * sin(n theta/2) / (n sin(theta/2)).
// Its angle is the cell's mean angle; its magnitude (1 for a pair that barely turns within the cell,
// near 0 for one that turns many times) is how much the colour means.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace rope {

struct PhasorMean {
    double cos = 1;  // mean of cos(m theta)
    double sin = 0;  // mean of sin(m theta)
    double magnitude() const;
    double angle() const;  // in (-pi, pi]; 0 when the mean is 0
};

// sin(n x / 2) / (n sin(x / 2)) for the wrapped angle x in (-pi, pi]: 1 at x = 0 (and for n = 1).
double dirichlet_ratio(std::int64_t n, double wrapped_theta);

// The mean of e^{i m theta} over the integer positions m in [from, to) (to > from).
PhasorMean mean_phasor(std::int64_t from, std::int64_t to, double theta);
// The same averaged over pairs [pair_from, pair_to) of `theta` (equal weight per pair).
PhasorMean mean_phasor(std::int64_t from, std::int64_t to, const Eigen::VectorXd& theta, int pair_from, int pair_to);

// Where a grid of `count` cells cuts the integer range [from, to): edge c = from + floor(c (to-from) / count),
// count + 1 edges. With count <= to - from every cell holds at least one position.
std::vector<std::int64_t> cell_edges(std::int64_t from, std::int64_t to, int count);

// The columns of a grid (cuts from cell_edges) and, for one pair at a time, every column's mean:
// O(columns) per pair with no sin/cos per cell (two per pair for the Dirichlet ratios; the phasors
// step from column to column, re-anchored to an exact sin/cos every kAnchor columns).
class CellColumns {
public:
    static constexpr int kAnchor = 16;
    explicit CellColumns(std::vector<std::int64_t> edges);
    int count() const { return static_cast<int>(size_.size()); }
    const std::vector<std::int64_t>& edges() const { return edges_; }
    // The mean's wrapped angle and magnitude per column.
    void angles(double theta, double* angle, double* magnitude) const;
    // The mean phasor of every column and row of pairs [pair_edges[r], pair_edges[r+1]) of theta,
    // into cos/sin[r * count() + c]. All pairs step together, column by column (vectorised over pairs).
    void means(const Eigen::VectorXd& theta, const std::vector<int>& pair_edges, double* cos, double* sin) const;

private:
    void ratios(double x) const;
    std::vector<std::int64_t> edges_, size_;
    std::vector<double> centre_;
    std::vector<unsigned char> larger_;  // size = smallest + 1 (cuts give two sizes only)
    std::vector<unsigned char> step_;    // centre[c+1] - centre[c] = smallest + step/2
    std::int64_t smallest_ = 0;
    bool two_sizes_ = true;
    mutable std::vector<double> ratio_, angle_;
};

// A grid of cells: columns cut positions [from, to), rows cut the pairs 0 .. pairs-1 (row 0 = pairs
// from pair_edges[0] = 0, the fastest). Each cell holds the mean phasor over its positions and pairs.
struct CellGrid {
    int cols = 0, rows = 0;
    std::vector<std::int64_t> position_edges;  // cols + 1: column c covers [edges[c], edges[c+1])
    std::vector<int> pair_edges;               // rows + 1: row r covers pairs [edges[r], edges[r+1])
    std::vector<double> mean_cos, mean_sin;    // [r * cols + c]
    PhasorMean at(int col, int row) const {
        const std::size_t i = static_cast<std::size_t>(row) * cols + col;
        return {mean_cos[i], mean_sin[i]};
    }
};

// cols is cut to to - from and rows to the number of pairs, so no cell is empty. O(cols x pairs).
CellGrid cell_means(const Eigen::VectorXd& theta, std::int64_t from, std::int64_t to, int cols, int rows);

// The wrapped mean angle and the magnitude of every cell of a one-pair-per-row grid, straight from
// the closed form (no sin/cos per cell: the angle is the centre's angle, turned by pi where the
// Dirichlet ratio is negative). angle/magnitude: [k * cols + c] for pair k. The heatmaps' fast path.
void cell_angles(const Eigen::VectorXd& theta, const std::vector<std::int64_t>& position_edges, std::vector<double>& angle,
                 std::vector<double>& magnitude);

}  // namespace rope
