// Small Dear ImGui helpers every window of the app uses.
#pragma once

#include <imgui.h>

#include "plot/display_list.hpp"

namespace rope::gui {

// A tooltip for the last item, wrapped at 28 font sizes (the HelpMarker of imgui_demo.cpp).
void item_tooltip(const char* text);

inline ImU32 to_imgui_color(plot::Color c, float alpha = -1) {
    return IM_COL32(static_cast<int>(c.r * 255), static_cast<int>(c.g * 255), static_cast<int>(c.b * 255),
                    static_cast<int>((alpha < 0 ? c.a : alpha) * 255));
}

// Flags of the app's fixed windows: placed by the app, no title bar, no saved settings.
inline constexpr ImGuiWindowFlags kFixedWindow = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;

}  // namespace rope::gui
