// Internal helpers for the hot kernels: CPU dispatch and cache-bypassing stores.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
// Built once for AVX2 and once for any x86-64, picked at load time (the default build must run on
// any x86-64, so no -march=native). No FMA: contraction would change the rounding we rely on.
#define ROPE_HOT_KERNEL __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ROPE_HOT_KERNEL
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rope::detail {

// Tables far bigger than the caches are written with non-temporal stores: they skip the
// read-for-ownership of each line, which is most of the cost of filling 100+ MB.
inline constexpr std::size_t kStreamThresholdDoubles = std::size_t(1) << 17;

inline void copy_row(double* dst, const double* src, int n, bool stream) {
#if defined(__SSE2__)
    if (stream && (reinterpret_cast<std::uintptr_t>(dst) & 15) == 0) {
        int k = 0;
        for (; k + 2 <= n; k += 2) _mm_stream_pd(dst + k, _mm_loadu_pd(src + k));
        for (; k < n; ++k) dst[k] = src[k];
        return;
    }
#else
    (void)stream;
#endif
    std::memcpy(dst, src, static_cast<std::size_t>(n) * sizeof(double));
}

// e^{i fl(angle)} from two known phasors e^{i fl(a1)} e^{i fl(a2)}, corrected to second order by the
// exact residual (fl(angle) - fl(a1)) - fl(a2) (see phasor.hpp). For the scalar table builders; the
// hot loops spell the same arithmetic out so it vectorises.
inline void corrected_product(double angle, double a1, double c1, double s1, double a2, double c2, double s2, double& c,
                              double& s) {
    const double delta = (angle - a1) - a2;
    const double c0 = c1 * c2 - s1 * s2;
    const double s0 = s1 * c2 + c1 * s2;
    const double h = 1.0 - 0.5 * delta * delta;
    c = c0 * h - s0 * delta;
    s = s0 * h + c0 * delta;
}

inline void stream_fence() {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

}  // namespace rope::detail
