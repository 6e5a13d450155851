// Small Dear ImGui helpers every window of the app uses.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

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

// `text` broken into lines no wider than `width` in the current font, only at spaces and at its own
// line breaks (ImGui's wrapping also breaks after '.' and ',', which splits "0.5" across lines). A
// word wider than `width` stays whole on its own line.
std::vector<std::string> wrap_at_spaces(const std::string& text, float width);
// The lines of wrap_at_spaces, drawn one under another.
void text_wrapped_at_spaces(const std::string& text, float width);

}  // namespace rope::gui
