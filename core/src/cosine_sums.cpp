#include "rope/cosine_sums.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

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

// out[r * J + j] = sum_k pc[r * stride + k] sc[k * J + j] - ps[r * stride + k] ss[k * J + j] for
// k < count, R rows at a time so each table row read serves R blocks.
template <int J, int R>
__attribute__((always_inline)) inline void block_products(int count, int stride, int rows, const double* __restrict pc,
                                                          const double* __restrict ps, const double* __restrict sc,
                                                          const double* __restrict ss, double* __restrict out) {
    int r = 0;
    for (; r + R <= rows; r += R) {
        double acc[R][J] = {};
        const double* c0 = pc + static_cast<std::ptrdiff_t>(r) * stride;
        const double* s0 = ps + static_cast<std::ptrdiff_t>(r) * stride;
        for (int k = 0; k < count; ++k) {
            const double* c = sc + static_cast<std::ptrdiff_t>(k) * J;
            const double* s = ss + static_cast<std::ptrdiff_t>(k) * J;
            for (int i = 0; i < R; ++i) {
                const double a = c0[i * stride + k], b = s0[i * stride + k];
                for (int j = 0; j < J; ++j) acc[i][j] += a * c[j] - b * s[j];
            }
        }
        for (int i = 0; i < R; ++i) std::copy(acc[i], acc[i] + J, out + static_cast<std::ptrdiff_t>(r + i) * J);
    }
    for (; r < rows; ++r) {
        double acc[J] = {};
        for (int k = 0; k < count; ++k) {
            const double a = pc[static_cast<std::ptrdiff_t>(r) * stride + k], b = ps[static_cast<std::ptrdiff_t>(r) * stride + k];
            for (int j = 0; j < J; ++j) acc[j] += a * sc[static_cast<std::ptrdiff_t>(k) * J + j] - b * ss[static_cast<std::ptrdiff_t>(k) * J + j];
        }
        std::copy(acc, acc + J, out + static_cast<std::ptrdiff_t>(r) * J);
    }
}

// The same for the series' few columns, in explicit vectors of 8 (the compiler's own
// vectorisation of these short rows shuffles across rows and spills).
typedef double Lanes __attribute__((vector_size(64)));
template <int J, int R>
__attribute__((always_inline)) inline void series_products(int count, int stride, int rows, const double* __restrict pc,
                                                           const double* __restrict ps, const double* __restrict sc,
                                                           const double* __restrict ss, double* __restrict out) {
    constexpr int V = J / 8;
    int r = 0;
    for (; r + R <= rows; r += R) {
        Lanes acc[R][V] = {};
        const double* c0 = pc + static_cast<std::ptrdiff_t>(r) * stride;
        const double* s0 = ps + static_cast<std::ptrdiff_t>(r) * stride;
        for (int k = 0; k < count; ++k) {
            Lanes c[V], s[V];
            std::memcpy(c, sc + static_cast<std::ptrdiff_t>(k) * J, sizeof c);
            std::memcpy(s, ss + static_cast<std::ptrdiff_t>(k) * J, sizeof s);
            for (int i = 0; i < R; ++i) {
                const double a = c0[i * stride + k], b = s0[i * stride + k];
                for (int v = 0; v < V; ++v) acc[i][v] += a * c[v] - b * s[v];
            }
        }
        for (int i = 0; i < R; ++i) std::memcpy(out + static_cast<std::ptrdiff_t>(r + i) * J, acc[i], sizeof acc[i]);
    }
    if (r < rows) block_products<J, 1>(count, stride, rows - r, pc + static_cast<std::ptrdiff_t>(r) * stride,
                                       ps + static_cast<std::ptrdiff_t>(r) * stride, sc, ss, out + static_cast<std::ptrdiff_t>(r) * J);
}

ROPE_SUM_KERNEL void products_64(int n, int st, int rows, const double* pc, const double* ps, const double* sc, const double* ss, double* out) {
    block_products<64, 4>(n, st, rows, pc, ps, sc, ss, out);
}
ROPE_SUM_KERNEL void products_32(int n, int st, int rows, const double* pc, const double* ps, const double* sc, const double* ss, double* out) {
    series_products<32, 4>(n, st, rows, pc, ps, sc, ss, out);
}
ROPE_SUM_KERNEL void products_24(int n, int st, int rows, const double* pc, const double* ps, const double* sc, const double* ss, double* out) {
    series_products<24, 4>(n, st, rows, pc, ps, sc, ss, out);
}
ROPE_SUM_KERNEL void products_16(int n, int st, int rows, const double* pc, const double* ps, const double* sc, const double* ss, double* out) {
    series_products<16, 8>(n, st, rows, pc, ps, sc, ss, out);
}
ROPE_SUM_KERNEL void products_8(int n, int st, int rows, const double* pc, const double* ps, const double* sc, const double* ss, double* out) {
    series_products<8, 8>(n, st, rows, pc, ps, sc, ss, out);
}

