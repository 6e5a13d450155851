// Per-pair rotation frequencies theta_i (radians per token) for every scaling variant, plus the
// attention factor, following ../shared/ROPE.md and transformers' modeling_rope_utils.py.
#pragma once

#include <Eigen/Core>

#include "rope/config.hpp"

namespace rope {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kTwoPi = 2.0 * kPi;

struct FrequencyTable {
    int dim = 0;                     // head dimension d
    int rotated_dims = 0;            // dims that rotate (partial rotary); pairs = rotated_dims / 2
    Eigen::VectorXd theta;           // scaled frequency per pair (inv_freq), radians per token
    Eigen::VectorXd original_theta;  // unscaled base^(-2i/rotated_dims)
    double attention_factor = 1.0;   // multiplies cos and sin (so the score by its square)
    double effective_base = 0.0;     // base after ntk / dynamic rescaling (= base otherwise)
    // yarn only: the ramp bounds in pair units (fractional when truncate is false)
    double yarn_low = 0.0;
    double yarn_high = 0.0;
    bool uses_long_factors = false;  // longrope only: which list was used
    int rotating_pairs = 0;          // pairs 0 .. rotating_pairs-1 turn; the rest have frequency 0

    int pairs() const { return static_cast<int>(theta.size()); }
    bool rotates(int pair) const { return pair < rotating_pairs; }
    // +infinity for a pair that does not turn (proportional RoPE's tail, NoPE)
    double wavelength(int pair) const { return kTwoPi / theta[pair]; }
};

// theta_i = base^(-2i/d) for i = 0 .. d/2-1 (d = rotated dims).
Eigen::VectorXd base_frequencies(double base, int rotated_dims);

// Proportional RoPE's inv_freq (transformers' _compute_proportional_rope_parameters): d/2 entries,
// base^(-2i/d) for i < rotating_pairs, then zeros. The exponent's denominator is the whole head d.
Eigen::VectorXd proportional_frequencies(double base, int dim, int rotating_pairs);

// All variants. Throws std::invalid_argument for a configuration the math cannot take (the
// parameter table rejects those before they get here, with a message for people).
FrequencyTable compute_frequencies(const RopeConfig& config);

// YaRN's correction dimension: the (fractional) pair-dim index whose wavelength makes
// `rotations` turns over `context` tokens: d * ln(context / (2 pi rotations)) / (2 ln base).
double yarn_correction_dim(double rotations, int rotated_dims, double base, double context);

// get_mscale of transformers' yarn: 0.1 * m * ln(f) + 1 for f > 1, else 1.
double yarn_mscale(double factor, double m = 1.0);

// Wavelength of the slowest pair: 2 pi base^((d-2)/d).
double longest_wavelength(double base, int rotated_dims);

// The longest wavelength among the pairs that turn (proportional RoPE's zero tail has wavelength
// +inf and is left out); NaN when no pair turns (NoPE).
double longest_rotating_wavelength(const FrequencyTable& freqs);

}  // namespace rope
