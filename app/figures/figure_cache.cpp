#include "figures/figure_cache.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <map>
#include <sstream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "figures/heatmap_cells.hpp"
#include "figures/lru_cache.hpp"
#include "rope/pair_usage.hpp"
#include "rope/bounds.hpp"
#include "rope/cosine_sums.hpp"
#include "rope/decay.hpp"
#include "rope/number_parse.hpp"
#include "tasks/background.hpp"
#include "base_bounds_table.hpp"

namespace rope::figures {

namespace {
std::atomic<std::uint64_t> g_background_stamp{1};
}  // namespace

std::uint64_t background_stamp() { return g_background_stamp.load(); }

namespace {

// A curve computed up to a longer context, cut at `top`: each point depends only on the ones before
// it, so this is exactly the curve a computation up to `top` gives.
std::shared_ptr<const FigureCache::BoundCurve> up_to(std::shared_ptr<const FigureCache::BoundCurve> curve, std::int64_t top) {
    if (!curve || curve->context.empty() || curve->context.back() <= static_cast<double>(top)) return curve;
    auto cut = std::make_shared<FigureCache::BoundCurve>();
    for (std::size_t i = 0; i < curve->context.size() && curve->context[i] <= static_cast<double>(top); ++i) {
        cut->context.push_back(curve->context[i]);
        cut->base.push_back(curve->base[i]);
    }
    return cut;
}

// assets/base_bounds.csv (see assets/make_base_bounds.sh): the curve for each rotated dims from 2
// to 1024, up to 2^20 positions as far as the search is tractable, so that dragging the dim
// slider needs no search. Read once.
const std::map<int, std::shared_ptr<const FigureCache::BoundCurve>>& known_base_bounds() {
    static const std::map<int, std::shared_ptr<const FigureCache::BoundCurve>> table = [] {
        std::map<int, FigureCache::BoundCurve> t;
        std::istringstream in(kTable_base_bounds_csv);
        std::string line;
        std::getline(in, line);  // header
        while (std::getline(in, line)) {  // rotated_dims,context,base (none: no base works)
            const std::size_t a = line.find(','), b = line.find(',', a + 1);
            if (b == std::string::npos) continue;
            const std::optional<std::int64_t> dims = parse_integer(std::string_view(line).substr(0, a));
            const std::optional<std::int64_t> context = parse_integer(std::string_view(line).substr(a + 1, b - a - 1));
            const std::string_view base = std::string_view(line).substr(b + 1);
            if (!dims || !context) continue;
            t[static_cast<int>(*dims)].context.push_back(static_cast<double>(*context));
            t[static_cast<int>(*dims)].base.push_back(base == "none" ? HUGE_VAL : parse_number(base).value_or(HUGE_VAL));
        }
        std::map<int, std::shared_ptr<const FigureCache::BoundCurve>> shared;
        for (auto& [dims, curve] : t) shared[dims] = std::make_shared<const FigureCache::BoundCurve>(std::move(curve));
        return shared;
    }();
    return table;
}

}  // namespace

std::shared_ptr<const FigureCache::BoundCurve> known_base_bound_curve(int rotated_dims, std::int64_t top) {
    const auto& table = known_base_bounds();
    const auto at = table.find(rotated_dims);
    if (at == table.end() || at->second->context.empty()) return nullptr;
    // the table stops only where the search stops being tractable, which the caller's top respects
    if (at->second->context.back() < static_cast<double>(top) && base_lower_bound_tractable(rotated_dims, top)) return nullptr;
    return up_to(at->second, top);
}

std::optional<double> tabulated_base_lower_bound(int rotated_dims, std::int64_t context) {
    const std::string_view table(kTable_base_bounds_csv);
    const std::string row = "\n" + std::to_string(rotated_dims) + "," + std::to_string(context) + ",";
    const std::size_t at = table.find(row);
    if (at == std::string_view::npos) return std::nullopt;
    const std::size_t from = at + row.size(), end = table.find('\n', from);
    const std::string_view base = table.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from);
    if (base == "none") return HUGE_VAL;
    return parse_number(base);
}

