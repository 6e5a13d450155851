// Numbers as text: the shortest form that reads back as the same double, laid out like Python's
// repr (fixed notation from 1e-4 up to 1e16, scientific outside), with integral values written
// without a trailing ".0" (500000, not 5e+05). Pure formatting into caller buffers: no I/O.
#pragma once

#include <cstdint>
#include <string>

namespace rope {

// Longest text format_number can produce (sign, 17 digits, point, exponent), plus slack.
inline constexpr int kMaxNumberChars = 32;

// Writes `value` at `out` (at least kMaxNumberChars bytes) and returns the end pointer.
char* format_number(char* out, double value);
char* format_integer(char* out, std::int64_t value);

std::string format_number(double value);

}  // namespace rope
