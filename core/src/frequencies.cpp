#include "rope/frequencies.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace rope {

namespace {

// ntk and dynamic raise the base by an exponent d/(d-2), which needs d >= 4.
void require_ntk_dims(int rotated_dims, const char* variant) {
    if (rotated_dims < 4)
        throw std::invalid_argument(std::string("scaling=") + variant +
                                    " needs at least 4 rotated dims (its exponent is d/(d-2))");
}

Eigen::VectorXd ntk_frequencies(double new_base, int rotated_dims) {
    return base_frequencies(new_base, rotated_dims);
}

}  // namespace

Eigen::VectorXd base_frequencies(double base, int rotated_dims) {
    const int pairs = rotated_dims / 2;
    Eigen::VectorXd theta(pairs);
    // Written as 1 / base^(2i/d), the way the reference code computes inv_freq, so the doubles
    // agree bit for bit with a float64 port of it.
    for (int i = 0; i < pairs; ++i)
        theta[i] = 1.0 / std::pow(base, static_cast<double>(2 * i) / static_cast<double>(rotated_dims));
    return theta;
}

Eigen::VectorXd proportional_frequencies(double base, int dim, int rotating_pairs) {
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(dim / 2);
    for (int i = 0; i < rotating_pairs && i < dim / 2; ++i)
        theta[i] = 1.0 / std::pow(base, static_cast<double>(2 * i) / static_cast<double>(dim));
    return theta;
}

double yarn_correction_dim(double rotations, int rotated_dims, double base, double context) {
    return (rotated_dims * std::log(context / (rotations * 2.0 * kPi))) / (2.0 * std::log(base));
}

double yarn_mscale(double factor, double m) {
    if (factor <= 1.0) return 1.0;
    return 0.1 * m * std::log(factor) + 1.0;
}

double longest_wavelength(double base, int rotated_dims) {
    return kTwoPi / base_frequencies(base, rotated_dims)[rotated_dims / 2 - 1];
}

double longest_rotating_wavelength(const FrequencyTable& freqs) {
    if (freqs.rotating_pairs < 1) return std::numeric_limits<double>::quiet_NaN();
    return freqs.theta.head(freqs.rotating_pairs).unaryExpr([](double t) { return kTwoPi / t; }).maxCoeff();
}

