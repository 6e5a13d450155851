#include "rope/bounds.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "rope/cosine_sums.hpp"
#include "rope/frequencies.hpp"
#include "rope/phasor.hpp"

namespace rope {

int critical_dimension(int rotated_dims, double base, double train_length) {
    const double half = rotated_dims / 2.0;
    const double x = half * std::log(train_length / kTwoPi) / std::log(base);
    const double d_extra = 2.0 * std::ceil(x - 1e-12);  // guard against x landing a hair above an integer
    return static_cast<int>(std::clamp(d_extra, 0.0, static_cast<double>(rotated_dims)));
}

double extrapolation_bound(int rotated_dims, double base, double train_length) {
    return kTwoPi * std::pow(base, static_cast<double>(critical_dimension(rotated_dims, base, train_length)) / rotated_dims);
}

int critical_dimension(const RopeConfig& config, double train_length) {
    const int turning = 2 * config.rotating_pairs();
    if (turning == 0) return 0;
    return std::min(critical_dimension(config.rotated_dims(), config.base, train_length), turning);
}

double extrapolation_bound(const RopeConfig& config, double train_length) {
    if (config.rotating_pairs() == 0) return std::numeric_limits<double>::quiet_NaN();
    const int critical = critical_dimension(config, train_length);
    // every turning dim completes a period within training: no dim is left that the paper's bound
    // would stop at (Gemma 4's global layers: the slowest turning pair's wavelength is ~188 tokens)
    if (critical >= 2 * config.rotating_pairs()) return std::numeric_limits<double>::infinity();
    return kTwoPi * std::pow(config.base, static_cast<double>(critical) / config.rotated_dims());
}

double zero_pair_base_lower_bound(const RopeConfig& config) {
    const int turning = config.rotating_pairs();
    const int zero = config.rotated_pairs() - turning;
    if (zero > 0 && zero >= turning) return 1.0;
    return std::numeric_limits<double>::quiet_NaN();
}

std::int64_t first_negative_position(const Eigen::VectorXd& theta, std::int64_t context) {
    // fast sums over every position; the exact scheme decides the sign wherever they are in doubt
    if (context < 0) return -1;
    return cosine_sum_envelope(theta, {0, context + 1}).first_negative;
}

void cosine_sum(const Eigen::VectorXd& theta, std::int64_t first, std::int64_t count, double* out) {
    const int pairs = static_cast<int>(theta.size());
    constexpr std::int64_t kRows = 256;
    std::vector<double> c(static_cast<std::size_t>(kRows) * pairs);
    PhasorGenerator gen(theta);
    for (std::int64_t done = 0; done < count; done += kRows) {
        const std::int64_t n = std::min(kRows, count - done);
        gen.fill(first + done, n, c.data(), nullptr, pairs);
        for (std::int64_t r = 0; r < n; ++r) {
            double sum = 0;
            for (int k = 0; k < pairs; ++k) sum += c[static_cast<std::size_t>(r) * pairs + k];
            out[done + r] = sum;
        }
    }
}

namespace {

constexpr double kLargestBase = 1e15;  // the searches give up above this base (and answer +inf)

// The smallest base with B(m) = sum_i cos(m theta_i) >= 0 for every m in [0, context], found by a
// certified sweep upward in u = ln(base). The feasible bases are not an interval: islands of them a
// few 1e-4 decades wide lie below the first feasible base of any practical grid (d = 128, L = 4096:
// 26952 feasible, a 1/200-decade grid finds 28629), so no grid search is trusted. Instead every
// infeasible u hands over a witness m with B(m) < 0 and a step over which B(m) provably stays
// negative, from bounds on its derivatives in u (theta_i = e^(-a_i u), a_i = 2i/d, phi = m theta_i):
//   |dB/du| <= m S,  S = sum_i a_i theta_i;   |d2B/du2| <= M2 = sum_i a_i^2 (phi^2 + phi),
// both largest at the start of the step since every theta_i falls as u grows. Every base skipped is
// thus infeasible, and the sweep stops at the first base whose full scan finds no negative sum.
// Witnesses come from, in order of cost: the neighbours of the last one (negative stretches drift
// along m as the base grows), a pool of the most promising positions of the last full scan, and a new
// full scan when neither gives a step worth taking.
class BaseBoundSearch {
public:
    BaseBoundSearch(int rotated_dims, std::int64_t context, const std::atomic<bool>* cancel)
        : pairs_(std::max(1, rotated_dims / 2)), context_(context), cancel_(cancel), a_(pairs_), theta_(pairs_),
          run_cos_(pairs_), run_sin_(pairs_), step_cos_(pairs_), step_sin_(pairs_),
          sums_(static_cast<std::size_t>(kScanRows)) {
        for (int i = 0; i < pairs_; ++i) a_[i] = 2.0 * i / (2.0 * pairs_);
    }

