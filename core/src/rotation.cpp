#include "rope/rotation.hpp"

#include <cmath>
#include <complex>
#include <stdexcept>

#include "simd.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace rope {

namespace {

void check_length(const FrequencyTable& freqs, const Eigen::VectorXd& x) {
    if (x.size() != freqs.dim) throw std::invalid_argument("vector length must equal dim");
}

// Which pair a dim belongs to, and the partner-swap sign, for the full-width cos/sin layouts.
int pair_of_dim(Pairing layout, int rotated_dims, int dim) {
    return layout == Pairing::interleaved ? dim / 2 : dim % (rotated_dims / 2);
}

}  // namespace

PairDims pair_dims(Pairing pairing, int rotated_dims, int pair) {
    if (pairing == Pairing::interleaved) return {2 * pair, 2 * pair + 1};
    return {pair, pair + rotated_dims / 2};
}

std::vector<int> half_from_interleaved_permutation(int dim, int rotated_dims) {
    std::vector<int> perm(dim);
    for (int j = 0; j < dim; ++j) perm[j] = j;
    const int half = rotated_dims / 2;
    for (int i = 0; i < half; ++i) {
        perm[i] = 2 * i;             // half dim i is the first of pair i
        perm[i + half] = 2 * i + 1;  // half dim i + r/2 is its second
    }
    return perm;
}

Eigen::VectorXd rotate(const FrequencyTable& freqs, Pairing pairing, const Eigen::VectorXd& x, double m,
                       double scale) {
    check_length(freqs, x);
    Eigen::VectorXd out = x;
    for (int i = 0; i < freqs.pairs(); ++i) {
        const double angle = m * freqs.theta[i];
        const double c = std::cos(angle) * scale;
        const double s = std::sin(angle) * scale;
        const auto [a, b] = pair_dims(pairing, freqs.rotated_dims, i);
        out[a] = x[a] * c - x[b] * s;
        out[b] = x[a] * s + x[b] * c;
    }
    return out;
}

Eigen::MatrixXd rotation_matrix(const FrequencyTable& freqs, Pairing pairing, double m, double scale) {
    Eigen::MatrixXd r = Eigen::MatrixXd::Identity(freqs.dim, freqs.dim);
    for (int i = 0; i < freqs.pairs(); ++i) {
        const double angle = m * freqs.theta[i];
        const double c = std::cos(angle) * scale;
        const double s = std::sin(angle) * scale;
        const auto [a, b] = pair_dims(pairing, freqs.rotated_dims, i);
        r(a, a) = c;
        r(a, b) = -s;
        r(b, a) = s;
        r(b, b) = c;
    }
    return r;
}

Eigen::VectorXd rotate_complex(const FrequencyTable& freqs, Pairing pairing, const Eigen::VectorXd& x, double m,
                               double scale) {
    check_length(freqs, x);
    Eigen::VectorXd out = x;
    for (int i = 0; i < freqs.pairs(); ++i) {
        const auto [a, b] = pair_dims(pairing, freqs.rotated_dims, i);
        const std::complex<double> z(x[a], x[b]);
        const std::complex<double> rotated = z * std::polar(scale, m * freqs.theta[i]);
        out[a] = rotated.real();
        out[b] = rotated.imag();
    }
    return out;
}

Eigen::VectorXd rotate_with_layouts(const FrequencyTable& freqs, Pairing table_layout, Pairing vector_layout,
                                    const Eigen::VectorXd& x, double m, double scale) {
    check_length(freqs, x);
    const int r = freqs.rotated_dims;
    Eigen::VectorXd out = x;
    for (int j = 0; j < r; ++j) {
        const double angle = m * freqs.theta[pair_of_dim(table_layout, r, j)];
        // the partner-swapped vector: (-x1, x0, ...) or rotate_half = cat(-x2, x1)
        double swapped;
        if (vector_layout == Pairing::interleaved)
            swapped = (j % 2 == 0) ? -x[j + 1] : x[j - 1];
        else
            swapped = (j < r / 2) ? -x[j + r / 2] : x[j - r / 2];
        out[j] = (x[j] * std::cos(angle) + swapped * std::sin(angle)) * scale;
    }
    return out;
}

