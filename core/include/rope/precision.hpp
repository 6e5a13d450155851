// Low-precision number formats emulated in double: what float32, bfloat16 and float16 make of a
// position, a frequency and the angle m * theta_i (ROPE.md, "Numerical precision").
//
// Every rounding is round-to-nearest, ties to even, and overflows to +-inf like the hardware:
//  float32:  24-bit significand, the C++ double -> float conversion.
//  bfloat16: the top 16 bits of the float32 (8-bit significand, float32's exponent range), rounded
//            to nearest even from the float32 value, as PyTorch converts (so a double is rounded
//            twice: to float32, then to bfloat16).
//  float16:  11-bit significand, exponents -14..15, subnormals down to 2^-24, rounded once from
//            the double (as numpy's astype(float16)); |x| >= 65520 becomes inf (largest finite 65504).
#pragma once

#include <Eigen/Core>
#include <array>
#include <string_view>

#include "rope/config.hpp"
#include "rope/frequencies.hpp"

namespace rope {

enum class NumberFormat { float64, float32, bfloat16, float16 };
inline constexpr std::array<NumberFormat, 3> kLowPrecisionFormats = {NumberFormat::float32, NumberFormat::bfloat16,
                                                                     NumberFormat::float16};

std::string_view to_string(NumberFormat f);  // "float64", "float32", "bf16", "fp16"

double round_to_float32(double x);
double round_to_bfloat16(double x);
double round_to_float16(double x);
double round_to_format(NumberFormat f, double x);  // float64: x itself

// Largest finite value of the format (float16: 65504).
double format_max(NumberFormat f);
// The gap between x rounded to the format and the next representable number away from zero (the
// "step" of the format at x; subnormal spacing near zero, inf where x rounds to infinity: fp16 from
// 65520 on, since 65504 < x < 65520 still rounds to 65504).
double format_spacing(NumberFormat f, double x);

// The angle m * theta as a framework computes it entirely in format f: the position and the
// frequency are stored in f, and their product is rounded to f: fl(fl(m) * fl(theta)).
double angle_in_format(NumberFormat f, double m, double theta);

// The common mistake: the frequency vector (inv_freq) was cast to `theta_format` (e.g. by
// model.to(bfloat16)) and the product is then taken in `compute_format` (e.g. float32):
// fl_c(fl_c(m) * fl_t(theta)).
double angle_with_theta_cast(NumberFormat theta_format, NumberFormat compute_format, double m, double theta);

// x rotated to position m with every pair's angle computed as angle_with_theta_cast(theta_format,
// compute_format, m, theta_i) and the rest (cos, sin, the products) in double: the vector's error
// from the angle alone. {float64, float64} is rotate(). Pass-through dims unchanged.
Eigen::VectorXd rotate_with_angle_precision(const FrequencyTable& freqs, Pairing pairing, const Eigen::VectorXd& x,
                                            double m, NumberFormat theta_format, NumberFormat compute_format);

}  // namespace rope
