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

std::vector<double> base_lower_bound_curve(int rotated_dims, const std::vector<std::int64_t>& contexts,
                                           double step_decades) {
    std::vector<double> out;
    double below = 0.3;  // log10 of an infeasible base (base 2)
    for (std::int64_t context : contexts) {
        auto feasible = [&](double log10_base) {
            return first_negative_position(base_frequencies(std::pow(10.0, log10_base), rotated_dims), context) < 0;
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
    auto feasible = [&](double log10_base) {
        return first_negative_position(base_frequencies(std::pow(10.0, log10_base), rotated_dims), context) < 0;
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