double attention_score(const FrequencyTable& freqs, Pairing pairing, const Eigen::VectorXd& q, double m,
                       const Eigen::VectorXd& k, double n, double scale) {
    return rotate(freqs, pairing, q, m, scale).dot(rotate(freqs, pairing, k, n, scale));
}

BatchRotator::BatchRotator(const FrequencyTable& freqs, Pairing pairing, double scale)
    : dim_(freqs.dim),
      rotated_(freqs.rotated_dims),
      pairing_(pairing),
      scale_(scale),
      phasors_(freqs.theta),
      cos_(static_cast<std::size_t>(kChunk) * freqs.pairs()),
      sin_(static_cast<std::size_t>(kChunk) * freqs.pairs()) {}

namespace detail {

// One row: y = R(m) x for the rotated pairs (cos/sin already scaled), pass-through copied.
ROPE_HOT_KERNEL
void rotate_row(int dim, int pairs, bool interleaved, const double* __restrict x, const double* __restrict c,
                const double* __restrict s, double* __restrict y) {
    if (interleaved) {
        for (int k = 0; k < pairs; ++k) {
            const double a = x[2 * k], b = x[2 * k + 1];
            y[2 * k] = a * c[k] - b * s[k];
            y[2 * k + 1] = a * s[k] + b * c[k];
        }
    } else {
        for (int k = 0; k < pairs; ++k) {
            const double a = x[k], b = x[k + pairs];
            y[k] = a * c[k] - b * s[k];
            y[k + pairs] = a * s[k] + b * c[k];
        }
    }
    for (int j = 2 * pairs; j < dim; ++j) y[j] = x[j];
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same for a big batch, written straight to memory with non-temporal stores (AVX2 machines).
__attribute__((target("avx2"))) void rotate_row_stream_avx2(int dim, int pairs, bool interleaved,
                                                             const double* __restrict x, const double* __restrict c,
                                                             const double* __restrict s, double* __restrict y) {
    int k = 0;
    if (interleaved) {
        const __m256d sign = _mm256_set_pd(1.0, -1.0, 1.0, -1.0);
        for (; k + 2 <= pairs; k += 2) {
            const __m256d xv = _mm256_loadu_pd(x + 2 * k);                         // a0 b0 a1 b1
            const __m256d cv = _mm256_permute4x64_pd(_mm256_castpd128_pd256(_mm_loadu_pd(c + k)), 0x50);
            const __m256d sv = _mm256_permute4x64_pd(_mm256_castpd128_pd256(_mm_loadu_pd(s + k)), 0x50);
            const __m256d swapped = _mm256_mul_pd(_mm256_permute_pd(xv, 0x5), sign);  // -b0 a0 -b1 a1
            const __m256d yv = _mm256_add_pd(_mm256_mul_pd(xv, cv), _mm256_mul_pd(swapped, sv));
            _mm_stream_pd(y + 2 * k, _mm256_castpd256_pd128(yv));
            _mm_stream_pd(y + 2 * k + 2, _mm256_extractf128_pd(yv, 1));
        }
        for (; k < pairs; ++k) {
            const double a = x[2 * k], b = x[2 * k + 1];
            y[2 * k] = a * c[k] - b * s[k];
            y[2 * k + 1] = a * s[k] + b * c[k];
        }
    } else {
        for (; k + 4 <= pairs; k += 4) {
            const __m256d a = _mm256_loadu_pd(x + k), b = _mm256_loadu_pd(x + k + pairs);
            const __m256d cv = _mm256_loadu_pd(c + k), sv = _mm256_loadu_pd(s + k);
            const __m256d lo = _mm256_sub_pd(_mm256_mul_pd(a, cv), _mm256_mul_pd(b, sv));
            const __m256d hi = _mm256_add_pd(_mm256_mul_pd(a, sv), _mm256_mul_pd(b, cv));
            if ((reinterpret_cast<std::uintptr_t>(y + k) & 15) == 0) {
                _mm_stream_pd(y + k, _mm256_castpd256_pd128(lo));
                _mm_stream_pd(y + k + 2, _mm256_extractf128_pd(lo, 1));
            } else {
                _mm256_storeu_pd(y + k, lo);
            }
            if ((reinterpret_cast<std::uintptr_t>(y + k + pairs) & 15) == 0) {
                _mm_stream_pd(y + k + pairs, _mm256_castpd256_pd128(hi));
                _mm_stream_pd(y + k + pairs + 2, _mm256_extractf128_pd(hi, 1));
            } else {
                _mm256_storeu_pd(y + k + pairs, hi);
            }
        }
        for (; k < pairs; ++k) {
            const double a = x[k], b = x[k + pairs];
            y[k] = a * c[k] - b * s[k];
            y[k + pairs] = a * s[k] + b * c[k];
        }
    }
    for (int j = 2 * pairs; j < dim; ++j) y[j] = x[j];
}

// Phasors and rotation in one pass for an interleaved row: four pairs per step, the rotated
// values going straight to memory with non-temporal stores. The phasor arithmetic is the one of
// PhasorGenerator (see phasor.hpp), so the results are the same doubles.
__attribute__((target("avx2"))) void rotate_row_fused_avx2(int pairs, double md, double scale,
                                                            const double* __restrict theta,
                                                            const double* __restrict ba, const double* __restrict bc,
                                                            const double* __restrict bs, const double* __restrict sa,
                                                            const double* __restrict sc, const double* __restrict ss,
                                                            const double* __restrict x, double* __restrict y) {
    const __m256d m = _mm256_set1_pd(md);
    const __m256d g = _mm256_set1_pd(scale);
    for (int k = 0; k < pairs; k += 4) {
        const __m256d delta = _mm256_sub_pd(
            _mm256_sub_pd(_mm256_mul_pd(m, _mm256_loadu_pd(theta + k)), _mm256_loadu_pd(ba + k)),
            _mm256_loadu_pd(sa + k));
        const __m256d bcv = _mm256_loadu_pd(bc + k), bsv = _mm256_loadu_pd(bs + k);
        const __m256d scv = _mm256_loadu_pd(sc + k), ssv = _mm256_loadu_pd(ss + k);
        const __m256d c0 = _mm256_sub_pd(_mm256_mul_pd(bcv, scv), _mm256_mul_pd(bsv, ssv));
        const __m256d s0 = _mm256_add_pd(_mm256_mul_pd(bsv, scv), _mm256_mul_pd(bcv, ssv));
        const __m256d c = _mm256_mul_pd(_mm256_sub_pd(c0, _mm256_mul_pd(s0, delta)), g);
        const __m256d s = _mm256_mul_pd(_mm256_add_pd(s0, _mm256_mul_pd(c0, delta)), g);
        // x: (a0 b0 a1 b1) (a2 b2 a3 b3) -> a = (a0 a2 a1 a3), b = (b0 b2 b1 b3)
        const __m256d x0 = _mm256_loadu_pd(x + 2 * k), x1 = _mm256_loadu_pd(x + 2 * k + 4);
        const __m256d a = _mm256_unpacklo_pd(x0, x1), b = _mm256_unpackhi_pd(x0, x1);
        // put c, s in the same (0 2 1 3) order
        const __m256d cp = _mm256_permute4x64_pd(c, 0xD8), sp = _mm256_permute4x64_pd(s, 0xD8);
        const __m256d ya = _mm256_sub_pd(_mm256_mul_pd(a, cp), _mm256_mul_pd(b, sp));
        const __m256d yb = _mm256_add_pd(_mm256_mul_pd(a, sp), _mm256_mul_pd(b, cp));
        // back to (a0' b0' a1' b1') (a2' b2' a3' b3')
        const __m256d y0 = _mm256_unpacklo_pd(ya, yb), y1 = _mm256_unpackhi_pd(ya, yb);
        _mm_stream_pd(y + 2 * k, _mm256_castpd256_pd128(y0));
        _mm_stream_pd(y + 2 * k + 2, _mm256_extractf128_pd(y0, 1));
        _mm_stream_pd(y + 2 * k + 4, _mm256_castpd256_pd128(y1));
        _mm_stream_pd(y + 2 * k + 6, _mm256_extractf128_pd(y1, 1));
    }
}

// The AVX-512 version of the same, eight pairs per step; y must be 64-byte aligned.
// (GCC 12's AVX-512 headers trip -Wmaybe-uninitialized inside their own intrinsics.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
__attribute__((target("avx512f"))) void rotate_row_fused_avx512(int pairs, double md, double scale,
                                                                 const double* __restrict theta,
                                                                 const double* __restrict ba,
                                                                 const double* __restrict bc,
                                                                 const double* __restrict bs,
                                                                 const double* __restrict sa,
                                                                 const double* __restrict sc,
                                                                 const double* __restrict ss,
                                                                 const double* __restrict x, double* __restrict y) {
    const __m512d m = _mm512_set1_pd(md);
    const __m512d g = _mm512_set1_pd(scale);
    const __m512i order = _mm512_set_epi64(7, 3, 6, 2, 5, 1, 4, 0);  // lanes (0 4 1 5 2 6 3 7)
    for (int k = 0; k < pairs; k += 8) {
        const __m512d delta = _mm512_sub_pd(
            _mm512_sub_pd(_mm512_mul_pd(m, _mm512_loadu_pd(theta + k)), _mm512_loadu_pd(ba + k)),
            _mm512_loadu_pd(sa + k));
        const __m512d bcv = _mm512_loadu_pd(bc + k), bsv = _mm512_loadu_pd(bs + k);
        const __m512d scv = _mm512_loadu_pd(sc + k), ssv = _mm512_loadu_pd(ss + k);
        const __m512d c0 = _mm512_sub_pd(_mm512_mul_pd(bcv, scv), _mm512_mul_pd(bsv, ssv));
        const __m512d s0 = _mm512_add_pd(_mm512_mul_pd(bsv, scv), _mm512_mul_pd(bcv, ssv));
        const __m512d c = _mm512_mul_pd(_mm512_sub_pd(c0, _mm512_mul_pd(s0, delta)), g);
        const __m512d s = _mm512_mul_pd(_mm512_add_pd(s0, _mm512_mul_pd(c0, delta)), g);
        const __m512d x0 = _mm512_loadu_pd(x + 2 * k), x1 = _mm512_loadu_pd(x + 2 * k + 8);
        const __m512d a = _mm512_unpacklo_pd(x0, x1), b = _mm512_unpackhi_pd(x0, x1);
        const __m512d cp = _mm512_permutexvar_pd(order, c), sp = _mm512_permutexvar_pd(order, s);
        const __m512d ya = _mm512_sub_pd(_mm512_mul_pd(a, cp), _mm512_mul_pd(b, sp));
        const __m512d yb = _mm512_add_pd(_mm512_mul_pd(a, sp), _mm512_mul_pd(b, cp));
        _mm512_stream_pd(y + 2 * k, _mm512_unpacklo_pd(ya, yb));
        _mm512_stream_pd(y + 2 * k + 8, _mm512_unpackhi_pd(ya, yb));
    }
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

bool has_avx512() {
    static const bool yes = __builtin_cpu_supports("avx512f");
    return yes;
}

bool has_avx2() {
    static const bool yes = __builtin_cpu_supports("avx2");
    return yes;
}
#else
bool has_avx2() { return false; }
#endif

}  // namespace detail

void BatchRotator::rotate_rows(const double* in, double* out, std::int64_t rows, std::int64_t first_position) {
    constexpr std::int64_t kPrefetchRows = 48;
    const int pairs = rotated_ / 2;
    const int dim = dim_;
    const bool stream = static_cast<std::size_t>(rows) * dim >= detail::kStreamThresholdDoubles;
    row_.resize(dim);
    const bool fast_path = detail::has_avx2();
#if defined(__x86_64__) && defined(__GNUC__)
    const bool wide_path = detail::has_avx512();
#endif
#if defined(__x86_64__) && defined(__GNUC__)
    if (stream && fast_path && pairing_ == Pairing::interleaved && pairs % 4 == 0 && rotated_ == dim &&
        !phasors_.needs_second_order(first_position + rows)) {
        for (std::int64_t r = 0; r < rows; ++r) {
            double* y = out + r * dim;
            const std::int64_t m = first_position + r;
            const PhasorGenerator::RowInputs t = phasors_.row_inputs(m);
            if (r + kPrefetchRows < rows) {
                const char* ahead = reinterpret_cast<const char*>(in + (r + kPrefetchRows) * dim);
                for (std::size_t b = 0; b < static_cast<std::size_t>(dim) * sizeof(double); b += 64)
                    __builtin_prefetch(ahead + b, 0, 3);
            }
            if ((reinterpret_cast<std::uintptr_t>(y) & 15) != 0) break;  // handled below
            if (wide_path && (reinterpret_cast<std::uintptr_t>(y) & 63) == 0 && pairs % 8 == 0)
                detail::rotate_row_fused_avx512(pairs, static_cast<double>(m), scale_, t.theta, t.block_angle,
                                                t.block_cos, t.block_sin, t.step_angle, t.step_cos, t.step_sin,
                                                in + r * dim, y);
            else
                detail::rotate_row_fused_avx2(pairs, static_cast<double>(m), scale_, t.theta, t.block_angle, t.block_cos,
                                          t.block_sin, t.step_angle, t.step_cos, t.step_sin, in + r * dim, y);
            if (r + 1 == rows) {
                detail::stream_fence();
                return;
            }
        }
    }
#endif
    for (std::int64_t done = 0; done < rows; done += kChunk) {
        const std::int64_t n = std::min<std::int64_t>(kChunk, rows - done);
        phasors_.fill(first_position + done, n, cos_.data(), sin_.data(), pairs);
        if (scale_ != 1.0) {
            for (std::size_t i = 0; i < static_cast<std::size_t>(n) * pairs; ++i) {
                cos_[i] *= scale_;
                sin_[i] *= scale_;
            }
        }
        for (std::int64_t r = 0; r < n; ++r) {
            double* y = out + (done + r) * dim;
            if (stream && done + r + kPrefetchRows < rows) {
                // The input streams from memory; asking for it a few rows early hides the latency
                // the hardware prefetcher leaves (the loads were most of the time).
                const char* ahead = reinterpret_cast<const char*>(in + (done + r + kPrefetchRows) * dim);
                for (std::size_t b = 0; b < static_cast<std::size_t>(dim) * sizeof(double); b += 64)
                    __builtin_prefetch(ahead + b, 0, 3);
            }
            const bool interleaved = pairing_ == Pairing::interleaved;
            const double* x = in + (done + r) * dim;
            const double* c = cos_.data() + r * pairs;
            const double* s = sin_.data() + r * pairs;
#if defined(__x86_64__) && defined(__GNUC__)
            if (stream && fast_path && (reinterpret_cast<std::uintptr_t>(y) & 15) == 0) {
                detail::rotate_row_stream_avx2(dim, pairs, interleaved, x, c, s, y);
                continue;
            }
#endif
            detail::rotate_row(dim, pairs, interleaved, x, c, s, stream ? row_.data() : y);
            if (stream) detail::copy_row(y, row_.data(), dim, true);
        }
    }
    if (stream) detail::stream_fence();
}

}  // namespace rope
