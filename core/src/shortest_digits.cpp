#include "rope/shortest_digits.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#endif

namespace rope::detail {

#if defined(__EMSCRIPTEN__)

// The browser's own shortest round-trip digits (ECMAScript's Number::toString: the fewest digits
// that read back as v, the nearest of those, as std::to_chars chooses) for a finite v > 0, re-laid
// out as d[.ddd]e+XX. Here rather than musl's printf and strtod, which work in a 128-bit long double
// emulated in software: a heatmap's CSV (300,000 numbers) took 14 s of the page's only thread that
// way, 0.1 s this way. The page's CSV test holds equal values to equal text against the desktop's.
EM_JS(int, rope_browser_shortest_scientific, (double v, char* out), {
  var s = String(v);
  var exponent = 0;
  var e = s.indexOf('e');
  if (e >= 0) { exponent = parseInt(s.slice(e + 1), 10); s = s.slice(0, e); }
  var dot = s.indexOf('.');
  var whole = dot < 0 ? s : s.slice(0, dot);
  var digits = whole + (dot < 0 ? '' : s.slice(dot + 1));
  exponent += whole.length - 1;
  var lead = 0;
  while (lead < digits.length - 1 && digits.charAt(lead) === '0') { lead += 1; }
  exponent -= lead;
  var last = digits.length;
  while (last > lead + 1 && digits.charAt(last - 1) === '0') { last -= 1; }
  digits = digits.slice(lead, last);
  var size = Math.abs(exponent);
  var text = digits.charAt(0) + (digits.length > 1 ? '.' + digits.slice(1) : '') + 'e' + (exponent < 0 ? '-' : '+') + (size < 10 ? '0' : '') + size;
  stringToUTF8(text, out, 32);
  return text.length;
});

char* shortest_scientific(char* out, double value) {
    if (std::signbit(value)) *out++ = '-';
    const double v = std::fabs(value);
    if (v == 0) {
        std::memcpy(out, "0e+00", 5);
        return out + 5;
    }
    return out + rope_browser_shortest_scientific(v, out);
}

#else  // printf's correctly rounded digits, read back by strtod

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

#endif

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
