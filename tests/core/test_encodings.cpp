// Low-precision rounding against numpy (float32, float16 casts; bfloat16 by bit arithmetic), the
// teaching points of ROPE.md's precision section, the sinusoidal encoding, and the relative
// property with matched and mixed pairing layouts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "rope/encodings.hpp"
#include "rope/frequencies.hpp"
#include "rope/precision.hpp"
#include "rope/rotation.hpp"
#include "support/random_vector.hpp"

using namespace rope;

namespace {

// tests/reference/encodings_reference.py, found next to this file's directory.
std::string reference_script() {
    std::string here = __FILE__;
    const std::size_t at = here.rfind("core/test_encodings.cpp");
    return here.substr(0, at) + "reference/encodings_reference.py";
}

std::string hex(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", v);
    return buf;
}

struct Rounded {
    double f32, bf16, f16;
};

// Runs the numpy reference on `xs`.
std::vector<Rounded> numpy_rounding(const std::vector<double>& xs) {
    char path[] = "/tmp/rope-encodings-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) throw std::runtime_error("mkstemp");
    close(fd);
    {
        std::ofstream out(path);
        for (double x : xs) out << hex(x) << '\n';
    }
    const std::string command = "/usr/bin/python3 '" + reference_script() + "' " + path;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) throw std::runtime_error("popen");
    std::string text;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
    const int status = pclose(pipe);
    std::remove(path);
    if (status != 0) throw std::runtime_error("reference script failed");
    std::vector<Rounded> out;
    std::istringstream in(text);
    std::string a, b, c;
    while (in >> a >> b >> c) out.push_back({std::strtod(a.c_str(), nullptr), std::strtod(b.c_str(), nullptr), std::strtod(c.c_str(), nullptr)});
    return out;
}

bool same(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
}

std::vector<double> rounding_inputs() {
    std::vector<double> xs = {0.0, -0.0, 1.0, -1.0, 256, 257, 258, 259, 2048, 2049, 2050, 2051, 65504, 65505, 65519,
                              65519.99, 65520, -65520, 70000, 1e5, 131071, 131072, 16777217, 0.1, 1.0 / 3,
                              std::ldexp(1.0, -14), std::ldexp(1.0, -24), std::ldexp(1.0, -25), std::ldexp(3.0, -25),
                              std::ldexp(1.0, -26), std::ldexp(1.0, -126), std::ldexp(1.0, -149), std::ldexp(1.0, -150),
                              3.4e38, 3.39e38, 3.3895e38, 3.40282356e38, 1e39, -1e39, 0.8659643233600653, 1e-4};
    std::mt19937_64 rng(20240521);
    std::uniform_real_distribution<double> mant(1.0, 2.0);
    std::uniform_int_distribution<int> exp_small(-30, 17), exp_wide(-140, 128), sign(0, 1);
    for (int i = 0; i < 3000; ++i) {
        const double s = sign(rng) ? -1.0 : 1.0;
        xs.push_back(s * std::ldexp(mant(rng), i % 2 ? exp_small(rng) : exp_wide(rng)));
    }
    // exact ties and their neighbours: fp16 (11-bit significand), bf16 (8 bits, from float32), float32
    std::uniform_int_distribution<int> sig11(1024, 2047), sig8(128, 255), e16(-14, 15);
    for (int i = 0; i < 400; ++i) {
        const double t16 = std::ldexp(sig11(rng) + 0.5, e16(rng) - 10);
        const double tb = std::ldexp(sig8(rng) + 0.5, e16(rng) * 3 - 7);
        const double t32 = std::ldexp((1 << 23) + static_cast<double>(rng() % (1u << 23)) + 0.5, e16(rng) - 23);
        for (double t : {t16, tb, t32}) {
            xs.push_back(t);
            xs.push_back(std::nextafter(t, 0.0));
            xs.push_back(std::nextafter(t, 1e300));
        }
    }
    return xs;
}

FrequencyTable table(int dim, double base = 10000.0, double fraction = 1.0) {
    RopeConfig c;
    c.dim = dim;
    c.base = base;
    c.rotary_fraction = fraction;
    return compute_frequencies(c);
}

}  // namespace

TEST(Precision, RoundingMatchesNumpy) {
    const std::vector<double> xs = rounding_inputs();
    const std::vector<Rounded> ref = numpy_rounding(xs);
    ASSERT_EQ(ref.size(), xs.size());
    int bad = 0;
    for (std::size_t i = 0; i < xs.size() && bad < 10; ++i) {
        const bool ok32 = same(round_to_float32(xs[i]), ref[i].f32);
        const bool okb = same(round_to_bfloat16(xs[i]), ref[i].bf16);
        const bool ok16 = same(round_to_float16(xs[i]), ref[i].f16);
        EXPECT_TRUE(ok32) << hex(xs[i]) << " float32 " << hex(round_to_float32(xs[i])) << " numpy " << hex(ref[i].f32);
        EXPECT_TRUE(okb) << hex(xs[i]) << " bf16 " << hex(round_to_bfloat16(xs[i])) << " numpy " << hex(ref[i].bf16);
        EXPECT_TRUE(ok16) << hex(xs[i]) << " fp16 " << hex(round_to_float16(xs[i])) << " numpy " << hex(ref[i].f16);
        bad += !(ok32 && okb && ok16);
    }
}

