#include "figures/figures.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <map>
#include <mutex>

#include "figures/figure_builders.hpp"
#include "rope/bounds.hpp"
#include "rope/decay.hpp"

namespace rope::figures {

std::string_view figure_name(FigureId id) {
    switch (id) {
        case FigureId::vectors: return "vectors";
        case FigureId::heatmap: return "heatmap";
        case FigureId::sweep: return "sweep";
        case FigureId::decay: return "decay";
        case FigureId::context: return "context";
        case FigureId::scores: return "scores";
        case FigureId::pairing: return "pairing";
        case FigureId::precision: return "precision";
        case FigureId::sinusoidal: return "sinusoidal";
    }
    return "?";
}

std::string_view figure_title(FigureId id) {
    switch (id) {
        case FigureId::vectors: return "Rotated vectors";
        case FigureId::heatmap: return "Angle heatmap";
        case FigureId::sweep: return "Base sweep";
        case FigureId::decay: return "Long-range decay";
        case FigureId::context: return "Context extension";
        case FigureId::scores: return "Score matrix";
        case FigureId::pairing: return "Pairing layouts";
        case FigureId::precision: return "Numeric precision";
        case FigureId::sinusoidal: return "Absolute vs RoPE";
    }
    return "?";
}

bool figure_from_name(std::string_view name, FigureId& out) {
    for (FigureId id : kAllFigures)
        if (figure_name(id) == name) {
            out = id;
            return true;
        }
    return false;
}

double PlotGeometry::x_at(float p) const {
    const double t = (p - area.x0) / area.width();
    return x_log ? std::exp(std::log(x_min) + t * (std::log(x_max) - std::log(x_min))) : x_min + t * (x_max - x_min);
}

double PlotGeometry::y_at(float p) const {
    const double t = (area.y1 - p) / area.height();
    return y_log ? std::exp(std::log(y_min) + t * (std::log(y_max) - std::log(y_min))) : y_min + t * (y_max - y_min);
}

plot::Vec2 PlotGeometry::px(double x, double y) const {
    const double tx = x_log ? (std::log(x) - std::log(x_min)) / (std::log(x_max) - std::log(x_min)) : (x - x_min) / (x_max - x_min);
    const double ty = y_log ? (std::log(y) - std::log(y_min)) / (std::log(y_max) - std::log(y_min)) : (y - y_min) / (y_max - y_min);
    return {area.x0 + static_cast<float>(tx) * area.width(), area.y1 - static_cast<float>(ty) * area.height()};
}

const PlotGeometry* FigureResult::plot(std::string_view name) const {
    for (const PlotGeometry& g : plots)
        if (g.name == name) return &g;
    return nullptr;
}

struct FigureCache::Impl {
    std::mutex mutex;
    bool have_freqs = false;
    std::vector<std::pair<std::string, std::string>> freq_key;
    FrequencyTable freqs;
    // decay series keyed by (theta, max_distance); a few kept (the sweep compares five bases)
    struct DecayEntry {
        std::vector<double> theta;
        std::int64_t max_distance;
        std::shared_ptr<const DecaySeries> values;
        std::uint64_t last_use;
    };
    std::vector<DecayEntry> decays;
    std::uint64_t clock = 0;
    struct SweepEntry {
        int rotated_dims = 0;
        double context = 0;
        int cols = 0;
        std::shared_ptr<const std::vector<float>> values;
    } sweep;
    struct CosineEntry {
        std::vector<double> theta;
        std::int64_t context = -1;
        std::shared_ptr<const CosineSum> values;
    } cosine;
    struct BoundEntry {
        int rotated_dims = 0;
        std::int64_t top = 0;
        std::shared_future<std::shared_ptr<const BoundCurve>> job;
        std::shared_ptr<const BoundCurve> result;  // set (under the mutex) before anyone is told it is ready
        std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
    };
    std::vector<BoundEntry> bounds;
    std::function<void()> on_ready;
};

FigureCache::FigureCache() : impl_(std::make_unique<Impl>()) {}
FigureCache::~FigureCache() { stop_background(); }

void FigureCache::stop_background() {
    // background jobs hold a pointer to this cache: stop them, wait, and let their threads end
    std::vector<std::shared_future<std::shared_ptr<const BoundCurve>>> jobs;
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        impl_->on_ready = nullptr;
        for (auto& b : impl_->bounds) {
            b.cancel->store(true);  // an exact search at 2^20 positions runs for a minute: stop it now
            jobs.push_back(b.job);
        }
    }
    for (auto& j : jobs) j.wait();
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->bounds.clear();  // the last futures of finished async jobs: their threads are joined here
}

