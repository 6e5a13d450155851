// The app's figures: each panel's picture built from the parameters (every number from core/)
// into a DisplayList, plus the plot geometry the panel needs for mouse input and the data table
// behind the picture (the CSV export and the tests read it).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plot/display_list.hpp"
#include "plot/plot.hpp"
#include "plot/style.hpp"
#include "rope/frequencies.hpp"
#include "rope/params.hpp"

namespace rope::figures {

// The panels, in the order of their number keys (1-9). The first four are the basics page; the
// context-extension view has a page of its own; the last four explain why RoPE works.
enum class FigureId { vectors, heatmap, sweep, decay, context, scores, pairing, precision, sinusoidal };
inline constexpr std::array<FigureId, 9> kAllFigures = {FigureId::vectors,   FigureId::heatmap, FigureId::sweep,
                                                        FigureId::decay,     FigureId::context, FigureId::scores,
                                                        FigureId::pairing,   FigureId::precision,
                                                        FigureId::sinusoidal};
std::string_view figure_name(FigureId id);   // "vectors", "heatmap", ...
std::string_view figure_title(FigureId id);  // "Rotated vectors", ...
bool figure_from_name(std::string_view name, FigureId& out);
// A figure's size in a file when none is asked for: a blog column (800x480), and 1280x720 for the
// context-extension view, whose seven plots would crowd each other's labels in a column.
inline std::pair<int, int> default_export_size(FigureId id) {
    return id == FigureId::context ? std::pair<int, int>{1280, 720} : std::pair<int, int>{800, 480};
}

// Pixel <-> data mapping of one plot in a figure (copied out of plot::Plot after building).
struct PlotGeometry {
    std::string name;  // "pair", "fan", "qk", "heatmap", "sweep", "sweep_decay", "decay"
    plot::Rect area;
    double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
    bool x_log = false, y_log = false;
    double x_at(float px) const;
    double y_at(float py) const;
    plot::Vec2 px(double x, double y) const;
};

// The numbers behind a figure, column by column.
struct DataTable {
    std::vector<std::string> columns;
    std::vector<std::vector<double>> values;  // values[column][row]
    std::size_t rows() const { return values.empty() ? 0 : values[0].size(); }
};

struct FigureResult {
    plot::DisplayList list;
    std::vector<PlotGeometry> plots;
    DataTable table;
    bool incomplete = false;  // drawn while a background computation was still running
    bool error = false;       // building it failed (the list holds the message)
    std::uint64_t cache_generation = 0;  // FigureCache::generation() when the build started
    const PlotGeometry* plot(std::string_view name) const;
};

struct DecaySeries {
    std::vector<double> distance;
    std::vector<double> bound;
};
inline constexpr std::int64_t kDenseDistances = std::int64_t(1) << 20;

// Derived data that survives between frames, recomputed only when its inputs change.
class FigureCache {
public:
    FigureCache();
    ~FigureCache();
    FigureCache(const FigureCache&) = delete;
    FigureCache& operator=(const FigureCache&) = delete;

    // Safe to call from the figure-building threads.
    const FrequencyTable& frequencies(const ParamSet& params);
    // The RoFormer bound for these frequencies at r = 0..max_distance: every distance up to
    // kDenseDistances, beyond that every distance of the first 65536 and then 16384 more spread
    // evenly on a log scale (a plot cannot show more, and a billion doubles would not fit).
    std::shared_ptr<const DecaySeries> decay(const Eigen::VectorXd& theta, std::int64_t max_distance);
    // log10(wavelength / context) over bases 1e2..1e8 (cols) x pairs: the sweep heatmap's values,
    // which do not depend on the current base.
    std::shared_ptr<const std::vector<float>> sweep_grid(int rotated_dims, double context, int cols);
    // B(m) = sum_i cos(m theta_i) for m = 0..context (sampled like decay() beyond kDenseDistances)
    // and the first m where it is negative (-1: none up to the context).
    struct CosineSum {
        DecaySeries series;  // distance = m, bound = B(m)
        std::int64_t first_negative = -1;
    };
    std::shared_ptr<const CosineSum> cosine_sum(const Eigen::VectorXd& theta, std::int64_t context);
    // Men et al.'s lower bound of the base against context length (powers of two from 2^6 up to
    // max(2^14, context) capped at 2^20), computed on a background thread the first time it is
    // asked for: returns null until it is ready (then on_ready is called, from that thread, and
    // generation() goes up). With wait = true it blocks instead (export, tests).
    struct BoundCurve {
        std::vector<double> context;
        std::vector<double> base;
    };
    std::shared_ptr<const BoundCurve> base_bound_curve(int rotated_dims, std::int64_t context, bool wait);
    void set_on_ready(std::function<void()> callback);
    // Cancels the background jobs and joins their threads (the app, before it shuts down).
    void stop_background();
    // Idle memory: use_mark() before building a frame's figures, then release_unused(mark) drops the
    // cached decay curves no figure asked for since (the ones on screen stay, for the next move).
    std::uint64_t use_mark() const;
    void release_unused(std::uint64_t mark);
    std::uint64_t generation() const { return generation_; }
    std::uint64_t computations() const { return computations_; }  // for tests: what was recomputed

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::atomic<std::uint64_t> computations_{0};
    std::atomic<std::uint64_t> generation_{0};
};

struct FigureRequest {
    FigureId id = FigureId::decay;
    float width = 800, height = 500;  // figure pixels (already including the style's scale)
    plot::Style style;
    const plot::TextMeasure* measure = nullptr;
    bool with_table = false;  // fill FigureResult::table
    bool wait_for_background = true;  // false on screen: slow parts show "computing…" until ready
};

FigureResult build_figure(const FigureRequest& request, const ParamSet& params, FigureCache& cache);

// The sweep panel's base range.
inline constexpr double kSweepMinBase = 1e2, kSweepMaxBase = 1e8;

// The five bases the sweep panel compares: log-spaced around `base`, a decade either way.
std::array<double, 5> sweep_bases(double base);

}  // namespace rope::figures