TEST(Precision, Bf16HoldsWholePositionsOnlyTo256) {
    for (int m = 0; m <= 256; ++m) EXPECT_EQ(round_to_bfloat16(m), m);
    EXPECT_EQ(round_to_bfloat16(257), 256);  // the tie goes to the even significand
    EXPECT_EQ(round_to_bfloat16(258), 258);
    EXPECT_EQ(round_to_bfloat16(259), 260);
    EXPECT_EQ(format_spacing(NumberFormat::bfloat16, 257), 2);
    EXPECT_EQ(angle_in_format(NumberFormat::bfloat16, 257, 1.0), 256);
}

TEST(Precision, Fp16LargestIs65504) {
    EXPECT_EQ(format_max(NumberFormat::float16), 65504);
    EXPECT_EQ(round_to_float16(65504), 65504);
    EXPECT_EQ(round_to_float16(65519.9), 65504);
    EXPECT_TRUE(std::isinf(round_to_float16(65520)));
    EXPECT_TRUE(std::isinf(round_to_float16(1e5)));
    EXPECT_LT(round_to_float16(-65520), 0);
    EXPECT_EQ(round_to_float16(2049), 2048);
    EXPECT_EQ(round_to_float16(2051), 2052);
    EXPECT_EQ(round_to_float16(std::ldexp(1.0, -24)), std::ldexp(1.0, -24));  // the smallest subnormal
    EXPECT_EQ(round_to_float16(std::ldexp(1.0, -25)), 0.0);                   // a tie to even: zero
    EXPECT_TRUE(std::isinf(format_spacing(NumberFormat::float16, 70000)));
}

TEST(Precision, Float32StepsNear131071) {
    EXPECT_EQ(format_spacing(NumberFormat::float32, 131071), std::ldexp(1.0, -7));
    EXPECT_EQ(format_spacing(NumberFormat::float32, 131072), std::ldexp(1.0, -6));  // 0.0156 rad
    EXPECT_EQ(format_spacing(NumberFormat::float32, 16777216), 2);                  // 2^24: positions stop being exact
    EXPECT_EQ(round_to_float32(16777217), 16777216);
    // a frequency float32 cannot hold: the angle's error stays within the step of the result
    const double theta = table(128).theta[1];
    for (double m : {131071.0, 131073.0, 1e6}) {
        const double err = std::abs(angle_in_format(NumberFormat::float32, m, theta) - m * theta);
        EXPECT_GT(err, 0.0);
        EXPECT_LE(err, format_spacing(NumberFormat::float32, m * theta) * 1.01 + m * std::abs(round_to_float32(theta) - theta));
    }
}

TEST(Precision, CastingTheFrequenciesFirstRuinsFarPositions) {
    const FrequencyTable f = table(128, 500000);
    const double theta = f.theta[3];
    const double m = 100000;
    const double proper = std::abs(angle_in_format(NumberFormat::float32, m, theta) - m * theta);
    const double cast_first = std::abs(angle_with_theta_cast(NumberFormat::bfloat16, NumberFormat::float32, m, theta) - m * theta);
    EXPECT_LT(proper, 0.02);
    EXPECT_GT(cast_first, 10.0);  // radians: the direction is lost
    // the vector rotated with those angles: double angles give rotate() itself
    const Eigen::VectorXd x = rope::test::random_normal_vector(128, 3);
    for (Pairing p : {Pairing::interleaved, Pairing::half}) {
        EXPECT_EQ((rotate_with_angle_precision(f, p, x, m, NumberFormat::float64, NumberFormat::float64) - rotate(f, p, x, m)).norm(), 0.0);
        EXPECT_GT((rotate_with_angle_precision(f, p, x, m, NumberFormat::bfloat16, NumberFormat::float32) - rotate(f, p, x, m)).norm(),
                  0.5 * x.norm());
    }
}

TEST(Sinusoidal, EncodingIsSinThenCos) {
    const Eigen::VectorXd pe = sinusoidal_encoding(7, 8, 10000);
    for (int i = 0; i < 4; ++i) {
        const double w = std::pow(10000.0, -2.0 * i / 8);
        EXPECT_DOUBLE_EQ(pe[2 * i], std::sin(7 * w));
        EXPECT_DOUBLE_EQ(pe[2 * i + 1], std::cos(7 * w));
    }
}

