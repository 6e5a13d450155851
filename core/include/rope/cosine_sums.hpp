// B(m) = sum_k cos(m theta_k) over long runs of positions, fast. Every position m = 64 q + j is
//   B(m) = sum_k cos(64 q theta_k) cos(j theta_k) - sin(64 q theta_k) sin(j theta_k),
// a matrix product of the blocks' phasors (one row per 64 positions, from the exact phasor scheme)
// with a fixed step table: two multiply-adds per pair and position instead of the ~12 operations of
// an exact phasor row. It drops the exact-angle correction of phasor.hpp, so each value may differ
// from cosine_sum's by up to error_bound(); callers that decide a sign on it re-check the positions
// within that distance of zero with the exact scheme (first_negative_position does).
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "rope/phasor.hpp"

namespace rope {

class FastCosineSum {
public:
    static constexpr int kBlock = 64;

    explicit FastCosineSum(const Eigen::VectorXd& theta);
    int pairs() const { return pairs_; }
    // out[i] ~ B(first + i) for i < count.
    void compute(std::int64_t first, std::int64_t count, double* out);
    // How far a value for a position below `end` may be from the exact scheme's.
    double error_bound(std::int64_t end) const;

private:
    int pairs_;
    double theta_sum_ = 0;
    PhasorGenerator blocks_;  // e^{i q fl(64 theta_k)}: 64 theta is exact, so these are e^{i fl(64 q theta_k)}
    std::vector<double> step_cos_, step_sin_;  // [k * 64 + j]: cos / sin of fl(j theta_k)
    std::vector<double> block_cos_, block_sin_, sums_;
};

// B(m) by the exact scheme (phasor.hpp rows summed in pair order, as cosine_sum does), one position
// at a time: for the few positions the fast sums leave in doubt, and for scattered samples.
class ExactCosineSum {
public:
    explicit ExactCosineSum(const Eigen::VectorXd& theta) : gen_(theta), row_(static_cast<std::size_t>(theta.size())) {}
    double at(std::int64_t m);

private:
    PhasorGenerator gen_;
    std::vector<double> row_;
};

// The least and greatest B(m) over each of `bins` consecutive ranges of positions, bin b holding
// m in [edges[b], edges[b+1]) (edges ascending, edges[0] >= 0; an empty bin holds NaN and -1), the
// positions where they are, and the first m in [edges[0], edges.back()) with B(m) < 0 by the exact
// scheme (-1 if none). A plot drawn through each bin's two extremes, in position order, covers
// exactly the pixels the full curve would.
struct CosineEnvelope {
    std::vector<double> low, high;
    std::vector<std::int64_t> low_at, high_at;
    std::int64_t first_negative = -1;
};
CosineEnvelope cosine_sum_envelope(const Eigen::VectorXd& theta, const std::vector<std::int64_t>& edges);

// The same envelope in parts that several threads may compute at once (a part each): part i covers
// a run of consecutive positions, whole chunks of the single pass, so every value is the one that
// pass computes, and merged() gives exactly cosine_sum_envelope's result.
class CosineEnvelopeParts {
public:
    // At most `parts` parts (fewer where the positions make fewer chunks).
    CosineEnvelopeParts(const Eigen::VectorXd& theta, std::vector<std::int64_t> edges, int parts);
    int size() const { return static_cast<int>(starts_.size()) - 1; }
    // Computes part i unless it is done (from several threads at once: a part another thread is
    // computing is waited for). With `cancel` set meanwhile it stops early and returns false, the
    // part left not done.
    bool compute(int i, const std::atomic<bool>* cancel = nullptr);
    bool done(int i) const { return done_[static_cast<std::size_t>(i)].load(); }
    // The envelope of every position; each part must be done.
    CosineEnvelope merged() const;

private:
    std::vector<std::int64_t> edges_, starts_;
    FastCosineSum fast_;     // the tables every part copies rather than computes again
    ExactCosineSum exact_;
    double doubt_ = 0;
    std::vector<CosineEnvelope> parts_;
    std::unique_ptr<std::atomic<bool>[]> done_;
    std::unique_ptr<std::mutex[]> busy_;
};

}  // namespace rope
