#include "plot/short_forms.hpp"

#include <algorithm>
#include <string_view>

namespace rope::plot {

namespace {

struct ShortForm {
    std::string_view text;   // the whole text, or the start every text of its kind shares
    std::vector<std::string_view> shorter;  // longest first
};

// A text that starts with `text` takes these forms (the longest start that matches wins).
const std::vector<ShortForm>& declared() {
    static const std::vector<ShortForm> table{
        {"relative upper bound", {"upper bound", "bound"}},
        {"bound ÷ its value at 0", {"bound ÷ bound at 0", "bound (1 at 0)", "bound"}},
        {"scaled ÷ original frequency", {"frequency ratio", "ratio"}},
        {"score ⟨R(m)q, R(n)k⟩", {"score ⟨q, k⟩", "score"}},
        {"score ⟨q at m, k at n⟩", {"score ⟨q, k⟩", "score"}},
        {"mean angle of m·θᵢ over a cell", {"mean angle m·θᵢ", "angle"}},
        {"grey: the pair turns within the cell", {"grey: turns in a cell", "grey: fast"}},
        {"grey: turns within a cell", {"grey: turns in a cell", "grey: fast"}},
        {"mean angle m·θᵢ", {"angle m·θᵢ", "angle"}},
        {"mean angle change", {"angle change", "change"}},
        {"pair i", {"pair", "i"}},
        {"wavelength λ (tokens, log)", {"wavelength λ (tokens)", "λ (tokens)", "λ"}},
        {"wavelength", {"λ (tokens)", "λ"}},
        {"query scale s(p)", {"scale s(p)", "s(p)"}},
        {"factor on cos and sin", {"cos/sin factor", "factor"}},
        {"wavelengths vs the context", {"wavelengths", "λ"}},
        {"dims coloured by the frequency they turn at", {"dims by frequency", "dims"}},
        {"not a rotation, cos/sin and rotate_half mixed", {"not a rotation (mixed layouts)", "not a rotation"}},
        {"error of the rotated vector R(m)x", {"error of R(m)x", "error"}},
        {"shift both tokens, n − m = ", {"shift both tokens", "shifted"}},
        {"pair 0 (θ = 1, exact in bf16)", {"pair 0: worst angle error", "pair 0"}},
        {"gap between storable numbers near m", {"storable numbers' gap", "gap near m", "gap"}},
        {"every pair's angle error at ", {"each pair's error", "error per pair"}},
        {"angle error of every pair at ", {"each pair's error", "error per pair"}},
        {"NoPE layers (attn_temperature_tuning)", {"NoPE query scale s(p)", "s(p)"}},
        {"NoPE layers: query scale s(p)", {"NoPE query scale s(p)", "s(p)"}},
        {"score", {"score"}},
        {"query", {"query"}},
        {"dot", {"dot"}},
    };
    return table;
}

void add(std::vector<std::string>& out, std::string s, const std::string& text) {
    while (!s.empty() && (s.back() == ' ' || s.back() == ',' || s.back() == ':')) s.pop_back();
    if (!s.empty() && s != text && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
}

}  // namespace

std::vector<std::string> short_forms(const std::string& text) {
    std::vector<std::string> out;
    // by shape: the aside goes first, then the last clause, one at a time
    std::string s = text;
    const std::size_t paren = s.rfind(" (");
    if (paren != std::string::npos && paren > 0 && s.back() == ')') add(out, s = s.substr(0, paren), text);
    for (const std::string_view sep : {" · ", ": ", ", "}) {
        for (std::size_t at = s.rfind(sep); at != std::string::npos && at > 0; at = s.rfind(sep)) {
            // never inside brackets: "⟨q at m, k at n⟩" and "[16, 24, 24]" are one thing each
            const std::string head = s.substr(0, at);
            if (std::count(head.begin(), head.end(), '(') != std::count(head.begin(), head.end(), ')')) break;
            if (std::count(head.begin(), head.end(), '[') != std::count(head.begin(), head.end(), ']')) break;
            if (head.find("\xE2\x9F\xA8") != std::string::npos && head.find("\xE2\x9F\xA9") == std::string::npos) break;
            add(out, s = head, text);
        }
    }
    // declared: the longest declared start of the text (or of its shortened forms)
    const ShortForm* best = nullptr;
    for (const ShortForm& f : declared())
        if (text.compare(0, f.text.size(), f.text) == 0 && (!best || f.text.size() > best->text.size())) best = &f;
    if (best)
        for (std::string_view shorter : best->shorter) add(out, std::string(shorter), text);
    // longest first, whichever rule gave them: the plot takes the first that fits, and a declared
    // "grey: turns in a cell" says more than the bare "grey" its shape gives
    std::stable_sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    return out;
}

}  // namespace rope::plot
