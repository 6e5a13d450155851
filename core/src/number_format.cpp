#include "rope/number_format.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

#include "rope/shortest_digits.hpp"

namespace rope {

char* format_integer(char* out, std::int64_t value) {
    return std::to_chars(out, out + kMaxNumberChars, value).ptr;
}

char* format_number(char* out, double value) {
    if (std::isnan(value)) {
        std::memcpy(out, "nan", 3);
        return out + 3;
    }
    if (std::isinf(value)) {
        if (value < 0) *out++ = '-';
        std::memcpy(out, "inf", 3);
        return out + 3;
    }
    // Shortest round-trip digits in scientific form, e.g. "-1.2345e-07", then re-laid out.
    char sci[kMaxNumberChars];
#if defined(__cpp_lib_to_chars)
    char* end = std::to_chars(sci, sci + sizeof sci, value, std::chars_format::scientific).ptr;
#else  // the browser build's libc++ has no floating-point to_chars
    char* end = detail::shortest_scientific(sci, value);
#endif
    const char* p = sci;
    char* o = out;
    if (*p == '-') *o++ = *p++;
    char digits[20];
    int n = 0;
    while (p < end && *p != 'e') {
        if (*p != '.') digits[n++] = *p;
        ++p;
    }
    int exponent = 0;
    std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), end, exponent);

    if (exponent >= -4 && exponent < 16) {
        if (exponent < 0) {  // 0.000ddd
            *o++ = '0';
            *o++ = '.';
            for (int z = 0; z < -exponent - 1; ++z) *o++ = '0';
            for (int i = 0; i < n; ++i) *o++ = digits[i];
        } else {
            const int int_digits = exponent + 1;
            for (int i = 0; i < int_digits; ++i) *o++ = i < n ? digits[i] : '0';
            if (n > int_digits) {
                *o++ = '.';
                for (int i = int_digits; i < n; ++i) *o++ = digits[i];
            }
        }
        return o;
    }
    // scientific: d[.ddd]e+XX, as std::to_chars wrote it
    *o++ = digits[0];
    if (n > 1) {
        *o++ = '.';
        for (int i = 1; i < n; ++i) *o++ = digits[i];
    }
    const std::size_t exp_len = static_cast<std::size_t>(end - p);
    std::memcpy(o, p, exp_len);
    return o + exp_len;
}

std::string format_number(double value) {
    char buf[kMaxNumberChars];
    return std::string(buf, format_number(buf, value));
}

}  // namespace rope
