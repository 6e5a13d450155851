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

}  // namespace rope::gui
