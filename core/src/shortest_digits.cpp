#include "rope/shortest_digits.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace rope::detail {

namespace {

// A decimal mantissa of `digits` digits (no leading zero) times 10^exponent.
struct Decimal {
    std::uint64_t mantissa;
    int digits;
    int exponent;  // of the first digit, as in d.ddd e+exponent
};

std::uint64_t power_of_ten(int n) {
    std::uint64_t p = 1;
    for (int i = 0; i < n; ++i) p *= 10;
    return p;
}

// d[.ddd]e+XX (the exponent with a sign and at least two digits, as printf and std::to_chars write it)
int write(const Decimal& d, bool negative, char* out) {
    char m[24];
    std::snprintf(m, sizeof m, "%llu", static_cast<unsigned long long>(d.mantissa));
    char* o = out;
    if (negative) *o++ = '-';
    *o++ = m[0];
    if (d.digits > 1) {
        *o++ = '.';
        for (int i = 1; i < d.digits; ++i) *o++ = m[i];
    }
    return static_cast<int>(o - out) + std::snprintf(o, 8, "e%c%02d", d.exponent < 0 ? '-' : '+', std::abs(d.exponent));
}

double value_of(const Decimal& d) {
    char text[40];
    write(d, false, text);
    return std::strtod(text, nullptr);
}

// |d - v|, with the decimal read at a precision beyond a double's
long double distance(const Decimal& d, double v) {
    char text[40];
    write(d, false, text);
    return std::fabs(std::strtold(text, nullptr) - static_cast<long double>(v));
}

// The neighbour of `d` one unit away in its last digit, kept at the same number of digits.
Decimal step(Decimal d, int by) {
    const std::uint64_t low = power_of_ten(d.digits - 1), high = power_of_ten(d.digits);
    d.mantissa += static_cast<std::uint64_t>(by);
    if (d.mantissa == high) d.mantissa = low, ++d.exponent;
    else if (d.mantissa < low) d.mantissa = high - 1, --d.exponent;
    return d;
}

}  // namespace

char* shortest_scientific(char* out, double value) {
    const bool negative = std::signbit(value);
    const double v = std::fabs(value);
    if (v == 0) return out + write({0, 1, 0}, negative, out);
    for (int digits = 1; digits <= 17; ++digits) {
        // printf's correctly rounded digits, and the two strings next to them: where the interval of
        // values that read back as v is lopsided (at a power of two), a neighbour may read back when
        // the nearest string does not.
        char text[48];
        std::snprintf(text, sizeof text, "%.*e", digits - 1, v);
        Decimal nearest{0, digits, 0};
        const char* e = std::strchr(text, 'e');
        for (const char* p = text; p < e; ++p)
            if (*p != '.') nearest.mantissa = nearest.mantissa * 10 + static_cast<std::uint64_t>(*p - '0');
        nearest.exponent = std::atoi(e + 1);
        const Decimal candidates[3] = {nearest, step(nearest, -1), step(nearest, 1)};
        const Decimal* best = nullptr;
        for (const Decimal& c : candidates)
            if (value_of(c) == v && (!best || distance(c, v) < distance(*best, v))) best = &c;
        if (best) return out + write(*best, negative, out);
    }
    return out + std::snprintf(out, 32, "%.16e", value);  // not reached: 17 digits always read back
}

DoubleRead read_double(const char* first, const char* last, double& value) {
    const std::string text(first, last);
    const char* s = text.c_str();
    const char* p = s + (*s == '-' ? 1 : 0);
    // strtod would skip spaces, take a '+' and read hexadecimal; from_chars does none of these
    if (*p == '\0' || *p == '+' || *p == '-' || std::isspace(static_cast<unsigned char>(*p))) return {first, std::errc::invalid_argument};
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {  // "0x1p3": the "0" alone
        value = *s == '-' ? -0.0 : 0.0;
        return {first + (p - s) + 1, std::errc()};
    }
    char* end = nullptr;
    errno = 0;
    const double read = std::strtod(s, &end);
    if (end == s) return {first, std::errc::invalid_argument};
    if (errno == ERANGE && (std::isinf(read) || read == 0)) return {first + (end - s), std::errc::result_out_of_range};
    value = read;
    return {first + (end - s), std::errc()};
}

}  // namespace rope::detail
