#include "rope/precision.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "rope/rotation.hpp"

namespace rope {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Round-to-nearest-even of x to a binary format with `precision` significand bits (the implicit
// bit included), smallest normal exponent `min_exponent` (so subnormals have spacing
// 2^(min_exponent - precision + 1)) and largest finite value `max_finite`. Exact arithmetic: the
// scaling is by powers of two and nearbyint rounds to even in the default rounding mode.
double round_binary(double x, int precision, int min_exponent, double max_finite) {
    if (!std::isfinite(x) || x == 0.0) return x;
    int e2 = 0;
    std::frexp(x, &e2);  // |x| = f * 2^e2, f in [0.5, 1): the leading bit has exponent e2 - 1
    const int exponent = std::max(e2 - 1, min_exponent);
    const double quantum = std::ldexp(1.0, exponent - precision + 1);
    const double r = std::nearbyint(x / quantum) * quantum;
    if (std::abs(r) > max_finite) return std::copysign(kInf, x);
    return r;
}

}  // namespace

std::string_view to_string(NumberFormat f) {
    switch (f) {
        case NumberFormat::float64: return "float64";
        case NumberFormat::float32: return "float32";
        case NumberFormat::bfloat16: return "bf16";
        case NumberFormat::float16: return "fp16";
    }
    return "?";
}

double round_to_float32(double x) { return static_cast<double>(static_cast<float>(x)); }

double round_to_bfloat16(double x) {
    const float f = static_cast<float>(x);
    if (std::isnan(f)) return static_cast<double>(f);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    // keep the top 16 bits, rounding the low 16 to nearest even (an overflow carries into the
    // exponent and gives inf, as it should)
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    bits &= 0xFFFF0000u;
    float out = 0;
    std::memcpy(&out, &bits, sizeof out);
    return static_cast<double>(out);
}

double round_to_float16(double x) { return round_binary(x, 11, -14, 65504.0); }

double round_to_format(NumberFormat f, double x) {
    switch (f) {
        case NumberFormat::float64: return x;
        case NumberFormat::float32: return round_to_float32(x);
        case NumberFormat::bfloat16: return round_to_bfloat16(x);
        case NumberFormat::float16: return round_to_float16(x);
    }
    return x;
}

double format_max(NumberFormat f) {
    switch (f) {
        case NumberFormat::float64: return std::numeric_limits<double>::max();
        case NumberFormat::float32: return static_cast<double>(std::numeric_limits<float>::max());
        case NumberFormat::bfloat16: return std::ldexp(255.0, 120);  // (2 - 2^-7) * 2^127
        case NumberFormat::float16: return 65504.0;
    }
    return 0;
}

double format_spacing(NumberFormat f, double x) {
    // where x lands: fp16 takes 65504 < x < 65520 to 65504 (finite), 65520 and up to inf
    const double a = std::abs(round_to_format(f, x));
    if (!std::isfinite(a)) return kInf;
    int precision = 53, min_exponent = -1022;
    switch (f) {
        case NumberFormat::float64: break;
        case NumberFormat::float32: precision = 24, min_exponent = -126; break;
        case NumberFormat::bfloat16: precision = 8, min_exponent = -126; break;
        case NumberFormat::float16: precision = 11, min_exponent = -14; break;
    }
    int e2 = 0;
    std::frexp(a, &e2);
    const int exponent = a == 0.0 ? min_exponent : std::max(e2 - 1, min_exponent);
    return std::ldexp(1.0, exponent - precision + 1);
}

double angle_in_format(NumberFormat f, double m, double theta) { return angle_with_theta_cast(f, f, m, theta); }

double angle_with_theta_cast(NumberFormat theta_format, NumberFormat compute_format, double m, double theta) {
    const double t = round_to_format(compute_format, round_to_format(theta_format, theta));
    // the operands have at most 24 significant bits, so their product is exact in double and the
    // one rounding below is the format's correctly rounded multiplication
    return round_to_format(compute_format, round_to_format(compute_format, m) * t);
}

Eigen::VectorXd rotate_with_angle_precision(const FrequencyTable& freqs, Pairing pairing, const Eigen::VectorXd& x,
                                            double m, NumberFormat theta_format, NumberFormat compute_format) {
    if (x.size() != freqs.dim) throw std::invalid_argument("vector length must equal dim");
    Eigen::VectorXd out = x;
    for (int i = 0; i < freqs.pairs(); ++i) {
        const double angle = angle_with_theta_cast(theta_format, compute_format, m, freqs.theta[i]);
        const double c = std::cos(angle), s = std::sin(angle);
        const auto [a, b] = pair_dims(pairing, freqs.rotated_dims, i);
        out[a] = x[a] * c - x[b] * s;
        out[b] = x[a] * s + x[b] * c;
    }
    return out;
}

}  // namespace rope
