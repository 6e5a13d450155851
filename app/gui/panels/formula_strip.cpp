#include "gui/panels/formula_strip.hpp"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <string>
#include <vector>

#include "gui/app/ui_helpers.hpp"
#include "plot/ticks.hpp"
#include "rope/phasor.hpp"
#include "rope/rotation.hpp"

namespace rope::gui {

namespace {

std::string subscript(long long n) {
    static const char* digits[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    const std::string plain = std::to_string(n);
    std::string out;
    for (char c : plain) out += c == '-' ? "₋" : digits[c - '0'];
    return out;
}

std::string num(double v, int digits = 5) {
    std::string s = plot::readout_number(v, digits);
    if (!s.empty() && s[0] == '-') s = "−" + s.substr(1);
    return s;
}

// What the formulas show: the hovered pair and position (what is drawn), or the selected ones with
// every number that turns with the angle at its widest (what the strip's height is sized for).
// Angles, cos and sin and the rotated pair are written with a fixed count of decimals, so only their
// signs would move their width, and they turn back and forth as the position moves: sized for their
// widest, the strip keeps its height while the position sweeps (a slider, Play), where it used to
// wrap onto another line and back, and every panel below it was resized and built again. The height
// stays one function of the state.
enum class Shown { hovered, sized };

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);  // no "−0.0000"
    if (s[0] == '-') s = "−" + s.substr(1);
    return s;
}

// A number of the formulas that a slider moves (the base, θ, m·θ), as the strip is sized for it: whole
// numbers whole, others with `digits` significant digits and their trailing zeros ("94752.20"), so
// the size changes only where the number gains a digit. What is drawn drops the zeros ("94752.2",
// shown_number), never wider.
std::string steady_number(double v, int digits) {
    if (v == std::floor(v) && std::abs(v) < 1e15) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f", v);
        return (v < 0 ? "−" + std::string(buf + 1) : std::string(buf));
    }
    if (std::abs(v) < 1e-4 || std::abs(v) >= 1e9) return num(v, digits);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%#.*g", digits, v);
    std::string s = buf;
    if (!s.empty() && s.back() == '.') s.pop_back();
    if (s[0] == '-') s = "−" + s.substr(1);
    return s;
}

std::string shown_number(double v, int digits) {
    return v == std::floor(v) && std::abs(v) < 1e15 ? steady_number(v, digits) : num(v, digits);
}