namespace {

std::vector<double> as_vector(const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

}  // namespace

// The caches' keys and kept values: in a named namespace, since FigureCache::Impl (a class of the
// header's) holds them.
namespace cache_entries {

struct DecayKey {
    std::vector<double> theta;
    std::int64_t max_distance;
    bool operator==(const DecayKey& o) const { return max_distance == o.max_distance && theta == o.theta; }
};
struct SweepKey {
    int rotated_dims;
    double context;
    int cols;
    bool operator==(const SweepKey& o) const { return rotated_dims == o.rotated_dims && context == o.context && cols == o.cols; }
};
struct CosineKey {
    std::vector<double> theta;
    std::int64_t context;
    int columns;
    bool log_x;
    bool operator==(const CosineKey& o) const {
        return context == o.context && columns == o.columns && log_x == o.log_x && theta == o.theta;
    }
};
struct CellsKey {
    std::vector<double> theta;
    std::int64_t from, to;
    int cols, rows;
    HeatmapMode mode;
    bool operator==(const CellsKey& o) const {
        return from == o.from && to == o.to && cols == o.cols && rows == o.rows && mode == o.mode && theta == o.theta;
    }
};

struct FigureDataKey {
    std::string what;
    std::vector<ParamValue> values;
    bool operator==(const FigureDataKey& o) const { return what == o.what && values == o.values; }
};
struct FigureData {
    std::shared_ptr<const void> data;
};

}  // namespace cache_entries

namespace {

std::size_t table_bytes(const FrequencyTable& t) { return static_cast<std::size_t>(t.theta.size() + t.original_theta.size()) * sizeof(double); }
std::size_t series_bytes(const DecaySeries& s) { return (s.distance.size() + s.bound.size()) * sizeof(double); }
std::size_t floats_bytes(const std::vector<float>& v) { return v.size() * sizeof(float); }
std::size_t cosine_bytes(const FigureCache::CosineSum& c) { return series_bytes(c.series); }
std::size_t cells_bytes(const HeatmapCells& c) { return (c.values.size() + c.weights.size()) * sizeof(float); }
std::size_t unknown_bytes(const cache_entries::FigureData&) { return 0; }

}  // namespace

struct FigureCache::Impl {
    std::mutex mutex;
    // Goes up with every request for a picture's heavy data (decay curves, heatmap cells): their
    // "last used", and use_mark()'s clock. The small results (frequencies, the sweep grid, the
    // cosine sum) keep the clock as it is, so asking for them (the controls do, every frame) does
    // not count as a frame that built pictures.
    std::uint64_t clock = 0;
    // The current model's frequencies: moving `position` reuses them.
    LruCache<std::vector<ParamValue>, FrequencyTable> freqs{1, table_bytes};
    // Decay series by (theta, max_distance): the sweep compares five bases, the context panel two.
    LruCache<cache_entries::DecayKey, DecaySeries> decays{12, series_bytes};
    LruCache<cache_entries::SweepKey, std::vector<float>> sweep{1, floats_bytes};
    LruCache<cache_entries::CosineKey, CosineSum> cosine{1, cosine_bytes};
    // The heatmap panel's cells and the context panel's three grids: moving the position or pair
    // marker rebuilds the panel but not its cells.
    LruCache<cache_entries::CellsKey, HeatmapCells> cells{4, cells_bytes};
    // Figures' own data (figure_data): A's and B's for a few figures at once.
    LruCache<cache_entries::FigureDataKey, cache_entries::FigureData> figure_data{8, unknown_bytes};
    struct BoundEntry {
        int rotated_dims = 0;
        std::int64_t top = 0;
        std::shared_future<std::shared_ptr<const BoundCurve>> job;
        std::shared_ptr<const BoundCurve> result;  // set (under the mutex) before anyone is told it is ready
        std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
    };
    std::vector<BoundEntry> bounds;
    // the trained model being read or read: one at a time
    struct TrainedJob {
        std::vector<ParamValue> key;
        std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
        std::shared_ptr<std::atomic<double>> progress = std::make_shared<std::atomic<double>>(0.0);
        std::shared_future<void> job;
        std::shared_ptr<const TrainedModel> model;  // set under the mutex when read
        std::string error;
        bool done = false;
    };
    std::shared_ptr<TrainedJob> trained;
    std::vector<std::shared_future<void>> cancelled_trained;  // joined by stop_background
    std::function<void()> on_ready;
    Parallel parallel;
};

FigureCache::FigureCache(TrainedReader read_trained) : impl_(std::make_unique<Impl>()), read_trained_(std::move(read_trained)) {}

bool FigureCache::background_busy() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    for (const auto& b : impl_->bounds)
        if (b.job.valid() && b.job.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return true;
    return impl_->trained && !impl_->trained->done;
}
FigureCache::~FigureCache() { stop_background(); }

void FigureCache::stop_background() {
    stopping_ = true;  // long computations in progress stop at their next chunk
    // background jobs hold a pointer to this cache: stop them, wait, and let their threads end
    std::vector<std::shared_future<std::shared_ptr<const BoundCurve>>> jobs;
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        impl_->on_ready = nullptr;
        impl_->parallel = nullptr;
        for (auto& b : impl_->bounds) {
            b.cancel->store(true);  // an exact search at 2^20 positions runs for a minute: stop it now
            jobs.push_back(b.job);
        }
    }
    for (auto& j : jobs) j.wait();
    std::vector<std::shared_future<void>> trained;
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        if (impl_->trained) {
            impl_->trained->cancel->store(true);
            if (impl_->trained->job.valid()) trained.push_back(impl_->trained->job);
        }
        for (auto& j : impl_->cancelled_trained) trained.push_back(j);
    }
    for (auto& j : trained) j.wait();
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->cancelled_trained.clear();
    impl_->bounds.clear();  // the last futures of finished async jobs: their threads are joined here
}

