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

inline void stream_fence() {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

}  // namespace rope::detail
