// The browser build's shortest digits and number reading (rope/shortest_digits.hpp) against the
// desktop's std::to_chars and std::from_chars: the same text for every double tried, so the page
// shows the desktop's numbers to the last digit, and the same reading of every text tried.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "rope/shortest_digits.hpp"

namespace {

std::string standard(double v) {
    char buf[64];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific).ptr);
}

std::string portable(double v) {
    char buf[64];
    return std::string(buf, rope::detail::shortest_scientific(buf, v));
}

double from_bits(std::uint64_t bits) {
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

}  // namespace

TEST(NumberText, ShortestDigitsAreToCharsForEveryKindOfDouble) {
    std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1e-4, 1e16, 5e-324, -5e-324, 2.2250738585072014e-308,
                                  2.2250738585072009e-308, 1.7976931348623157e308, 9007199254740993.0, 123456789012345678.0,
                                  10000.0 * std::pow(10.0, 0.1), 6.283185307179586, 0.8659643233600653, 1e23, 8.41e21, 5e-310};
    for (int e = -1074; e <= 1023; ++e) values.push_back(std::ldexp(1.0, e));  // the lopsided intervals
    for (int k = 1; k <= 20000; ++k) values.push_back(k * 0.001), values.push_back(1.0 / k), values.push_back(std::pow(10000.0, -2.0 * k / 20000));
    std::mt19937_64 gen(2026);
    for (int i = 0; i < 80000; ++i) {
        const double v = from_bits(gen());
        if (std::isfinite(v)) values.push_back(v);
    }
    std::uniform_real_distribution<double> u(-1e6, 1e6);
    for (int i = 0; i < 50000; ++i) values.push_back(u(gen));
    std::size_t differ = 0;
    for (double v : values)
        if (standard(v) != portable(v) && ++differ <= 10) ADD_FAILURE() << standard(v) << " vs " << portable(v);
    EXPECT_EQ(differ, 0u) << "of " << values.size();
}

TEST(NumberText, ReadingIsFromCharsIncludingItsRefusals) {
    std::vector<std::string> texts = {"1", "-1", "0", "-0", "1e-400", "4.9e-324", "2e-324", "1e-310", "1e400", "-1e400", "inf", "-INF",
                                      "Infinity", "nan", "NaN(123)", "0x10", "-0x1p3", "1e", "1.5e+3x", ".5", "5.", "-.5e1", "1e-320",
                                      "", "-", "+1", " 1", "\n1", "e5", ".", "1..2", "12abc", "0.1", "1e308", "1.8e308",
                                      "2.2250738585072011e-308", "123456789012345678901234567890", "1_000"};
    std::mt19937_64 gen(7);
    for (int i = 0; i < 20000; ++i) {
        const double v = from_bits(gen());
        if (std::isfinite(v)) texts.push_back(standard(v));
    }
    for (const std::string& t : texts) {
        double a = -7, b = -7;
        const auto sa = std::from_chars(t.data(), t.data() + t.size(), a);
        const auto sb = rope::detail::read_double(t.data(), t.data() + t.size(), b);
        EXPECT_EQ(sa.ec, sb.ec) << "'" << t << "'";
        EXPECT_EQ(sa.ptr - t.data(), sb.end - t.data()) << "'" << t << "'";
        if (sa.ec == std::errc()) {
            EXPECT_TRUE(std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b))) << "'" << t << "': " << a << " vs " << b;
        }
    }
}
