#include "gui/app/ui_helpers.hpp"

#include "plot/text_wrap.hpp"

namespace rope::gui {

void item_tooltip(const char* text) {
    if (!text || !*text || !ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

namespace {

// The current ImGui font as the plot layer's TextMeasure (the size is the font's own).
class CurrentFontMeasure : public plot::TextMeasure {
public:
    plot::Vec2 measure(const std::string& text, float) const override {
        const ImVec2 s = ImGui::CalcTextSize(text.c_str(), text.c_str() + text.size());
        return {s.x, s.y};
    }
};

}  // namespace

std::vector<std::string> wrap_at_spaces(const std::string& text, float width) {
    return plot::wrap_words(CurrentFontMeasure(), text, ImGui::GetFontSize(), width);
}

void text_wrapped_at_spaces(const std::string& text, float width) {
    for (const std::string& line : wrap_at_spaces(text, width)) ImGui::TextUnformatted(line.c_str());
}

}  // namespace rope::gui