TEST(Sinusoidal, DotProductIsACosineSumOfTheDistance) {
    for (int dim : {2, 16, 128}) {
        for (double base : {10000.0, 500.0}) {
            const Eigen::VectorXd w = base_frequencies(base, dim);
            for (double r : {0.0, 1.0, 5.0, 40.0, 1000.0}) {
                double expected = 0;
                for (int i = 0; i < dim / 2; ++i) expected += std::cos(r * w[i]);
                EXPECT_NEAR(sinusoidal_dot_at_distance(r, dim, base), expected, 1e-12);
                for (double m : {0.0, 3.0, 250.0, 70000.0}) {  // depends on n - m only, and is even in it
                    EXPECT_NEAR(sinusoidal_dot(m, m + r, dim, base), expected, 1e-9);
                    EXPECT_NEAR(sinusoidal_dot(m + r, m, dim, base), expected, 1e-9);
                }
            }
            const std::vector<double> curve = sinusoidal_dot_curve(dim, base, 300);
            ASSERT_EQ(curve.size(), 301u);
            for (int r = 0; r <= 300; r += 37) EXPECT_NEAR(curve[r], sinusoidal_dot_at_distance(r, dim, base), 1e-10);
        }
    }
    EXPECT_NEAR(sinusoidal_dot_at_distance(0, 128, 10000), 64, 1e-12);
}

TEST(Sinusoidal, AddedToTheTokenTheScoreDependsOnPositions) {
    const Eigen::VectorXd x = rope::test::random_normal_vector(64, 5);
    const double a = additive_score(x, 10, x, 20, 10000), b = additive_score(x, 110, x, 120, 10000);
    EXPECT_GT(std::abs(a - b), 1e-3);
    const std::vector<double> curve = additive_score_curve(x, 10, x, 0, 100, 10000);
    for (int n : {0, 20, 99}) EXPECT_NEAR(curve[n], additive_score(x, 10, x, n, 10000), 1e-10);
}

TEST(ScoreMatrix, MatchedLayoutsDependOnDistanceOnly) {
    for (Pairing p : {Pairing::interleaved, Pairing::half}) {
        for (double fraction : {1.0, 0.5}) {
            const FrequencyTable f = table(64, 10000, fraction);
            const Eigen::VectorXd q = rope::test::random_normal_vector(64, 1), k = rope::test::random_normal_vector(64, 2);
            const Eigen::MatrixXd s = score_matrix(f, p, p, q, k, 40);
            for (int m = 0; m < 40; ++m)
                for (int n = 0; n < 40; ++n) {
                    EXPECT_NEAR(s(m, n), attention_score(f, p, q, m, k, n), 1e-10);
                    if (m > 0 && n > 0) {
                        EXPECT_NEAR(s(m, n), s(m - 1, n - 1), 1e-10);  // Toeplitz
                    }
                }
            // the rows are rotate_with_layouts and rotate
            const Eigen::MatrixXd rows = rotated_rows_with_layouts(f, p, p, q, 1000, 3);
            for (int i = 0; i < 3; ++i) {
                EXPECT_LT((rows.row(i).transpose() - rotate(f, p, q, 1000 + i)).norm(), 1e-11);
                EXPECT_LT((rows.row(i).transpose() - rotate_with_layouts(f, p, p, q, 1000 + i)).norm(), 1e-11);
            }
            const std::vector<double> shifted = shifted_scores(f, p, p, q, k, 7, 0, 200);
            EXPECT_LT(largest_drift(shifted), 1e-10);
            const std::vector<double> curve = rope_score_curve(f, p, q, 12, k, 0, 50);
            for (int n = 0; n < 50; n += 7) EXPECT_NEAR(curve[n], attention_score(f, p, q, 12, k, n), 1e-10);
        }
    }
}

TEST(ScoreMatrix, MixedLayoutsBreakTheRelativeProperty) {
    const FrequencyTable f = table(128);
    const Eigen::VectorXd q = rope::test::random_normal_vector(128, 7), k = rope::test::random_normal_vector(128, 8);
    for (Pairing table_layout : {Pairing::interleaved, Pairing::half}) {
        const Pairing vector_layout = table_layout == Pairing::interleaved ? Pairing::half : Pairing::interleaved;
        const std::vector<double> shifted = shifted_scores(f, table_layout, vector_layout, q, k, 3, 0, 200);
        EXPECT_GT(largest_drift(shifted), 1.0);
        for (int s = 0; s < 200; s += 40)
            EXPECT_NEAR(shifted[s], mixed_layout_score(f, table_layout, vector_layout, q, s, k, s + 3), 1e-10);
        const Eigen::MatrixXd mixed = score_matrix(f, table_layout, vector_layout, q, k, 30);
        EXPECT_GT(std::abs(mixed(5, 8) - mixed(20, 23)), 1e-3);
        EXPECT_NEAR(mixed(5, 8), mixed_layout_score(f, table_layout, vector_layout, q, 5, k, 8), 1e-10);
    }
    // with d = 2 the two layouts are the same pair, so nothing breaks
    const FrequencyTable two = table(2);
    const Eigen::VectorXd q2 = rope::test::random_normal_vector(2, 9);
    EXPECT_LT(largest_drift(shifted_scores(two, Pairing::half, Pairing::interleaved, q2, q2, 5, 0, 50)), 1e-12);
}
