// Google Benchmark microbenchmarks of the core kernels (sizes the panels use every frame).
#include <benchmark/benchmark.h>

#include <vector>

#include "rope/cosine_sums.hpp"
#include "rope/decay.hpp"
#include "rope/frequencies.hpp"
#include "rope/phasor.hpp"
#include "rope/rotation.hpp"

static void BM_Frequencies(benchmark::State& state) {
    rope::RopeConfig c;
    c.scaling = rope::Scaling::yarn;
    c.factor = 4;
    for (auto _ : state) benchmark::DoNotOptimize(rope::compute_frequencies(c));
}
BENCHMARK(BM_Frequencies);

static void BM_PhasorRows(benchmark::State& state) {
    const auto theta = rope::base_frequencies(10000.0, 128);
    rope::PhasorGenerator gen(theta);
    const std::int64_t rows = state.range(0);
    std::vector<double> c(rows * 64), s(rows * 64);
    for (auto _ : state) gen.fill(0, rows, c.data(), s.data(), 64);
    state.SetItemsProcessed(state.iterations() * rows * 64);
}
BENCHMARK(BM_PhasorRows)->Arg(4096)->Arg(131072);

static void BM_DecayBound(benchmark::State& state) {
    const auto theta = rope::base_frequencies(10000.0, 128);
    rope::DecayBound bound(theta);
    const std::int64_t n = state.range(0);
    std::vector<double> out(n);
    for (auto _ : state) bound.compute(0, n, out.data());
    state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_DecayBound)->Arg(4096)->Arg(131072);

// The sweep panel's cosine sum at its largest size: 2^20 positions of 512 pairs (dim 1024), at
// the default base and at Llama 3's; one thread.
static void BM_FastCosineSum(benchmark::State& state) {
    const auto theta = rope::base_frequencies(static_cast<double>(state.range(0)), 1024);
    rope::FastCosineSum fast(theta);
    const std::int64_t n = std::int64_t(1) << 20, chunk = std::int64_t(1) << 14;
    std::vector<double> out(chunk);
    for (auto _ : state)
        for (std::int64_t at = 0; at < n; at += chunk) {
            fast.compute(at, chunk, out.data());
            benchmark::DoNotOptimize(out.data());
        }
    state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_FastCosineSum)->Arg(10000)->Arg(500000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
