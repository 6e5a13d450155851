#include "rope/context_extension.hpp"

#include <algorithm>
#include <cmath>

namespace rope {

RopeConfig with_scaling(RopeConfig config, Scaling scaling) {
    config.scaling = scaling;
    return config;
}

double pair_at_wavelength(double wavelength, double base, int rotated_dims) {
    // 2 pi base^(2i/d) = wavelength  <=>  i = (d/2) ln(wavelength / 2 pi) / ln(base)
    return 0.5 * rotated_dims * std::log(wavelength / kTwoPi) / std::log(base);
}

bool scaling_band(const RopeConfig& config, ScalingBand& band) {
    const int d = config.rotated_dims();
    const double last = d / 2 - 1;
    auto wavelength_at = [&](double pair) { return kTwoPi * std::pow(config.base, 2.0 * pair / d); };
    if (config.scaling == Scaling::yarn) {
        const FrequencyTable f = compute_frequencies(config);
        band.first_pair = std::clamp(f.yarn_low, 0.0, last);
        band.last_pair = std::clamp(f.yarn_high, 0.0, last);
    } else if (config.scaling == Scaling::llama3) {
        const double l0 = static_cast<double>(config.original_max_position);
        band.first_pair = std::clamp(pair_at_wavelength(l0 / config.high_freq_factor, config.base, d), 0.0, last);
        band.last_pair = std::clamp(pair_at_wavelength(l0 / config.low_freq_factor, config.base, d), 0.0, last);
    } else {
        return false;
    }
    band.short_wavelength = wavelength_at(band.first_pair);
    band.long_wavelength = wavelength_at(band.last_pair);
    return true;
}

std::vector<double> attention_factor_curve(const RopeConfig& config, const std::vector<double>& factors) {
    std::vector<double> out;
    out.reserve(factors.size());
    RopeConfig c = config;
    for (double s : factors) {
        c.factor = s;
        out.push_back(compute_frequencies(c).attention_factor);
    }
    return out;
}

}  // namespace rope
