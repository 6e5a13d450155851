// Figure files: how long an export takes and how large it is. The HTML page of an animation (issue
// 33's budget: 60 frames of `vectors` at 800x480 in at most 3 s and 5 MB) beside the GIF of the same
// frames. Run: ./build/bench/export-benchmarks
#include <benchmark/benchmark.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "export/animation.hpp"
#include "figures/registry.hpp"

namespace {

void animation(benchmark::State& state, const char* figure_name, const char* extension) {
    const rope::figures::FigureDescriptor& figure = *rope::figures::find_figure(figure_name);
    rope::ParamSet params;
    params.set(rope::ParamId::preset, "llama-3-8b");
    const rope::exporting::Animation a = rope::exporting::parse_animate("position=0:119");
    rope::exporting::ExportOptions o;
    o.path = "/tmp/rope-export-bench-" + std::to_string(getpid()) + extension;
    o.scale = 1;
    for (auto _ : state) rope::exporting::export_animation(figure, params, a, o);
    struct stat st {};
    stat(o.path.c_str(), &st);
    state.counters["MB"] = static_cast<double>(st.st_size) / 1e6;
    state.counters["frames"] = a.frames;
    unlink(o.path.c_str());
}

}  // namespace

BENCHMARK_CAPTURE(animation, vectors_html_60_frames, "vectors", ".html")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(animation, vectors_gif_60_frames, "vectors", ".gif")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(animation, heatmap_html_60_frames, "heatmap", ".html")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
