// Derived data that survives between frames: each entry is keyed by the values of its inputs and
// handed out as a shared, immutable result, so a caller keeps what it was given however the cache
// changes afterwards (other threads, later parameters).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "figures/heatmap_cells.hpp"
#include "figures/trained_reader.hpp"
#include "figures/lru_cache.hpp"
#include "rope/frequencies.hpp"
#include "rope/pair_usage.hpp"
#include "rope/params.hpp"

namespace rope::figures {

struct DecaySeries {
    std::vector<double> distance;
    std::vector<double> bound;
};
inline constexpr std::int64_t kDenseDistances = std::int64_t(1) << 20;
// The sweep panel's base range.
inline constexpr double kSweepMinBase = 1e2, kSweepMaxBase = 1e8;

// A stamp that only ever increases over the whole process: it goes up each time a background
// computation publishes a result. A figure drawn while one was missing is current only as long
// as the stamp has not moved since.
std::uint64_t background_stamp();

// A trained model's pair usage, every layer (the Trained model panel's data).
struct TrainedModel {
    std::string folder, architecture, layout, norm;
    int layers = 0, heads = 0, kv_heads = 0, head_dim = 0;
    bool attention_bias = false;
    std::vector<LayerPairUsage> usage;
};
struct TrainedState {
    std::shared_ptr<const TrainedModel> model;  // null while loading or after an error
    std::string error;
    double progress = 0;  // 0..1 while loading
    bool loading = false;
};

class FigureCache {
public:
    // `read_trained`: how the Trained model panel reads a model folder (the program's services); none:
    // that panel says this program reads no model folders.
    explicit FigureCache(TrainedReader read_trained = {});
    ~FigureCache();
    const TrainedReader& trained_reader() const { return read_trained_; }
    FigureCache(const FigureCache&) = delete;
    FigureCache& operator=(const FigureCache&) = delete;

