#include "gui/formula_strip.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "gui/ui_helpers.hpp"
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

std::string formula_text(AppState& state) {
    const ParamSet& p = state.params();
    const auto freqs = state.cache.frequencies(p);
    const FrequencyTable& f = *freqs;
    const int i = state.linked.pair >= 0 && state.linked.pair < f.pairs()
                      ? state.linked.pair
                      : static_cast<int>(std::min<std::int64_t>(p.integer("pair"), f.pairs() - 1));
    const std::int64_t m = state.linked.position >= 0 ? state.linked.position : p.integer("position");
    const std::string si = subscript(i);
    const double theta = f.theta[i];
    std::string text = "θ" + si + " = " + num(p.real("base"), 7) + "^(−2·" + std::to_string(i) + "/" + std::to_string(f.rotated_dims) +
                       ") = " + num(f.original_theta[i], 6);
    if (f.theta[i] != f.original_theta[i]) text += " → " + p.text("scaling") + " ×" + num(p.real("factor"), 4) + ": " + num(theta, 6);
    text += " rad/token     m·θ" + si + " = " + std::to_string(m) + " × " + num(theta, 6) + " = " +
            num(position_angle(static_cast<double>(m), theta), 7) + " rad";
    const double a = wrap_angle(position_angle(static_cast<double>(m), theta));
    text += " ≡ " + num(a, 5) + " rad (" + num(a * 180 / kPi, 4) + "°)";
    const std::vector<double> v = p.vector();
    const PairDims d = pair_dims(p.config().pairing, f.rotated_dims, i);
    const double x = v[d.first], y = v[d.second], c = std::cos(a) * f.attention_factor, sn = std::sin(a) * f.attention_factor;
    // a negative number after an operator goes in parentheses: "0.05·1 − (−0.99)·1"
    auto factor = [](double value) { return value < 0 ? "(" + num(value, 4) + ")" : num(value, 4); };
    text += "     R(m·θ" + si + ")·(x" + subscript(d.first) + ", x" + subscript(d.second) + ") = (" + num(c, 4) + "·" + factor(x) +
            " − " + factor(sn) + "·" + factor(y) + ", " + num(sn, 4) + "·" + factor(x) + " + " + factor(c) + "·" + factor(y) +
            ") = (" + num(c * x - sn * y, 5) + ", " + num(sn * x + c * y, 5) + ")";
    if (f.attention_factor != 1.0) text += "  (cos, sin × attention factor " + num(f.attention_factor, 5) + ")";
    return text;
}

}  // namespace

float formula_strip_height(float width) {
    return std::round(ImGui::GetTextLineHeightWithSpacing() * (width < ImGui::GetFontSize() * 95 ? 2.3f : 1.4f));
}

void draw_formula_strip(AppState& state, ImVec2 pos, ImVec2 size) {
    const std::string text = formula_text(state);
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    ImGui::Begin("##formula", nullptr, kFixedWindow | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBackground);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    item_tooltip("The current numbers in RoPE's formulas: pair i's frequency, its angle at position m, and the rotation of the pair's two dims "
                 "(hover a pair or a position in any panel to see its numbers).");
    ImGui::End();
}

}  // namespace rope::gui