// The three formulas, each kept on one line where it fits.
std::vector<std::string> formula_terms(const AppState& state, figures::FigureCache& cache, Shown shown) {
    const ParamSet& p = state.params();
    const auto freqs = cache.frequencies(p);
    const FrequencyTable& f = *freqs;
    const bool hovered = shown == Shown::hovered, sized = !hovered;
    const int i = hovered && state.linked.pair >= 0 && state.linked.pair < f.pairs()
                      ? state.linked.pair
                      : static_cast<int>(std::min<std::int64_t>(p[P::pair], f.pairs() - 1));
    const std::int64_t m = hovered && state.linked.position >= 0 ? state.linked.position : p[P::position];
    const std::string si = subscript(i);
    const double theta = f.theta[i];
    auto number = [sized](double v, int digits) { return sized ? steady_number(v, digits) : shown_number(v, digits); };
    std::string text = "θ" + si + " = " + number(p[P::base], 7) + "^(−2·" + std::to_string(i) + "/" + std::to_string(f.rotated_dims) +
                       ") = " + number(f.original_theta[i], 6);
    if (f.theta[i] != f.original_theta[i]) text += " → " + std::string(to_string(p[P::scaling])) + " ×" + num(p[P::factor], 4) + ": " + number(theta, 6);
    text += " rad/token";
    // a pair of frequency 0 has no base^(...) to show: say why it does not turn
    if (!f.rotates(i))
        text = "θ" + si + " = 0 rad/token: " +
               (f.rotating_pairs == 0 ? std::string(p[P::position_encoding] == PositionEncoding::alibi ? "no RoPE in this model (ALiBi), no pair turns"
                                                    : p[P::position_encoding] == PositionEncoding::t5 ? "no RoPE in this model (T5 buckets), no pair turns"
                                                                                                      : "a NoPE layer, no pair turns")
                                      : "proportional RoPE turns pairs 0–" + std::to_string(f.rotating_pairs - 1) + " only; this one passes through");
    std::vector<std::string> terms{text};
    const double a = wrap_angle(position_angle(static_cast<double>(m), theta));
    text = "m·θ" + si + " = " + std::to_string(m) + " × " + number(theta, 6) + " = " + number(position_angle(static_cast<double>(m), theta), 7);
    text += " ≡ " + fixed(sized ? -kPi : a, 4) + " rad (" + fixed(sized ? -180.0 : a * 180 / kPi, 1) + "°)";
    terms.push_back(text);
    const std::vector<double> v = p.vector();
    const PairDims d = pair_dims(p.config().pairing, f.rotated_dims, i);
    const double x = v[d.first], y = v[d.second];
    // cos and sin (times the attention factor) and the rotated pair: now, or at their widest
    const double scale = f.attention_factor, reach = std::hypot(x, y) * scale;
    const double c = sized ? -scale : std::cos(a) * scale, sn = sized ? -scale : std::sin(a) * scale;
    const double rx = sized ? -reach : c * x - sn * y, ry = sized ? -reach : sn * x + c * y;
    // a negative number after an operator goes in parentheses: "0.05·1 − (−0.99)·1"
    auto factor = [](double value) { return value < 0 ? "(" + num(value, 4) + ")" : num(value, 4); };
    auto turning_factor = [](double value) { return value < 0 ? "(" + fixed(value, 3) + ")" : fixed(value, 3); };
    text = "R(m·θ" + si + ")·(x" + subscript(d.first) + ", x" + subscript(d.second) + ") = (" + fixed(c, 3) + "·" + factor(x) + " − " +
           turning_factor(sn) + "·" + factor(y) + ", " + fixed(sn, 3) + "·" + factor(x) + " + " + turning_factor(c) + "·" + factor(y) +
           ") = (" + fixed(rx, 3) + ", " + fixed(ry, 3) + ")";
    if (f.attention_factor != 1.0) text += "  (cos, sin × attention factor " + num(f.attention_factor, 5) + ")";
    terms.push_back(text);
    return terms;
}

// The strip's lines: terms side by side while they fit, a term that does not fit on the rest of a
// line starts the next one, and one wider than the strip is broken at spaces (never inside a number).
std::vector<std::string> formula_lines(const AppState& state, figures::FigureCache& cache, float width, Shown shown) {
    const std::string gap = "     ";
    const float gap_w = ImGui::CalcTextSize(gap.c_str()).x;
    std::vector<std::string> lines;
    float used = 0;
    for (const std::string& term : formula_terms(state, cache, shown)) {
        const float w = ImGui::CalcTextSize(term.c_str()).x;
        if (!lines.empty() && used > 0 && used + gap_w + w <= width) {
            lines.back() += gap + term;
            used += gap_w + w;
        } else if (w <= width) {
            lines.push_back(term);
            used = w;
        } else {
            for (const std::string& piece : wrap_at_spaces(term, width)) lines.push_back(piece);
            used = width;  // the next term starts a line of its own
        }
    }
    return lines;
}

}  // namespace

float formula_strip_height(const AppState& state, figures::FigureCache& cache, float width) {
    const float inner = width - ImGui::GetStyle().WindowPadding.x * 2;
    const auto lines = static_cast<float>(formula_lines(state, cache, inner, Shown::sized).size());
    return std::round(ImGui::GetTextLineHeightWithSpacing() * lines + ImGui::GetStyle().WindowPadding.y * 2);
}

void draw_formula_strip(const AppState& state, figures::FigureCache& cache, ImVec2 pos, ImVec2 size) {
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    ImGui::Begin("##formula", nullptr, kFixedWindow | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBackground);
    ImGui::BeginGroup();
    for (const std::string& line : formula_lines(state, cache, size.x - ImGui::GetStyle().WindowPadding.x * 2, Shown::hovered)) ImGui::TextUnformatted(line.c_str());
    ImGui::EndGroup();
    item_tooltip("The current numbers in RoPE's formulas: pair i's frequency, its angle at position m, and the rotation of the pair's two dims "
                 "(hover a pair or a position in any panel to see its numbers).");
    ImGui::End();
}

}  // namespace rope::gui