void block_products(int columns, int count, int stride, int rows, const double* pc, const double* ps, const double* sc,
                    const double* ss, double* out) {
    switch (columns) {
        case 64: return products_64(count, stride, rows, pc, ps, sc, ss, out);
        case 32: return products_32(count, stride, rows, pc, ps, sc, ss, out);
        case 24: return products_24(count, stride, rows, pc, ps, sc, ss, out);
        case 16: return products_16(count, stride, rows, pc, ps, sc, ss, out);
        default: return products_8(count, stride, rows, pc, ps, sc, ss, out);
    }
}

// Rows 1 .. rows-1 of block phasors from row 0: row r = row r-1 times e^{i fl(64 theta_k)}.
ROPE_SUM_KERNEL
void step_rows(int pairs, int rows, const double* __restrict step_cos, const double* __restrict step_sin, double* __restrict pc,
               double* __restrict ps) {
    for (int r = 1; r < rows; ++r) {
        const double* c0 = pc + static_cast<std::ptrdiff_t>(r - 1) * pairs;
        const double* s0 = ps + static_cast<std::ptrdiff_t>(r - 1) * pairs;
        double* c1 = pc + static_cast<std::ptrdiff_t>(r) * pairs;
        double* s1 = ps + static_cast<std::ptrdiff_t>(r) * pairs;
        for (int k = 0; k < pairs; ++k) {
            c1[k] = c0[k] * step_cos[k] - s0[k] * step_sin[k];
            s1[k] = c0[k] * step_sin[k] + s0[k] * step_cos[k];
        }
    }
}

// out[r * 64 + j] += sum_p coefficients[r * kMaxTerms + p] u_j^p for p < terms, u_j = (j - 32) / 32
// (Horner's scheme: stable for |u| <= 1).
ROPE_SUM_KERNEL
void add_series_values(int rows, int terms, const double* __restrict coefficients, double* __restrict out) {
    constexpr int J = FastCosineSum::kBlock;
    double u[J];
    for (int j = 0; j < J; ++j) u[j] = static_cast<double>(j - J / 2) / (J / 2);
    for (int r = 0; r < rows; ++r) {
        const double* c = coefficients + static_cast<std::ptrdiff_t>(r) * FastCosineSum::kMaxTerms;
        double acc[J];
        for (int j = 0; j < J; ++j) acc[j] = c[terms - 1];
        for (int p = terms - 2; p >= 0; --p)
            for (int j = 0; j < J; ++j) acc[j] = acc[j] * u[j] + c[p];
        double* o = out + static_cast<std::ptrdiff_t>(r) * J;
        for (int j = 0; j < J; ++j) o[j] += acc[j];
    }
}

}  // namespace detail

namespace {

constexpr int kSeriesColumns[] = {8, 16, 24, 32};  // the series' lengths, fewest first

// |e^{iy} - sum_{p<n} (iy)^p / p!| for |y| <= x: the first omitted term over 1 - x / (n + 1).
double series_remainder(double x, int n) {
    if (!(x < n + 1)) return std::numeric_limits<double>::infinity();
    double term = 1;
    for (int p = 1; p <= n; ++p) term *= x / p;
    return term / (1 - x / (n + 1));
}

// Columns of pair theta: the fewest series terms whose remainder is below the rounding level, or
// the exact table (64 columns) for a pair that turns too far within a block.
int columns_for(double theta) {
    const double x = std::abs(theta) * (FastCosineSum::kBlock / 2);
    for (int n : kSeriesColumns)
        if (series_remainder(x, n) <= 1e-16) return n;
    return FastCosineSum::kBlock;
}

}  // namespace