std::uint64_t FigureCache::use_mark() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    return impl_->clock;
}

void FigureCache::release_unused(std::uint64_t mark) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->decays.drop_unused_since(mark);
    impl_->cells.drop_unused_since(mark);
    impl_->figure_data.drop_unused_since(mark);
}

std::vector<std::pair<std::string, CacheStats>> FigureCache::stats() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    return {{"frequencies", impl_->freqs.stats()}, {"decay", impl_->decays.stats()},  {"sweep", impl_->sweep.stats()},
            {"cosine_sum", impl_->cosine.stats()}, {"heatmap_cells", impl_->cells.stats()},
            {"figure_data", impl_->figure_data.stats()}};
}

void FigureCache::set_on_ready(std::function<void()> callback) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->on_ready = std::move(callback);
}

void FigureCache::set_parallel(Parallel run) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->parallel = std::move(run);
}

namespace {

// Bin edges over positions 0..context, one bin per pixel column of a linear or logarithmic axis.
std::vector<std::int64_t> column_edges(std::int64_t context, int columns, bool log_x) {
    std::vector<std::int64_t> edges{0};
    const double top = static_cast<double>(std::max<std::int64_t>(context, 1));
    for (int c = 1; c < columns; ++c) {
        const double t = static_cast<double>(c) / columns;
        const double x = log_x ? std::exp(t * std::log(top)) : t * (top + 1);
        edges.push_back(std::clamp(static_cast<std::int64_t>(std::ceil(x)), edges.back(), context + 1));
    }
    edges.push_back(context + 1);
    return edges;
}

}  // namespace

