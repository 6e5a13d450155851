#include "gui/panels/formula_strip.hpp"

#include <algorithm>
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

// The three formulas, each kept on one line where it fits.
std::vector<std::string> formula_terms(const AppState& state, figures::FigureCache& cache, bool hovered) {
    const ParamSet& p = state.params();
    const auto freqs = cache.frequencies(p);
    const FrequencyTable& f = *freqs;
    const int i = hovered && state.linked.pair >= 0 && state.linked.pair < f.pairs()
                      ? state.linked.pair
                      : static_cast<int>(std::min<std::int64_t>(p[P::pair], f.pairs() - 1));
    const std::int64_t m = hovered && state.linked.position >= 0 ? state.linked.position : p[P::position];
    const std::string si = subscript(i);
    const double theta = f.theta[i];
    std::string text = "θ" + si + " = " + num(p[P::base], 7) + "^(−2·" + std::to_string(i) + "/" + std::to_string(f.rotated_dims) +
                       ") = " + num(f.original_theta[i], 6);
    if (f.theta[i] != f.original_theta[i]) text += " → " + std::string(to_string(p[P::scaling])) + " ×" + num(p[P::factor], 4) + ": " + num(theta, 6);
    text += " rad/token";
    // a pair of frequency 0 has no base^(...) to show: say why it does not turn
    if (!f.rotates(i))
        text = "θ" + si + " = 0 rad/token: " +
               (f.rotating_pairs == 0 ? std::string("a NoPE layer, no pair turns")
                                      : "proportional RoPE turns pairs 0–" + std::to_string(f.rotating_pairs - 1) + " only; this one passes through");
    std::vector<std::string> terms{text};
    text = "m·θ" + si + " = " + std::to_string(m) + " × " + num(theta, 6) + " = " +
            num(position_angle(static_cast<double>(m), theta), 7) + " rad";
    const double a = wrap_angle(position_angle(static_cast<double>(m), theta));
    text += " ≡ " + num(a, 5) + " rad (" + num(a * 180 / kPi, 4) + "°)";
    terms.push_back(text);
    const std::vector<double> v = p.vector();
    const PairDims d = pair_dims(p.config().pairing, f.rotated_dims, i);
    const double x = v[d.first], y = v[d.second], c = std::cos(a) * f.attention_factor, sn = std::sin(a) * f.attention_factor;
    // a negative number after an operator goes in parentheses: "0.05·1 − (−0.99)·1"
    auto factor = [](double value) { return value < 0 ? "(" + num(value, 4) + ")" : num(value, 4); };
    text = "R(m·θ" + si + ")·(x" + subscript(d.first) + ", x" + subscript(d.second) + ") = (" + num(c, 4) + "·" + factor(x) +
            " − " + factor(sn) + "·" + factor(y) + ", " + num(sn, 4) + "·" + factor(x) + " + " + factor(c) + "·" + factor(y) +
            ") = (" + num(c * x - sn * y, 5) + ", " + num(sn * x + c * y, 5) + ")";
    if (f.attention_factor != 1.0) text += "  (cos, sin × attention factor " + num(f.attention_factor, 5) + ")";
    terms.push_back(text);
    return terms;
}

// The strip's lines: terms side by side while they fit, a term that does not fit on the rest of a
// line starts the next one, and one wider than the strip is broken at spaces (never inside a number).
// `hovered`: the hovered pair and position (what is drawn) or the selected ones (what the strip's
// height is sized for, so hovering does not resize every panel).
std::vector<std::string> formula_lines(const AppState& state, figures::FigureCache& cache, float width, bool hovered) {
    const std::string gap = "     ";
    const float gap_w = ImGui::CalcTextSize(gap.c_str()).x;
    std::vector<std::string> lines;
    float used = 0;
    for (const std::string& term : formula_terms(state, cache, hovered)) {
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
    const auto lines = static_cast<float>(formula_lines(state, cache, inner, false).size());
    return std::round(ImGui::GetTextLineHeightWithSpacing() * lines + ImGui::GetStyle().WindowPadding.y * 2);
}

void draw_formula_strip(const AppState& state, figures::FigureCache& cache, ImVec2 pos, ImVec2 size) {
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    ImGui::Begin("##formula", nullptr, kFixedWindow | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBackground);
    ImGui::BeginGroup();
    for (const std::string& line : formula_lines(state, cache, size.x - ImGui::GetStyle().WindowPadding.x * 2, true)) ImGui::TextUnformatted(line.c_str());
    ImGui::EndGroup();
    item_tooltip("The current numbers in RoPE's formulas: pair i's frequency, its angle at position m, and the rotation of the pair's two dims "
                 "(hover a pair or a position in any panel to see its numbers).");
    ImGui::End();
}

}  // namespace rope::gui