FastCosineSum::FastCosineSum(const Eigen::VectorXd& theta) : pairs_(static_cast<int>(theta.size())) {
    constexpr int J = kBlock, H = kBlock / 2;
    std::vector<int> columns(static_cast<std::size_t>(pairs_));
    for (int k = 0; k < pairs_; ++k) columns[static_cast<std::size_t>(k)] = columns_for(theta[k]);
    // groups in order of columns, most first (the exact table writes the sums the series add to)
    Eigen::VectorXd ordered(pairs_);
    auto tables = std::make_shared<Tables>();
    std::vector<double>& table_re = tables->re;
    std::vector<double>& table_im = tables->im;
    int at = 0, table_pairs = 0;
    double exp_sum = 0;
    for (int c : {64, 32, 24, 16, 8}) {
        Group g{at, 0, c, table_re.size()};
        for (int k = 0; k < pairs_; ++k) {
            if (columns[static_cast<std::size_t>(k)] != c) continue;
            const double t = theta[k];
            ordered[at++] = t;
            ++g.count;
            theta_sum_ += std::abs(t);
            if (c == J) {
                ++table_pairs;
                for (int j = 0; j < J; ++j) {
                    table_re.push_back(std::cos(static_cast<double>(j) * t));
                    table_im.push_back(std::sin(static_cast<double>(j) * t));
                }
                continue;
            }
            // e^{i j t} = e^{i 32 t} sum_p (i 32 t)^p / p! u^p, u = (j - 32) / 32; 32 t is exact
            const double x = H * t, cx = std::cos(x), sx = std::sin(x);
            double term = 1;  // x^p / p!
            for (int p = 0; p < c; ++p) {
                if (p > 0) term *= x / p;
                // e^{ix} i^p
                const double re = p % 4 == 0 ? cx : p % 4 == 1 ? -sx : p % 4 == 2 ? -cx : sx;
                const double im = p % 4 == 0 ? sx : p % 4 == 1 ? cx : p % 4 == 2 ? -sx : -cx;
                table_re.push_back(term * re);
                table_im.push_back(term * im);
            }
            series_error_ += series_remainder(std::abs(x), c);
            exp_sum += std::exp(std::abs(x));
            series_terms_ = std::max(series_terms_, c);
        }
        if (g.count > 0) groups_.push_back(g);
    }
    // Rounding in the series: each coefficient is a sum of 2 pairs products of terms up to
    // |x|^p / p!, the terms themselves carry up to p + 4 roundings, and Horner's scheme adds at most
    // 2 terms' worth; with |u| <= 1 every part is at most sum_k e^{|x_k|} (a factor sqrt 2 for the
    // complex products).
    series_error_ += 1.7e-16 * (2.0 * pairs_ + 2.0 * kMaxTerms + 8.0) * exp_sum;
    for (int k = 0; k < pairs_; ++k) {
        tables->block_theta.push_back(J * ordered[k]);
        tables->step_cos.push_back(std::cos(J * ordered[k]));
        tables->step_sin.push_back(std::sin(J * ordered[k]));
        tables->chunk_cos.push_back(std::cos(J * kChunkBlocks * ordered[k]));
        tables->chunk_sin.push_back(std::sin(J * kChunkBlocks * ordered[k]));
    }
    tables_ = std::move(tables);
    // A block's phasor is e^{i fl(q fl(64 theta))} from sin and cos (an angle rounded as the first
    // term of the bound allows) at every 64th chunk, then stepped: up to 63 chunk steps to its
    // chunk's first block, up to 63 block steps within the chunk. Each product is within 2.5e-16 of
    // the exact one and each step's own rounding adds 1.6e-16 an angle's worth; a value sums them
    // weighted by the table's columns (at most 1) or the series' terms.
    stepping_error_ = 2 * (kChunkBlocks - 1) * 4.5e-16 * (static_cast<double>(table_pairs) + exp_sum);
}

std::vector<std::pair<int, int>> FastCosineSum::columns() const {
    std::vector<std::pair<int, int>> out;
    for (const Group& g : groups_) out.emplace_back(g.columns, g.count);
    return out;
}

double FastCosineSum::error_bound(std::int64_t end) const {
    // angle: fl(m theta) against fl(64 q theta) + fl(j theta), at most 1.5 ulp of m theta each pair;
    // phasors: a few ulp each; sums: 2 pairs terms of magnitude <= 1 added one after another; the
    // series' truncation and rounding; the blocks' phasors stepped from each chunk's first
    const double p = static_cast<double>(pairs_);
    return 4e-16 * static_cast<double>(std::max<std::int64_t>(end, 1)) * theta_sum_ + 4.5e-16 * 4 * p * p + 1e-14 * p + 1e-13 +
           series_error_ + stepping_error_;
}

