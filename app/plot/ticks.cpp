#include "plot/ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rope::plot {

namespace {

double nice_step(double span, int target) {
    const double raw = span / std::max(1, target);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    const double nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    return nice * mag;
}

const char* kSuperscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};

}  // namespace

std::string tick_label(double v, double step) {
    char buf[64];
    const double a = std::abs(v);
    if (a == 0) return "0";
    if (a >= 1e12 && step >= 1e11) {
        std::snprintf(buf, sizeof buf, "%gT", v / 1e12);
        return buf;
    }
    if (a >= 1e9 && step >= 1e8) {
        std::snprintf(buf, sizeof buf, "%gG", v / 1e9);
        return buf;
    }
    if (a >= 1e6 && step >= 1e5) {
        std::snprintf(buf, sizeof buf, "%gM", v / 1e6);
        return buf;
    }
    if (a >= 1e4 && step >= 1e3) {
        std::snprintf(buf, sizeof buf, "%gk", v / 1e3);
        return buf;
    }
    int decimals = 0;
    if (step < 1) decimals = static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 8), v);
    std::string s = buf;
    if (s[0] == '-') s = "−" + s.substr(1);  // a real minus sign
    return s;
}

std::string power_label(double v) {
    const double e = std::log10(v);
    if (std::abs(e - std::round(e)) < 1e-9) {
        const int n = static_cast<int>(std::round(e));
        if (n >= 0 && n <= 1) return tick_label(v, v);
        std::string s = "10";
        std::string digits = std::to_string(std::abs(n));
        if (n < 0) s += "⁻";
        for (char d : digits) s += kSuperscripts[d - '0'];
        return s;
    }
    return tick_label(v, v / 10);
}

std::string readout_number(double v, int digits) {
    char buf[64];
    if (v != 0 && (std::abs(v) >= 1e9 || std::abs(v) < 1e-4))
        std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
    else
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    std::string s = buf;
    if (s[0] == '-') s = "−" + s.substr(1);
    return s;
}

namespace {

// One unit for every label of an axis, chosen by its largest value: "0, 5k, 10k, 15k", never
// "5000" beside "10k".
struct Unit {
    double divisor = 1;
    const char* suffix = "";
};

Unit unit_for(double largest, double step) {
    if (largest >= 1e12 && step >= 1e11) return {1e12, "T"};
    if (largest >= 1e9 && step >= 1e8) return {1e9, "G"};
    if (largest >= 1e6 && step >= 1e5) return {1e6, "M"};
    if (largest >= 1e4 && step >= 1e3) return {1e3, "k"};
    return {};
}

std::string label_in(double v, double step, const Unit& unit) {
    if (v == 0) return "0";
    if (unit.divisor == 1) return tick_label(v, step < 1 ? step : 1);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g%s", v / unit.divisor, unit.suffix);
    std::string s = buf;
    if (s[0] == '-') s = "−" + s.substr(1);
    return s;
}

std::vector<Tick> linear_ticks_with_step(double lo, double hi, double step) {
    std::vector<Tick> ticks;
    const double first = std::ceil(lo / step - 1e-9) * step;
    for (int i = 0;; ++i) {
        double v = first + i * step;
        if (v > hi + step * 1e-9 || i > 1000) break;
        if (std::abs(v) < step * 1e-9) v = 0.0;  // snap near-zero ticks to 0
        ticks.push_back({v, "", true});
    }
    const Unit unit = unit_for(std::max(std::abs(lo), std::abs(hi)), step);
    for (Tick& t : ticks) t.label = label_in(t.value, step, unit);
    return ticks;
}

}  // namespace

std::string decade_label(double v) {
    const int n = static_cast<int>(std::round(std::log10(v)));
    std::string s = "10";
    if (n < 0) s += "⁻";
    for (char d : std::to_string(std::abs(n))) s += kSuperscripts[d - '0'];
    return s;
}

std::vector<Tick> linear_ticks(double lo, double hi, int target) {
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return {};
    double step = nice_step(hi - lo, target);
    std::vector<Tick> ticks = linear_ticks_with_step(lo, hi, step);
    // never fewer than three: the next smaller nice step (1-2-5) until there are
    for (int tries = 0; ticks.size() < 3 && tries < 6; ++tries) {
        const double mag = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
        const double f = step / mag;
        step = f > 4.9 ? 2 * mag : f > 1.9 ? mag : 0.5 * mag;
        ticks = linear_ticks_with_step(lo, hi, step);
    }
    return ticks;
}

namespace {

// Decades, labelled in one format (plain up to 1000, else powers of ten); with `two_five` the 2s and
// 5s labelled too (plain), else unlabelled minor ticks at 2..9 unless `minor` is off.
std::vector<Tick> decade_ticks(double lo, double hi, bool two_five, bool minor) {
    std::vector<Tick> ticks;
    const int e0 = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
    const int e1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
    const bool powers = !two_five && (hi > 1000 * (1 + 1e-9) || lo < 0.01);
    const Unit unit = unit_for(hi, hi / 100);
    auto plain = [&](double v) { return label_in(v, v >= 1 ? 1 : v, unit); };
    for (int e = e0; e <= e1; ++e) {
        const double v = std::pow(10.0, e);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) ticks.push_back({v, powers ? decade_label(v) : plain(v), true});
        for (int m = 2; m <= 9; ++m) {
            const double w = m * v;
            if (w < lo || w > hi) continue;
            if (two_five && (m == 2 || m == 5)) ticks.push_back({w, plain(w), true});
            else if (minor || two_five) ticks.push_back({w, "", false});
        }
    }
    return ticks;
}

std::size_t labelled(const std::vector<Tick>& ticks) {
    return static_cast<std::size_t>(std::count_if(ticks.begin(), ticks.end(), [](const Tick& t) { return !t.label.empty(); }));
}

}  // namespace

std::vector<Tick> log_ticks(double lo, double hi, int target) {
    if (!(lo > 0) || !(hi > lo)) return {};
    // Every decade is labelled; few decades: the 2s and 5s too; a crowded axis drops its unlabelled
    // minor ticks first. Less than three labels that way: plain nice numbers.
    const int decades = static_cast<int>(std::ceil(std::log10(hi) - 1e-9)) - static_cast<int>(std::floor(std::log10(lo) + 1e-9));
    std::vector<Tick> ticks = decade_ticks(lo, hi, decades <= 2, decades <= std::max(2, target) * 2);
    if (labelled(ticks) < 3) ticks = decade_ticks(lo, hi, true, true);
    if (labelled(ticks) < 3) return linear_ticks(lo, hi, 4);
    return ticks;
}

std::string grouped_number(double value) {
    if (!(std::abs(value) < 1e15) || value != std::floor(value)) return readout_number(value, 4);
    const std::string digits = std::to_string(static_cast<long long>(std::abs(value)));
    std::string out = value < 0 ? "−" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += "\u2009";
        out += digits[i];
    }
    return out;
}

std::string base_label(double base) {
    const double e = std::log10(base);
    if (std::abs(e - std::round(e)) < 1e-9 && e >= 2) return power_label(base);
    return grouped_number(base);
}

}  // namespace rope::plot