std::shared_ptr<const FigureCache::CosineSum> FigureCache::cosine_sum(const Eigen::VectorXd& theta, std::int64_t context,
                                                                      int columns, bool log_x) {
    columns = std::max(columns, 1);
    cache_entries::CosineKey key{as_vector(theta), context, columns, log_x};
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        if (auto kept = impl_->cosine.find(key, impl_->clock)) return kept;
    }
    auto values = std::make_shared<CosineSum>();
    const std::int64_t pairs = std::max<Eigen::Index>(theta.size(), 1);
    const std::int64_t exact_end = std::min(context + 1, std::max<std::int64_t>(65536, kExactCosineTerms / pairs));
    values->exact_until = exact_end - 1;
    const std::vector<std::int64_t> edges = column_edges(context, columns, log_x);
    std::vector<std::int64_t> exact_edges(edges.size());
    std::transform(edges.begin(), edges.end(), exact_edges.begin(), [&](std::int64_t e) { return std::min(e, exact_end); });
    // Long sums in parts, shared out to the idle workers (a million positions of 512 pairs take
    // tens of milliseconds on one core): the merged parts are exactly the single pass's envelope.
    const std::int64_t work = pairs * exact_end;
    const int wanted = static_cast<int>(std::clamp<std::int64_t>(work / (std::int64_t(1) << 23), 1, 8));
    auto parts = std::make_shared<CosineEnvelopeParts>(theta, exact_edges, wanted);
    Parallel parallel;
    if (parts->size() > 1) {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        parallel = impl_->parallel;
    }
    if (parallel) {
        std::vector<std::function<void()>> jobs;
        for (int i = 0; i < parts->size(); ++i) jobs.push_back([parts, i, this] { parts->compute(i, &stopping_); });
        parallel(std::move(jobs));
    }
    for (int i = 0; i < parts->size(); ++i)
        if (!parts->done(i) && !parts->compute(i, &stopping_)) throw std::runtime_error("stopped");
    CosineEnvelope env = parts->merged();
    values->first_negative = env.first_negative;
    // beyond the exact part (only for very long contexts with many pairs): four samples a column
    std::optional<ExactCosineSum> sample;  // built when a column is beyond the exact part
    for (std::size_t b = 0; b + 1 < edges.size(); ++b) {
        const std::int64_t lo = std::max(edges[b], exact_end), hi = edges[b + 1];
        for (int s = 0; s < 4 && lo < hi; ++s) {
            const std::int64_t m = lo + (hi - 1 - lo) * s / 3;
            const double v = (sample ? sample : sample.emplace(theta))->at(m);
            if (!(env.low[b] <= v)) env.low[b] = v, env.low_at[b] = m;
            if (!(env.high[b] >= v)) env.high[b] = v, env.high_at[b] = m;
        }
    }
    // each column's two extremes, in position order
    std::vector<double>& m = values->series.distance;
    std::vector<double>& v = values->series.bound;
    for (std::size_t b = 0; b < env.low.size(); ++b) {
        if (env.low_at[b] < 0) continue;
        const bool low_first = env.low_at[b] <= env.high_at[b];
        const std::int64_t first_at = low_first ? env.low_at[b] : env.high_at[b], second_at = low_first ? env.high_at[b] : env.low_at[b];
        m.push_back(static_cast<double>(first_at));
        v.push_back(low_first ? env.low[b] : env.high[b]);
        if (second_at != first_at) {
            m.push_back(static_cast<double>(second_at));
            v.push_back(low_first ? env.high[b] : env.low[b]);
        }
        // A column of three or more positions is drawn as a band from its least to its greatest
        // value (Plot::line): the second extreme again says so, as the full curve would have.
        if (edges[b + 1] - edges[b] >= 3 && second_at != first_at) {
            m.push_back(m.back());
            v.push_back(v.back());
        }
    }
    ++computations_;
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->cosine.put(std::move(key), values, impl_->clock);
    return values;
}

