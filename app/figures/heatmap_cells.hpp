// The cells of an angle heatmap, each the exact mean over the positions and pairs it covers (see
// rope/cell_means.hpp), turned into what the picture shows: the mean's angle faded by its magnitude,
// its cos or sin, or the mean unwrapped angle. Shared by the heatmap panel and the context panel.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <vector>

#include "plot/ticks.hpp"
#include "rope/cell_means.hpp"
#include "rope/param_ids.hpp"

namespace rope::figures {

struct HeatmapCells {
    CellGrid grid;                       // the cuts; mean_cos / mean_sin filled when asked for
    std::vector<float> values, weights;  // image layout, row 0 at the top = the slowest pairs; weights: angle only
};

// At most one column per pixel and per position; at most one row per pixel and per pair.
// The positions the heatmap shows, from..to (to not included): heatmap_from and heatmap_to within
// the context, at least one position (the figure and its alt text both read them so).
struct HeatmapSpan {
    std::int64_t from = 0, to = 1;
};
HeatmapSpan heatmap_span(std::int64_t max_position, std::int64_t heatmap_from, std::int64_t heatmap_to);

int heatmap_columns(std::int64_t positions, float width_px);
int heatmap_rows(int pairs, float height_px);

// The ticks of a cyclic angle colorbar (radians): −180°, −90°, 0°, 90°, 180°.
std::vector<plot::Tick> angle_colorbar_ticks();

// O(cols x pairs): closed forms per cell, no loop over positions.
HeatmapCells heatmap_cells(const Eigen::VectorXd& theta, std::int64_t from, std::int64_t to, int cols, int rows, HeatmapMode shown,
                           bool with_means);

// The cell under data point (x, y) of a heatmap showing [from, to) x pairs in cols x rows cells.
struct CellAt {
    std::int64_t position_from = 0, position_to = 0;  // [from, to)
    int pair_from = 0, pair_to = 0;                   // [from, to)
};
bool heatmap_cell_at(std::int64_t from, std::int64_t to, int pairs, int cols, int rows, double x, double y, CellAt& out);

}  // namespace rope::figures
