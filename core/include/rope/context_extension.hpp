// What the context-extension view compares: the same configuration under another scaling variant,
// where each variant's regimes begin and end along the pairs (YaRN's ramp, Llama 3's wavelength
// thresholds), and how the attention factor grows with the extension factor.
#pragma once

#include <vector>

#include "rope/config.hpp"
#include "rope/frequencies.hpp"

namespace rope {

// `config` with another scaling variant, everything else (factor, L0, betas, lists) kept.
RopeConfig with_scaling(RopeConfig config, Scaling scaling);

// The fractional pair index i whose unscaled wavelength 2 pi base^(2i/d) equals `wavelength`
// (d = rotated dims); may fall outside [0, d/2).
double pair_at_wavelength(double wavelength, double base, int rotated_dims);

// A stretch of pairs a variant treats in one way, e.g. YaRN's ramp between full extrapolation and
// full interpolation, or Llama 3's smooth band between its two wavelength thresholds.
struct ScalingBand {
    double first_pair = 0, last_pair = 0;               // fractional pair indices, clamped to [0, pairs-1]
    double short_wavelength = 0, long_wavelength = 0;   // unscaled wavelengths (tokens) at its ends
};

// YaRN: pairs yarn_low .. yarn_high (the ramp). Llama 3: pairs whose unscaled wavelength lies between
// L0 / high_freq_factor and L0 / low_freq_factor. Other variants have no band (returns false).
bool scaling_band(const RopeConfig& config, ScalingBand& band);

// The attention factor of `config` (its variant, mscale, L0 ...) at each extension factor in `factors`.
std::vector<double> attention_factor_curve(const RopeConfig& config, const std::vector<double>& factors);

}  // namespace rope
