// Axis ticks: nice numbers by the 1-2-5 rule for linear axes, decades for log axes, and compact
// labels ("20k", "10⁴", "0.5").
#pragma once

#include <string>
#include <vector>

namespace rope::plot {

struct Tick {
    double value;
    std::string label;
    bool major = true;
};

// About `target` ticks inside [lo, hi] (at least three), labelled in one unit ("5k", "10k");
// values near zero snap to exactly 0. Log axes: every decade labelled.
std::vector<Tick> linear_ticks(double lo, double hi, int target);
std::vector<Tick> log_ticks(double lo, double hi, int target);

// Shortest readable label for a tick value given the tick step.
std::string tick_label(double value, double step);
// "10⁴" for any power of ten (also "10⁰", "10¹"): the labels of a log axis that spans many decades.
std::string decade_label(double value);
// "10⁴" for powers of ten (but "1", "10"), else tick_label.
std::string power_label(double value);
// A number for readouts: up to `digits` significant digits, thousands as plain digits.
std::string readout_number(double value, int digits = 6);
// A RoPE base: "10⁴" for powers of ten from 100 up, else grouped_number ("500 000").
std::string base_label(double base);
// A whole number in groups of three digits split by thin spaces ("1 048 576"), which reads better on
// a projector than e-notation; anything else as readout_number(value, 4).
std::string grouped_number(double value);

}  // namespace rope::plot
