// Fuzz target: numeric parameter validation. Raw doubles (any bit pattern: NaN, inf, denormals,
// huge) go to every numeric key the way sliders and JSON numbers do. Whatever validates must give
// finite frequencies, attention factor, angles, decay bound and sum of cosines: never NaN on screen.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "rope/bounds.hpp"
#include "rope/decay.hpp"
#include "rope/frequencies.hpp"
#include "rope/params.hpp"
#include "rope/phasor.hpp"

namespace P = rope::P;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto& table = rope::parameter_table();
    rope::ParamSet p;
    // records of 9 bytes: a key index and a double
    for (std::size_t at = 0; at + 9 <= size && at < 9 * 12; at += 9) {
        const rope::ParamSpec& spec = table[data[at] % table.size()];
        if (spec.type != rope::ParamType::integer && spec.type != rope::ParamType::real) continue;
        double v;
        std::memcpy(&v, data + at + 1, sizeof v);
        rope::ParamSet next = p;
        try {
            next.set_number(spec.id, v);
            next.validate();
            p = next;
        } catch (const rope::ParamError&) {
        }
    }
    p.validate();  // never left invalid
    const rope::FrequencyTable f = rope::compute_frequencies(p.config());
    if (!std::isfinite(f.attention_factor)) std::abort();
    for (Eigen::Index i = 0; i < f.theta.size(); ++i) {
        if (!std::isfinite(f.theta[i]) || !(f.theta[i] > 0)) std::abort();
        const double a = rope::wrap_angle(rope::position_angle(static_cast<double>(p[P::position]), f.theta[i]));
        if (!std::isfinite(a)) std::abort();
    }
    // the bound and the cosine sum cost O(pairs) per distance and come in blocks: small tables only,
    // so the fuzzer spends its time on validation (thousands of runs a second, not hundreds)
    if (f.theta.size() <= 16) {
        rope::DecayBound bound(f.theta);
        double b[4];
        bound.compute(p[P::max_distance] > 3 ? p[P::max_distance] - 3 : 0, 4, b);
        for (double x : b)
            if (!std::isfinite(x)) std::abort();
        double c[4];
        rope::cosine_sum(f.theta, p[P::position], 4, c);
        for (double x : c)
            if (!std::isfinite(x)) std::abort();
    }
    return 0;
}