    // The smallest feasible base at or above `from` (a base known to be at most the answer); +inf if
    // none up to kLargestBase, NaN if cancelled.
    double smallest_feasible_base(double from) {
        if (context_ <= 1) return from;  // B(0) = d/2 and every theta_i <= 1 keeps cos(theta_i) > 0
        double u = std::log(from);
        const double u_max = std::log(kLargestBase);
        double reference_step = 0;  // the best step the last full scan offered
        while (u <= u_max) {
            if (cancel_ && cancel_->load(std::memory_order_relaxed)) return std::numeric_limits<double>::quiet_NaN();
            set_base(u);
            const double worth = 0.05 * reference_step;
            double step = neighbour_step();
            if (step < worth) step = std::max(step, pool_step(2 * worth));
            if (step < worth || step == 0) {
                // no negative sum anywhere: feasible, once the plain scan (one sum order, the one the
                // sweep panel's readout uses) agrees on sums within rounding of zero
                if (!full_scan()) {
                    if (first_negative_position(Eigen::Map<const Eigen::VectorXd>(theta_.data(), pairs_), context_) < 0)
                        return std::exp(u);
                    u += 1e-12;
                    continue;
                }
                step = pool_step(std::numeric_limits<double>::infinity());
                reference_step = step;
            }
            if (slope_ == 0) return std::numeric_limits<double>::infinity();  // one pair: theta_0 = 1 whatever the base
            u += std::max(step * (1 - 1e-9), 1e-12);
        }
        return std::numeric_limits<double>::infinity();
    }

private:
    static constexpr std::int64_t kScanRows = 1 << 14;
    // Neighbours (each side of the last witness) and pool members cost a rotation or a sincos per
    // pair each time they are asked: fewer for wide heads, where each step costs more anyway.
    std::int64_t neighbours() const { return std::clamp(16384 / pairs_, 8, 256); }
    std::size_t pool_size() const { return static_cast<std::size_t>(std::clamp(32768 / pairs_, 16, 512)); }
    static constexpr double kPoolMargin = 0.5;  // near-negative positions join the pool: they turn negative next

    // the app's own frequencies at base e^u, so that the answer is feasible for them to the last bit
    void set_base(double u) {
        const Eigen::VectorXd theta = base_frequencies(std::exp(u), 2 * pairs_);
        slope_ = 0;
        for (int i = 0; i < pairs_; ++i) {
            theta_[i] = theta[i];
            slope_ += a_[i] * theta_[i];
        }
    }

    // The certified step of position m given B(m) = sum (< 0) and the sines of its angles.
    double certified_step(std::int64_t m, double sum, const double* sines) const {
        const double md = static_cast<double>(m);
        double d1 = 0, d2 = 0;
        for (int i = 0; i < pairs_; ++i) {
            const double phi = md * theta_[i];
            d1 += sines[i] * phi * a_[i];
            d2 += a_[i] * a_[i] * (phi * phi + phi);
        }
        const double first_order = -sum / (md * slope_);
        const double second_order = d2 > 0 ? (-d1 + std::sqrt(d1 * d1 - 2 * d2 * sum)) / d2 : 0;
        return std::max(first_order, second_order);
    }

    // Positions around the last witness, stepped by rotation (one sincos per pair for the whole run).
    double neighbour_step() {
        if (witness_ < 0) return 0;
        const std::int64_t lo = std::max<std::int64_t>(1, witness_ - neighbours()), hi = std::min(context_, witness_ + neighbours());
        for (int i = 0; i < pairs_; ++i) {
            run_cos_[i] = std::cos(static_cast<double>(lo) * theta_[i]);
            run_sin_[i] = std::sin(static_cast<double>(lo) * theta_[i]);
            step_cos_[i] = std::cos(theta_[i]);
            step_sin_[i] = std::sin(theta_[i]);
        }
        double best = 0;
        std::int64_t best_m = witness_;
        for (std::int64_t m = lo; m <= hi; ++m) {
            const double sum = row_sum(run_cos_.data());
            if (sum < 0) {
                const double s = certified_step(m, sum, run_sin_.data());
                if (s > best) best = s, best_m = m;
            }
            for (int i = 0; i < pairs_; ++i) {
                const double c = run_cos_[i] * step_cos_[i] - run_sin_[i] * step_sin_[i];
                run_sin_[i] = run_sin_[i] * step_cos_[i] + run_cos_[i] * step_sin_[i];
                run_cos_[i] = c;
            }
        }
        witness_ = best_m;
        return best;
    }