std::shared_ptr<const FigureCache::BoundCurve> FigureCache::base_bound_curve(int rotated_dims, std::int64_t context, bool wait) {
    // powers of two from 64 to max(2^14, L), up to 2^20 and as far as the exact search stays quick
    std::int64_t top = std::int64_t(1) << 14;
    while (top < context && top < (std::int64_t(1) << 20) && base_lower_bound_tractable(rotated_dims, top * 2)) top *= 2;
    if (auto known = known_base_bound_curve(rotated_dims, top)) return known;
    std::shared_future<std::shared_ptr<const BoundCurve>> job;
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        auto& bounds = impl_->bounds;
        // One job at a time: a request for another curve cancels the running one (a slider dragged
        // across many dims computes only where it stops). Cancelled jobs leave once they have ended.
        bounds.erase(std::remove_if(bounds.begin(), bounds.end(),
                                    [](const Impl::BoundEntry& b) {
                                        return !b.result && b.cancel->load() &&
                                               b.job.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
                                    }),
                     bounds.end());
        bool busy = false;
        for (const auto& b : bounds) {
            if (b.rotated_dims == rotated_dims && b.top >= top && !b.cancel->load()) {
                if (b.result) return up_to(b.result, top);
                job = b.job;
            }
        }
        if (!job.valid()) {
            for (auto& b : bounds) {
                if (b.result) continue;
                busy = busy || !b.cancel->load();
                b.cancel->store(true);
            }
        }
        if (!job.valid() && busy && !wait) return nullptr;  // woken when the cancelled job has ended
        if (!job.valid()) {
            auto cancel = std::make_shared<std::atomic<bool>>(false);
            // well below the UI thread and the panels' builders: it takes seconds, they a frame
            job = tasks::start([this, rotated_dims, top, cancel] {
                      auto curve = std::make_shared<BoundCurve>();
                      std::vector<std::int64_t> contexts;
                      for (std::int64_t L = 64; L <= top; L *= 2) contexts.push_back(L);
                      const std::vector<double> bases = base_lower_bound_curve(rotated_dims, contexts, cancel.get());
                      curve->context.assign(contexts.begin(), contexts.begin() + static_cast<std::ptrdiff_t>(bases.size()));
                      curve->base = bases;
                      ++computations_;
                      // Publish the curve before bumping the stamp and waking the UI: a frame that
                      // sees the new stamp must also find the curve (the future itself only becomes
                      // ready after this lambda returns, which is too late to be asked).
                      std::function<void()> ready;
                      {
                          std::lock_guard<std::mutex> l(impl_->mutex);
                          if (!cancel->load())
                              for (auto& b : impl_->bounds)
                                  if (b.cancel == cancel) b.result = curve;
                          ready = impl_->on_ready;
                      }
                      ++g_background_stamp;
                      if (ready) ready();
                      return std::shared_ptr<const BoundCurve>(curve);
                  }, tasks::Priority::long_work);
            Impl::BoundEntry entry;
            entry.rotated_dims = rotated_dims;
            entry.top = top;
            entry.job = job;
            entry.cancel = cancel;
            bounds.push_back(std::move(entry));  // a few doubles each: kept
        }
    }
    if (wait) return up_to(job.get(), top);
    return nullptr;  // not published yet: the caller draws without it and is woken when it is
}

