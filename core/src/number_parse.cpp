#include "rope/number_parse.hpp"

#include <charconv>
#include <cmath>

#include "rope/number_format.hpp"
#include "rope/shortest_digits.hpp"

namespace rope {

std::string_view trim_blanks(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::optional<double> parse_number(std::string_view text) {
    std::string_view s = trim_blanks(text);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty() || s.front() == '+') return std::nullopt;
    double value = 0;
#if defined(__cpp_lib_to_chars)
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
#else  // the browser build's libc++ has no floating-point from_chars
    const auto [ptr, ec] = detail::read_double(s.data(), s.data() + s.size(), value);
#endif
    if (ptr != s.data() + s.size()) return std::nullopt;
    if (ec == std::errc::result_out_of_range)
        return s.front() == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    if (ec != std::errc()) return std::nullopt;
    return value;
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
    return value;
}

bool NumberRule::allows(double v) const {
    if (!std::isfinite(v) || v > max || (min_exclusive ? !(v > min) : !(v >= min))) return false;
    if (whole && std::floor(v) != v) return false;
    return !even || std::fmod(v, 2.0) == 0.0;
}

std::string NumberRule::range_text() const {
    if (!std::isfinite(max)) return std::string(min_exclusive ? "> " : ">= ") + format_number(min);
    if (min_exclusive) return "in (" + format_number(min) + ", " + format_number(max) + "]";
    return "from " + format_number(min) + " to " + format_number(max);
}

std::string NumberRule::describe() const {
    std::string s;
    if (whole) s = std::string(even ? "an even integer " : "an integer ") + range_text();
    else s = std::string(std::isfinite(max) ? "a number " : "a finite number ") + range_text();
    if (!unit.empty()) s += " (" + std::string(unit) + ")";
    return s;
}

std::optional<double> read_number(std::string_view text, const NumberRule& rule) {
    const std::optional<double> v = parse_number(text);
    if (!v || !rule.allows(*v)) return std::nullopt;
    return v;
}

std::string refusal(std::string_view as_typed, std::string_view subject, std::string_view allowed) {
    std::string s(as_typed);
    s += ": ";
    if (!subject.empty()) s += std::string(subject) + " ";
    return s + "must be " + std::string(allowed);
}

std::string shorten_for_message(std::string_view text) {
    constexpr std::size_t kMax = 48;
    std::string out;
    for (char c : text) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    if (out.size() > kMax) out = out.substr(0, kMax - 3) + "...";
    return out;
}

}  // namespace rope
