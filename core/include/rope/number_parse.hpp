// Numbers read from text, one way everywhere: --set values and command-line flags, session, lesson
// and config files, PNG text chunks and numbers typed into a slider. A refusal reads the same
// wherever it comes from: "<as typed>: <subject> must be <what is allowed>".
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace rope {

// The whole of `text` as a double, after trimming spaces and tabs: what std::from_chars accepts
// (so "nan" and "inf" read, and are refused by a finite range), with one optional leading '+'.
// A magnitude beyond a double's range reads as +-inf. Null if the text is not one number.
// `text` without the spaces and tabs around it.
std::string_view trim_blanks(std::string_view text);

std::optional<double> parse_number(std::string_view text);

// The whole of `text` as an integer, written plainly: an optional '-' and digits (no '+', no
// point, no exponent, no spaces). Null otherwise, or beyond 64 bits.
std::optional<std::int64_t> parse_integer(std::string_view text);

// What a number may be: a range, whole or even, and what it counts.
struct NumberRule {
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool min_exclusive = false;  // (min, max] instead of [min, max]
    bool whole = false;          // an integer
    bool even = false;           // an even integer
    std::string_view unit;       // what it counts, said after the range: "pixels", "frames"

    bool allows(double value) const;  // finite, in range, whole or even as asked
    // "an even integer from 2 to 4096", "an integer >= 0", "a number in (1, 1000000000000]",
    // "a number from 0.25 to 8", "a finite number > 0", each followed by " (unit)" if it has one
    std::string describe() const;
    std::string range_text() const;  // "from 2 to 4096", "in (1, 1000000000000]", ">= 0"
};

// `text` as a number the rule allows, or null.
std::optional<double> read_number(std::string_view text, const NumberRule& rule);

// The one shape of a refusal: "<as_typed>: <subject> must be <allowed>" (no subject: "<as_typed>:
// must be <allowed>"). as_typed is what the person wrote ("dim=3", "--scale 9"), shortened.
std::string refusal(std::string_view as_typed, std::string_view subject, std::string_view allowed);

// `text` as it can appear in a one-line message: line breaks and tabs as spaces, at most 48
// characters ("..." where cut).
std::string shorten_for_message(std::string_view text);

}  // namespace rope
