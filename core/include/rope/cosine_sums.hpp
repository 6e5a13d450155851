// B(m) = sum_k cos(m theta_k) over long runs of positions, fast. Every position m = 64 q + j is
//   B(m) = Re sum_k e^{i 64 q theta_k} e^{i j theta_k},
// a matrix product of the blocks' phasors (one row per 64 positions) with a fixed table over j: two
// multiply-adds per pair and position instead of the ~12 operations of an exact phasor row.
// - A pair that turns little within a block (|32 theta_k| up to about 4) needs fewer columns:
//   e^{i j theta_k} is its Taylor series about j = 32 in u = (j - 32) / 32, so the product gives 8
//   to 32 coefficients of one polynomial in u per block, not 64 values. Most pairs of a long head
//   are such pairs (at dim 1024, base 10^4: 396 of 512), which halves the work.
// - The blocks' phasors come from sin and cos every 2^18 positions and are stepped between, a
//   complex product per pair and block.
// It drops the exact-angle correction of phasor.hpp, steps phasors and truncates the series below
// the rounding level, so each value may differ from cosine_sum's by up to error_bound(); callers that
// decide a sign on it re-check the positions within that distance of zero with the exact scheme
// (first_negative_position does). A position's value does not depend on the run it is computed in.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "rope/phasor.hpp"

namespace rope {

class FastCosineSum {
public:
    static constexpr int kBlock = 64;
    static constexpr int kMaxTerms = 32;  // of a Taylor group's series
    static constexpr int kChunkBlocks = 64;  // blocks a pass (4096 positions: the tables stay in cache)

    explicit FastCosineSum(const Eigen::VectorXd& theta);
    int pairs() const { return pairs_; }
    // out[i] ~ B(first + i) for i < count.
    void compute(std::int64_t first, std::int64_t count, double* out);
    // How far a value for a position below `end` may be from the exact scheme's.
    double error_bound(std::int64_t end) const;
    // How many pairs take each number of table columns (64 for the exact table, else the series'
    // terms): the work a block costs.
    std::vector<std::pair<int, int>> columns() const;

private:
    void load_anchor(std::int64_t chunk);

    // Pairs [first, first + count) of the reordered pairs, with `columns` table columns each.
    struct Group {
        int first, count, columns;
        std::size_t table;  // where its columns start in Tables::re / im
    };
    int pairs_;
    double theta_sum_ = 0;
    double series_error_ = 0;    // truncation and rounding of the Taylor groups, any position
    double stepping_error_ = 0;  // the blocks' phasors stepped from each chunk's first
    int series_terms_ = 0;       // the most terms of any series group
    std::vector<Group> groups_;  // the exact table first, then the series from most terms to fewest
    // What depends on theta alone, shared by copies (one per thread).
    struct Tables {
        std::vector<double> block_theta;         // fl(64 theta_k) (exact), pairs in group order
        std::vector<double> step_cos, step_sin;  // e^{i fl(64 theta_k)}: one block to the next
        std::vector<double> chunk_cos, chunk_sin;  // e^{i fl(4096 theta_k)}: one chunk's first block to the next's
        std::vector<double> re, im;  // [k * columns + c] per group: cos / sin of fl(j theta_k), or the series
    };
    std::shared_ptr<const Tables> tables_;
    // The first block's phasors of chunk anchor_chunk_ (-1: none yet); see load_anchor().
    std::int64_t anchor_chunk_ = -1;
    std::vector<double> anchor_cos_, anchor_sin_;
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
    Eigen::VectorXd theta_;  // for the exact sums, built by a part the first time a value is in doubt
    double doubt_ = 0;
    std::vector<CosineEnvelope> parts_;
    std::unique_ptr<std::atomic<bool>[]> done_;
    std::unique_ptr<std::mutex[]> busy_;
};

}  // namespace rope