void FastCosineSum::compute(std::int64_t first, std::int64_t count, double* out) {
    if (count <= 0) return;
    if (pairs_ == 0) {
        std::fill(out, out + count, 0.0);
        return;
    }
    // chunks of kChunkBlocks blocks from a multiple of kChunkBlocks, so that every position's value
    // is the same whatever run it is computed in
    std::int64_t q = first / kBlock;
    q -= q % kChunkBlocks;
    const std::int64_t q_end = (first + count - 1) / kBlock + 1;
    // scratch kept by each thread: a part of an envelope each build writes no fresh pages
    thread_local std::vector<double> block_cos, block_sin, sums, coefficients, group_coefficients;
    block_cos.resize(static_cast<std::size_t>(kChunkBlocks) * pairs_);
    block_sin.resize(block_cos.size());
    sums.resize(static_cast<std::size_t>(kChunkBlocks) * kBlock);
    coefficients.resize(static_cast<std::size_t>(kChunkBlocks) * kMaxTerms);
    group_coefficients.resize(coefficients.size());
    const Tables& t = *tables_;
    for (; q < q_end; q += kChunkBlocks) {
        const int rows = static_cast<int>(std::min<std::int64_t>(kChunkBlocks, q_end - q));
        load_anchor(q / kChunkBlocks);
        std::copy(anchor_cos_.begin(), anchor_cos_.end(), block_cos.begin());
        std::copy(anchor_sin_.begin(), anchor_sin_.end(), block_sin.begin());
        detail::step_rows(pairs_, rows, t.step_cos.data(), t.step_sin.data(), block_cos.data(), block_sin.data());
        if (groups_.front().columns != kBlock) std::fill(sums.begin(), sums.end(), 0.0);
        std::fill(coefficients.begin(), coefficients.end(), 0.0);
        for (const Group& g : groups_) {
            const bool table = g.columns == kBlock;
            double* dest = table ? sums.data() : group_coefficients.data();
            detail::block_products(g.columns, g.count, pairs_, rows, block_cos.data() + g.first, block_sin.data() + g.first,
                                   t.re.data() + g.table, t.im.data() + g.table, dest);
            if (table) continue;
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < g.columns; ++c)
                    coefficients[static_cast<std::size_t>(r) * kMaxTerms + c] += group_coefficients[static_cast<std::size_t>(r) * g.columns + c];
        }
        if (series_terms_ > 0) detail::add_series_values(rows, series_terms_, coefficients.data(), sums.data());
        const std::int64_t m0 = q * kBlock;
        const std::int64_t from = std::max(first, m0), to = std::min(first + count, m0 + static_cast<std::int64_t>(rows) * kBlock);
        if (from < to) std::copy(sums.begin() + (from - m0), sums.begin() + (to - m0), out + (from - first));
    }
}

void FastCosineSum::load_anchor(std::int64_t chunk) {
    // Every chunk's anchor comes from the same products, whichever run computes it: the sines and
    // cosines at the last multiple of 64 chunks, then one chunk step after another.
    const Tables& t = *tables_;
    const std::size_t n = static_cast<std::size_t>(pairs_);
    if (chunk == anchor_chunk_) return;
    if (anchor_chunk_ < 0 || chunk != anchor_chunk_ + 1 || chunk % kChunkBlocks == 0) {
        const std::int64_t first = chunk - chunk % kChunkBlocks;
        const double q = static_cast<double>(first * kChunkBlocks);
        anchor_cos_.resize(n);
        anchor_sin_.resize(n);
        for (std::size_t k = 0; k < n; ++k) {
            anchor_cos_[k] = std::cos(q * t.block_theta[k]);
            anchor_sin_[k] = std::sin(q * t.block_theta[k]);
        }
        anchor_chunk_ = first;
    }
    while (anchor_chunk_ < chunk) {
        for (std::size_t k = 0; k < n; ++k) {
            const double c = anchor_cos_[k] * t.chunk_cos[k] - anchor_sin_[k] * t.chunk_sin[k];
            anchor_sin_[k] = anchor_cos_[k] * t.chunk_sin[k] + anchor_sin_[k] * t.chunk_cos[k];
            anchor_cos_[k] = c;
        }
        ++anchor_chunk_;
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
    : edges_(std::move(edges)), fast_(theta), theta_(theta) {
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
    std::optional<ExactCosineSum> exact;  // built the first time a value is in doubt
    const std::int64_t from = starts_[static_cast<std::size_t>(i)], to = starts_[static_cast<std::size_t>(i) + 1];
    thread_local std::vector<double> sums;  // kept by each thread (see FastCosineSum::compute)
    sums.resize(kEnvelopeChunk);
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
            if (env.first_negative < 0 && v < doubt_ && (v < -doubt_ || (exact ? exact : exact.emplace(theta_))->at(m) < 0)) env.first_negative = m;
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
