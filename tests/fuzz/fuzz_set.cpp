// Fuzz target: the `--set key=value` parser (one assignment per input line), as the command line,
// sessions and the UI use it. Accepted input must leave a consistent parameter set: every value
// prints back to text that parses to the same value, and the frequencies are finite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "rope/frequencies.hpp"
#include "rope/params.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= input.size() && lines.size() < 16) {
        const std::size_t nl = input.find('\n', start);
        lines.push_back(input.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
        if (nl == std::string::npos) break;
        start = nl + 1;
    }
    rope::ParamSet p;
    try {
        rope::cli::apply_sets(p, lines);
    } catch (const rope::cli::UsageError&) {
        return 0;  // refused with a message: fine
    }
    // accepted: round trip every key through its text
    rope::ParamSet q = p;
    for (const rope::ParamSpec& spec : rope::parameter_table()) {
        if (spec.id == rope::ParamId::preset) continue;  // presets re-apply their keys
        q.set(spec.id, p.value_text(spec.id));
        if (q.value_text(spec.id) != p.value_text(spec.id)) std::abort();
    }
    const rope::FrequencyTable f = rope::compute_frequencies(p.config());
    for (Eigen::Index i = 0; i < f.theta.size(); ++i)
        if (!std::isfinite(f.theta[i]) || !(f.theta[i] > 0)) std::abort();
    if (!std::isfinite(f.attention_factor)) std::abort();
    return 0;
}