TrainedState FigureCache::trained_model(const ParamSet& params, bool wait) {
    TrainedState state;
    if (!params.has(P::model)) return state;
    // What the read depends on: the folder and each layer's rotated dims (the wavelengths are the
    // figure's, from the current keys: moving the base re-reads nothing)
    std::vector<ParamValue> key = {params.value(P::model)};
    for (int r : rotated_dims_by_layer(params)) key.emplace_back(static_cast<std::int64_t>(r));
    std::shared_ptr<Impl::TrainedJob> job;
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        auto& stopped = impl_->cancelled_trained;  // the threads of ended reads are joined here
        stopped.erase(std::remove_if(stopped.begin(), stopped.end(),
                                     [](const std::shared_future<void>& f) { return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }),
                      stopped.end());
        if (impl_->trained && impl_->trained->key == key) {
            job = impl_->trained;  // reading, read, failed or cancelled: Read again (cancel_trained(true)) starts anew
        } else {
            if (impl_->trained) {
                impl_->trained->cancel->store(true);
                if (impl_->trained->job.valid()) impl_->cancelled_trained.push_back(impl_->trained->job);
            }
            job = std::make_shared<Impl::TrainedJob>();
            job->key = key;
            impl_->trained = job;
            if (stopping_) {
                job->error = "stopping";
                job->done = true;
                return state;
            }
            // The thread holds the job weakly: the job holds the thread's future, and a strong pointer
            // back would keep both alive for ever (LeakSanitizer found the cycle).
            job->job = tasks::start([this, weak = std::weak_ptr<Impl::TrainedJob>(job), cancel = job->cancel,
                                     fraction = job->progress, params] {
                          std::shared_ptr<const TrainedModel> model;
                          std::string error;
                          double last_told = 0;
                          auto progress = [&](double f) {
                              fraction->store(f);
                              if (f - last_told >= 0.05) {  // redraw the bar every 5 %
                                  last_told = f;
                                  std::function<void()> ready;
                                  {
                                      std::lock_guard<std::mutex> l(impl_->mutex);
                                      ready = impl_->on_ready;
                                  }
                                  ++g_background_stamp;
                                  if (ready) ready();
                              }
                              return !cancel->load();
                          };
                          try {
                              if (!read_trained_) throw std::runtime_error("this program reads no model folders");
                              model = std::make_shared<const TrainedModel>(read_trained_(params, progress));
                          } catch (const std::exception& e) {
                              error = cancel->load() ? "cancelled" : e.what();
                          }
                          ++computations_;
                          std::function<void()> ready;
                          {
                              std::lock_guard<std::mutex> l(impl_->mutex);
                              if (const std::shared_ptr<Impl::TrainedJob> kept = weak.lock()) {
                                  kept->model = model;
                                  kept->error = error;
                                  kept->done = true;
                              }
                              ready = impl_->on_ready;
                          }
                          ++g_background_stamp;
                          if (ready) ready();
                      }, tasks::Priority::pictures);
        }
    }
    if (wait && job->job.valid()) job->job.wait();
    std::lock_guard<std::mutex> lock(impl_->mutex);
    state.model = job->model;
    state.error = job->error;
    state.progress = job->progress->load();
    state.loading = !job->done;
    return state;
}

void FigureCache::cancel_trained(bool forget) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (!impl_->trained) return;
    if (!impl_->trained->done) impl_->trained->cancel->store(true);
    if (forget) {  // the next request reads the folder again
        if (impl_->trained->job.valid()) impl_->cancelled_trained.push_back(impl_->trained->job);
        impl_->trained = nullptr;
    }
}

std::shared_ptr<const FrequencyTable> FigureCache::frequencies(const ParamSet& params) {
    // Only the values of the model's keys form the key, so moving `position` reuses the table.
    std::vector<ParamValue> key;
    for (ParamId k : params_in(kConfigScope)) key.push_back(params.value(k));
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        if (auto kept = impl_->freqs.find(key, impl_->clock)) return kept;
    }
    auto table = std::make_shared<const FrequencyTable>(compute_frequencies(params.config()));
    ++computations_;
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->freqs.put(std::move(key), table, impl_->clock);
    return table;
}

