#include "rope/cosine_sums.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rope/bounds.hpp"

// This file alone is built with contraction allowed (see CMakeLists.txt): its sums are within
// error_bound() of the exact scheme either way, and a fused multiply-add halves the kernel's work.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define ROPE_SUM_KERNEL __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define ROPE_SUM_KERNEL
#endif

namespace rope {

namespace detail {

// out[r * 64 + j] = sum_k pc[r * pairs + k] sc[k * 64 + j] - ps[r * pairs + k] ss[k * 64 + j], four
// rows at a time so each step-table row read serves four blocks.
ROPE_SUM_KERNEL
void block_cosine_sums(int pairs, int rows, const double* __restrict pc, const double* __restrict ps,
                       const double* __restrict sc, const double* __restrict ss, double* __restrict out) {
    constexpr int J = FastCosineSum::kBlock;
    int r = 0;
    for (; r + 4 <= rows; r += 4) {
        double acc[4][J] = {};
        const double* c0 = pc + static_cast<std::ptrdiff_t>(r) * pairs;
        const double* s0 = ps + static_cast<std::ptrdiff_t>(r) * pairs;
        for (int k = 0; k < pairs; ++k) {
            const double* c = sc + static_cast<std::ptrdiff_t>(k) * J;
            const double* s = ss + static_cast<std::ptrdiff_t>(k) * J;
            const double a0 = c0[k], a1 = c0[pairs + k], a2 = c0[2 * pairs + k], a3 = c0[3 * pairs + k];
            const double b0 = s0[k], b1 = s0[pairs + k], b2 = s0[2 * pairs + k], b3 = s0[3 * pairs + k];
            for (int j = 0; j < J; ++j) {
                acc[0][j] += a0 * c[j] - b0 * s[j];
                acc[1][j] += a1 * c[j] - b1 * s[j];
                acc[2][j] += a2 * c[j] - b2 * s[j];
                acc[3][j] += a3 * c[j] - b3 * s[j];
            }
        }
        for (int i = 0; i < 4; ++i) std::copy(acc[i], acc[i] + J, out + static_cast<std::ptrdiff_t>(r + i) * J);
    }
    for (; r < rows; ++r) {
        double acc[J] = {};
        for (int k = 0; k < pairs; ++k) {
            const double a = pc[static_cast<std::ptrdiff_t>(r) * pairs + k], b = ps[static_cast<std::ptrdiff_t>(r) * pairs + k];
            for (int j = 0; j < J; ++j) acc[j] += a * sc[static_cast<std::ptrdiff_t>(k) * J + j] - b * ss[static_cast<std::ptrdiff_t>(k) * J + j];
        }
        std::copy(acc, acc + J, out + static_cast<std::ptrdiff_t>(r) * J);
    }
}

}  // namespace detail

FastCosineSum::FastCosineSum(const Eigen::VectorXd& theta)
    : pairs_(static_cast<int>(theta.size())), blocks_(theta * static_cast<double>(kBlock)) {
    step_cos_.resize(static_cast<std::size_t>(kBlock) * pairs_);
    step_sin_.resize(step_cos_.size());
    for (int k = 0; k < pairs_; ++k) {
        theta_sum_ += std::abs(theta[k]);
        for (int j = 0; j < kBlock; ++j) {
            const double a = static_cast<double>(j) * theta[k];
            step_cos_[static_cast<std::size_t>(k) * kBlock + j] = std::cos(a);
            step_sin_[static_cast<std::size_t>(k) * kBlock + j] = std::sin(a);
        }
    }
}

double FastCosineSum::error_bound(std::int64_t end) const {
    // angle: fl(m theta) against fl(64 q theta) + fl(j theta), at most 1.5 ulp of m theta each pair;
    // phasors: a few ulp each; sums: 2 pairs terms of magnitude <= 1 added one after another
    const double p = static_cast<double>(pairs_);
    return 4e-16 * static_cast<double>(std::max<std::int64_t>(end, 1)) * theta_sum_ + 4.5e-16 * 4 * p * p + 1e-14 * p + 1e-13;
}

void FastCosineSum::compute(std::int64_t first, std::int64_t count, double* out) {
    constexpr std::int64_t kChunkBlocks = 64;  // 4096 positions a pass: the tables stay in cache
    if (count <= 0) return;
    if (pairs_ == 0) {
        std::fill(out, out + count, 0.0);
        return;
    }
    std::int64_t q = first / kBlock;
    const std::int64_t q_end = (first + count - 1) / kBlock + 1;
    block_cos_.resize(static_cast<std::size_t>(kChunkBlocks) * pairs_);
    block_sin_.resize(block_cos_.size());
    sums_.resize(static_cast<std::size_t>(kChunkBlocks) * kBlock);
    for (; q < q_end; q += kChunkBlocks) {
        const std::int64_t rows = std::min(kChunkBlocks, q_end - q);
        blocks_.fill(q, rows, block_cos_.data(), block_sin_.data(), pairs_);
        detail::block_cosine_sums(pairs_, static_cast<int>(rows), block_cos_.data(), block_sin_.data(), step_cos_.data(),
                                  step_sin_.data(), sums_.data());
        const std::int64_t m0 = q * kBlock;
        const std::int64_t from = std::max(first, m0), to = std::min(first + count, m0 + rows * kBlock);
        std::copy(sums_.begin() + (from - m0), sums_.begin() + (to - m0), out + (from - first));
    }
}

double ExactCosineSum::at(std::int64_t m) {
    gen_.fill(m, 1, row_.data(), nullptr, 0);
    double sum = 0;
    for (double c : row_) sum += c;
    return sum;
}

namespace {

constexpr std::int64_t kEnvelopeChunk = 1 << 14;  // positions a pass of the fast sums

CosineEnvelope empty_envelope(std::size_t bins) {
    CosineEnvelope env;
    env.low.assign(bins, std::numeric_limits<double>::quiet_NaN());
    env.high.assign(bins, std::numeric_limits<double>::quiet_NaN());
    env.low_at.assign(bins, -1);
    env.high_at.assign(bins, -1);
    return env;
}

}  // namespace

CosineEnvelopeParts::CosineEnvelopeParts(const Eigen::VectorXd& theta, std::vector<std::int64_t> edges, int parts)
    : edges_(std::move(edges)), fast_(theta), exact_(theta) {
    if (edges_.size() < 2) {
        starts_ = {0};
        return;
    }
    const std::int64_t first = edges_.front(), end = edges_.back();
    doubt_ = fast_.error_bound(end);
    // whole chunks from the first position, as the single pass takes them
    const std::int64_t chunks = std::max<std::int64_t>(1, (end - first + kEnvelopeChunk - 1) / kEnvelopeChunk);
    const std::int64_t n = std::clamp<std::int64_t>(parts, 1, chunks);
    for (std::int64_t i = 0; i < n; ++i) starts_.push_back(first + chunks * i / n * kEnvelopeChunk);
    starts_.push_back(end);
    parts_.assign(static_cast<std::size_t>(n), CosineEnvelope());
    done_ = std::make_unique<std::atomic<bool>[]>(static_cast<std::size_t>(n));
    busy_ = std::make_unique<std::mutex[]>(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) done_[static_cast<std::size_t>(i)] = false;
}

bool CosineEnvelopeParts::compute(int i, const std::atomic<bool>* cancel) {
    std::lock_guard<std::mutex> lock(busy_[static_cast<std::size_t>(i)]);
    if (done(i)) return true;
    const std::size_t bins = edges_.size() - 1;
    CosineEnvelope env = empty_envelope(bins);
    FastCosineSum fast = fast_;
    ExactCosineSum exact = exact_;
    const std::int64_t from = starts_[static_cast<std::size_t>(i)], to = starts_[static_cast<std::size_t>(i) + 1];
    std::vector<double> sums(kEnvelopeChunk);
    // the bin of the part's first position
    std::size_t bin = 0;
    while (bin + 1 < bins && from >= edges_[bin + 1]) ++bin;
    for (std::int64_t at = from; at < to; at += kEnvelopeChunk) {
        if (cancel && cancel->load()) return false;
        const std::int64_t n = std::min(kEnvelopeChunk, to - at);
        fast.compute(at, n, sums.data());
        for (std::int64_t k = 0; k < n; ++k) {
            const std::int64_t m = at + k;
            while (bin + 1 < bins && m >= edges_[bin + 1]) ++bin;
            const double v = sums[static_cast<std::size_t>(k)];
            if (!(env.low[bin] <= v)) env.low[bin] = v, env.low_at[bin] = m;
            if (!(env.high[bin] >= v)) env.high[bin] = v, env.high_at[bin] = m;
            if (env.first_negative < 0 && v < doubt_ && (v < -doubt_ || exact.at(m) < 0)) env.first_negative = m;
        }
    }
    parts_[static_cast<std::size_t>(i)] = std::move(env);
    done_[static_cast<std::size_t>(i)] = true;
    return true;
}

CosineEnvelope CosineEnvelopeParts::merged() const {
    if (edges_.size() < 2) return CosineEnvelope();
    const std::size_t bins = edges_.size() - 1;
    CosineEnvelope env = empty_envelope(bins);
    // in position order, as the single pass meets the values: a later extreme replaces an earlier
    // one only where it is strictly beyond it
    for (const CosineEnvelope& part : parts_) {
        for (std::size_t b = 0; b < bins; ++b) {
            if (part.low_at[b] >= 0 && !(env.low[b] <= part.low[b])) env.low[b] = part.low[b], env.low_at[b] = part.low_at[b];
            if (part.high_at[b] >= 0 && !(env.high[b] >= part.high[b])) env.high[b] = part.high[b], env.high_at[b] = part.high_at[b];
        }
        if (env.first_negative < 0) env.first_negative = part.first_negative;
    }
    return env;
}

CosineEnvelope cosine_sum_envelope(const Eigen::VectorXd& theta, const std::vector<std::int64_t>& edges) {
    CosineEnvelopeParts parts(theta, edges, 1);
    if (parts.size() > 0) parts.compute(0);
    return parts.merged();
}

}  // namespace rope
