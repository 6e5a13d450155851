// Shortest round-trip decimal text for a double, and its reading, where the standard library has no
// floating-point std::to_chars / std::from_chars (the browser build's libc++): the same text and the
// same refusals as those give (tests/core/test_number_text.cpp holds them equal on millions of
// values), built on the C library's exact printf and strtod.
#pragma once

#include <system_error>

namespace rope::detail {

// What std::to_chars(first, last, value, std::chars_format::scientific) writes for a finite value:
// the fewest significant digits that read back as `value` (the nearest such when several do),
// "d[.ddd]e+XX". Returns the end; `out` holds at least 32 bytes.
char* shortest_scientific(char* out, double value);

struct DoubleRead {
    const char* end;  // one past what was read (first on failure)
    std::errc ec;     // invalid_argument: no number there; result_out_of_range: beyond a double
};
// What std::from_chars(first, last, value) (chars_format::general) reads, as libstdc++ does it:
// decimal and inf/infinity/nan[(...)] with an optional '-', no hexadecimal (0x1 reads as 0), no
// leading space; a magnitude that overflows, or a non-zero one that underflows to zero, is out of
// range and leaves `value` as it was.
DoubleRead read_double(const char* first, const char* last, double& value);

}  // namespace rope::detail