std::shared_ptr<const DecaySeries> FigureCache::decay(const Eigen::VectorXd& theta, std::int64_t max_distance) {
    cache_entries::DecayKey key{as_vector(theta), max_distance};
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        if (auto kept = impl_->decays.find(key, ++impl_->clock)) return kept;
    }
    // computed outside the lock, so two figures can compute their curves at once
    auto values = std::make_shared<DecaySeries>();
    DecayBound bound(theta);
    if (max_distance < kDenseDistances) {
        values->distance.resize(static_cast<std::size_t>(max_distance) + 1);
        for (std::size_t r = 0; r < values->distance.size(); ++r) values->distance[r] = static_cast<double>(r);
        values->bound.resize(values->distance.size());
        bound.compute(0, max_distance + 1, values->bound.data());
    } else {
        constexpr std::int64_t kHead = 65536, kTail = 16384;
        std::vector<double>& d = values->distance;
        for (std::int64_t r = 0; r < kHead; ++r) d.push_back(static_cast<double>(r));
        const double l0 = std::log(static_cast<double>(kHead)), l1 = std::log(static_cast<double>(max_distance));
        for (std::int64_t i = 1; i <= kTail; ++i) {
            const double r = std::round(std::exp(l0 + (l1 - l0) * static_cast<double>(i) / kTail));
            if (r > d.back()) d.push_back(std::min(r, static_cast<double>(max_distance)));
        }
        values->bound.resize(d.size());
        bound.compute(0, kHead, values->bound.data());
        for (std::size_t i = static_cast<std::size_t>(kHead); i < d.size(); ++i)
            bound.compute(static_cast<std::int64_t>(d[i]), 1, &values->bound[i]);
    }
    ++computations_;
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->decays.put(std::move(key), values, ++impl_->clock);
    return values;
}

std::shared_ptr<const std::vector<float>> FigureCache::sweep_grid(int rotated_dims, double context, int cols) {
    cache_entries::SweepKey key{rotated_dims, context, cols};
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        if (auto kept = impl_->sweep.find(key, impl_->clock)) return kept;
    }
    const int pairs = rotated_dims / 2;
    auto values = std::make_shared<std::vector<float>>(static_cast<std::size_t>(cols) * pairs);
    for (int c = 0; c < cols; ++c) {
        const double b = std::exp(std::log(kSweepMinBase) + (c + 0.5) / cols * (std::log(kSweepMaxBase) - std::log(kSweepMinBase)));
        const Eigen::VectorXd theta = base_frequencies(b, rotated_dims);
        for (int k = 0; k < pairs; ++k) {
            const double ratio = (kTwoPi / theta[k]) / context;
            (*values)[static_cast<std::size_t>(pairs - 1 - k) * cols + c] = static_cast<float>(std::log10(ratio));
        }
    }
    ++computations_;
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->sweep.put(key, values, impl_->clock);
    return values;
}

std::shared_ptr<const HeatmapCells> FigureCache::heatmap_cells(const Eigen::VectorXd& theta, std::int64_t from, std::int64_t to, int cols,
                                                                int rows, HeatmapMode mode) {
    cache_entries::CellsKey key{as_vector(theta), from, to, cols, rows, mode};
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        if (auto kept = impl_->cells.find(key, ++impl_->clock)) return kept;
    }
    auto cells = std::make_shared<HeatmapCells>(figures::heatmap_cells(theta, from, to, cols, rows, mode, false));
    cells->grid.mean_cos = {};  // the picture needs none of these
    cells->grid.mean_sin = {};
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->cells.put(std::move(key), cells, ++impl_->clock);
    return cells;
}

std::shared_ptr<const void> FigureCache::find_figure_data(const char* what, const std::vector<ParamValue>& key) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    const std::shared_ptr<const cache_entries::FigureData> kept = impl_->figure_data.find(cache_entries::FigureDataKey{what, key}, ++impl_->clock);
    return kept ? kept->data : nullptr;
}

void FigureCache::keep_figure_data(const char* what, std::vector<ParamValue> key, std::shared_ptr<const void> data) {
    ++computations_;
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->figure_data.put(cache_entries::FigureDataKey{what, std::move(key)}, std::make_shared<const cache_entries::FigureData>(cache_entries::FigureData{std::move(data)}), ++impl_->clock);
}

}  // namespace rope::figures
