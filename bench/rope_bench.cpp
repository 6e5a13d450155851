// The core against numpy on the same work, in one run: times the core (best of several runs, one
// thread), writes its outputs, then runs bench/numpy_baseline.py, which times numpy and prints
// each time, the ratio and the largest difference between the two.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "rope/decay.hpp"
#include "rope/frequencies.hpp"
#include "rope/phasor.hpp"
#include "rope/rotation.hpp"

namespace {

double best_ms(const std::function<void()>& fn, int repeats) {
    double best = 1e300;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        const auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    return best;
}

// 64-byte aligned storage, as a numerical library would allocate big arrays (lets the kernels
// use aligned non-temporal stores).
template <typename T>
struct AlignedAllocator {
    using value_type = T;
    AlignedAllocator() = default;
    template <typename U>
    AlignedAllocator(const AlignedAllocator<U>&) {}
    T* allocate(std::size_t n) {
        const std::size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
        return static_cast<T*>(std::aligned_alloc(64, bytes));
    }
    void deallocate(T* p, std::size_t) { std::free(p); }
    bool operator==(const AlignedAllocator&) const { return true; }
    bool operator!=(const AlignedAllocator&) const { return false; }
};
using Buffer = std::vector<double, AlignedAllocator<double>>;

void save(const std::string& path, const Buffer& v) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(double)));
}

}  // namespace

int main(int argc, char** argv) {
    const std::string dir = argc > 1 ? argv[1] : "/tmp/rope-bench";
    std::system(("mkdir -p '" + dir + "'").c_str());
    constexpr std::int64_t L = 131072;
    constexpr int D = 128;
    constexpr int P = D / 2;
    const Eigen::VectorXd theta = rope::base_frequencies(10000.0, D);

    // 1. angle table with cos and sin
    Buffer cos_table(L * P), sin_table(L * P);
    rope::PhasorGenerator gen(theta);
    const double t_angles = best_ms([&] { gen.fill(0, L, cos_table.data(), sin_table.data(), P); }, 7);

    // 2. rotate L vectors of d = 128 to positions 0..L-1
    Buffer in(L * D), out(L * D);
    for (std::int64_t m = 0; m < L; ++m)
        for (int j = 0; j < D; ++j) in[m * D + j] = std::sin(0.37 * static_cast<double>(m) + 1.3 * j);
    rope::RopeConfig config;
    const rope::FrequencyTable freqs = rope::compute_frequencies(config);
    rope::BatchRotator rotator(freqs, rope::Pairing::interleaved);
    const double t_rotate = best_ms([&] { rotator.rotate_rows(in.data(), out.data(), L, 0); }, 7);

    // 3, 4. decay bound
    Buffer decay_small(131073), decay_large(1048577);
    rope::DecayBound bound(theta);
    const double t_decay_small = best_ms([&] { bound.compute(0, 131073, decay_small.data()); }, 7);
    const double t_decay_large = best_ms([&] { bound.compute(0, 1048577, decay_large.data()); }, 5);

    // 5. decay for 64 bases x r <= 8192
    std::vector<double> bases(64);
    Buffer decay_bases(64 * 8193);
    for (int b = 0; b < 64; ++b) bases[b] = std::pow(10.0, 2.0 + 5.0 * b / 63.0);
    const double t_bases = best_ms([&] {
        for (int b = 0; b < 64; ++b) {
            rope::DecayBound per_base(rope::base_frequencies(bases[b], D));
            per_base.compute(0, 8193, decay_bases.data() + b * 8193);
        }
    }, 7);

    save(dir + "/angle_cos.f64", cos_table);
    save(dir + "/angle_sin.f64", sin_table);
    save(dir + "/rotate_input.f64", in);
    save(dir + "/rotate_output.f64", out);
    save(dir + "/decay_131072.f64", decay_small);
    save(dir + "/decay_1048576.f64", decay_large);
    save(dir + "/decay_bases.f64", decay_bases);
    std::ofstream(dir + "/core_times.json") << "{\"angle_table\": " << t_angles << ", \"rotate\": " << t_rotate
                                            << ", \"decay_131072\": " << t_decay_small
                                            << ", \"decay_1048576\": " << t_decay_large
                                            << ", \"decay_bases\": " << t_bases << "}\n";
    std::printf("core (one thread, best of 5-7 runs) vs numpy %s (best of 2-3 runs)\n", "float64");
    std::fflush(stdout);
    const std::string cmd = "/usr/bin/python3 '" ROPE_NUMPY_BASELINE "' '" + dir + "'";
    const int rc = std::system(cmd.c_str());
    return rc == 0 ? 0 : 1;
}