std::uint64_t FigureCache::use_mark() const {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    return impl_->clock;
}

void FigureCache::release_unused(std::uint64_t mark) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    auto& d = impl_->decays;
    d.erase(std::remove_if(d.begin(), d.end(), [mark](const Impl::DecayEntry& e) { return e.last_use <= mark; }), d.end());
    d.shrink_to_fit();
}

void FigureCache::set_on_ready(std::function<void()> callback) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->on_ready = std::move(callback);
}

std::shared_ptr<const FigureCache::CosineSum> FigureCache::cosine_sum(const Eigen::VectorXd& theta, std::int64_t context) {
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        const auto& e = impl_->cosine;
        if (e.values && e.context == context && static_cast<Eigen::Index>(e.theta.size()) == theta.size() &&
            std::equal(e.theta.begin(), e.theta.end(), theta.data()))
            return e.values;
    }
    auto values = std::make_shared<CosineSum>();
    std::vector<double>& m = values->series.distance;
    std::vector<double>& b = values->series.bound;
    const std::int64_t dense = std::min(context + 1, kDenseDistances);
    m.resize(static_cast<std::size_t>(dense));
    for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<double>(i);
    b.resize(m.size());
    rope::cosine_sum(theta, 0, dense, b.data());
    if (context + 1 > dense) {
        constexpr std::int64_t kTail = 16384;
        const double l0 = std::log(static_cast<double>(dense)), l1 = std::log(static_cast<double>(context));
        for (std::int64_t i = 1; i <= kTail; ++i) {
            const double r = std::round(std::exp(l0 + (l1 - l0) * static_cast<double>(i) / kTail));
            if (r > m.back()) m.push_back(std::min(r, static_cast<double>(context)));
        }
        b.resize(m.size());
        for (std::size_t i = static_cast<std::size_t>(dense); i < m.size(); ++i)
            rope::cosine_sum(theta, static_cast<std::int64_t>(m[i]), 1, &b[i]);
    }
    const auto neg = std::find_if(b.begin(), b.begin() + dense, [](double v) { return v < 0; });
    if (neg != b.begin() + dense) values->first_negative = neg - b.begin();
    else if (context >= dense)  // beyond the dense part: scan exactly (bounded, it is linear in the context)
        values->first_negative = first_negative_position(theta, std::min<std::int64_t>(context, std::int64_t(1) << 23));
    ++computations_;
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->cosine = {std::vector<double>(theta.data(), theta.data() + theta.size()), context, values};
    return values;
}

std::shared_ptr<const FigureCache::BoundCurve> FigureCache::base_bound_curve(int rotated_dims, std::int64_t context, bool wait) {
    // powers of two from 64 to max(2^14, L), up to 2^20 and as far as the exact search stays quick
    std::int64_t top = std::int64_t(1) << 14;
    while (top < context && top < (std::int64_t(1) << 20) && base_lower_bound_tractable(rotated_dims, top * 2)) top *= 2;
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
                if (b.result) return b.result;
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
            job = std::async(std::launch::async, [this, rotated_dims, top, cancel] {
                      auto curve = std::make_shared<BoundCurve>();
                      std::vector<std::int64_t> contexts;
                      for (std::int64_t L = 64; L <= top; L *= 2) contexts.push_back(L);
                      const std::vector<double> bases = base_lower_bound_curve(rotated_dims, contexts, cancel.get());
                      curve->context.assign(contexts.begin(), contexts.begin() + static_cast<std::ptrdiff_t>(bases.size()));
                      curve->base = bases;
                      ++computations_;
                      // Publish the curve before bumping the generation and waking the UI: a frame that
                      // sees the new generation must also find the curve (the future itself only becomes
                      // ready after this lambda returns, which is too late to be asked).
                      std::function<void()> ready;
                      {
                          std::lock_guard<std::mutex> l(impl_->mutex);
                          if (!cancel->load())
                              for (auto& b : impl_->bounds)
                                  if (b.cancel == cancel) b.result = curve;
                          ready = impl_->on_ready;
                      }
                      ++generation_;
                      if (ready) ready();
                      return std::shared_ptr<const BoundCurve>(curve);
                  }).share();
            Impl::BoundEntry entry;
            entry.rotated_dims = rotated_dims;
            entry.top = top;
            entry.job = job;
            entry.cancel = cancel;
            bounds.push_back(std::move(entry));  // a few doubles each: kept
        }
    }
    if (wait) return job.get();
    return nullptr;  // not published yet: the caller draws without it and is woken when it is
}

