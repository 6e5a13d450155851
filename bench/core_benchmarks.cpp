// Google Benchmark microbenchmarks of the core kernels (sizes the panels use every frame).
#include <benchmark/benchmark.h>

#include <vector>

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

BENCHMARK_MAIN();
