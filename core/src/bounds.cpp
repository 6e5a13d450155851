#include "rope/bounds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

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

std::int64_t first_negative_position(const Eigen::VectorXd& theta, std::int64_t context) {
    const int pairs = static_cast<int>(theta.size());
    constexpr std::int64_t kRows = 256;
    std::vector<double> c(static_cast<std::size_t>(kRows) * pairs);
    PhasorGenerator gen(theta);
    for (std::int64_t first = 0; first <= context; first += kRows) {
        const std::int64_t n = std::min(kRows, context + 1 - first);
        gen.fill(first, n, c.data(), nullptr, pairs);
        for (std::int64_t r = 0; r < n; ++r) {
            double sum = 0;
            for (int k = 0; k < pairs; ++k) sum += c[static_cast<std::size_t>(r) * pairs + k];
            if (sum < 0) return first + r;
        }
    }
    return -1;
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

// Whether B(m) = sum_i cos(m theta_i) < 0 somewhere in [0, context]: the feasibility test of the base
// searches, which ask it for hundreds of neighbouring bases. Neighbouring bases go negative at
// neighbouring positions, so the positions around the last negative one are tried first with plain
// cos calls (no tables to set up); then blocks are scanned from the top down, since bases just below
// a bound go negative close to the context's end. Only feasible bases pay for the whole range. The
// answers are those of a scan from m = 0, many times faster (seconds instead of minutes at d = 4096).
class NegativeSumFinder {
public:
    bool has_negative(const Eigen::VectorXd& theta, std::int64_t context) {
        if (witness_ >= 0) {
            const std::int64_t lo = std::max<std::int64_t>(0, witness_ - kNear), hi = std::min(context, witness_ + kNear);
            for (std::int64_t m = lo; m <= hi; ++m) {
                double sum = 0;
                for (Eigen::Index k = 0; k < theta.size(); ++k) sum += std::cos(static_cast<double>(m) * theta[k]);
                if (sum < 0) {
                    witness_ = m;
                    return true;
                }
            }
        }
        pairs_ = static_cast<int>(theta.size());
        rows_.resize(static_cast<std::size_t>(kRows) * pairs_);
        gen_.reset(theta);
        for (std::int64_t first = context / kRows * kRows; first >= 0; first -= kRows)
            if (block_has_negative(first, context)) return true;
        return false;
    }

private:
    static constexpr std::int64_t kRows = 256;
    static constexpr std::int64_t kNear = 2;

    bool block_has_negative(std::int64_t first, std::int64_t context) {
        const std::int64_t n = std::min(kRows, context + 1 - first);
        gen_.fill(first, n, rows_.data(), nullptr, pairs_);
        for (std::int64_t r = n - 1; r >= 0; --r) {
            double sum = 0;
            for (int k = 0; k < pairs_; ++k) sum += rows_[static_cast<std::size_t>(r) * pairs_ + k];
            if (sum < 0) {
                witness_ = first + r;
                return true;
            }
        }
        return false;
    }

    int pairs_ = 0;
    std::vector<double> rows_;
    PhasorGenerator gen_;
    std::int64_t witness_ = -1;
};

}  // namespace

std::vector<double> base_lower_bound_curve(int rotated_dims, const std::vector<std::int64_t>& contexts,
                                           double step_decades) {
    std::vector<double> out;
    double below = 0.3;  // log10 of an infeasible base (base 2)
    NegativeSumFinder finder;
    for (std::int64_t context : contexts) {
        auto feasible = [&](double log10_base) {
            return !finder.has_negative(base_frequencies(std::pow(10.0, log10_base), rotated_dims), context);
        };
        double found = std::numeric_limits<double>::infinity();
        for (double e = below + step_decades; e <= 15.0; e += step_decades) {
            if (!feasible(e)) {
                below = e;
                continue;
            }
            double lo = below, hi = e;
            while (hi - lo > 1e-5) {
                const double mid = 0.5 * (lo + hi);
                (feasible(mid) ? hi : lo) = mid;
            }
            below = lo;
            found = std::pow(10.0, hi);
            break;
        }
        out.push_back(found);
    }
    return out;
}

double base_lower_bound(int rotated_dims, std::int64_t context) {
    NegativeSumFinder finder;
    auto feasible = [&](double log10_base) {
        return !finder.has_negative(base_frequencies(std::pow(10.0, log10_base), rotated_dims), context);
    };
    constexpr double kStep = 1.0 / 200.0;
    double below = 0.3;  // base 2: infeasible for any context worth asking about
    for (double e = below + kStep; e <= 15.0; e += kStep) {
        if (!feasible(e)) {
            below = e;
            continue;
        }
        // narrow [below, e] down to the smallest feasible base in it (to ~1e-6 decades)
        double lo = below, hi = e;
        for (int i = 0; i < 24; ++i) {
            const double mid = 0.5 * (lo + hi);
            (feasible(mid) ? hi : lo) = mid;
        }
        return std::pow(10.0, hi);
    }
    return std::numeric_limits<double>::infinity();
}

}  // namespace rope