const FrequencyTable& FigureCache::frequencies(const ParamSet& params) {
    // Only the keys the frequencies depend on form the key, so moving `position` reuses them.
    std::vector<std::pair<std::string, std::string>> key;
    for (const char* k : {"dim", "base", "rotary_fraction", "scaling", "factor", "original_max_position",
                          "sequence_length", "low_freq_factor", "high_freq_factor", "beta_fast", "beta_slow", "mscale",
                          "mscale_all_dim", "truncate", "long_factors", "short_factors", "attention_factor"})
        key.emplace_back(k, params.value_text(k));
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (!impl_->have_freqs || key != impl_->freq_key) {
        impl_->freqs = compute_frequencies(params.config());
        impl_->freq_key = std::move(key);
        impl_->have_freqs = true;
        ++computations_;
    }
    return impl_->freqs;
}

std::shared_ptr<const DecaySeries> FigureCache::decay(const Eigen::VectorXd& theta, std::int64_t max_distance) {
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        ++impl_->clock;
        for (auto& e : impl_->decays) {
            if (e.max_distance == max_distance && static_cast<Eigen::Index>(e.theta.size()) == theta.size() &&
                std::equal(e.theta.begin(), e.theta.end(), theta.data())) {
                e.last_use = impl_->clock;
                return e.values;
            }
        }
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
    if (impl_->decays.size() >= 12) {
        auto oldest = std::min_element(impl_->decays.begin(), impl_->decays.end(),
                                       [](const auto& a, const auto& b) { return a.last_use < b.last_use; });
        impl_->decays.erase(oldest);
    }
    Impl::DecayEntry e;
    e.theta.assign(theta.data(), theta.data() + theta.size());
    e.max_distance = max_distance;
    e.values = values;
    e.last_use = ++impl_->clock;
    impl_->decays.push_back(std::move(e));
    return values;
}

std::shared_ptr<const std::vector<float>> FigureCache::sweep_grid(int rotated_dims, double context, int cols) {
    {
        std::lock_guard<std::mutex> lock(impl_->mutex);
        const auto& s = impl_->sweep;
        if (s.values && s.rotated_dims == rotated_dims && s.context == context && s.cols == cols) return s.values;
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
    impl_->sweep = {rotated_dims, context, cols, values};
    return values;
}

std::array<double, 5> sweep_bases(double base) {
    std::array<double, 5> b{};
    for (int i = 0; i < 5; ++i) b[i] = base * std::pow(10.0, 0.5 * (i - 2));
    for (double& v : b) v = std::max(v, 1.0 + 1e-9);
    return b;
}

namespace detail {

void record_geometry(BuildContext& ctx, plot::Plot& p, const std::string& name, const plot::AxisSetup& x,
                     const plot::AxisSetup& y) {
    PlotGeometry g;
    g.name = name;
    g.area = p.area();
    g.x_min = x.min;
    g.x_max = x.max;
    g.y_min = y.min;
    g.y_max = y.max;
    g.x_log = x.log;
    g.y_log = y.log;
    ctx.result.plots.push_back(g);
}

std::string angle_text(double radians) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.4f rad (%.1f°)", radians, radians * 180.0 / kPi);
    std::string s = buf;
    if (s[0] == '-') s = "−" + s.substr(1);
    return s;
}

}  // namespace detail

FigureResult build_figure(const FigureRequest& request, const ParamSet& params, FigureCache& cache) {
    FigureResult result;
    result.cache_generation = cache.generation();
    result.list.width = request.width;
    result.list.height = request.height;
    result.list.background = request.style.theme.background;
    plot::ApproximateTextMeasure fallback;
    detail::BuildContext ctx{request, params, cache, result, request.measure ? *request.measure : fallback};
    switch (request.id) {
        case FigureId::vectors: detail::build_vectors(ctx); break;
        case FigureId::heatmap: detail::build_heatmap(ctx); break;
        case FigureId::sweep: detail::build_sweep(ctx); break;
        case FigureId::decay: detail::build_decay(ctx); break;
        case FigureId::context: detail::build_context(ctx); break;
        case FigureId::scores: detail::build_scores(ctx); break;
        case FigureId::pairing: detail::build_pairing(ctx); break;
        case FigureId::precision: detail::build_precision(ctx); break;
        case FigureId::sinusoidal: detail::build_sinusoidal(ctx); break;
    }
    return result;
}

}  // namespace rope::figures