namespace {

// Proportional RoPE (Gemma 4): d/2 entries, base^(-2i/d) for the first pairs, 0 for the rest.
FrequencyTable proportional_table(const RopeConfig& c, FrequencyTable t) {
    t.rotating_pairs = c.rotating_pairs();
    if (t.rotating_pairs < 1 && !c.nope) throw std::invalid_argument("proportional RoPE needs at least one rotating pair");
    t.original_theta = proportional_frequencies(c.base, t.rotated_dims, t.rotating_pairs);
    t.theta = t.original_theta / c.factor;  // transformers: inv_freq /= factor
    t.effective_base = c.base;
    if (c.nope) t.theta.setZero(), t.original_theta.setZero(), t.rotating_pairs = 0;
    if (c.attention_factor) t.attention_factor = *c.attention_factor;
    return t;
}

void apply_dynamic(const RopeConfig& c, int d, double exponent, FrequencyTable& t) {
    require_ntk_dims(d, "dynamic");
    const double max_pos = static_cast<double>(c.original_max_position);
    const double seq = std::max(static_cast<double>(c.sequence_length), max_pos);
    t.effective_base = c.base * std::pow(c.factor * seq / max_pos - (c.factor - 1.0), exponent);
    t.theta = ntk_frequencies(t.effective_base, d);
}

void apply_yarn(const RopeConfig& c, int d, FrequencyTable& t) {
    const int pairs = d / 2;
    const double context = static_cast<double>(c.original_max_position);
    double low = yarn_correction_dim(c.beta_fast, d, c.base, context);
    double high = yarn_correction_dim(c.beta_slow, d, c.base, context);
    if (c.truncate) {
        low = std::floor(low);
        high = std::ceil(high);
    }
    low = std::max(low, 0.0);
    high = std::min(high, static_cast<double>(d - 1));
    t.yarn_low = low;
    t.yarn_high = high;
    if (low == high) high += 0.001;  // as the reference: avoid a zero-width ramp
    for (int i = 0; i < pairs; ++i) {
        const double pos_freq = std::pow(c.base, static_cast<double>(2 * i) / d);
        const double extrapolation = 1.0 / pos_freq;
        const double interpolation = 1.0 / (c.factor * pos_freq);
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double extrapolation_share = 1.0 - ramp;
        t.theta[i] = interpolation * (1.0 - extrapolation_share) + extrapolation * extrapolation_share;
    }
    if (c.mscale && c.mscale_all_dim && *c.mscale != 0.0 && *c.mscale_all_dim != 0.0)
        t.attention_factor = yarn_mscale(c.factor, *c.mscale) / yarn_mscale(c.factor, *c.mscale_all_dim);
    else
        t.attention_factor = yarn_mscale(c.factor);
}

void apply_llama3(const RopeConfig& c, int d, FrequencyTable& t) {
    // Equal factors (Llama 4 Scout: 1 and 1) cut at L0 / factor with no smooth band between;
    // transformers' and Meta's smooth formula would divide 0 by 0 only exactly at that wavelength.
    if (!(c.high_freq_factor >= c.low_freq_factor)) throw std::invalid_argument("high_freq_factor must be at least low_freq_factor");
    const int pairs = d / 2;
    const double context = static_cast<double>(c.original_max_position);
    const double low_freq_wavelength = context / c.low_freq_factor;
    const double high_freq_wavelength = context / c.high_freq_factor;
    for (int i = 0; i < pairs; ++i) {
        const double inv = t.original_theta[i];
        const double wavelength = kTwoPi / inv;
        if (wavelength < high_freq_wavelength) {
            t.theta[i] = inv;  // high frequencies: untouched
        } else if (wavelength > low_freq_wavelength || c.high_freq_factor == c.low_freq_factor) {
            t.theta[i] = inv / c.factor;  // low frequencies: interpolated
        } else {
            const double smooth = (context / wavelength - c.low_freq_factor) / (c.high_freq_factor - c.low_freq_factor);
            t.theta[i] = (1.0 - smooth) * inv / c.factor + smooth * inv;
        }
    }
}

void apply_longrope(const RopeConfig& c, int d, FrequencyTable& t) {
    const int pairs = d / 2;
    t.uses_long_factors = c.sequence_length > c.original_max_position;
    const std::vector<double>& ext = t.uses_long_factors ? c.long_factors : c.short_factors;
    if (!ext.empty() && static_cast<int>(ext.size()) != pairs)
        throw std::invalid_argument("longrope factor list length must equal the rotated pairs");
    for (int i = 0; i < pairs; ++i) {
        const double e = ext.empty() ? 1.0 : ext[i];
        t.theta[i] = 1.0 / (e * std::pow(c.base, static_cast<double>(2 * i) / d));
    }
    if (c.factor <= 1.0)
        t.attention_factor = 1.0;
    else
        t.attention_factor = std::sqrt(1.0 + std::log(c.factor) / std::log(static_cast<double>(c.original_max_position)));
}

}  // namespace

FrequencyTable compute_frequencies(const RopeConfig& c) {
    const int d = c.rotated_dims();
    if (d < 2) throw std::invalid_argument("fewer than 2 rotated dims");
    if (!(c.base > 1.0) || !std::isfinite(c.base)) throw std::invalid_argument("base must be finite and > 1");
    if (!(c.factor >= 1.0) || !std::isfinite(c.factor)) throw std::invalid_argument("factor must be >= 1");

    FrequencyTable t;
    t.dim = c.dim;
    t.rotated_dims = d;
    t.rotating_pairs = d / 2;
    if (c.scaling == Scaling::proportional) return proportional_table(c, t);
    t.original_theta = base_frequencies(c.base, d);
    t.theta = t.original_theta;
    t.effective_base = c.base;
    const double exponent = static_cast<double>(d) / static_cast<double>(d - 2);
    switch (c.scaling) {
        case Scaling::none: break;
        case Scaling::linear: t.theta = t.original_theta / c.factor; break;
        case Scaling::ntk:
            require_ntk_dims(d, "ntk");
            t.effective_base = c.base * std::pow(c.factor, exponent);
            t.theta = ntk_frequencies(t.effective_base, d);
            break;
        case Scaling::dynamic: apply_dynamic(c, d, exponent, t); break;
        case Scaling::yarn: apply_yarn(c, d, t); break;
        case Scaling::llama3: apply_llama3(c, d, t); break;
        case Scaling::longrope: apply_longrope(c, d, t); break;
        case Scaling::proportional: break;  // handled above
    }
    if (c.attention_factor) t.attention_factor = *c.attention_factor;
    if (c.nope) {  // NoPE: the layer adds no position at all
        t.theta.setZero();
        t.original_theta.setZero();
        t.rotating_pairs = 0;
    }
    return t;
}

}  // namespace rope