    // All of these are safe to call from several threads at once.
    std::shared_ptr<const FrequencyTable> frequencies(const ParamSet& params);
    // The RoFormer bound for these frequencies at r = 0..max_distance: every distance up to
    // kDenseDistances, beyond that every distance of the first 65536 and then 16384 more spread
    // evenly on a log scale (a plot cannot show more, and a billion doubles would not fit).
    std::shared_ptr<const DecaySeries> decay(const Eigen::VectorXd& theta, std::int64_t max_distance);
    // log10(wavelength / context) over bases 1e2..1e8 (cols) x pairs: the sweep heatmap's values,
    // which do not depend on the current base.
    std::shared_ptr<const std::vector<float>> sweep_grid(int rotated_dims, double context, int cols);
    // A heatmap's cells without their means (heatmap_cells.hpp), for the heatmap panel and the
    // context panel's three grids: moving the position or pair marker rebuilds a panel, not its cells.
    std::shared_ptr<const HeatmapCells> heatmap_cells(const Eigen::VectorXd& theta, std::int64_t from, std::int64_t to, int cols, int rows,
                                                      HeatmapMode mode);
    // B(m) = sum_i cos(m theta_i) for m = 0..context, reduced to what `columns` pixel columns of a
    // linear or log axis can show: each column's least and greatest B(m), at their positions, from
    // every m up to exact_until (at least kDenseDistances; pairs x positions up to kExactCosineTerms),
    // from four samples a column beyond. first_negative: the first m <= exact_until with B(m) < 0, or -1.
    struct CosineSum {
        DecaySeries series;  // distance = m, bound = B(m)
        std::int64_t first_negative = -1;
        std::int64_t exact_until = 0;
    };
    static constexpr std::int64_t kExactCosineTerms = std::int64_t(1) << 30;
    std::shared_ptr<const CosineSum> cosine_sum(const Eigen::VectorXd& theta, std::int64_t context, int columns, bool log_x);
    // Men et al.'s lower bound of the base against context length (powers of two from 2^6 up to
    // max(2^14, context) capped at 2^20), computed on a background thread the first time it is
    // asked for: returns null until it is ready (then on_ready is called, from that thread, and
    // background_stamp() goes up). With wait = true it blocks instead (export, tests).
    struct BoundCurve {
        std::vector<double> context;
        std::vector<double> base;
    };
    std::shared_ptr<const BoundCurve> base_bound_curve(int rotated_dims, std::int64_t context, bool wait);
    // A figure's own data, computed once for every build that asks with the same inputs (a picture
    // beside model B is built twice, the second time on the ranges both share; moving a key the data
    // does not read rebuilds the picture only): keyed by `what` (one type per name), the values of
    // the parameters in `inputs` (the figure's `reads`) and one number of the figure's choosing (its
    // columns, say).
    template <typename T, typename Compute>
    std::shared_ptr<const T> figure_data(const char* what, const ParamSet& params, const std::vector<ParamId>& inputs, std::int64_t detail,
                                         Compute compute) {
        std::vector<ParamValue> key;
        key.reserve(inputs.size() + 1);
        for (ParamId id : inputs) key.push_back(params.value(id));
        key.emplace_back(detail);
        if (std::shared_ptr<const void> kept = find_figure_data(what, key)) return std::static_pointer_cast<const T>(kept);
        auto made = std::make_shared<const T>(compute());
        keep_figure_data(what, std::move(key), made);
        return made;
    }
    // The model folder of params[P::model] read on a background thread (one at a time: asking for another
    // cancels the one reading), keyed by the folder and each layer's rotated dims; with wait = true it
    // blocks (export, tests). cancel_trained() stops a read within a window of rows (the panel's
    // Cancel; the state then says "cancelled"); with forget, the next request reads the folder again
    // (Read again).
    TrainedState trained_model(const ParamSet& params, bool wait);
    void cancel_trained(bool forget = false);
    void set_on_ready(std::function<void()> callback);
    // How the cache may share a long computation out (the panels' workers): `run` runs the jobs,
    // on other threads too, and returns once each has run or been dropped (the cache then runs what
    // was dropped itself). Without it every computation runs on its caller's thread.
    using Parallel = std::function<void(std::vector<std::function<void()>>)>;
    void set_parallel(Parallel run);
    // Background jobs still running (tests wait for them to settle).
    bool background_busy() const;
    // Cancels the background jobs and joins their threads (the app, before it shuts down); a long
    // computation still running stops at its next chunk and throws, leaving nothing in the cache.
    void stop_background();
    // Idle memory: use_mark() before building a frame's figures, then release_unused(mark) drops the
    // cached decay curves no figure asked for since (the ones on screen stay, for the next move).
    std::uint64_t use_mark() const;
    void release_unused(std::uint64_t mark);
    std::uint64_t computations() const { return computations_; }  // for tests: what was recomputed
    // Each cache's entries, capacity, hits, misses and bytes (the soak report prints them).
    std::vector<std::pair<std::string, CacheStats>> stats() const;

private:
    std::shared_ptr<const void> find_figure_data(const char* what, const std::vector<ParamValue>& key);
    void keep_figure_data(const char* what, std::vector<ParamValue> key, std::shared_ptr<const void> data);
    struct Impl;
    std::unique_ptr<Impl> impl_;
    TrainedReader read_trained_;
    std::atomic<std::uint64_t> computations_{0};
    std::atomic<bool> stopping_{false};
};

// The bound curve from assets/base_bounds.csv up to `top` (null if the table does not cover it).
std::shared_ptr<const FigureCache::BoundCurve> known_base_bound_curve(int rotated_dims, std::int64_t top);
// One row of that table: base_lower_bound(rotated_dims, context) as the search finds it (inf where
// no base works), or nullopt where the table has no such row. A direct look-up in the table's text,
// without reading the whole table (`compute summary` starts in a few milliseconds).
std::optional<double> tabulated_base_lower_bound(int rotated_dims, std::int64_t context);

}  // namespace rope::figures
