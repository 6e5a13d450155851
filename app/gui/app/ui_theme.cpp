#include "gui/app/ui_theme.hpp"

#include <algorithm>
#include <cmath>

namespace rope::gui {

namespace {

ImVec4 rgb(int r, int g, int b, float a = 1) { return ImVec4(r / 255.f, g / 255.f, b / 255.f, a); }
ImVec4 vec(plot::Color c) { return ImVec4(c.r, c.g, c.b, c.a); }

// The colours a control is drawn in. Frames (slider tracks, checkboxes, fields, buttons) get an
// outline: ImGui's own light style draws white tracks and unchecked boxes on a near-white window,
// which nobody could find.
struct UiColours {
    ImVec4 window, text, text_muted, frame, frame_hover, frame_active, outline, grab, grab_active, button,
        button_hover, button_active, header, header_hover, header_active;
};

UiColours colours_for(plot::ThemeId id) {
    const plot::Theme t = plot::theme_by_id(id);
    switch (id) {
        case plot::ThemeId::light:
            return {rgb(242, 242, 242), vec(t.text),          rgb(80, 86, 100),     rgb(255, 255, 255),
                    rgb(228, 236, 248), rgb(210, 224, 244),  rgb(112, 117, 128),   vec(t.series[2]),
                    rgb(2, 60, 96),     rgb(222, 226, 234),  rgb(200, 214, 236),   rgb(176, 198, 232),
                    rgb(214, 220, 230), rgb(200, 214, 236),  rgb(176, 198, 232)};
        case plot::ThemeId::high_contrast:
            return {rgb(0, 0, 0),       vec(t.text),          rgb(220, 220, 220),   rgb(24, 24, 24),
                    rgb(44, 44, 60),    rgb(60, 60, 84),      rgb(210, 210, 210),   vec(t.accent),
                    rgb(255, 250, 170), rgb(36, 36, 44),      rgb(60, 60, 84),      rgb(84, 84, 120),
                    rgb(36, 36, 44),    rgb(60, 60, 84),      rgb(84, 84, 120)};
        case plot::ThemeId::dark:
        default:
            return {rgb(19, 21, 26),    vec(t.text),          rgb(170, 176, 190),   rgb(40, 44, 54),
                    rgb(52, 60, 78),    rgb(62, 74, 98),      rgb(112, 118, 134),   vec(t.series[0]),
                    rgb(150, 205, 240), rgb(48, 54, 68),      rgb(62, 74, 98),      rgb(80, 96, 130),
                    rgb(44, 50, 62),    rgb(62, 74, 98),      rgb(80, 96, 130)};
    }
}

}  // namespace

ImGuiStyle ui_style(plot::ThemeId id, float scale, bool touch, float font_size) {
    ImGuiStyle style;
    if (id == plot::ThemeId::light)
        ImGui::StyleColorsLight(&style);
    else
        ImGui::StyleColorsDark(&style);
    style.WindowRounding = 0;
    style.FrameRounding = 4;
    style.GrabRounding = 4;
    style.FramePadding = ImVec2(6, 4);
    style.ItemSpacing = ImVec2(8, 6);
    style.WindowPadding = ImVec2(10, 8);
    style.GrabMinSize = 14;
    style.ScrollbarSize = 16;
    style.WindowBorderSize = 1;
    style.FrameBorderSize = 1;  // the outline that makes tracks, boxes and buttons findable
    if (touch) {
        constexpr float kTarget = 44;
        style.FramePadding = ImVec2(10, std::max(4.0f, std::ceil((kTarget - font_size) / 2)));
        style.ItemSpacing = ImVec2(10, 8);
        style.ItemInnerSpacing = ImVec2(8, 6);
        style.GrabMinSize = 28;
        style.ScrollbarSize = 14;  // a swipe scrolls: the bar only shows where
        style.TouchExtraPadding = ImVec2(2, 2);
    }

    const UiColours c = colours_for(id);
    ImVec4* col = style.Colors;
    col[ImGuiCol_Text] = c.text;
    col[ImGuiCol_TextDisabled] = c.text_muted;  // section titles use it: readable, not faded
    // the controls panel stands apart from the figures by a slightly different shade
    col[ImGuiCol_WindowBg] = c.window;
    col[ImGuiCol_Border] = c.outline;
    col[ImGuiCol_BorderShadow] = ImVec4(0, 0, 0, 0);
    col[ImGuiCol_FrameBg] = c.frame;
    col[ImGuiCol_FrameBgHovered] = c.frame_hover;
    col[ImGuiCol_FrameBgActive] = c.frame_active;
    col[ImGuiCol_SliderGrab] = c.grab;
    col[ImGuiCol_SliderGrabActive] = c.grab_active;
    col[ImGuiCol_CheckMark] = c.grab;
    col[ImGuiCol_Button] = c.button;
    col[ImGuiCol_ButtonHovered] = c.button_hover;
    col[ImGuiCol_ButtonActive] = c.button_active;
    col[ImGuiCol_Header] = c.header;
    col[ImGuiCol_HeaderHovered] = c.header_hover;
    col[ImGuiCol_HeaderActive] = c.header_active;
    col[ImGuiCol_Separator] = c.outline;
    // ImGui's own keyboard focus ring and scrollbar grabs are too faint on some themes (its light
    // blue ring 2.8:1 on the light window, its grey grabs about 2:1 on their tracks): the focus ring
    // in the grab's colour, the scrollbar's grab in the outline's on the window itself
    col[ImGuiCol_NavHighlight] = c.grab;
    col[ImGuiCol_ScrollbarBg] = ImVec4(0, 0, 0, 0);
    col[ImGuiCol_ScrollbarGrab] = c.outline;
    col[ImGuiCol_ScrollbarGrabHovered] = c.text_muted;
    col[ImGuiCol_ScrollbarGrabActive] = c.text_muted;
    // tabs and a menu bar (none today) as buttons and the window: ImGui's hovered tab is a mid blue
    // that white text reads at 3.5:1
    col[ImGuiCol_Tab] = col[ImGuiCol_TabUnfocused] = c.button;
    col[ImGuiCol_TabHovered] = c.button_hover;
    col[ImGuiCol_TabActive] = col[ImGuiCol_TabUnfocusedActive] = c.button_active;
    col[ImGuiCol_MenuBarBg] = c.window;
    // The lesson and controls windows are fixed parts of one screen: which of them ImGui last
    // focused is not news, so their title bars look the same either way (and the same state gives
    // the same picture however it was reached).
    col[ImGuiCol_TitleBgActive] = col[ImGuiCol_TitleBg];
    style.ScaleAllSizes(scale);
    // Filled shapes without the anti-aliasing fringe: software GL pays for the fringe's thin
    // triangles on every dot and arrow head every frame; lines keep their (texture-based, cheap) AA.
    style.AntiAliasedFill = false;
    return style;
}

ImVec4 ui_error_text(plot::ThemeId id) {
    return id == plot::ThemeId::light ? rgb(180, 30, 20) : rgb(255, 115, 100);
}

}  // namespace rope::gui
