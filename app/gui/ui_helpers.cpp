#include "gui/ui_helpers.hpp"

namespace rope::gui {

void item_tooltip(const char* text) {
    if (!text || !*text || !ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

std::vector<std::string> wrap_at_spaces(const std::string& text, float width) {
    std::vector<std::string> lines;
    const float space = ImGui::CalcTextSize(" ").x;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        // one paragraph, greedily filled word by word
        std::string line;
        float line_w = 0;
        std::size_t w = start;
        while (w < end) {
            if (text[w] == ' ') {
                ++w;
                continue;
            }
            std::size_t w_end = text.find(' ', w);
            if (w_end == std::string::npos || w_end > end) w_end = end;
            const std::string word = text.substr(w, w_end - w);
            const float word_w = ImGui::CalcTextSize(word.c_str()).x;
            if (!line.empty() && line_w + space + word_w > width) {
                lines.push_back(line);
                line.clear();
                line_w = 0;
            }
            if (!line.empty()) {
                line += ' ';
                line_w += space;
            }
            line += word;
            line_w += word_w;
            w = w_end;
        }
        lines.push_back(line);
        start = end + 1;
    }
    return lines;
}

void text_wrapped_at_spaces(const std::string& text, float width) {
    for (const std::string& line : wrap_at_spaces(text, width)) ImGui::TextUnformatted(line.c_str());
}

}  // namespace rope::gui