    // The pool's positions, evaluated directly, until one gives at least `enough`.
    double pool_step(double enough) {
        double best = 0;
        for (std::int64_t m : pool_) {
            double sum = 0;
            for (int i = 0; i < pairs_; ++i) {
                const double phi = static_cast<double>(m) * theta_[i];
                run_cos_[i] = std::cos(phi);
                run_sin_[i] = std::sin(phi);
                sum += run_cos_[i];
            }
            if (sum < 0) {
                const double s = certified_step(m, sum, run_sin_.data());
                if (s > best) best = s, witness_ = m;
                if (best >= enough) break;
            }
        }
        return best;
    }

    // B(m) for every m in [1, context]: false if none is negative; else the pool becomes the
    // positions with the lowest B(m)/m (the longest certified steps), near-negative ones included.
    bool full_scan() {
        const Eigen::Map<const Eigen::VectorXd> theta(theta_.data(), pairs_);
        FastCosineSum fast(theta);
        const double doubt = fast.error_bound(context_ + 1);
        candidates_.clear();
        bool any_negative = false;
        std::optional<ExactCosineSum> exact;  // built the first time a sum is in doubt
        for (std::int64_t first = 0; first <= context_; first += kScanRows) {
            const std::int64_t n = std::min(kScanRows, context_ + 1 - first);
            fast.compute(first, n, sums_.data());
            for (std::int64_t r = 0; r < n; ++r) {
                const double sum = sums_[static_cast<std::size_t>(r)];
                // a sum within rounding of zero is negative only if the exact scheme says so
                if (!any_negative && sum < doubt) {
                    if (sum < -doubt) any_negative = true;
                    else {
                        if (!exact) exact.emplace(theta);
                        any_negative = exact->at(first + r) < 0;
                    }
                }
                if (sum < kPoolMargin && first + r > 0) candidates_.push_back({sum / static_cast<double>(first + r), first + r});
            }
        }
        if (!any_negative) return false;
        const std::size_t keep = std::min(pool_size(), candidates_.size());
        std::partial_sort(candidates_.begin(), candidates_.begin() + static_cast<std::ptrdiff_t>(keep), candidates_.end());
        pool_.clear();
        for (std::size_t j = 0; j < keep; ++j) pool_.push_back(candidates_[j].second);
        return true;
    }

    // four running sums: a single chain of additions waits on each one (the scan's bottleneck)
    double row_sum(const double* row) const {
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int k = 0;
        for (; k + 4 <= pairs_; k += 4) s0 += row[k], s1 += row[k + 1], s2 += row[k + 2], s3 += row[k + 3];
        for (; k < pairs_; ++k) s0 += row[k];
        return (s0 + s1) + (s2 + s3);
    }

    int pairs_;
    std::int64_t context_;
    const std::atomic<bool>* cancel_;
    std::vector<double> a_, theta_, run_cos_, run_sin_, step_cos_, step_sin_, sums_;
    double slope_ = 0;  // S
    std::int64_t witness_ = -1;
    std::vector<std::int64_t> pool_;
    std::vector<std::pair<double, std::int64_t>> candidates_;
};

}  // namespace

bool base_lower_bound_tractable(int rotated_dims, std::int64_t context) {
    return static_cast<double>(std::max(1, rotated_dims / 2)) * static_cast<double>(context) <= kBaseBoundWork;
}

std::vector<double> base_lower_bound_curve(int rotated_dims, const std::vector<std::int64_t>& contexts,
                                           const std::atomic<bool>* cancel) {
    std::vector<double> out;
    double from = 1.0 + 1e-9;  // base 1 turns every pair by 1 rad per token: B(2) = (d/2) cos 2 < 0
    for (std::int64_t context : contexts) {
        // a base feasible for L is feasible for every shorter context, so the bounds only grow
        const double found = std::isfinite(from) ? BaseBoundSearch(rotated_dims, context, cancel).smallest_feasible_base(from) : from;
        if (std::isnan(found)) break;  // cancelled
        out.push_back(found);
        from = found;
    }
    return out;
}

double base_lower_bound(int rotated_dims, std::int64_t context) {
    if (context <= 1) return 1.0;  // the infimum: every base above 1 is feasible
    return BaseBoundSearch(rotated_dims, context, nullptr).smallest_feasible_base(1.0 + 1e-9);
}

}  // namespace rope
