#include "plot/ticks.hpp"

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

std::vector<Tick> linear_ticks(double lo, double hi, int target) {
    std::vector<Tick> ticks;
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return ticks;
    const double step = nice_step(hi - lo, target);
    const double first = std::ceil(lo / step - 1e-9) * step;
    for (int i = 0;; ++i) {
        double v = first + i * step;
        if (v > hi + step * 1e-9 || i > 1000) break;
        if (std::abs(v) < step * 1e-9) v = 0.0;  // snap near-zero ticks to 0
        ticks.push_back({v, tick_label(v, step), true});
    }
    return ticks;
}

std::vector<Tick> log_ticks(double lo, double hi, int target) {
    std::vector<Tick> ticks;
    if (!(lo > 0) || !(hi > lo)) return ticks;
    const int e0 = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
    const int e1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
    const int decades = e1 - e0;
    int every = std::max(1, (decades + target - 1) / std::max(1, target));
    if (every > 1 && every < decades) every = std::max(every, 2);
    for (int e = e0; e <= e1; ++e) {
        const double v = std::pow(10.0, e);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9) && (e % every == 0))
            ticks.push_back({v, power_label(v), true});
        if (decades <= 2) {  // few decades: label 2 and 5 as well
            for (double m : {2.0, 5.0}) {
                const double w = m * v;
                if (w >= lo && w <= hi) ticks.push_back({w, tick_label(w, w / 10), true});
            }
        } else if (every == 1) {
            for (int m = 2; m <= 9; ++m) {
                const double w = m * v;
                if (w >= lo && w <= hi) ticks.push_back({w, "", false});
            }
        }
    }
    return ticks;
}

}  // namespace rope::plot
